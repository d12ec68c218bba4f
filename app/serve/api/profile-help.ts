// What the console's profile editor asks of the API, and any client may:
//   GET  /api/starter[?preset=P&baseUrl=U]  {profileText}: ptas init's commented starter, or its --preset P for a reference at U
//   GET  /api/profile-schema               the profile's JSON Schema as one file (the editor validates and completes against it)
//   POST /api/doctor                       Check: ptas doctor on {profileText, secrets?}, nothing stored (services.check)
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { Preset } from '../../init/preset-names.ts';
import type { RunSecrets, ServeServices } from '../services.ts';
import { doctorBody, starterQuery } from './schemas.ts';

export async function profileHelpRoutes(app: FastifyInstance, services: ServeServices): Promise<void> {
  app.get<{ Querystring: { preset?: Preset; baseUrl?: string } }>('/api/starter', { schema: { querystring: starterQuery } }, async (request) => {
    const { preset, baseUrl } = request.query;
    return { profileText: preset ? await services.presetProfile(preset, { baseUrl: baseUrl ?? '' }) : services.starterProfile() };
  });

  // Read once: the file is part of the installed package.
  let schema: Promise<string> | undefined;
  app.get('/api/profile-schema', async (_request, reply) => {
    schema ??= readFile(services.profileSchemaPath, 'utf8');
    return reply.type('application/json; charset=utf-8').header('cache-control', 'private, max-age=300').send(await schema);
  });

  // Check takes the one-run secrets a run takes: a profile that refers to them is checked with them, nothing stored.
  app.post<{ Body: { profileText: string; secrets?: RunSecrets } }>('/api/doctor', { schema: { body: doctorBody } }, async (request) =>
    services.check(request.body.profileText, request.body.secrets),
  );
}

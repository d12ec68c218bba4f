// How the server answers what goes wrong, in one JSON shape
// ({error, message, details}: app/serve/errors.ts): a service's refusal with
// its status; a request Fastify's JSON-schema validation refused as 400
// naming each problem's place; any other client error (a body that is not
// JSON, too large, of another type) with Fastify's status; anything else as
// 500, logged (redacted), without its text in the answer.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redactor } from '../../../src/http/redact.ts';
import { ServeError, type ErrorBody } from '../errors.ts';

interface ValidationProblem {
  /** Where: "body/options/grep", "params/id". */
  path: string;
  message: string;
}

function validationProblems(error: FastifyError): ValidationProblem[] {
  return (error.validation ?? []).map((v) => {
    const missing = v.keyword === 'required' ? `/${String((v.params as { missingProperty?: string }).missingProperty)}` : '';
    const extra = v.keyword === 'additionalProperties' ? `/${String((v.params as { additionalProperty?: string }).additionalProperty)}` : '';
    const where = `${error.validationContext ?? 'request'}${v.instancePath}${missing || extra}`;
    const message = v.keyword === 'additionalProperties' ? 'is not a known key here' : v.keyword === 'required' ? 'is required' : (v.message ?? 'is not valid');
    return { path: where, message };
  });
}

export function installErrorHandlers(app: FastifyInstance, log: (line: string) => void): void {
  const redactor = new Redactor();
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ServeError) {
      if (error.kind === 'unauthorized') reply.header('www-authenticate', 'Bearer realm="ptas"');
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.code(error.status).send(error.body());
    }
    if (error.validation) {
      const problems = validationProblems(error);
      const body: ErrorBody = { error: 'invalid-request', message: problems.map((p) => `${p.path} ${p.message}`).join('; '), details: { problems } };
      return reply.code(400).send(body);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send({ error: 'invalid-request', message: error.message } satisfies ErrorBody);
    log(`internal error on ${request.method} ${request.routeOptions.url ?? 'an unknown route'}: ${redactor.redactString(error.stack ?? error.message)}`);
    return reply.code(500).send({ error: 'internal', message: 'internal error: the server log has the details' } satisfies ErrorBody);
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ error: 'not-found', message: `no route ${request.method} ${request.url.split('?')[0]}` } satisfies ErrorBody);
  });
}

// The console's port (app/serve/console/services-port.ts) on the server's
// services (app/serve/services.ts): the console is written against what it
// needs, asynchronously and with "not found" as undefined; the services
// answer synchronously and refuse with a ServeError. Each method here only
// translates between the two; nothing is computed twice.
import { readFile } from 'node:fs/promises';
import type { ImplementationRecord } from './contract.ts';
import type { ServeServices as ConsoleServices } from './console/services-port.ts';
import type { DoctorSummary } from './console/api-types.ts';
import { ServeError } from './errors.ts';
import { namesNoBaseUrl } from './profile-text.ts';
import type { ServeServices } from './services.ts';
import type { TokenInfo } from './tokens.ts';
import { REFERENCE_NAME } from './implementations.ts';
import { REFERENCE_ID } from './store/layout.ts';

/**
 * What a ServeError of kind not-found becomes for the console: undefined;
 * and, where the port says "once written", not-ready too (a run's report or
 * bundle before the run wrote it).
 */
function orUndefined<T>(read: () => T, also: ServeError['kind'][] = []): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error instanceof ServeError && (error.kind === 'not-found' || also.includes(error.kind))) return undefined;
    throw error;
  }
}

/**
 * The bundled reference has no stored profile: ptas starts it for each of its
 * runs. Its page shows this text and its runs; saving it is refused.
 */
function referenceRecord(): ImplementationRecord {
  const epoch = new Date(0).toISOString();
  return {
    id: REFERENCE_ID,
    name: REFERENCE_NAME,
    profileText: '// The bundled reference implementation: ptas starts it for each run, with its own profile.\n// Nothing to configure here; start a run below.\n{}\n',
    createdAt: epoch,
    updatedAt: epoch,
  };
}

/** A console session's token: its name and when it was made (names are reused once revoked). */
const tokenId = (token: TokenInfo): string => `${token.name}@${token.createdAt}`;

function doctorView(result: Awaited<ReturnType<ServeServices['doctor']>>): DoctorSummary {
  return { rows: result.summary.rows, brokenKeys: result.summary.broken, certificationNeeds: result.summary.certificationNeeds };
}

export function consolePort(services: ServeServices): ConsoleServices {
  return {
    implementations: {
      summaries: async () => services.implementations.summaries(),
      get: async (id) => (id === REFERENCE_ID ? referenceRecord() : services.implementations.get(id)),
      create: async (input) => services.implementations.create(input),
      update: async (id, input) => {
        if (id === REFERENCE_ID) throw new ServeError('conflict', 'the bundled reference has no profile to save: ptas starts it with its own');
        if (!services.implementations.get(id)) return undefined;
        return services.implementations.put(id, input).record;
      },
    },
    runs: {
      start: async (implementation, options, secrets, clientSecret, requestedBy) => {
        const given = { ...(secrets && Object.keys(secrets).length ? { env: secrets } : {}), ...(clientSecret ? { clientSecret } : {}) };
        return await services.runs.start({ implementation, options, ...(Object.keys(given).length ? { secrets: given } : {}), ...(requestedBy !== undefined ? { requestedBy } : {}) });
      },
      get: async (runId) => services.runs.get(runId),
      list: async (implementation) => services.runs.list({ implementation }),
      // The port returns a run that has ended as it is (the services refuse it: 409); a click on Cancel as the run ends is no error.
      cancel: async (runId) => {
        const run = services.runs.get(runId);
        if (!run) return undefined;
        return run.status === 'finished' || run.status === 'cancelled' ? run : services.runs.cancel(runId);
      },
      subscribe: async (runId, listener) => {
        if (!services.runs.get(runId)) return undefined;
        const stop = new AbortController();
        const events = services.runs.events(runId, { signal: stop.signal });
        // The port promises the replay at once: the generator yields the stored events before it waits for new ones.
        void (async () => {
          for await (const { event } of events) listener(event);
        })().catch(() => {});
        return () => stop.abort();
      },
      report: async (runId) => {
        const file = orUndefined(() => services.runs.reportFile(runId), ['not-ready']);
        if (!file) return undefined;
        return readFile(file, 'utf8').catch(() => undefined);
      },
      bundle: async (runId) => orUndefined(() => services.runs.archive(runId), ['not-ready']),
      compare: async (baselineRunId, runId) => orUndefined(() => services.runs.compare(runId, baselineRunId)),
    },
    tokens: {
      // The id is the token's name and when it was made: a token made again under a revoked one's name does not revive the old one's sessions.
      verify: async (token) => {
        const record = services.tokens.verify(token);
        const made = record && services.tokens.list().find((t) => t.name === record.name && services.tokens.isLive(t));
        return made && { id: tokenId(made), label: made.name, role: made.role };
      },
      isLive: async (token) => services.tokens.list().some((t) => services.tokens.isLive(t) && tokenId(t) === token.id),
    },
    doctor: async (profileText, secrets) => {
      // The services examine the bundled reference when the text names no base URL, as `ptas doctor` does; the
      // console's Check is about the implementation being edited, so it says what is missing instead (a text that
      // does not parse is refused for that, below, not for a missing baseUrl).
      if (namesNoBaseUrl(profileText)) {
        return { rows: [], brokenKeys: ['baseUrl'], error: 'the profile names no baseUrl: set it to the address of the implementation to check (a run of a profile without one runs the bundled reference)' };
      }
      try {
        return doctorView(await services.doctor(profileText, secrets));
      } catch (error) {
        // A profile the server refuses (422: unparsable, invalid, a secret in the clear or out of reach, a target or file the policy refuses) is refused as Save refuses it; what the doctor found of the target is its table's.
        if (error instanceof ServeError && error.status !== 422) return { rows: [], brokenKeys: [], error: error.message };
        throw error;
      }
    },
    starterProfileText: async () => services.starterProfile(),
    presetProfileText: (preset, baseUrl) => services.presetProfile(preset, { baseUrl }),
    profileSchemaPath: services.profileSchemaPath,
  };
}

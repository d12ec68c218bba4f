// What a service refuses, with the HTTP status the API answers it with and
// the JSON body both faces show: {error, message, details}. `error` (the
// ServeError's kind) is a stable code a client can branch on; `message` a
// sentence a person can act on; `details` what it is about (a key path, the
// fix, the problems). On the command line (`ptas serve token …`) it is a
// usage error like any other PtasError (src/errors.ts: serve-refused).
import { PtasError } from '../../src/errors.ts';

export type ServeErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'invalid-request'
  | 'invalid-profile'
  | 'literal-secret'
  | 'missing-secret'
  | 'env-reference-refused'
  | 'target-refused'
  | 'file-refused'
  | 'invalid-waivers'
  | 'unknown-implementation'
  | 'unreachable'
  | 'conflict'
  | 'not-ready'
  | 'queue-full'
  | 'internal';

const STATUS: Record<ServeErrorCode, number> = {
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  'invalid-request': 400,
  'invalid-profile': 422,
  'literal-secret': 422,
  'missing-secret': 422,
  'env-reference-refused': 422,
  'target-refused': 422,
  'file-refused': 422,
  'invalid-waivers': 422,
  'unknown-implementation': 422,
  unreachable: 502,
  conflict: 409,
  'not-ready': 409,
  'queue-full': 429,
  internal: 500,
};

export interface ErrorBody {
  error: ServeErrorCode;
  message: string;
  details?: unknown;
}

export class ServeError extends PtasError {
  readonly code = 'serve-refused';
  override name = 'ServeError';
  readonly status: number;

  constructor(
    readonly kind: ServeErrorCode,
    message: string,
    readonly details?: unknown,
    /** When to ask again (a Retry-After header, in seconds), for a refusal that passes. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.status = STATUS[kind];
  }

  /** What Fastify's error handlers (the console's among them) read as the answer's status. */
  get statusCode(): number {
    return this.status;
  }

  body(): ErrorBody {
    return { error: this.kind, message: this.message, ...(this.details === undefined ? {} : { details: this.details }) };
  }
}

export const notFound = (what: string): ServeError => new ServeError('not-found', `${what} does not exist`);

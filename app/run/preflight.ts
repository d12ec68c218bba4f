// Before any check runs: is anything answering HTTP at the base URL? An
// unreachable target is exit code 3 within seconds, naming the address tried.
import { closeTransport, createTransport, HttpClient, TransportError } from '../../src/http/client.ts';
import type { Connection } from '../../src/http/connection.ts';
import { Redactor } from '../../src/http/redact.ts';
import { PtasError } from '../../src/errors.ts';

/** Nothing answers HTTP at the base URL: exit 3 (src/errors.ts). */
export class UnreachableError extends PtasError {
  readonly code = 'unreachable';
  override name = 'UnreachableError';
}

const HINTS: Partial<Record<TransportError['kind'], string>> = {
  CONNECTION_REFUSED: 'nothing is listening there',
  DNS: 'the host name does not resolve',
  TIMEOUT: 'no answer in time',
  TLS: 'the TLS handshake failed: pass --ca with the issuing CA, or --insecure to skip verification',
};

export async function assertReachable(connection: Connection, timeoutMs = 5_000): Promise<void> {
  const { baseUrl } = connection;
  const transport = createTransport({ ...connection, timeoutMs });
  const client = HttpClient.to(connection, { transport, redactor: new Redactor() });
  try {
    await client.get('/', { timeoutMs });
  } catch (error) {
    if (error instanceof TransportError) {
      const hint = HINTS[error.kind] ?? error.message;
      throw new UnreachableError(`target ${baseUrl} is unreachable: ${error.kind} (${hint})`);
    }
    throw error;
  } finally {
    await closeTransport(transport);
  }
}

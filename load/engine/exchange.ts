// One HTTP exchange of the engine, on undici's dispatch API with the raw
// handler interface: no response stream, no header parsing unless the
// answer is sampled, the body dropped unless a later request needs values
// from it. This is the engine's hot path (LOAD-NOTES: it must not be the
// bottleneck); the newer handler interface would parse every header block.
import type { Pool } from 'undici';
import type { FilledRequest } from '../scenarios/request.ts';

export interface Answer {
  /** 0 for a transport failure. */
  status: number;
  /** Header names and values as received, alternating (undici's raw form). */
  rawHeaders?: Buffer[];
  body?: string;
  errorCode?: string;
}

function errorCode(error: unknown): string {
  const e = error as { code?: string; cause?: { code?: string }; name?: string };
  return e.code ?? e.cause?.code ?? e.name ?? 'ERROR';
}

/** Raw headers as an object with lower-case names; repeated fields joined with ", ". */
export function headersOf(answer: Answer): Record<string, string> {
  const out: Record<string, string> = {};
  const raw = answer.rawHeaders ?? [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toString('latin1').toLowerCase();
    const value = raw[i + 1]!.toString('latin1');
    out[name] = name in out ? `${out[name]}, ${value}` : value;
  }
  return out;
}

export function exchange(pool: Pool, path: string, request: FilledRequest, timeoutMs: number, keepBody: boolean): Promise<Answer> {
  return new Promise<Answer>((resolve) => {
    let status = 0;
    let rawHeaders: Buffer[] | undefined;
    const chunks: Buffer[] | undefined = keepBody ? [] : undefined;
    let settled = false;
    const settle = (answer: Answer) => {
      if (settled) return;
      settled = true;
      resolve(answer);
    };
    try {
      pool.dispatch(
        { path, method: request.method, headers: request.headers, body: request.body ?? null, headersTimeout: timeoutMs, bodyTimeout: timeoutMs },
        {
          onConnect() {},
          onHeaders(statusCode, headers) {
            // 1xx interim answers come first and are not the status.
            if (statusCode >= 200) {
              status = statusCode;
              rawHeaders = headers;
            }
            return true;
          },
          onData(chunk) {
            chunks?.push(chunk);
            return true;
          },
          onComplete() {
            settle({ status, rawHeaders, body: chunks ? Buffer.concat(chunks).toString('utf8') : undefined });
          },
          onError(error) {
            settle({ status: 0, rawHeaders, errorCode: errorCode(error) });
          },
        },
      );
    } catch (error) {
      settle({ status: 0, errorCode: errorCode(error) });
    }
  });
}

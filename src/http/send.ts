// Sending one request with the client's bounds: the whole exchange within a
// timeout, and no more of the body read than the response cap (the rest is
// dropped and the response marked truncated), so a hostile server can
// neither hang a check nor flood its memory.
import { request as undiciRequest, type Dispatcher } from 'undici';
import type { OutgoingRequest } from './outgoing.ts';

export interface SendBounds {
  dispatcher: Dispatcher;
  timeoutMs: number;
  maxResponseBytes: number;
}

export interface ReceivedResponse {
  status: number;
  /** Header values as received; repeated fields joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
}

/** Rejects with undici's error (a timeout, a reset, a protocol error) when no complete response came. */
export async function sendCapped(outgoing: OutgoingRequest, bounds: SendBounds): Promise<ReceivedResponse> {
  const response = await undiciRequest(outgoing.url, {
    method: outgoing.method as 'GET',
    headers: outgoing.headers,
    body: outgoing.body,
    dispatcher: bounds.dispatcher,
    signal: AbortSignal.timeout(bounds.timeoutMs),
  });
  const status = response.statusCode;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(response.headers)) {
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  let truncated = false;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    const room = bounds.maxResponseBytes - received;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      received += room;
      truncated = true;
      response.body.destroy();
      break;
    }
    chunks.push(chunk);
    received += chunk.length;
  }
  return { status, headers, body: Buffer.concat(chunks), truncated };
}

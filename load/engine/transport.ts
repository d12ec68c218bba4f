// What the engine asks of a transport: the contract both implementations
// fulfil (socket-transport.ts, undici-transport.ts) and the options they are
// built from. Only types live here, so the implementations can import them
// without importing each other; open-transport.ts picks one for a run.
import type { SocketTarget } from '../../src/http/connection.ts';
import type { FilledRequest } from '../scenarios/request.ts';
import type { Answer, KeepBodyOf } from './answer.ts';

export type AnswerCallback = (answer: Answer) => void;

/** Sends one prepared request and calls back with its answer, exactly once; never throws (a failure is an answer with status 0). */
export type Send = (done: AnswerCallback) => void;

export type TransportKind = 'socket' | 'undici';

export interface Transport {
  readonly kind: TransportKind;
  /** A filled request made ready for the wire once (for the socket transport: its bytes), sent as often as asked. */
  prepare(request: FilledRequest, keepBody: boolean): Send;
  /** The end of a run, nothing in flight any more: closes the connections. */
  close(): Promise<void>;
  /** An interrupt: cuts what is in flight (those answers are failures). */
  destroy(): void;
}

export interface TransportOptions extends Pick<SocketTarget, 'baseUrl' | 'tls'>, Partial<Pick<SocketTarget, 'runHeaders'>> {
  timeoutMs: number;
  /** Connections at most; a request finding them all busy waits for one. */
  maxConnections: number;
  /** Statuses whose header fields are kept on the answer (for header samples). */
  keepHeadersOf: (status: number) => boolean;
  /** Error answers whose head and body are kept as a sample (one of each kind: error-samples.ts). */
  keepBodyOf?: KeepBodyOf;
  /** 'undici' forces the general path (for comparisons and tests). */
  prefer?: 'auto' | 'undici';
}

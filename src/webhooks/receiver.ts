// The HTTP receiver the suite runs for webhook checks. It records every
// delivery (method, field lines, raw body, time) and answers as the running
// check scripts it: a status sequence such as 500 then 204, optionally held
// back to make the implementation time out. The script applies per event:
// step n answers the nth attempt of each event (same key or same content).
//
// A check works in a session. Deliveries that repeat an event an earlier
// session left unacknowledged (same idempotency key and content: a late
// retry of an earlier check's event) are acknowledged and kept out of the
// session, so one check never mistakes another's event for its own. An event
// the receiver acknowledged is not expected back, so a delivery identical to
// it is a new event (two events of one second can be byte-identical when an
// implementation reuses keys or sends none) and belongs to the session.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventFingerprint, isAttemptOf, type ReceivedDelivery } from './delivery.ts';

export interface ResponseStep {
  status: number;
  /** Hold the answer back this long (ms). */
  delayMs?: number;
}

export interface ReceiverOptions {
  listenHost: string;
  /** 0 picks a free port. */
  listenPort: number;
  path: string;
  /** The URL the implementation is told to call, when a proxy or tunnel sits in front. */
  publicUrl?: string;
  /** Bodies beyond this are cut off and answered 413. */
  maxBodyBytes?: number;
}

/** The answer outside sessions and to late retries of earlier events: acknowledged, so they stop. */
const ACKNOWLEDGE: ResponseStep = { status: 204 };
/** The answers that confirm receipt (spec 6.1). */
const ACKNOWLEDGING = new Set([200, 201, 202, 204]);
/** A user-update body is a few hundred bytes; this is room to spare, not a limit of the spec. */
const DEFAULT_MAX_BODY = 256 * 1024;
/** A flood beyond this many deliveries is answered 503 and not kept, so memory stays bounded. */
const MAX_KEPT_DELIVERIES = 1_000;

type Waiter = { predicate: (d: ReceivedDelivery) => boolean; resolve: (d: ReceivedDelivery | undefined) => void; timer: NodeJS.Timeout };

export class ReceiverSession {
  /** This session's deliveries, in order of arrival. */
  readonly deliveries: ReceivedDelivery[] = [];
  /** Late attempts of events first seen before the session; acknowledged and left out. */
  readonly earlier: ReceivedDelivery[] = [];
  readonly startedAtMs = performance.now();
  private readonly waiters = new Set<Waiter>();
  private ended = false;

  constructor(
    private readonly script: readonly ResponseStep[],
    private readonly knownEvents: ReadonlySet<string>,
    private readonly onEnd: (session: ReceiverSession) => void,
    /** Told of each session delivery as it arrives, with the answer it will get (for timelines). */
    private readonly onAdmit?: (delivery: ReceivedDelivery, step: ResponseStep) => void,
  ) {
    if (script.length === 0) throw new Error('a response script needs at least one step');
  }

  /** Takes a delivery into the session (or not) and says how to answer it; `forced` overrides the script. */
  admit(delivery: ReceivedDelivery, forced?: ResponseStep): ResponseStep {
    if (this.knownEvents.has(eventFingerprint(delivery))) {
      this.earlier.push(delivery);
      return ACKNOWLEDGE;
    }
    // The script is per event: its nth step answers the nth attempt of each event, so other
    // notifications to the same address do not use up the steps meant for the event under test.
    const attempt = this.deliveries.filter((earlier) => isAttemptOf(delivery, earlier)).length;
    this.deliveries.push(delivery);
    // The last step repeats for every further attempt.
    const step = forced ?? this.script[Math.min(attempt, this.script.length - 1)]!;
    this.onAdmit?.(delivery, step);
    for (const waiter of [...this.waiters]) {
      if (waiter.predicate(delivery)) this.settle(waiter, delivery);
    }
    return step;
  }

  private settle(waiter: Waiter, delivery: ReceivedDelivery | undefined): void {
    clearTimeout(waiter.timer);
    this.waiters.delete(waiter);
    waiter.resolve(delivery);
  }

  /** The first session delivery (already received or still to come) that matches, or undefined after timeoutMs. */
  waitFor(predicate: (d: ReceivedDelivery) => boolean, timeoutMs: number): Promise<ReceivedDelivery | undefined> {
    const found = this.deliveries.find(predicate);
    if (found || this.ended) return Promise.resolve(found);
    return new Promise((resolve) => {
      const waiter: Waiter = { predicate, resolve, timer: setTimeout(() => this.settle(waiter, undefined), timeoutMs) };
      this.waiters.add(waiter);
    });
  }

  /** Resolves once the receiver's clock reaches `atMs` (a performance.now() value). */
  async until(atMs: number): Promise<void> {
    const wait = atMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const waiter of [...this.waiters]) this.settle(waiter, undefined);
    this.onEnd(this);
  }
}

export class WebhookReceiver {
  /** Every delivery this receiver kept, sessions or not. */
  readonly deliveries: ReceivedDelivery[] = [];
  /** Deliveries refused unrecorded once MAX_KEPT_DELIVERIES were kept. */
  dropped = 0;
  /** Fingerprints of events whose latest attempt was not (yet) acknowledged: they may come back. */
  private readonly unacknowledged = new Set<string>();
  private session: ReceiverSession | undefined;
  private readonly pendingAnswers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    /** The URL the implementation must call. */
    readonly url: string,
    private readonly publicOrigin: string,
    private readonly maxBodyBytes: number,
  ) {}

  static async start(options: ReceiverOptions): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined;
    const server = createServer((req, res) => void receiver?.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.listenPort, options.listenHost, () => resolve());
    });
    // A receiver nobody closed must not keep a test worker alive.
    server.unref();
    const { port } = server.address() as AddressInfo;
    const host = options.listenHost.includes(':') ? `[${options.listenHost}]` : options.listenHost;
    const url = options.publicUrl ?? `http://${host}:${port}${options.path}`;
    receiver = new WebhookReceiver(server, url, new URL(url).origin, options.maxBodyBytes ?? DEFAULT_MAX_BODY);
    return receiver;
  }

  /** Starts a check's session; deliveries until end() are answered by the script. */
  beginSession(script: readonly ResponseStep[], onAdmit?: (delivery: ReceivedDelivery, step: ResponseStep) => void): ReceiverSession {
    if (this.session) throw new Error('a webhook session is already open on this receiver: webhook checks must run one at a time');
    const session = new ReceiverSession(
      script,
      new Set(this.unacknowledged),
      (s) => {
        if (this.session === s) this.session = undefined;
      },
      onAdmit,
    );
    this.session = session;
    return session;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.deliveries.length >= MAX_KEPT_DELIVERIES) {
      this.dropped++;
      res.writeHead(503, { connection: 'close', 'content-length': '0' });
      res.end();
      return;
    }
    const receivedAt = new Date();
    const receivedAtMs = performance.now();
    const { body, truncated } = await this.readBody(req);
    const fieldLines: Array<[string, string]> = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) fieldLines.push([req.rawHeaders[i]!.toLowerCase(), req.rawHeaders[i + 1]!]);
    const requestTarget = req.url ?? '/';
    const delivery: ReceivedDelivery = {
      seq: this.deliveries.length + 1,
      method: req.method ?? '',
      requestTarget,
      targetUri: this.publicOrigin + (requestTarget.startsWith('/') ? requestTarget : `/${requestTarget}`),
      fieldLines,
      body,
      bodyTruncated: truncated,
      receivedAt,
      receivedAtMs,
    };
    this.deliveries.push(delivery);
    const tooLarge: ResponseStep | undefined = truncated ? { status: 413 } : undefined;
    const step = this.session?.admit(delivery, tooLarge) ?? tooLarge ?? ACKNOWLEDGE;
    const fingerprint = eventFingerprint(delivery);
    this.unacknowledged.add(fingerprint);
    const answer = () => {
      const written = !res.destroyed && !res.writableEnded;
      delivery.answer = { status: step.status, delayMs: step.delayMs ?? 0, written };
      if (!written) return;
      if (ACKNOWLEDGING.has(step.status)) this.unacknowledged.delete(fingerprint);
      // The spec's acknowledgement has no body (6.1); neither has any other answer of this receiver.
      res.writeHead(step.status, step.status === 204 ? {} : { 'content-length': '0' });
      res.end();
      if (truncated) res.socket?.destroy();
    };
    if (!step.delayMs) return answer();
    const timer = setTimeout(() => {
      this.pendingAnswers.delete(timer);
      answer();
    }, step.delayMs);
    this.pendingAnswers.add(timer);
  }

  private readBody(req: IncomingMessage): Promise<{ body: Buffer; truncated: boolean }> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      req.on('data', (chunk: Buffer) => {
        if (truncated) return;
        if (size + chunk.length > this.maxBodyBytes) {
          chunks.push(chunk.subarray(0, this.maxBodyBytes - size));
          truncated = true;
          req.pause();
          resolve({ body: Buffer.concat(chunks), truncated });
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      req.on('end', () => resolve({ body: Buffer.concat(chunks), truncated }));
      // An aborted request ends in 'close' without 'end'; what arrived is still recorded.
      req.on('close', () => resolve({ body: Buffer.concat(chunks), truncated }));
    });
  }

  close(): Promise<void> {
    this.session?.end();
    for (const timer of this.pendingAnswers) clearTimeout(timer);
    this.pendingAnswers.clear();
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

// The HTTP receiver the suite runs for webhook checks. It reads every
// delivery (method, field lines, raw body, time), hands it to its router,
// which gives it to the sessions it belongs to (they keep it, the receiver
// does not), and answers as the router says (src/webhooks/routing.ts: the
// script of the check the delivery belongs to), optionally held back to make
// the implementation time out. Bodies beyond the cap are cut off and
// answered 413; a flood is refused 503 unkept.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReceivedDelivery } from './delivery.ts';
import { DeliveryRouter, type ResponseStep } from './routing.ts';

export interface ReceiverOptions {
  listenHost: string;
  /** 0 picks a free port. */
  listenPort: number;
  path: string;
  /** The URL the implementation is told to call, when a proxy or tunnel sits in front. */
  publicUrl?: string;
  /** Bodies beyond this are cut off and answered 413. */
  maxBodyBytes?: number;
  /** What counts as a flood (default FLOOD): more than `deliveries` within `windowMs`. */
  flood?: Flood;
}

export interface Flood {
  deliveries: number;
  windowMs: number;
}

/** A user-update body is a few hundred bytes; this is room to spare, not a limit of the spec. */
const DEFAULT_MAX_BODY = 256 * 1024;
/**
 * A flood: more than this many deliveries within this window. Beyond it a
 * delivery is answered 503 and not kept, so the sessions' memory stays
 * bounded. The bound is a rate, not a total: a receiver lives as long as its
 * run or exploration, and an implementation that sends several notifications
 * per event reaches any total in a long one (a total of 1,000 blinded
 * exploration after about 100 webhooks cases).
 */
const FLOOD: Flood = { deliveries: 1_000, windowMs: 10_000 };

export class WebhookReceiver {
  /** Deliveries kept so far: the next one's seq is one more. Only the sessions keep deliveries themselves. */
  private received = 0;
  /** When each delivery of the last flood window was kept (performance.now()), oldest first. */
  private readonly recent: number[] = [];
  /** Deliveries refused unrecorded as a flood (see FLOOD). */
  dropped = 0;
  private readonly pendingAnswers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    /** The URL the implementation must call. */
    readonly url: string,
    private readonly publicOrigin: string,
    private readonly maxBodyBytes: number,
    private readonly flood: Flood,
    /** Decides which session each delivery is for, and so its answer. */
    readonly router: DeliveryRouter,
  ) {}

  static async start(options: ReceiverOptions, router = new DeliveryRouter()): Promise<WebhookReceiver> {
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
    receiver = new WebhookReceiver(server, url, new URL(url).origin, options.maxBodyBytes ?? DEFAULT_MAX_BODY, options.flood ?? FLOOD, router);
    return receiver;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const receivedAtMs = performance.now();
    if (this.flooded(receivedAtMs)) {
      this.dropped++;
      res.writeHead(503, { connection: 'close', 'content-length': '0' });
      res.end();
      return;
    }
    this.recent.push(receivedAtMs);
    const receivedAt = new Date();
    const { body, truncated } = await this.readBody(req);
    const fieldLines: Array<[string, string]> = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) fieldLines.push([req.rawHeaders[i]!.toLowerCase(), req.rawHeaders[i + 1]!]);
    const requestTarget = req.url ?? '/';
    const delivery: ReceivedDelivery = {
      seq: ++this.received,
      method: req.method ?? '',
      requestTarget,
      targetUri: this.publicOrigin + (requestTarget.startsWith('/') ? requestTarget : `/${requestTarget}`),
      fieldLines,
      body,
      bodyTruncated: truncated,
      receivedAt,
      receivedAtMs,
    };
    const tooLarge: ResponseStep | undefined = truncated ? { status: 413 } : undefined;
    const step = this.router.route(delivery, tooLarge);
    this.answer(delivery, res, step, truncated);
  }

  /** Whether a flood's worth of deliveries was already kept within the window before nowMs. */
  private flooded(nowMs: number): boolean {
    while (this.recent.length && this.recent[0]! <= nowMs - this.flood.windowMs) this.recent.shift();
    return this.recent.length >= this.flood.deliveries;
  }

  /**
   * Answers as the step says, held back delayMs, and tells the router how it
   * went: written in full (the response was handed to the network before the
   * sender hung up, and when), or not, because the sender hung up first. A
   * sender that hangs up while the answer is held has given up on it: that is
   * known at once, not when the hold ends.
   */
  private answer(delivery: ReceivedDelivery, res: ServerResponse, step: ResponseStep, truncated: boolean): void {
    let timer: NodeJS.Timeout | undefined;
    const settle = (written: boolean) => {
      if (delivery.answer) return;
      if (timer) this.pendingAnswers.delete(timer);
      clearTimeout(timer);
      const afterMs = Math.round(performance.now() - delivery.receivedAtMs);
      delivery.answer = { status: step.status, delayMs: step.delayMs ?? 0, written, ...(written ? { answeredAfterMs: afterMs } : { hungUpAfterMs: afterMs }) };
      this.router.answered(delivery);
    };
    res.once('finish', () => settle(true));
    res.once('close', () => settle(false));
    const write = () => {
      if (res.destroyed || res.writableEnded) return settle(false);
      // The spec's acknowledgement has no body (6.1); neither has any other answer of this receiver.
      res.writeHead(step.status, step.status === 204 ? {} : { 'content-length': '0' });
      res.end(() => {
        if (truncated) res.socket?.destroy();
      });
    };
    if (!step.delayMs) return write();
    timer = setTimeout(write, step.delayMs);
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
    this.router.close();
    for (const timer of this.pendingAnswers) clearTimeout(timer);
    this.pendingAnswers.clear();
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

// One iteration of the scenario, as the engine dispatches it on an arrival:
// its requests in order, values extracted from one answer filled into the
// next, setup requests (token fetches, offers to accept) unmeasured, every
// other answer handed to the recorder; an iteration whose set-up failed is
// counted as such (it measured nothing). Requests are prepared for the wire once per
// distinct set of values: every request that only uses the run's variables
// is prepared before the first arrival, and again when those change (a
// renewed access token); one that uses extracted values, per iteration.
//
// The first request's latency counts from the arrival's due time, not from
// when the engine got round to sending it (scheduler.ts): a stalled
// generator, or a request waiting for a free connection, shows up in the
// latencies instead of hiding them (coordinated omission).
import type { Variables } from '../../src/template.ts';
import { extractVariables, fillRequest } from '../scenarios/request.ts';
import type { RequestTemplate } from '../scenarios/types.ts';
import type { Answer } from './answer.ts';
import type { Phase } from './phases.ts';
import type { Send, Transport } from './transport.ts';

/**
 * startMs: what the latency counts from (the arrival's due time for the
 * first request); sentMs: when the request was handed to the transport
 * (what the limiter's decision is placed by). template and values: the
 * request that got the answer, made concrete only when the recorder keeps it
 * as a sample.
 */
export type RecordAnswer = (phase: Phase, answer: Answer, startMs: number, endMs: number, values: Variables, template: RequestTemplate, sentMs: number) => void;

/**
 * An iteration ended in its set-up: `cause` is the set-up answer's status
 * (0: transport failure), or "unreadable" when no value could be taken from
 * it; `values` are those it was sent with.
 */
export type RecordSetupFailure = (phase: Phase, cause: number | 'unreadable', values: Variables) => void;

/** Runs one iteration for a phase; fromMs: what its latency counts from, on the run clock; done is called once, whatever happens. */
export type RunIteration = (phase: Phase, fromMs: number, done: (phase: Phase) => void) => void;

export interface IterationContext {
  transport: Transport;
  /** The run clock's origin on performance.now(), which answers are timed on. */
  t0: number;
  iteration: RequestTemplate[];
  /** The run's variables now: the same object until one changes (the engine renews the access token in it). */
  variables: () => Variables;
  record: RecordAnswer;
  setupFailed: RecordSetupFailure;
}

/** The run's variables and the requests prepared with them, made again only when the variables are another object. */
interface Prepared {
  values: Variables;
  sends: Send[];
}

export function iterationRunner(ctx: IterationContext): RunIteration {
  let prepared: Prepared | undefined;
  const current = (): Prepared => {
    const values = ctx.variables();
    if (prepared?.values !== values) prepared = { values, sends: ctx.iteration.map((t) => ctx.transport.prepare(fillRequest(t, values), Boolean(t.extract))) };
    return prepared;
  };
  current();
  // The common case — one measured request — skips the async loop: the hot path stays short.
  if (ctx.iteration.length === 1 && !ctx.iteration[0]!.setup) return singleRequest(ctx, current);
  return (phase, fromMs, done) => {
    iterate(ctx, current(), phase, ctx.t0 + fromMs).then(
      () => done(phase),
      () => done(phase),
    );
  };
}

function singleRequest(ctx: IterationContext, current: () => Prepared): RunIteration {
  const template = ctx.iteration[0]!;
  return (phase, fromMs, done) => {
    const start = ctx.t0 + fromMs;
    const { values, sends } = current();
    const sent = performance.now();
    sends[0]!((answer) => {
      try {
        ctx.record(phase, answer, start, performance.now(), values, template, sent);
      } catch {
        // As on the multi-request path: an iteration ends, whatever recording it did.
      } finally {
        done(phase);
      }
    });
  };
}

const sendAsync = (send: Send) => new Promise<Answer>((resolve) => send(resolve));

/** firstStartMs: what the first request's latency counts from, on performance.now(). */
async function iterate(ctx: IterationContext, prepared: Prepared, phase: Phase, firstStartMs: number): Promise<void> {
  let values = prepared.values;
  let start = firstStartMs;
  for (let i = 0; i < ctx.iteration.length; i++) {
    const template = ctx.iteration[i]!;
    // Values extracted on the way make a new request; otherwise the one prepared up front is sent.
    const send = values === prepared.values ? prepared.sends[i]! : ctx.transport.prepare(fillRequest(template, values), Boolean(template.extract));
    const sent = performance.now();
    if (i > 0) start = sent;
    const answer = await sendAsync(send);
    const end = performance.now();
    if (template.setup) {
      if (answer.status < 200 || answer.status >= 300) return ctx.setupFailed(phase, answer.status, values);
    } else {
      ctx.record(phase, answer, start, end, values, template, sent);
    }
    if (template.extract && answer.body !== undefined) {
      try {
        values = { ...values, ...extractVariables(template, JSON.parse(answer.body)) };
      } catch {
        return template.setup ? ctx.setupFailed(phase, 'unreadable', values) : undefined;
      }
    }
  }
}

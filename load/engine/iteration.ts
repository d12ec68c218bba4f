// One iteration of the scenario, as the engine dispatches it on an arrival:
// its requests in order, values extracted from one answer filled into the
// next, setup requests (token fetches) unmeasured, every other answer
// handed to the recorder.
import type { Pool } from 'undici';
import type { Variables } from '../../src/template.ts';
import { extractVariables, fillRequest, type FilledRequest } from '../scenarios/request.ts';
import type { RequestTemplate } from '../scenarios/types.ts';
import { exchange, type Answer } from './exchange.ts';
import type { Phase } from './phases.ts';

export type RecordAnswer = (phase: Phase, answer: Answer, startMs: number, endMs: number, values: Variables) => void;

export interface IterationContext {
  pool: Pool;
  /** The base URL's path, no trailing slash: every request path is appended to it. */
  basePath: string;
  iteration: RequestTemplate[];
  variables: Variables;
  timeoutMs: number;
  record: RecordAnswer;
}

/** A function that runs one iteration for a phase; it never rejects on an HTTP failure (that is an answer with status 0). */
export function iterationRunner(ctx: IterationContext): (phase: Phase) => Promise<void> {
  // Without values extracted on the way, every iteration sends the same requests: fill them once.
  const prefilled = ctx.iteration.some((t) => t.extract) ? undefined : ctx.iteration.map((t) => fillRequest(t, ctx.variables));
  // The common case — one measured request, nothing extracted — skips the async loop: the hot path stays short.
  if (prefilled && ctx.iteration.length === 1 && !ctx.iteration[0]!.setup) return singleRequest(ctx, prefilled[0]!);
  return (phase) => iterate(ctx, prefilled, phase);
}

function singleRequest(ctx: IterationContext, request: FilledRequest): (phase: Phase) => Promise<void> {
  const path = ctx.basePath + request.pathAndQuery;
  return (phase) => {
    const start = performance.now();
    return exchange(ctx.pool, path, request, ctx.timeoutMs, false).then((answer) => ctx.record(phase, answer, start, performance.now(), ctx.variables));
  };
}

async function iterate(ctx: IterationContext, prefilled: FilledRequest[] | undefined, phase: Phase): Promise<void> {
  let values = ctx.variables;
  for (let i = 0; i < ctx.iteration.length; i++) {
    const template = ctx.iteration[i]!;
    const request = prefilled ? prefilled[i]! : fillRequest(template, values);
    const start = performance.now();
    const answer = await exchange(ctx.pool, ctx.basePath + request.pathAndQuery, request, ctx.timeoutMs, Boolean(template.extract));
    const end = performance.now();
    if (template.setup) {
      if (answer.status < 200 || answer.status >= 300) return;
    } else {
      ctx.record(phase, answer, start, end, values);
    }
    if (template.extract && answer.body !== undefined) {
      try {
        values = { ...values, ...extractVariables(template, JSON.parse(answer.body)) };
      } catch {
        return;
      }
    }
  }
}

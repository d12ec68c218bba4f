// A check's context as the runner makes one, for tests of what checks say:
// the requirements its claims rest on, the profile, and the answers its
// evidence holds (by exchange id), as the client records them; and a step run
// as a check body runs, to its end if a claim ends it.
import type { Profile } from '../../src/config/profile.ts';
import { CheckContext, CheckFailure } from '../../src/check/context.ts';
import type { RecordedExchange } from '../../src/http/exchange.ts';
import { Redactor } from '../../src/http/redact.ts';

export interface ContextOptions {
  requirements: readonly string[];
  profile?: object;
  /** Exchange id → the status its answer had. */
  answers?: Record<number, number>;
  redactor?: Redactor;
}

export function contextWith({ requirements, profile, answers = {}, redactor = new Redactor([]) }: ContextOptions): CheckContext {
  const context = new CheckContext(redactor, { requirements, ...(profile ? { profile: profile as Profile } : {}) });
  for (const [id, status] of Object.entries(answers)) {
    context.record({ id: Number(id), startedAt: '2026-01-01T00:00:00.000Z', durationMs: 1, request: { method: 'GET', url: 'http://x/' }, response: { status }, curl: '' } as unknown as RecordedExchange);
  }
  return context;
}

/** Runs a step as a check body does: a claim that ends the check ends it (CheckFailure); anything else is a bug and thrown. */
export function toItsEnd(step: () => void): void {
  try {
    step();
  } catch (error) {
    if (!(error instanceof CheckFailure)) throw error;
  }
}

// One generated case run against the target. Each rule of the area has a
// check's context of its own (src/check/context.ts: the claims it makes, the
// rules and named judgments it applies, its record), and every context
// records every exchange the case sends, so a rule's finding carries the
// whole case as its evidence. A rule's FAIL ends that rule's judgment of the
// case, not the others'.
import { CheckContext, CheckFailure, CheckSkip } from '../src/check/context.ts';
import type { CheckMeta, CheckOutcome } from '../src/check/model.ts';
import { outcomeOfRecord } from '../src/check/record.ts';
import { HttpClient } from '../src/http/client.ts';
import type { RecordedExchange } from '../src/http/exchange.ts';
import type { ExploreTarget } from './target.ts';

export class CaseRun {
  readonly http: HttpClient;
  private readonly contexts = new Map<string, CheckContext>();
  /** Rules the case reached: a judgment of the rule was made of it. */
  private readonly reached = new Set<string>();
  private readonly ended = new Set<string>();
  private readonly thrown = new Map<string, string>();
  /** Why the case did not run to its end (a request that threw): what it saw decides nothing. */
  broken?: string;

  constructor(
    readonly target: ExploreTarget,
    private readonly rules: readonly CheckMeta[],
  ) {
    for (const rule of rules) this.contexts.set(rule.id, new CheckContext(target.redactor, { requirements: rule.requirements, profile: target.profile }));
    const recorder = { record: (exchange: RecordedExchange) => this.record(exchange), event: (event: string, detail?: string) => this.event(event, detail) };
    this.http = HttpClient.to(target.connection, { transport: target.transport, redactor: target.redactor, recorder });
  }

  /**
   * A context for the suites' helpers that wait and read (polling an offer to
   * its end, settling it): the events they tell reach every rule's timeline,
   * as their exchanges reach every record; the claims they make are no
   * rule's (a rule judges what they return, through judge()).
   */
  helperContext(): CheckContext {
    return new EventsToEveryRule(this.target, (event, detail) => this.event(event, detail));
  }

  /** Evidence of the case (its requests, a delivery the target sent to the suite's receiver), kept in every rule's record. */
  record(exchange: RecordedExchange): void {
    for (const context of this.contexts.values()) context.record(exchange);
  }

  /** A step of the case, in every rule's timeline. */
  private event(event: string, detail?: string): void {
    for (const context of this.contexts.values()) context.event(event, detail);
  }

  /** The declared value at a profile key, as a judgment's input carries it. */
  declaredValue(key: string): unknown {
    return this.contexts.values().next().value?.declaredValue(key);
  }

  /**
   * What rule `id` says of the case, said through its context (check.judge,
   * expectRefused, …). A claim that ends the rule's check ends only its
   * judgment of this case; anything else thrown is a bug of the model, kept
   * as the rule's ERROR.
   */
  judge(id: string, say: (check: CheckContext) => void): void {
    const check = this.contexts.get(id);
    if (!check) throw new Error(`the explored area has no rule ${id}`);
    if (this.ended.has(id)) return;
    this.reached.add(id);
    try {
      say(check);
    } catch (error) {
      this.ended.add(id);
      if (error instanceof CheckFailure || error instanceof CheckSkip) return;
      this.thrown.set(id, error instanceof Error ? error.message : String(error));
    }
  }

  /** A note in rule `id`'s record, whatever its judgment said (what case this is). */
  note(id: string, message: string): void {
    this.contexts.get(id)?.note(message);
  }

  /** The rules the case reached, in the area's order. */
  reachedRules(): CheckMeta[] {
    return this.rules.filter((rule) => this.reached.has(rule.id));
  }

  /** What rule `rule` concluded of the case, judged from its record by the one outcome function. */
  outcome(rule: CheckMeta): CheckOutcome {
    const check = this.contexts.get(rule.id)!;
    const stoppedBy = this.thrown.get(rule.id) ?? this.broken;
    return outcomeOfRecord(rule, { claims: check.entries, ...(stoppedBy ? { stoppedBy: `the case could not run: ${stoppedBy}` } : {}) }, check);
  }
}

/** A context whose events go to every rule of the case (CaseRun.helperContext); what else it is told stays its own. */
class EventsToEveryRule extends CheckContext {
  constructor(
    target: ExploreTarget,
    private readonly tell: (event: string, detail?: string) => void,
  ) {
    super(target.redactor, { requirements: [], profile: target.profile });
  }

  override event(event: string, detail?: string): void {
    this.tell(event, detail);
  }
}

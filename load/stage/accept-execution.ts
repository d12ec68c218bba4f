// How the load stage tells that an offer was executed (OFFER-RATE-LIMITED-NOT-EXECUTED):
// by what the implementation says, never by "some terminal status" (a refused
// offer may well end "failed", "expired" or "superseded").
//   - the trade id the offer status shows (trading.offerStatus.extract.tradeId:
//     "the id of the trade the offer's execution made, null or absent before");
//   - else the status an offer reaches when it IS accepted, observed on a
//     control offer accepted normally and polled to its terminal status —
//     provided it differs from the status of offers nobody accepted: the
//     control's own before its accept, and a bystander offer created just
//     before it and never accepted (superseded, as most refused offers of
//     the staircase are).
// When neither tells, execution cannot be told apart: the check is REVIEW.
import type { ResolvedRecipe } from '../../src/config/sections/offer-recipes.ts';
import type { OperationTemplate } from '../../src/config/sections/operation.ts';
import type { TradingProfile } from '../../src/config/sections/trading.ts';
import type { HttpClient } from '../../src/http/client.ts';
import { callOperation } from '../../src/operations.ts';
import { pollUntilTerminal } from '../../src/polling.ts';
import type { Bearer } from '../../src/http/outgoing.ts';
import { present, type Control } from './not-executed-judgment.ts';

/** How long the control offer is polled when the profile declares no poll deadline. */
const DEFAULT_CONTROL_DEADLINE_MS = 10_000;

export interface ControlInput {
  http: HttpClient;
  trading: TradingProfile;
  offerStatus: OperationTemplate;
  recipe: ResolvedRecipe;
  bearer: Bearer;
  userId: string;
}


async function readStatus(input: ControlInput, offerId: string, label: string): Promise<{ status?: unknown; tradeId?: unknown; ok: boolean }> {
  const read = await callOperation(input.http, input.offerStatus, { offerId, userId: input.userId }, { bearer: input.bearer, label });
  return { ok: read.ok, status: read.extracted.status, tradeId: read.extracted.tradeId };
}

/** An offer made by the staircase's recipe: its id and its status as created, or why there is none. */
async function createOffer(input: ControlInput, label: string): Promise<{ id: string; status: unknown } | { problem: string }> {
  const created = await callOperation(input.http, input.recipe.template, { ...input.recipe.values, userId: input.userId }, { bearer: input.bearer, label });
  const offerId = created.extracted.offerId;
  if (!created.ok || (typeof offerId !== 'string' && typeof offerId !== 'number')) return { problem: `creating ${label} answered ${created.response.status}` };
  const id = String(offerId);
  return { id, status: created.extracted.status ?? (await readStatus(input, id, `${label}, as created`)).status };
}

/**
 * Creates a bystander offer and then the control offer, accepts the control
 * the way the staircase does, polls it until it is terminal (or shows its
 * trade id), then reads the bystander, which nobody accepted.
 */
export async function acceptControlOffer(input: ControlInput): Promise<Control> {
  const { http, trading, bearer, userId } = input;
  try {
    const bystander = await createOffer(input, 'a bystander offer, never accepted');
    const made = await createOffer(input, 'a control offer, accepted normally to see what an executed offer looks like');
    if ('problem' in made) return { reached: false, problem: made.problem };
    const { id, status: createdStatus } = made;
    const started = performance.now();
    const accepted = await http.patch(`/v1/offers/${encodeURIComponent(id)}/accept`, { headers: { [http.userIdHeader]: userId }, bearer, label: 'accept the control offer' });
    if (accepted.status !== 200 && accepted.status !== 202) return { offerId: id, createdStatus, acceptStatus: accepted.status, reached: false, problem: `the control accept answered ${accepted.status}` };
    const terminal = trading.terminalStatuses ?? [];
    const outcome = await pollUntilTerminal(
      async (n) => {
        const read = await readStatus(input, id, `the control offer's status, poll ${n}`);
        const done = read.ok && ((typeof read.status === 'string' && terminal.includes(read.status)) || (!terminal.length && present(read.tradeId)));
        return { ...read, terminal: done, summary: `status ${JSON.stringify(read.status)}` };
      },
      { deadlineMs: trading.pollDeadlineMs ?? DEFAULT_CONTROL_DEADLINE_MS, initialIntervalMs: trading.pollIntervalMs, maxIntervalMs: trading.pollMaxIntervalMs },
      { event: () => undefined },
    );
    const last = outcome.last;
    const elapsedMs = performance.now() - started;
    const bystanderStatus = 'id' in bystander ? (await readStatus(input, bystander.id, 'the bystander offer, never accepted')).status : undefined;
    return { offerId: id, createdStatus, bystanderStatus, acceptStatus: accepted.status, status: last?.status, tradeId: last?.tradeId, reached: outcome.reached, elapsedMs };
  } catch (error) {
    return { reached: false, problem: `the control offer could not be followed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

// The journey context of GET /v2/users/{User-ID} (spec 4.2 rules 1-6):
// user_journey[] values, or a user_flow with its asset groups, or the
// default journeys; the context filters terms_not_accepted. The choices the
// spec leaves open are listed in routes/users.ts.
import type { FaultSet } from '../faults/index.ts';
import type { VariantSet } from '../variants/index.ts';
import {
  ASSET_GROUP_JOURNEY,
  DEFAULT_JOURNEYS,
  FLOWS,
  JOURNEYS,
  TERMS,
  type AssetGroup,
  type Flow,
  type FlowParameters,
  type Journey,
} from '../fixtures/users.ts';

/** More user_journey[] values than there are journeys can only be abuse. */
const MAX_JOURNEY_VALUES = JOURNEYS.length * 2;
const ASSET_PARAMETERS = ['asset_group', 'source_asset_group', 'target_asset_group'] as const;
type AssetParameter = (typeof ASSET_PARAMETERS)[number];
const PARAMETERS_OF: Record<FlowParameters, readonly AssetParameter[]> = {
  none: [],
  asset_group: ['asset_group'],
  source_and_target: ['source_asset_group', 'target_asset_group'],
};

export type JourneyContext =
  | { ok: true; journeys: readonly Journey[]; source: 'user_journey' | 'user_flow' | 'default' }
  | { ok: false; message: string };

type Faults = Pick<FaultSet, 'has'>;
export type Variants = Pick<VariantSet, 'has'>;
const NO_VARIANTS: Variants = { has: () => false };

const refuse = (message: string): JourneyContext => ({ ok: false, message });
/** Echoes caller input in messages, clipped: a 10 kB value does not belong in an error body. */
export const quoted = (value: string) => JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
const isJourney = (value: string): value is Journey => (JOURNEYS as readonly string[]).includes(value);
const isFlow = (value: string): value is Flow => Object.hasOwn(FLOWS, value);
const isAssetGroup = (value: string): value is AssetGroup => Object.hasOwn(ASSET_GROUP_JOURNEY, value);

function fromJourneys(values: string[], assetParameters: string[], faults: Faults, variants: Variants): JourneyContext {
  if (assetParameters.length && !variants.has('asset-groups-without-flow-ignored')) return refuse(`${assetParameters.join(', ')} applies only together with user_flow`);
  if (values.length > MAX_JOURNEY_VALUES) return refuse(`at most ${MAX_JOURNEY_VALUES} user_journey[] values are accepted`);
  const unknown = values.find((v) => !isJourney(v));
  if (unknown !== undefined) return refuse(`unknown user_journey[] value ${quoted(unknown)} (known: ${JOURNEYS.join(', ')})`);
  const journeys = [...new Set(values as Journey[])];
  if (journeys.length > 1 && faults.has('users-single-journey-only')) return refuse('only one user_journey[] value is supported');
  return { ok: true, journeys, source: 'user_journey' };
}

function assetJourney(name: AssetParameter, value: string | undefined): { journey: Journey } | { error: string } {
  if (value === undefined || value === '') return { error: `user_flow requires ${name}` };
  if (!isAssetGroup(value)) return { error: `unknown ${name} ${quoted(value)} (known: ${Object.keys(ASSET_GROUP_JOURNEY).join(', ')})` };
  return { journey: ASSET_GROUP_JOURNEY[value] };
}

function fromFlow(flow: string, params: URLSearchParams, assetParameters: AssetParameter[], faults: Faults): JourneyContext {
  const unstakeBroken = flow === 'unstake' && faults.has('users-flow-unstake-rejected');
  if (!isFlow(flow) || unstakeBroken) {
    if (faults.has('users-unknown-flow-defaulted')) return { ok: true, journeys: DEFAULT_JOURNEYS, source: 'default' };
    return refuse(`unknown user_flow ${quoted(flow)} (known: ${Object.keys(FLOWS).join(', ')})`);
  }
  const rule = FLOWS[flow];
  const wanted = PARAMETERS_OF[rule.parameters];
  const unwanted = assetParameters.filter((p) => !wanted.includes(p));
  const stakeBroken = flow === 'stake' && faults.has('users-stake-asset-group-accepted');
  if (unwanted.length && !stakeBroken) return refuse(`user_flow ${flow} takes no ${unwanted.join(', ')}`);
  const journeys: Journey[] = [...rule.journeys];
  for (const name of wanted) {
    const value = params.get(name) ?? undefined;
    const optional =
      (value === undefined || value === '') &&
      ((flow === 'saving_create' && faults.has('users-saving-create-asset-group-optional')) ||
        (name === 'target_asset_group' && faults.has('users-swap-target-optional')));
    if (optional) continue;
    const resolved = assetJourney(name, value);
    if ('error' in resolved) return refuse(resolved.error);
    if (!faults.has('users-flow-ignores-asset-group')) journeys.push(resolved.journey);
  }
  return { ok: true, journeys: [...new Set(journeys)], source: 'user_flow' };
}

/** The variant repeated-parameter-last-wins: each single-valued parameter keeps its last value, as many web frameworks do. */
function lastValues(params: URLSearchParams): URLSearchParams {
  const single = new URLSearchParams();
  for (const [name, value] of params) {
    if (name === 'user_journey[]') single.append(name, value);
    else single.set(name, value);
  }
  return single;
}

/** Resolves the journey context of a request (spec 4.2 rules 1-6). */
export function resolveJourneyContext(params: URLSearchParams, faults: Faults, variants: Variants = NO_VARIANTS): JourneyContext {
  const journeyValues = params.getAll('user_journey[]');
  const flows = params.getAll('user_flow');
  if (flows.length > 1) {
    // The fault stands for a handler that assumed a scalar and crashed on the array a repeated parameter gives.
    if (faults.has('users-repeated-flow-500')) throw new TypeError('user_flow.trim is not a function');
    if (!variants.has('repeated-parameter-last-wins')) return refuse('user_flow may be given only once');
  }
  const repeated = ASSET_PARAMETERS.find((p) => params.getAll(p).length > 1);
  if (repeated && !variants.has('repeated-parameter-last-wins')) return refuse(`${repeated} may be given only once`);
  const query = repeated || flows.length > 1 ? lastValues(params) : params;
  const assetParameters = ASSET_PARAMETERS.filter((p) => query.has(p));
  const flow = flows.at(-1);

  if (flow !== undefined && journeyValues.length) {
    const accepted = faults.has('users-journey-and-flow-accepted') || faults.has('users-journey-and-flow-accepted-behind-429');
    if (!accepted) return refuse('user_journey[] and user_flow exclude each other: send one of them');
  }
  let context: JourneyContext;
  if (flow !== undefined) context = fromFlow(flow, query, assetParameters, faults);
  else if (journeyValues.length) context = fromJourneys(journeyValues, assetParameters, faults, variants);
  else if (assetParameters.length && !variants.has('asset-groups-without-flow-ignored')) return refuse(`${assetParameters.join(', ')} applies only together with user_flow`);
  else if (faults.has('users-journey-required')) return refuse('send user_journey[] or user_flow');
  else context = { ok: true, journeys: faults.has('users-default-journeys-unfiltered') ? JOURNEYS : DEFAULT_JOURNEYS, source: 'default' };

  if (context.ok && context.source !== 'default' && faults.has('users-terms-unfiltered')) return { ...context, journeys: JOURNEYS };
  return context;
}

/** The terms among `unaccepted` that apply to at least one of the journeys. */
export function termsForJourneys(unaccepted: readonly number[], journeys: readonly Journey[]): number[] {
  const applicable = new Set(TERMS.filter((t) => t.journeys.some((j) => journeys.includes(j))).map((t) => t.id));
  return unaccepted.filter((id) => applicable.has(id));
}

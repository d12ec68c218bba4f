// The starter profile `ptas init` writes: every key of the profile schema,
// each with a short description and the checks it unlocks (computed, see
// app/init/unlocks.ts). What the user answered is set; everything else is an
// example written commented out, so the file validates as written and a check
// whose key is still commented out SKIPs naming it, rather than running
// against a made-up value.
import { referenceProfile } from '../../reference/profile.ts';
import { LEGACY_RECIPE_KEYS } from '../../src/config/sections/offer-recipes.ts';
import { exampleValue, nodeAt, profileSchema, resolveNode, summary } from './key-docs.ts';
import { writeJsonc, type Member } from './jsonc-writer.ts';
import { checksUnlockedBy, readUnlocks, valueAt, type UnlocksMap } from './unlocks.ts';

export interface StarterAnswers {
  name: string;
  baseUrl: string;
  /** Unset: "env:PTAS_CLIENT_ID", like the secret. */
  clientId?: string;
  /** auth.jwksUrl: the JWK Set that verifies issued access tokens. */
  jwksUrl?: string;
  /** auth.jwksAccess "bearer": the target's JWK Sets need the partner's access token (as the deployed API's does). */
  jwksNeedsBearer?: boolean;
  /** webhooks.signature: RFC 9421 signatures verified with the JWK Set at this URL. */
  webhookJwksUrl?: string;
}

export interface StarterOptions {
  /** The "$schema" value: the bundle, relative to the written file. */
  schemaRef: string;
  /** Write every example live (tests: every example must validate). */
  uncommentAll?: boolean;
  unlocks?: UnlocksMap;
}

/** Keys of the older offer-recipe form: kept working, not offered to newcomers. */
const HIDDEN_KEYS = new Set(LEGACY_RECIPE_KEYS.map((key) => `trading.${key}`));

/** Top-level keys the starter writes from the answers; every other one comes from the schema, in its order. */
const ANSWERED_TOP_LEVEL = new Set(['$schema', 'name', 'baseUrl', 'credentials']);

/** "env:PTAS_USERS_OWN_LICENCE_CLIENT_SECRET" in place of a secret an example would otherwise show. */
function withoutSecrets(value: unknown, keyPath: string): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutSecrets(v, keyPath));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      const path = `${keyPath}.${key}`;
      if (/secret/i.test(key) && typeof v === 'string') return [key, `env:PTAS_${path.replace(/([a-z])([A-Z])/g, '$1_$2').replace(/\./g, '_').toUpperCase()}`];
      return [key, withoutSecrets(v, path)];
    }),
  );
}

function unlockComment(keyPath: string, unlocks: UnlocksMap): string[] {
  const checks = checksUnlockedBy(keyPath, unlocks);
  if (!checks.length) return [];
  return [`Unlocks ${checks.length === 1 ? 'check' : `${checks.length} checks`}: ${checks.join(', ')}.`];
}

function keyComments(keyPath: string, unlocks: UnlocksMap): string[] {
  const node = nodeAt(keyPath);
  const text = summary(node?.description ?? node?.title);
  return [...(text ? [text] : []), ...unlockComment(keyPath, unlocks)];
}

/** The answers as profile values: what the starter sets rather than shows commented out. */
function answeredValues(answers: StarterAnswers): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  if (answers.jwksUrl) values['auth.jwksUrl'] = answers.jwksUrl;
  if (answers.jwksNeedsBearer) values['auth.jwksAccess'] = 'bearer';
  if (answers.webhookJwksUrl) values['webhooks.signature'] = { scheme: 'rfc9421', jwksUrl: answers.webhookJwksUrl };
  return values;
}

/** The bundled reference's own profile: a complete, working example of every section. */
const referenceValue = (() => {
  let reference: unknown;
  return (keyPath: string) => valueAt((reference ??= referenceProfile('http://127.0.0.1:8080')), keyPath);
})();

function sectionMember(section: string, answered: Record<string, unknown>, unlocks: UnlocksMap): Member {
  const properties = resolveNode(nodeAt(section)!).properties ?? {};
  const members = Object.entries(properties)
    .filter(([key]) => !HIDDEN_KEYS.has(`${section}.${key}`))
    .map(([key, node]): Member => {
      const keyPath = `${section}.${key}`;
      const set = answered[keyPath];
      const json = set ?? withoutSecrets(exampleValue(keyPath, node, referenceValue), keyPath);
      return { key, value: { json }, comments: keyComments(keyPath, unlocks), commentedOut: set === undefined };
    });
  return { key: section, value: members, comments: [summary(nodeAt(section)?.description ?? nodeAt(section)?.title, 160)] };
}

function header(answers: StarterAnswers): string[] {
  return [
    `ptas implementation profile for ${answers.name}: what the conformance suite needs to know that the spec does not show.`,
    'JSON with comments and trailing commas. Keys written behind // are examples: uncomment one (an editor\'s toggle-comment does it) and set the value your implementation needs; the checks named above it then run instead of SKIPping. Editors complete and check this file through "$schema"; hover a key for its full description.',
    "Examples are the schema's, or the bundled reference implementation's (`ptas reference`): adapt paths, bodies and ids to yours.",
    'Secrets stay out of the file: "env:NAME" reads the environment variable NAME.',
  ];
}

/** The starter profile's text. */
export function renderStarterProfile(answers: StarterAnswers, options: StarterOptions): string {
  const unlocks = options.unlocks ?? readUnlocks();
  const answered = answeredValues(answers);
  const root = profileSchema().properties ?? {};
  const top = (key: string, json: unknown, commentedOut = false): Member => ({
    key,
    value: { json },
    comments: summary(root[key]?.description) ? [summary(root[key]?.description)] : [],
    commentedOut,
  });
  const members: Member[] = [
    { key: '$schema', value: { json: options.schemaRef } },
    top('name', answers.name),
    top('baseUrl', answers.baseUrl),
    {
      key: 'credentials',
      value: [
        { key: 'clientId', value: { json: answers.clientId ?? 'env:PTAS_CLIENT_ID' } },
        { key: 'clientSecret', value: { json: 'env:PTAS_CLIENT_SECRET' }, comments: [summary(nodeAt('credentials.clientSecret')?.description)] },
      ],
      comments: [summary(root.credentials?.description)],
    },
    // A section (an object with keys of its own) lists its keys; any other key is one example.
    ...Object.entries(root)
      .filter(([key]) => !ANSWERED_TOP_LEVEL.has(key))
      .map(([key, node]) =>
        resolveNode(node).properties ? sectionMember(key, answered, unlocks) : top(key, exampleValue(key, node, () => undefined), true),
      ),
  ];
  return writeJsonc(header(answers), members, options.uncommentAll);
}

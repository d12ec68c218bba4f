// Presets of `ptas init`: profiles complete for a target the product knows,
// so `ptas doctor` passes with nothing to fill in and every check can run.
// `reference` is the bundled reference as `ptas reference` starts it;
// `deployed-api` the reference started with --deployed-api (the publicly
// deployed API's answers: ECDSA P-256 signatures over its component list,
// JWK Sets behind the bearer, slow offers by amount). Each is the reference's
// own profile (reference/profile.ts, the one the self-test runs with), its
// secrets written as env: references: PTAS_CLIENT_SECRET holds what the
// reference got as PTAS_REF_CLIENT_SECRET (it has one secret for both of its
// clients). The starter (starter-profile.ts) is for everything else.
import { referenceProfile } from '../../reference/profile.ts';
import { REFERENCE_DEFAULTS } from '../../reference/options.ts';
import { referenceModes } from '../../reference/modes.ts';
import { stringPlaces } from '../../src/config/secret-places.ts';
import { setAtPointer } from '../../src/config/env-references.ts';
import type { Preset } from './preset-names.ts';

const CLIENT_SECRET_REFERENCE = 'env:PTAS_CLIENT_SECRET';

export interface PresetAnswers {
  baseUrl: string;
  /** The name the report shows, when one was given (else the reference's own). */
  name?: string;
  /** The reference's --client-id, when it was started with another. */
  clientId?: string;
  /** The "$schema" to write (relative to the file, as the starter's). */
  schemaRef: string;
}

/** The preset's profile as JSON with a comment that says what it is for. */
export function renderPresetProfile(preset: Preset, answers: PresetAnswers): string {
  const modes = referenceModes({ deployedApi: preset === 'deployed-api' });
  const profile = referenceProfile(answers.baseUrl, {
    ...modes.options,
    variants: modes.variants,
    ...(answers.clientId ? { clientId: answers.clientId } : {}),
  }) as unknown as Record<string, unknown>;
  withSecretsAsReferences(profile);
  if (answers.name) profile.name = answers.name;
  const started = preset === 'deployed-api' ? 'ptas reference --deployed-api' : 'ptas reference';
  const header = [
    `// A complete profile for the bundled reference started as \`${started}\` at ${answers.baseUrl}:`,
    '// every operation and wait the suite needs is declared, so `ptas doctor` passes and a run can certify.',
    `// Secrets are env: references: export PTAS_CLIENT_SECRET with the value the reference was given as PTAS_REF_CLIENT_SECRET.`,
  ];
  return `${header.join('\n')}\n${JSON.stringify({ $schema: answers.schemaRef, ...profile }, null, 2)}\n`;
}

/** Replaces every secret of the reference's profile (its one client secret, wherever it is given) by its env: reference. */
function withSecretsAsReferences(profile: Record<string, unknown>): void {
  for (const place of stringPlaces(profile).filter((p) => p.secret)) {
    // A secret other than the client secret would need a name of its own: better to fail here than to write it.
    if (place.value !== REFERENCE_DEFAULTS.clientSecret) throw new Error(`reference bug: the preset does not know the secret at ${place.keyPath}`);
    setAtPointer(profile, place.pointer, CLIENT_SECRET_REFERENCE);
  }
}

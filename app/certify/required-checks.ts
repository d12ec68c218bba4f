// The checks a certification requires for this catalogue: every registered
// check of MUST severity (src/check/registry.ts derives severity from
// schemas/requirements.json) but the explored rules, which a run has only
// when it explores (explore/). manifest.json lists them and `ptas verify`
// wants exactly one verdict for each, none SKIP.
import { listAllChecks } from '../run/list.ts';
import { checkStage } from '../../src/check/registry.ts';

export async function requiredCheckIds(): Promise<string[]> {
  return (await listAllChecks()).filter((check) => check.severity === 'MUST' && checkStage(check.id) !== 'explore').map((check) => check.id);
}

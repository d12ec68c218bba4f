// The checks a certification requires for this catalogue: every registered
// check of MUST severity (src/check/registry.ts derives severity from
// schemas/requirements.json). manifest.json lists them and `ptas verify`
// wants exactly one verdict for each, none SKIP.
import { listAllChecks } from '../run/list.ts';

export async function requiredCheckIds(): Promise<string[]> {
  return (await listAllChecks()).filter((check) => check.severity === 'MUST').map((check) => check.id);
}

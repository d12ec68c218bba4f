// An explored rule: a check of its own (`explore.<area>.<rule>`), registered
// with every other check so `ptas list`, the traceability view, waivers and
// `ptas rejudge` know it; its area and severity come from its requirements
// as any check's do. A certification does not require it
// (app/certify/required-checks.ts): exploration finds, it does not certify.
import { registerCheck, type CheckDeclaration } from '../src/check/registry.ts';
import type { CheckMeta } from '../src/check/model.ts';

export function defineExploreRule(declaration: CheckDeclaration): CheckMeta {
  return registerCheck(declaration, 'explore');
}

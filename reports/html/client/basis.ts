// The sentence a finding rests on (the spec's, a standard's the spec names,
// or the profile's declaration), shown beside the finding.
import type { VerdictBasis } from '../../../src/check/model.ts';
import { h } from './dom.ts';

/** Where a basis's words come from: the spec's clause, a standard's section, or the profile's key and value (src/check/basis.ts basisSource). */
function basisSourceText(basis: VerdictBasis): string {
  if (basis.kind === 'standard') return `${basis.standard} section ${basis.clause}${basis.namedBy ? ` (the spec names ${basis.namedBy})` : ''}`;
  if (basis.kind === 'profile-declared') {
    const value = basis.declaredValue === undefined ? '' : ` = ${typeof basis.declaredValue === 'string' ? basis.declaredValue : JSON.stringify(basis.declaredValue)}`;
    return `profile-declared ${basis.profileKey}${value}; spec ${basis.clause}`;
  }
  return `spec ${basis.clause}`;
}

export function basisLine(basis: VerdictBasis): HTMLDivElement {
  return h(
    'div',
    { class: `check-basis basis-${basis.kind}` },
    h('span', { class: 'basis-kind' }, basisSourceText(basis)),
    ': ',
    h('q', { class: 'basis-quote' }, basis.quote),
  );
}

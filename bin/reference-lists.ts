// What `ptas reference --list-variants`, `--list-conditions` and
// `--list-faults` print: apart from the command, which loads them only when
// one is asked for (the lists load every fault, variant and condition).
import { FAULTS } from '../reference/faults/index.ts';
import { VARIANTS } from '../reference/variants/index.ts';
import { CONDITIONS } from '../reference/conditions/index.ts';

/** Every fault: its name, the requirement it breaks, and what it does; one no hand-written check names says so (ptas explore finds it). */
export function listFaults(): string {
  const width = Math.max(...FAULTS.map((f) => f.name.length));
  const pad = ' '.repeat(width + 2);
  return FAULTS.map((f) => `${f.name.padEnd(width)}  ${f.requirement}\n${pad}${f.description}\n${f.unnamed ? `${pad}no hand-written check names it (${f.unnamed}): ptas explore finds it\n` : ''}`).join('');
}

/** Every variant: name and area, what it does, and why the spec allows it. */
export function listVariants(): string {
  const width = Math.max(...VARIANTS.map((v) => v.name.length));
  const lines = VARIANTS.map((v) => {
    const pad = ' '.repeat(width + 2);
    const conflicts = v.conflictsWith?.length ? `\n${pad}not with: ${v.conflictsWith.join(', ')}` : '';
    return `${v.name.padEnd(width)}  [${v.area}] ${v.description}\n${pad}allowed by: ${v.allowedBy}${conflicts}\n`;
  });
  return `${VARIANTS.length} legitimate variants (behaviours the spec allows that the reference does not show by default):\n\n${lines.join('')}`;
}

/** Every condition, one line each: name, the areas it touches, what it does. */
export function listConditions(): string {
  const width = Math.max(...CONDITIONS.map((c) => c.name.length));
  const lines = CONDITIONS.map((c) => `${c.name.padEnd(width)}  [${c.touches === 'all' ? 'all' : c.touches.join(', ')}] ${c.description}\n`);
  return `${CONDITIONS.length} conditions (how real deployments behave around a correct implementation; the verdict must stay CONFORMANT):\n\n${lines.join('')}`;
}

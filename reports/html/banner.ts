// The verdict banner, rendered when the report is written (not by the page's
// script), so the verdict and counts show even where scripts are blocked.
import { VERDICTS, type CheckResult, type Verdict } from '../../src/check/model.ts';
import { explainRunVerdict, verdictInputOf } from '../../src/results/verdict.ts';
import type { RunResults } from '../../src/results/model.ts';
import { escapeXml as esc } from '../escape.ts';
import { formatDuration, formatTimestamp } from '../format.ts';
import { waiversNotice } from './waivers.ts';
import { GAPS_SHOWN } from '../../src/certify/certifiability.ts';

function verdictReason(results: RunResults): string {
  return explainRunVerdict(verdictInputOf(results));
}

function countButtons(counts: Record<Verdict, number>): string {
  // ?? 0: a results.json written before WAIVED existed has no count for it.
  return VERDICTS.map(
    (v) =>
      `<button type="button" class="count v-${v}${counts[v] ? '' : ' zero'}" data-verdict="${v}" aria-pressed="false" title="show only ${v}"><b>${counts[v] ?? 0}</b><span>${v}</span></button>`,
  ).join('');
}

function countsByTarget(checks: CheckResult[]): string {
  const targets = [...new Set(checks.map((c) => c.target))];
  if (targets.length < 2) return '';
  const rows = targets.map((t) => {
    const mine = checks.filter((c) => c.target === t);
    return `<tr><th>${esc(t)}</th>${VERDICTS.map((v) => `<td>${mine.filter((c) => c.verdict === v).length}</td>`).join('')}</tr>`;
  });
  return `<table class="by-target"><thead><tr><th>target</th>${VERDICTS.map((v) => `<th>${v}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Whether ptas verify accepts the bundle (src/certify/certifiability.ts), right under the verdict: a green verdict never hides a bundle verify refuses. */
function certificationNotice(results: RunResults): string {
  const certification = results.certification;
  if (!certification) return '';
  if (certification.certifiable) {
    return `<div class="notice notice-info" id="notice-certification" data-certifiable="true"><b>Certifiable:</b> all ${certification.required} required checks have one final verdict, none SKIP or ERROR; <code>ptas verify</code> accepts this bundle.</div>`;
  }
  const gaps = certification.gaps.slice(0, GAPS_SHOWN).map((g) => `<li><code>${esc(g.check)}</code>: ${esc(g.problem)}. <b>Fix:</b> ${esc(g.fix)}</li>`);
  const more = certification.gaps.length > GAPS_SHOWN ? `<li>… and ${certification.gaps.length - GAPS_SHOWN} more (results.json, "certification")</li>` : '';
  return `<div class="notice notice-danger" id="notice-certification" data-certifiable="false"><b>Not certifiable:</b> <code>ptas verify</code> refuses this bundle: ${certification.gaps.length} of ${certification.required} required checks.<ul>${gaps.join('')}${more}</ul></div>`;
}

function notices(results: RunResults): string {
  const out: string[] = [certificationNotice(results)];
  if (results.run.interrupted) {
    out.push(`<div class="notice notice-danger" id="notice-interrupted"><b>Run interrupted:</b> ${esc(results.run.interrupted)}. Checks that did not finish are missing; this report cannot certify conformance.</div>`);
  }
  if (results.run.insecureTls) {
    out.push(
      '<div class="notice notice-warn" id="notice-insecure-tls"><b>TLS certificate verification was switched off (--insecure).</b> The target\'s identity was not verified; this run says nothing about its TLS set-up.</div>',
    );
  }
  if (results.errors.length) {
    out.push(
      `<div class="notice notice-danger" id="notice-errors"><b>${results.errors.length} problem${results.errors.length === 1 ? '' : 's'} outside any check:</b><ul>${results.errors.map((e) => `<li><pre>${esc(e)}</pre></li>`).join('')}</ul></div>`,
    );
  }
  out.push(waiversNotice(results));
  const faults = results.run.reference?.faults ?? [];
  if (faults.length) {
    out.push(`<div class="notice notice-info" id="notice-faults">Target: the bundled reference implementation with injected fault${faults.length === 1 ? '' : 's'} <b>${esc(faults.join(', '))}</b> (a demonstration, not an implementation under test).</div>`);
  }
  const conditions = results.run.reference?.conditions ?? [];
  if (conditions.length) {
    out.push(`<div class="notice notice-info" id="notice-conditions">Target: the bundled reference implementation under real-world condition${conditions.length === 1 ? '' : 's'} <b>${esc(conditions.join(', '))}</b> (a correct implementation behind them).</div>`);
  }
  const variants = results.run.reference?.variants ?? [];
  if (variants.length) {
    out.push(`<div class="notice notice-info" id="notice-variants">Target: the bundled reference implementation with legitimate variant${variants.length === 1 ? '' : 's'} <b>${esc(variants.join(', '))}</b> (behaviours the spec allows).</div>`);
  }
  return out.join('');
}

function meta(results: RunResults): string {
  const r = results.run;
  const areas = new Set(results.checks.map((c) => c.area)).size;
  const items: Array<[string, string]> = [
    ['Suite version', r.suiteVersion],
    ['Spec version', r.specVersion],
    ['Profile hash', r.profileHash],
    ['Started', formatTimestamp(r.startedAt)],
    ['Duration', formatDuration(r.durationMs)],
    ['Checks', `${results.checks.length} in ${areas} area${areas === 1 ? '' : 's'}`],
  ];
  return `<dl class="meta">${items.map(([k, v]) => `<div><dt>${esc(k)}</dt><dd data-meta="${esc(k.toLowerCase().replace(/ /g, '-'))}">${esc(v)}</dd></div>`).join('')}</dl>`;
}

export function renderBanner(results: RunResults): string {
  const cls = `b-${results.verdict.replace(/ /g, '-')}`;
  return `<header class="banner ${cls}"><div class="banner-inner">
<div class="verdict-line"><span class="verdict" id="verdict">${esc(results.verdict)}</span><span class="verdict-why">${esc(verdictReason(results))}</span></div>
<div class="target-line">${results.run.implementation ? `${esc(results.run.implementation)} at ` : ''}<code>${esc(results.run.target)}</code></div>
<div class="counts" id="counts">${countButtons(results.counts)}</div>
${countsByTarget(results.checks)}
${meta(results)}
${notices(results)}
</div></header>`;
}

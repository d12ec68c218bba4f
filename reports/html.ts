// index.html: one self-contained page (inline CSS, JS and SVG; no request
// leaves it, enforced by its Content-Security-Policy) that a certification
// team can hand over. The verdict banner is rendered here; the checks, the
// traceability matrix, the load charts and the baseline comparison are drawn
// by the page's script (reports/html/client/) from the results embedded as
// JSON, and a check's evidence, embedded compressed, only when it is opened,
// so large reports stay small and fast.
import type { RunResults } from '../src/results/model.ts';
import type { BaselineDiff } from './baseline.ts';
import { escapeXml as esc } from './escape.ts';
import { clientScript, pageStyle } from './html/assets.ts';
import { renderBanner } from './html/banner.ts';
import { renderWaivers } from './html/waivers.ts';
import { contentSecurityPolicy, jsonForScriptElement } from './html/embed.ts';
import { packEvidence } from './html/evidence-pack.ts';
import { DATA_ELEMENT_ID, EVIDENCE_ELEMENT_ID, type EmbeddedReportData } from './html/page-data.ts';
import { renderReviews } from './html/reviews.ts';
import type { ReviewDecision } from '../src/results/reviews.ts';

export type { EmbeddedReportData } from './html/page-data.ts';

export interface HtmlOptions {
  /** Comparison with a previous run (`ptas report --baseline`). */
  diff?: BaselineDiff;
  /** A reviewer's decisions on the run's REVIEW checks (src/results/reviews.ts). */
  reviews?: readonly ReviewDecision[];
}

export function renderHtml(results: RunResults, options: HtmlOptions = {}): string {
  const script = clientScript();
  const style = pageStyle();
  const { page, evidence } = packEvidence(results);
  const data: EmbeddedReportData = { results: page, diff: options.diff };
  const title = `ptas: ${results.verdict} — ${results.run.implementation ?? results.run.target}`;
  const baseline = options.diff
    ? '<section id="baseline"><h2>Compared with the baseline run</h2><div id="baseline-body"></div></section>'
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(script, style)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="ptas-conformance ${esc(results.run.suiteVersion)}">
<title>${esc(title)}</title>
<style>${style}</style>
</head>
<body>
${renderBanner(results)}
<nav class="toc">${results.waivers ? '<a href="#waivers">Waivers</a>' : ''}${options.reviews?.length ? '<a href="#reviews">Reviews</a>' : ''}${options.diff ? '<a href="#baseline">Baseline</a>' : ''}<a href="#checks">Checks</a><a href="#requirements">Requirement traceability</a><a href="#load">Load</a></nav>
<div id="filters"></div>
<main>
<noscript><p class="notice notice-warn">Scripts are blocked: the verdict above is complete, but the checks, evidence and charts need JavaScript. results.json next to this file holds the same data.</p></noscript>
<div id="render-error" class="notice notice-danger" hidden></div>
${renderWaivers(results)}
${renderReviews(results, options.reviews)}
${baseline}
<section id="checks"><h2>Checks by spec area</h2><div id="checks-body"></div></section>
<section id="requirements"><h2>Requirement traceability</h2><div id="matrix-body"></div></section>
<section id="load"><h2>Load</h2><div id="load-body"></div></section>
</main>
<footer>Written by ptas-conformance ${esc(results.run.suiteVersion)} · results.json and junit.xml next to this file hold the same results · secrets appear only as redaction markers such as «access_token#…»</footer>
<script type="application/json" id="${DATA_ELEMENT_ID}">${jsonForScriptElement(data)}</script>
<script type="application/gzip" data-encoding="base64" id="${EVIDENCE_ELEMENT_ID}">${evidence}</script>
<script>${script}</script>
</body>
</html>
`;
}

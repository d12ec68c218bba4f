// Entry point of the page's script: reads the embedded results and draws
// every section. The verdict banner is already in the page (rendered when the
// report was written), so the verdict shows even where scripts are blocked.
import { DATA_ELEMENT_ID, type EmbeddedReportData } from '../page-data.ts';
import { renderChecks } from './checks.ts';
import { renderDiff } from './diff.ts';
import { EvidenceStore } from './evidence-store.ts';
import { setupFilters } from './filters.ts';
import { renderLoad } from './load/section.ts';
import { renderMatrix } from './matrix.ts';
import { setupNavigation } from './navigation.ts';

function element(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el;
}

function main(): void {
  const started = performance.now();
  const data = JSON.parse(element(DATA_ELEMENT_ID).textContent ?? '') as EmbeddedReportData;
  const results = data.results;
  const checks = renderChecks(element('checks-body'), results, data.diff, new EvidenceStore());
  const matrix = renderMatrix(element('matrix-body'), results, checks.multiTarget);
  const filters = setupFilters(element('filters'), results, checks, matrix);
  if (data.diff) renderDiff(element('baseline-body'), data.diff, checks.multiTarget);
  renderLoad(element('load-body'), results);
  setupNavigation(checks, filters);
  // Read by the browser test and the benchmark: how long drawing took, and when (since navigation) the page was ready.
  document.body.dataset.renderMs = String(Math.round(performance.now() - started));
  document.body.dataset.readyAtMs = String(Math.round(performance.now()));
  document.body.dataset.ready = 'true';
}

try {
  main();
} catch (error) {
  const box = element('render-error');
  box.hidden = false;
  box.textContent = `The report could not be drawn (${error instanceof Error ? error.message : String(error)}). results.json next to this file holds the same data.`;
  throw error;
}

// Entry point: reads the embedded results and draws every section. The
// verdict banner is already in the page (rendered when the report was
// written), so the verdict shows even where scripts are blocked.

function main() {
  const started = performance.now();
  const data = JSON.parse(document.getElementById('ptas-data').textContent);
  const results = data.results;
  const checks = renderChecks(document.getElementById('checks-body'), results, data.diff);
  const matrix = renderMatrix(document.getElementById('matrix-body'), results, checks.multiTarget);
  const filters = setupFilters(document.getElementById('filters'), results, checks, matrix);
  if (data.diff) renderDiff(document.getElementById('baseline-body'), data.diff, checks.multiTarget);
  renderLoad(document.getElementById('load-body'), results);
  setupNavigation(checks, filters);
  // Read by the browser test and the benchmark: how long drawing took, and when (since navigation) the page was ready.
  document.body.dataset.renderMs = String(Math.round(performance.now() - started));
  document.body.dataset.readyAtMs = String(Math.round(performance.now()));
  document.body.dataset.ready = 'true';
}

try {
  main();
} catch (error) {
  const box = document.getElementById('render-error');
  box.hidden = false;
  box.textContent = `The report could not be drawn (${error && error.message}). results.json next to this file holds the same data.`;
  throw error;
}

// Follows #check-… and #req-… links: shows the target even when a filter hid
// it, and opens a check.
import { openEvidence, type CheckList } from './checks.ts';
import type { Filters } from './filters.ts';

export function setupNavigation(checks: CheckList, filters: Filters): void {
  const byAnchor = new Map(checks.rows.map((row) => [row.el.id, row]));
  function follow(): void {
    const id = decodeURIComponent(location.hash.slice(1));
    if (!id) return;
    const el = document.getElementById(id);
    if (!el) return;
    if (el.hidden || el.closest<HTMLElement>('section.area')?.hidden) filters.resetAll();
    const row = byAnchor.get(id);
    if (row) {
      openEvidence(row);
      row.el.open = true;
    }
    el.classList.remove('flash');
    void el.offsetWidth;
    el.classList.add('flash');
    el.scrollIntoView({ block: 'start' });
  }
  window.addEventListener('hashchange', follow);
  follow();
}

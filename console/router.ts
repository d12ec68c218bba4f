// Client-side routing of the app shell: every console page is the same HTML
// (the server answers /, /console/implementations/… and /console/runs/… with
// it); the path picks what the app draws into <main id="app">. Links marked
// data-link are followed with history.pushState. A page may return a
// function that stops what it started (an event stream, a timer) when the
// user goes elsewhere, and a question to ask before it goes (unsaved edits:
// guardLeaving). body[data-ready] is "true" once a page has drawn its data
// (tests and benchmarks wait for it).
import { fill, notice } from './dom.ts';
import { messageOf } from './api.ts';

export type Cleanup = () => void;
export type Page = (main: HTMLElement, params: string[]) => Promise<Cleanup | void>;

interface Route {
  pattern: RegExp;
  page: Page;
}

const routes: Route[] = [];
let cleanup: Cleanup | void;
let generation = 0;
/** The path drawn now: where a Back the user then declines returns to. */
let shownPath = '';
/** What to ask before leaving the page drawn now; undefined (or a question of undefined) lets it go. */
let leaveQuestion: (() => string | undefined) | undefined;

/** The page drawn now asks `question()` before the user goes to another page (until another page is drawn). */
export function guardLeaving(question: () => string | undefined): void {
  leaveQuestion = question;
}

/** Whether the user lets the page drawn now go. */
function mayLeave(): boolean {
  const question = leaveQuestion?.();
  return !question || confirm(question);
}

export function route(pattern: RegExp, page: Page): void {
  routes.push({ pattern, page });
}

export function markReady(): void {
  document.body.dataset.readyAtMs = performance.now().toFixed(0);
  document.body.dataset.ready = 'true';
}

async function render(): Promise<void> {
  const main = document.getElementById('app')!;
  cleanup?.();
  cleanup = undefined;
  leaveQuestion = undefined;
  shownPath = location.pathname + location.search;
  const mine = ++generation;
  document.body.dataset.ready = 'false';
  const path = location.pathname;
  const match = routes.map((r) => ({ r, m: r.pattern.exec(path) })).find((x) => x.m);
  if (!match) {
    fill(main, notice('danger', 'No such page.'));
    markReady();
    return;
  }
  try {
    const stop = await match.r.page(main, match.m!.slice(1).map(decodeURIComponent));
    if (mine === generation) cleanup = stop;
    else stop?.();
  } catch (error) {
    if (mine === generation) fill(main, notice('danger', messageOf(error)));
    markReady();
  }
}

/** Goes to `path`; `force` skips the page's question (it has just saved what it would ask about). */
export function navigate(path: string, options: { replace?: boolean; force?: boolean } = {}): void {
  if (!options.force && !mayLeave()) return;
  if (options.replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  void render();
}

export function startRouter(): void {
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const a = (event.target as Element | null)?.closest?.('a[data-link]');
    if (!(a instanceof HTMLAnchorElement) || a.origin !== location.origin) return;
    event.preventDefault();
    if (a.pathname !== location.pathname) navigate(a.pathname + a.search);
  });
  window.addEventListener('popstate', () => {
    // The address has already changed: a user who stays gets the page's address back.
    if (!mayLeave()) return history.pushState(null, '', shownPath);
    void render();
  });
  void render();
}

// A profile pasted into the console's editor, in headless Chromium against
// `ptas serve`'s real server on 127.0.0.1 (test/serve/support.ts). Budget (issue 30):
// a 1 MB profile (under the server's 1,000,000-character limit) pasted over
// the starter is editable within 1 s — from the paste until a keystroke has
// landed and the page answers — and stays so: each of the keystrokes typed
// after it, with the linters' pauses between them, answers within 1 s. The
// baseline is the same paste and keystrokes on a starter-sized profile
// (about 10 KB), in the same run: what driving the browser itself costs
// (the click, select-all, handing the text over, the keystroke's round trip,
// about a quarter of a second), which the budget leaves out: the 1 MB paste's
// time less the baseline's. Figures are medians over a few pastes. Before
// the editor bounded its schema linting and completion (console/editor.ts),
// keystrokes after such a paste took 6-40 s each.
// `npm run bench -- console-paste`
import type { Page } from '@playwright/test';
import { launchChromium } from '../test/report/support/browser.ts';
import { startConsoleTestServer } from '../test/serve/support.ts';
import { pasteIntoEditor, signIn, watchedPage } from '../test/serve/support/console-page.ts';
import { referenceProfile } from '../reference/profile.ts';
import { endWithBudgets, median } from './support/figures.ts';

const PASTES = 3;
const KEYSTROKES = 6;
const BIG = 1_000_000;
const BUDGET_MS = 1_000;

/** The reference's profile with as many terms cases as fit in `size` characters, pretty-printed as a user would paste it. */
function profileOfSize(size: number): string {
  const profile = referenceProfile('https://api.example.com', { clientSecret: 'unused' });
  const cases: unknown[] = [];
  const text = () => JSON.stringify({ ...profile, credentials: { ...profile.credentials, clientSecret: 'env:PTAS_CLIENT_SECRET' }, users: { ...profile.users, termsCases: cases } }, null, 2);
  const perCase = JSON.stringify({ query: { user_flow: 'onboard' }, expectedTerms: [101, 102] }, null, 2).length + 8;
  while (text().length + perCase < size) cases.push({ query: { user_flow: 'onboard' }, expectedTerms: [101, 102] });
  return text();
}

const server = await startConsoleTestServer();
const browser = await launchChromium();
const { context, page: signInPage } = await watchedPage(browser);

interface Paste {
  editableMs: number;
  worstKeystrokeMs: number;
}

/**
 * Each paste in a tab of its own (the context's: signed in, its secret in
 * the origin's storage): the editor keeps an unsaved draft per tab and asks
 * before a page with one is left, so a paste in the previous tab would open
 * the next "New implementation" on its 1 MB draft.
 */
async function paste(text: string): Promise<Paste> {
  const page = await context.newPage();
  try {
    return await pasteIn(page, text);
  } finally {
    await page.close({ runBeforeUnload: false });
  }
}

async function pasteIn(page: Page, text: string): Promise<Paste> {
  await page.goto(`${server.url}/console/implementations/new`);
  await page.waitForSelector('body[data-ready="true"] .cm-content');
  const started = performance.now();
  await pasteIntoEditor(page, text);
  await page.keyboard.press('End');
  await page.keyboard.type(' ');
  await page.evaluate('1');
  const editableMs = performance.now() - started;
  const keystrokes: number[] = [];
  for (let i = 0; i < KEYSTROKES; i++) {
    // Past the schema linter's 250 ms pause: whatever runs after an edit runs before the next one.
    await page.waitForTimeout(400);
    const at = performance.now();
    await page.keyboard.type(' ');
    await page.evaluate('1');
    keystrokes.push(performance.now() - at);
  }
  return { editableMs, worstKeystrokeMs: Math.max(...keystrokes) };
}

try {
  await signIn(signInPage, server.url, server.token);
  const small = profileOfSize(10_000);
  const big = profileOfSize(BIG);
  const baseline: Paste[] = [];
  const large: Paste[] = [];
  for (let i = 0; i < PASTES; i++) {
    baseline.push(await paste(small));
    large.push(await paste(big));
  }
  const figure = (runs: Paste[], key: keyof Paste) => median(runs.map((r) => r[key]));
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  console.log(`starter-sized profile (${small.length} chars): editable after ${ms(figure(baseline, 'editableMs'))}, slowest keystroke ${ms(figure(baseline, 'worstKeystrokeMs'))} (medians of ${PASTES})`);
  console.log(`1 MB profile (${big.length} chars): editable after ${ms(figure(large, 'editableMs'))}, slowest keystroke ${ms(figure(large, 'worstKeystrokeMs'))} (medians of ${PASTES})`);
  console.log(`ratios to the starter-sized paste: editable ${(figure(large, 'editableMs') / figure(baseline, 'editableMs')).toFixed(1)}×, slowest keystroke ${(figure(large, 'worstKeystrokeMs') / figure(baseline, 'worstKeystrokeMs')).toFixed(1)}×`);
  const netEditableMs = figure(large, 'editableMs') - figure(baseline, 'editableMs');
  console.log(`the 1 MB paste's own time (less the baseline's): ${ms(netEditableMs)}`);
  endWithBudgets([
    netEditableMs > BUDGET_MS && `the 1 MB paste became editable after ${ms(netEditableMs)} of its own (budget ${ms(BUDGET_MS)})`,
    figure(large, 'worstKeystrokeMs') > BUDGET_MS && `a keystroke after the 1 MB paste took ${ms(figure(large, 'worstKeystrokeMs'))} (budget ${ms(BUDGET_MS)})`,
  ]);
} finally {
  await browser.close();
  await server.close();
}

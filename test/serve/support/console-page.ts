// A Chromium page on the console that records what must never happen: a
// console error or warning (Chromium logs each Content-Security-Policy
// violation as one), an uncaught error, a dialog (an injected alert), and
// every securitypolicyviolation event in any frame, the report's included.
import type { Browser, BrowserContext, Page } from '@playwright/test';

export interface Watched {
  context: BrowserContext;
  page: Page;
  problems: string[];
  /** Dialogs no test expected (expectDialog): each was dismissed. */
  dialogs: string[];
  /** The dialogs tests expect next, in order, each with its answer. */
  expected: ExpectedDialog[];
}

interface ExpectedDialog {
  type: string;
  accept: boolean;
  seen: (message: string) => void;
}

/** The page's next dialog is of this type and is answered so (accepted or dismissed); resolves with its message. */
export function expectDialog(watched: Watched, type: 'confirm' | 'beforeunload', accept: boolean): Promise<string> {
  return new Promise((seen) => watched.expected.push({ type, accept, seen }));
}

/** Installed before any page script, in every frame: CSP violations into window.__cspViolations. */
const RECORD_VIOLATIONS = `
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__cspViolations.push(e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') + ' at ' + e.sourceFile + ':' + e.lineNumber);
  });
`;

export async function watchedPage(browser: Browser): Promise<Watched> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  await context.addInitScript(RECORD_VIOLATIONS);
  const page = await context.newPage();
  const watched: Watched = { context, page, problems: [], dialogs: [], expected: [] };
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') watched.problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => watched.problems.push(`page error: ${e.message}`));
  page.on('dialog', (d) => {
    const expected = watched.expected[0]?.type === d.type() ? watched.expected.shift() : undefined;
    if (!expected) {
      watched.dialogs.push(`${d.type()}: ${d.message()}`);
      return void d.dismiss();
    }
    void (expected.accept ? d.accept() : d.dismiss()).then(() => expected.seen(d.message()));
  });
  return watched;
}

/** Every CSP violation any frame of the page recorded. */
export async function cspViolations(page: Page): Promise<string[]> {
  const all: string[] = [];
  for (const frame of page.frames()) {
    const found = (await frame.evaluate('window.__cspViolations || []').catch(() => [])) as string[];
    all.push(...found.map((v) => `${frame.url()}: ${v}`));
  }
  return all;
}

/** Signs in through the login page; ends on the page `next` names. */
export async function signIn(page: Page, base: string, token: string, next = '/'): Promise<void> {
  await page.goto(`${base}${next}`);
  await page.waitForURL(/\/login\?next=/);
  await page.fill('#token', token);
  await Promise.all([page.waitForURL((url) => !url.pathname.startsWith('/login')), page.click('button[type=submit]')]);
  await page.waitForSelector('body[data-ready="true"]');
}

/** The session's secret, where the console keeps it: this origin's localStorage (console/session.ts). */
export async function secretOf(page: Page): Promise<string | null> {
  return (await page.evaluate("localStorage.getItem('ptas-console-session')")) as string | null;
}

/** The headers the console's own calls carry: its secret as the bearer (the context sends the cookie). */
export async function bearerOf(page: Page): Promise<Record<string, string>> {
  return { authorization: `Bearer ${await secretOf(page)}` };
}

/**
 * Replaces the editor's text as a paste does (CodeMirror handles the event
 * itself). Not keyboard.insertText: Chromium's own contenteditable editing
 * then writes a style attribute on the new line before CodeMirror redraws
 * it, which the policy blocks (a harmless but logged violation).
 */
export async function pasteIntoEditor(page: Page, text: string): Promise<void> {
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.evaluate(`(() => {
    const data = new DataTransfer();
    data.setData('text/plain', ${JSON.stringify(text)});
    document.querySelector('.cm-content').dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  })()`);
}

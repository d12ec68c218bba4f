// The headers every console response carries. Pages get the strict policy:
// nothing but the console's own script, stylesheet and endpoints, no inline
// script, no framing by others. CodeMirror adds its styles as <style>
// elements; the shell allows exactly those by a nonce fresh for each response
// (handed to CodeMirror through EditorView.cspNonce, console/editor.ts).
// A run's report is framed by the console but keeps its own policy (the
// hashes of its inline script and style, reports/html/embed.ts), sandboxed.
import { randomBytes } from 'node:crypto';

export function newNonce(): string {
  return randomBytes(18).toString('base64');
}

/** The console pages' policy; `styleNonce` adds 'nonce-…' to style-src for CodeMirror's style elements. */
export function consolePolicy(styleNonce?: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self'${styleNonce ? ` 'nonce-${styleNonce}'` : ''}`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "frame-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const REPORT_META_CSP = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i;

/**
 * A report's own policy (its meta element's, which allows its inline script
 * and style by hash), as a header that also lets only the console frame it
 * and sandboxes it: scripts run, in an origin of their own, so nothing in a
 * report (evidence comes from hostile servers) can reach the console's
 * cookies or pages. A report without that meta element runs no script.
 */
export function reportPolicy(html: string): string {
  const own = REPORT_META_CSP.exec(html)?.[1]?.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  const base = own && /^[\x20-\x7e]*$/.test(own) ? own : "default-src 'none'; style-src 'unsafe-inline'";
  return `${base}; frame-ancestors 'self'; sandbox allow-scripts allow-downloads`;
}

/**
 * Headers every console answer carries, besides its policy. The referrer
 * stays on the console's own origin: with no-referrer at all, Chromium sends
 * its forms' POSTs with "Origin: null", which the console refuses as another
 * origin's (access.ts).
 */
export const COMMON_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

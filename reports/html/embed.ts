// Safe embedding of data and code in the one-file report.
import { createHash } from 'node:crypto';

/**
 * JSON for a <script type="application/json"> element. Evidence comes from
 * hostile servers: escaping <, > and & keeps any "</script>" or "<!--" in it
 * from ending the element; U+2028/2029 are escaped for old JS parsers.
 */
export function jsonForScriptElement(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A CSP source expression allowing exactly this inline script or style. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * Nothing may load or connect anywhere; only our own inline script and style
 * (by hash) run. The report opens from file:// and offline. A page without a
 * script (the history page) allows none: default-src 'none' covers it.
 */
export function contentSecurityPolicy(script: string | undefined, style: string): string {
  return [
    "default-src 'none'",
    ...(script === undefined ? [] : [`script-src ${cspHash(script)}`]),
    `style-src ${cspHash(style)}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

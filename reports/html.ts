// index.html: one self-contained page (no external requests) with the
// verdict, the counts and every check with its evidence.
import type { RunResults } from '../src/results/model.ts';
import type { CheckResult } from '../src/check/model.ts';
import { escapeXml as esc } from './escape.ts';

function evidence(check: CheckResult): string {
  return check.evidence
    .map((e) => {
      const req = `${e.request.method} ${e.request.url}\n${Object.entries(e.request.headers).map(([k, v]) => `${k}: ${v}`).join('\n')}${e.request.body ? `\n\n${e.request.body}` : ''}`;
      const res = e.response
        ? `${e.response.status}\n${Object.entries(e.response.headers).map(([k, v]) => `${k}: ${v}`).join('\n')}${e.response.body ? `\n\n${e.response.body}` : ''}`
        : `no response: ${e.error?.code} ${e.error?.message}`;
      return `<div class="exchange"><h4>${esc(e.label ?? 'exchange')} <small>${e.durationMs} ms</small></h4><pre>${esc(req)}</pre><pre>${esc(res)}</pre><pre class="curl">${esc(e.curl)}</pre></div>`;
    })
    .join('');
}

export function renderHtml(results: RunResults): string {
  const rows = results.checks
    .map(
      (c) =>
        `<details class="check ${c.verdict}"><summary><span class="v">${c.verdict}</span> ${esc(c.id)} — ${esc(c.title)} <small>${esc(c.requirements.join(', '))} · ${c.severity}</small>${c.reason ? `<div class="reason">${esc(c.reason)}</div>` : ''}</summary>${evidence(c)}</details>`,
    )
    .join('\n');
  const counts = Object.entries(results.counts).map(([v, n]) => `<span class="count ${v}">${v} ${n}</span>`).join(' ');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>ptas: ${esc(results.verdict)}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>body{font:14px system-ui,sans-serif;margin:2em}pre{background:#f6f6f6;padding:.5em;overflow:auto;white-space:pre-wrap}.FAIL .v,.ERROR .v{color:#b00}.PASS .v{color:#070}.WARN .v{color:#a60}.reason{margin-left:2em;color:#444}</style></head>
<body><h1 id="verdict">${esc(results.verdict)}</h1><p>${esc(results.run.target)} · suite ${esc(results.run.suiteVersion)} · ${esc(results.run.specVersion)}</p><p>${counts}</p>${rows}</body></html>`;
}

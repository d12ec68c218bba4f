// /share/<token>: a run's report for whoever holds the link, without login,
// read-only, until the link is revoked. The report is one self-contained page
// (reports/html.ts) with its own Content-Security-Policy meta; the same
// policy is sent as a header (with frame-ancestors and sandbox, which only a
// header can carry), with nosniff and no referrer. The page is served from
// the lab's origin and shows evidence from hostile servers, so it runs
// sandboxed as the console runs a report in its frame
// (console/security-headers.ts reportPolicy): its script runs, in an opaque
// origin of its own, so nothing in it reads the lab's cookies or storage or
// calls the lab as whoever opened the link. A note above the report says it
// is shared and until when, and links /share/<token>/bundle, the archive. An
// expired link answers 404 as a revoked one does.
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors.ts';
import { SHARE_TOKEN_PATTERN, type ShareInfo } from '../shares.ts';
import type { ServeServices } from '../services.ts';
import { sendArchive } from './runs.ts';
import { escapeXml } from '../../../reports/escape.ts';

const params = {
  type: 'object',
  required: ['token'],
  additionalProperties: false,
  properties: { token: { type: 'string', pattern: SHARE_TOKEN_PATTERN } },
} as const;

/** What a report page allows when it names no policy of its own: nothing. */
const FALLBACK_POLICY = "default-src 'none'";

/**
 * What the report may do in its sandbox: the console's allowances for its
 * framed report, no more (test/hardening/share-sandbox.test.ts holds the two
 * equal): scripts (the page draws itself and expands each check's compressed
 * evidence) and downloads. No allow-same-origin, so its origin is opaque.
 */
export const REPORT_SANDBOX = 'sandbox allow-scripts allow-downloads';

/** The page's own policy (its CSP meta), no framing, and the sandbox. */
export function reportPolicy(html: string): string {
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/i.exec(html)?.[1]?.replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&amp;', '&');
  return `${meta ?? FALLBACK_POLICY}; frame-ancestors 'none'; ${REPORT_SANDBOX}`;
}

/**
 * The report as a share link shows it: a note above it says that it is
 * shared, read-only, until when, and links the run's bundle (relative to the
 * link, so no address is written in). Static HTML in the report's own
 * classes: the report's policy allows no other style and no script of ours.
 */
export function withSharedNote(html: string, share: ShareInfo, token: string): string {
  const until = share.expiresAt ? `until ${share.expiresAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}` : 'until it is revoked';
  const note = `<p class="notice notice-info" id="shared-note" data-expires-at="${escapeXml(share.expiresAt ?? '')}">A read-only share link to this run's report, valid ${escapeXml(until)}. <a href="${escapeXml(token)}/bundle" download>Download the run's bundle</a> (the report, results.json, junit.xml and the signed manifest: <code>ptas verify</code> checks it).</p>`;
  return html.replace(/<body>\n?/, (body) => `${body}${note}\n`);
}

export async function shareRoutes(app: FastifyInstance, services: ServeServices): Promise<void> {
  const shareOf = (token: string): ShareInfo => {
    const share = services.shares.resolve(token);
    if (!share) throw notFound('this share link (it expired, was revoked, or was never made)');
    return share;
  };

  app.get<{ Params: { token: string } }>('/share/:token', { schema: { params } }, async (request, reply) => {
    const share = shareOf(request.params.token);
    const html = withSharedNote(readFileSync(services.runs.reportFile(share.runId), 'utf8'), share, request.params.token);
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', reportPolicy(html))
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'private, no-store')
      .header('x-robots-tag', 'noindex')
      .send(html);
  });

  app.get<{ Params: { token: string } }>('/share/:token/bundle', { schema: { params } }, async (request, reply) =>
    sendArchive(reply.header('referrer-policy', 'no-referrer').header('cache-control', 'private, no-store'), services.runs.archive(shareOf(request.params.token).runId)),
  );
}

// /share/<token>: a run's report for whoever holds the link, without login,
// read-only, until the link is revoked. The report is one self-contained page
// (reports/html.ts) with its own Content-Security-Policy meta; the same
// policy is sent as a header (with frame-ancestors and sandbox, which only a
// header can carry), with nosniff and no referrer. The page is served from
// the lab's origin and shows evidence from hostile servers, so it runs
// sandboxed as the console runs a report in its frame
// (console/security-headers.ts reportPolicy): its script runs, in an opaque
// origin of its own, so nothing in it reads the lab's cookies or storage or
// calls the lab as whoever opened the link. /share/<token>/bundle is the
// archive.
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors.ts';
import { SHARE_TOKEN_PATTERN } from '../shares.ts';
import type { ServeServices } from '../services.ts';
import { sendArchive } from './runs.ts';

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

export async function shareRoutes(app: FastifyInstance, services: ServeServices): Promise<void> {
  const runOf = (token: string): string => {
    const runId = services.shares.resolve(token);
    if (!runId) throw notFound('this share link (it was revoked, or never made)');
    return runId;
  };

  app.get<{ Params: { token: string } }>('/share/:token', { schema: { params } }, async (request, reply) => {
    const html = readFileSync(services.runs.reportFile(runOf(request.params.token)), 'utf8');
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', reportPolicy(html))
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'private, no-store')
      .header('x-robots-tag', 'noindex')
      .send(html);
  });

  app.get<{ Params: { token: string } }>('/share/:token/bundle', { schema: { params } }, async (request, reply) =>
    sendArchive(reply.header('referrer-policy', 'no-referrer').header('cache-control', 'private, no-store'), services.runs.archive(runOf(request.params.token))),
  );
}

// Legitimate variants of the token endpoint's and accept-offer's limits
// (spec 7, 8): the spec names a rate limit (429) and a request size limit
// (413) but shows neither their values, nor the limiter's algorithm, nor what
// a 429 carries. Only the load stage sees them (observedByLoad). Switched on
// in reference/limits/rate-limiter.ts (the limiter and its 429 fields) and
// reference/limits/token-limits.ts (the body limit) by ctx.variants.has(name).
import type { Variant } from './types.ts';

const RATE_LIMIT_NOT_SHOWN =
  '8: "Rate limit (status 429) | Token endpoint, accept trade offer | not shown"; 7: "the condition that causes ... 429 ...: not shown"';
const SIZE_LIMIT_NOT_SHOWN = '8: "Request size limit (status 413) | Token endpoint | not shown"';
/** The header variants answer one question — what a 429 says about retrying — three ways. */
const HEADER_VARIANTS = ['rate-limit-no-retry-after', 'rate-limit-ietf-fields', 'rate-limit-legacy-fields'];
const others = (name: string, group: string[]) => group.filter((n) => n !== name);

export const loadVariants: Variant[] = [
  {
    name: 'rate-limit-no-retry-after',
    area: 'load',
    description: '429 answers of the token endpoint and of accept carry neither Retry-After nor any rate-limit field (RateLimit, RateLimit-Policy, X-RateLimit-*).',
    allowedBy: `${RATE_LIMIT_NOT_SHOWN}. The spec names no header of a 429, and RFC 9110 10.2.3 makes Retry-After optional ("MAY send").`,
    conflictsWith: others('rate-limit-no-retry-after', HEADER_VARIANTS),
    observedByLoad: true,
  },
  {
    name: 'rate-limit-ietf-fields',
    area: 'load',
    description:
      '429 answers carry the IETF RateLimit-Policy and RateLimit structured fields instead of Retry-After, with two quotas: the per-second one that refused (r=0) and an hourly one that still has room.',
    allowedBy: `${RATE_LIMIT_NOT_SHOWN}. How a 429 tells the client when to retry is not shown; draft-ietf-httpapi-ratelimit-headers fields are one way, and a list may name several quotas, of which the exhausted one explains the 429.`,
    conflictsWith: others('rate-limit-ietf-fields', HEADER_VARIANTS),
    observedByLoad: true,
  },
  {
    name: 'rate-limit-legacy-fields',
    area: 'load',
    description: '429 answers carry X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (a Unix time), and Retry-After as an HTTP-date instead of seconds.',
    allowedBy: `${RATE_LIMIT_NOT_SHOWN}. RFC 9110 10.2.3: Retry-After is "either an HTTP-date or a number of seconds"; the X-RateLimit-* fields are the de-facto gateway convention (REAL-API-NOTES: "rate-limit headers from the gateway").`,
    conflictsWith: others('rate-limit-legacy-fields', HEADER_VARIANTS),
    observedByLoad: true,
  },
  {
    name: 'rate-limit-fixed-window',
    area: 'load',
    description:
      'The token endpoint and accept are limited by fixed one-second windows (at most the rate per window, counted from the window\'s start) instead of a token bucket: a window\'s quota passes at once, then everything is refused until the next window.',
    allowedBy: `${RATE_LIMIT_NOT_SHOWN}. The limit's value and algorithm are not shown; a fixed window holds the same sustained rate as a bucket.`,
    conflictsWith: ['token-rate-limit-burstless'],
    observedByLoad: true,
  },
  {
    name: 'token-rate-limit-burstless',
    area: 'load',
    description:
      'The token endpoint\'s limiter has no burst allowance (a bucket of one token, as nginx limit_req without burst=): two requests closer together than 1/rate are refused, even well below the sustained rate.',
    allowedBy: `${RATE_LIMIT_NOT_SHOWN}. Whether a limit allows bursts is part of its value, which is not shown.`,
    conflictsWith: ['rate-limit-fixed-window'],
    observedByLoad: true,
  },
  {
    name: 'token-body-limit-above-probe-range',
    area: 'load',
    description:
      'The token endpoint\'s body limit is 4 MiB, four times the largest body the probe sends by default (1 MiB); the profile documents no limit, as the implementation states none.',
    allowedBy: `${SIZE_LIMIT_NOT_SHOWN}: any limit is allowed, including one above what a probe may send.`,
    observedByLoad: true,
    // A certification team writes down only the limit an implementation documents: this one documents none.
    adjustProfile: (profile) => {
      const { tokenBodyLimit: _dropped, ...load } = profile.load ?? {};
      return { ...profile, load };
    },
  },
  {
    name: 'token-body-limit-drained',
    area: 'load',
    description:
      'Above its body limit the token endpoint reads the whole body before answering 413, and keeps the connection open; a declared oversize Content-Length is waited for, not refused at once.',
    allowedBy: `${SIZE_LIMIT_NOT_SHOWN}; 7 leaves the conditions of 413 not shown. RFC 9110 15.5.14: the server "MAY close the connection" — closing early is allowed, not required.`,
    observedByLoad: true,
  },
];

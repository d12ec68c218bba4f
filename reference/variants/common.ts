// Legitimate variants common to every route (area 'all'): how JSON answers
// are labelled and shaped, which the spec leaves open for the whole
// interface. Switched on in reference/response-variants.ts, which sendJson
// and sendError (reference/http-util.ts) consult for every answer; the
// self-test runs every check against each of them.
import type { Variant } from './types.ts';

export const commonVariants: Variant[] = [
  {
    name: 'json-charset-utf8',
    area: 'all',
    description: 'Every JSON answer is labelled Content-Type: application/json; charset=utf-8 (application/problem+json; charset=utf-8 with error-body-problem-json).',
    allowedBy:
      '1 (preamble): "All request and response bodies are JSON (application/json)" names the media type; a parameter does not change it (RFC 9110 8.3.1: type/subtype followed by optional parameters), and how the Content-Type value is written is not shown.',
  },
  {
    name: 'error-body-problem-json',
    area: 'all',
    description:
      'Error answers carry an RFC 9457 problem document {type, title, status, detail} labelled application/problem+json instead of {"error":{"code","message"}}.',
    allowedBy:
      '7: "The error body shape, error codes inside bodies, and the condition that causes 400, 401, 403, 406, 409, 413, 429, 500 and 503: not shown." application/problem+json is a JSON media type (RFC 9457 3, the +json suffix of RFC 6839), so 1\'s "All request and response bodies are JSON" still holds.',
    conflictsWith: ['error-body-empty'],
  },
  {
    name: 'extra-response-fields',
    area: 'all',
    description:
      'Every JSON object answer carries members the spec does not list: token responses token_type "Bearer" and scope, `data` objects a `links` member, and every object a top-level `meta` {request_id, served_at} fresh per answer.',
    allowedBy:
      '2: "Types are taken from the documented payloads" — the tables list the fields a payload has, and none says it has no others; 2.5 leaves other resources\' fields "not shown" and 7 leaves the error body shape "not shown". Members nobody asked for contradict no listed field.',
  },
  {
    name: 'error-body-empty',
    area: 'all',
    description: 'Error answers (4xx and 5xx) carry no body at all: Content-Length: 0 and no Content-Type.',
    allowedBy:
      '7: "The error body shape, error codes inside bodies ... : not shown" — no sentence says an error answer has a body, and 1\'s "All request and response bodies are JSON (application/json)" constrains the bodies there are: an answer without a body has no body that could fail to be JSON. HTTP only recommends an explanation (RFC 9110 15.5: the server "SHOULD send a representation"), a recommendation the spec does not adopt; 6.1 shows the spec itself prescribing answers that have "no body".',
    conflictsWith: ['error-body-problem-json'],
  },
];

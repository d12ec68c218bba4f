// Legitimate variants common to every route (area 'all'): how JSON answers
// are labelled and shaped, which the spec leaves open for the whole
// interface. Switched on in reference/response-variants.ts, which sendJson
// and sendError (reference/http-util.ts) consult for every answer, and
// timestamps-iso8601-basic where each route writes its timestamps
// (reference/basic-format.ts); the self-test runs every check against each of them.
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
  {
    name: 'timestamps-iso8601-basic',
    area: 'all',
    description:
      'The timestamps of 2.2, 2.3 and 2.4 and the offers\' created_at and valid_until are written in ISO 8601 basic format: registered_at 20240101T113000+02 (a whole-hour offset as ±hh) or 20240101T093000Z, created_at 20261127T090000,123Z (a decimal comma), the trade time 20261127T100000.123+0100 (at +01:00).',
    allowedBy:
      '2.2 and 2.4: "ISO 8601 timestamp with UTC offset", 2.3: "ISO 8601 timestamp in UTC"; ISO 8601 has a basic format (no "-" and ":" separators) beside the extended one, a comma or a full stop before the fraction, and an offset written ±hhmm or ±hh in basic format. The spec names ISO 8601, not RFC 3339\'s narrower date-time.',
  },
];

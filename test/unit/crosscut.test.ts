// The cross-cutting check errors.error-bodies-are-json over recorded
// exchanges: which requests count (the four specified operations below the
// base address), what makes an error answer JSON, how a body evidence kept
// only in part is judged, and the verdict with its named offenders.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { clipForEvidence, type RecordedExchange } from '../../src/http/exchange.ts';
import { jsonPrefixProblem } from '../../src/crosscut/json-prefix.ts';
import { specifiedOperationOf } from '../../src/crosscut/specified-operations.ts';
import { errorBodiesAreJson } from '../../src/crosscut/error-bodies.ts';
import { isJsonMediaType } from '../../src/http/media-type.ts';
import { CROSSCUT_CHECKS } from '../../src/crosscut/index.ts';
import { requirementById } from '../../src/requirements.ts';

const BASE = 'http://127.0.0.1:8080';

function exchange(method: string, path: string, status: number, contentType: string | undefined, body: string | undefined, extra: { truncated?: boolean; id?: number; retryOf?: number } = {}): RecordedExchange {
  return {
    id: extra.id ?? 1,
    ...(extra.retryOf !== undefined ? { retryOf: extra.retryOf } : {}),
    startedAt: '2024-01-01T00:00:00.000Z',
    durationMs: 1,
    request: { method, url: `${BASE}${path}`, headers: {}, bodyBytes: 0 },
    response: {
      status,
      headers: contentType ? { 'content-type': contentType } : {},
      body: body === undefined || body === '' ? undefined : clipForEvidence(body),
      bodyBytes: body === undefined ? 0 : Buffer.byteLength(body),
      truncated: extra.truncated ?? false,
    },
    curl: 'curl',
  };
}

const checkWith = (id: string, ...evidence: RecordedExchange[]) => ({ id, evidence });
const USER = '/v2/users/0b6c1c56-6d0e-4a4e-9d0b-2f1f2e3d4c5b';
const JSON_ERROR = '{"error":{"code":"parameter_error","message":"grant_type"}}';

describe('jsonPrefixProblem', () => {
  test('a possible beginning of JSON has no problem', () => {
    for (const prefix of ['', '  ', '{', '{"a', '{"a":', '{"a": [1, 2.5e', '[tr', '"abc\\u00', '-', '{"a":{"b":[null,false,{}]},"c', '0', '[0.']) {
      assert.equal(jsonPrefixProblem(prefix), undefined, JSON.stringify(prefix));
    }
  });

  test('a beginning that breaks the grammar is named with its offset', () => {
    for (const [prefix, offset] of [
      ['<html>', 0],
      ['Unauthorized', 0],
      ['{a', 1],
      ['{"a" 1', 5],
      ['[1 2', 3],
      ['[01', 2],
      ['{"a":tru3', 8],
      ['"a\\x', 3],
      ['{}x', 2],
      ['[1,]', 3],
      ['"tab\there"', 4],
      ['{"a":1}}', 7],
    ] as const) {
      assert.equal(jsonPrefixProblem(prefix)?.offset, offset, JSON.stringify(prefix));
    }
  });

  test('every complete JSON text is a possible beginning of itself', () => {
    for (const text of [JSON_ERROR, '{"type":"about:blank","status":422}', '[1,-2.5E+3,"x\\n",true,null]', '  "s"  ', '12']) {
      assert.equal(jsonPrefixProblem(text), undefined, text);
    }
  });
});

describe('specifiedOperationOf', () => {
  test('the four specified operations, by method and path below the base address', () => {
    assert.equal(specifiedOperationOf('POST', `${BASE}/v1/oauth/token`, BASE), 'token');
    assert.equal(specifiedOperationOf('get', `${BASE}${USER}?user_flow=onboard`, BASE), 'userDetails');
    assert.equal(specifiedOperationOf('POST', `${BASE}/v1/crypto-transfers/addresses/withdrawals`, BASE), 'withdrawalAddress');
    assert.equal(specifiedOperationOf('PATCH', `${BASE}/v1/offers/abc/accept?external_transaction_id=1`, BASE), 'acceptOffer');
    assert.equal(specifiedOperationOf('POST', 'https://api.example/partner/v1/oauth/token', 'https://api.example/partner/'), 'token');
  });

  test('other operations, methods and addresses are not specified operations', () => {
    assert.equal(specifiedOperationOf('GET', `${BASE}/v1/oauth/token`, BASE), undefined);
    assert.equal(specifiedOperationOf('POST', `${BASE}/reference/offers`, BASE), undefined);
    assert.equal(specifiedOperationOf('GET', `${BASE}/.well-known/jwks.json`, BASE), undefined);
    assert.equal(specifiedOperationOf('GET', `${BASE}/v1/offers/abc`, BASE), undefined);
    assert.equal(specifiedOperationOf('POST', 'http://127.0.0.1:9999/v1/oauth/token', BASE), undefined, 'another origin (a webhook receiver)');
    assert.equal(specifiedOperationOf('POST', 'https://api.example/v1/oauth/token', 'https://api.example/partner'), undefined, 'outside the base path');
  });
});

describe('isJsonMediaType', () => {
  test('application/json and +json types, with parameters', () => {
    for (const type of ['application/json', 'Application/JSON; charset=utf-8', 'application/problem+json', 'application/vnd.api+json;v=1']) assert.ok(isJsonMediaType(type), type);
    for (const type of [undefined, '', 'text/plain', 'text/html; charset=utf-8', 'application/jsonp', 'application/json-seq']) assert.ok(!isJsonMediaType(type), String(type));
  });
});

describe('errors.error-bodies-are-json', () => {
  test('is listed with a requirement that quotes section 1', () => {
    assert.deepEqual(CROSSCUT_CHECKS.map((c) => c.id), ['errors.error-bodies-are-json']);
    assert.equal(requirementById('ERROR-BODIES-JSON')?.quote, 'All request and response bodies are JSON (application/json).');
  });

  test('PASS over JSON error bodies and error answers without a body; successes and other operations are not judged', () => {
    const result = errorBodiesAreJson(
      'reference',
      [
        checkWith('auth.a', exchange('POST', '/v1/oauth/token', 422, 'application/json', JSON_ERROR), exchange('POST', '/v1/oauth/token', 200, 'text/plain', 'not judged')),
        checkWith('users.b', exchange('GET', USER, 401, 'application/problem+json; charset=utf-8', '{"status":401}'), exchange('GET', USER, 404, undefined, undefined)),
        checkWith('trading.c', exchange('POST', '/reference/offers', 500, 'text/html', '<html>')),
      ],
      { baseUrl: BASE },
    );
    assert.equal(result.verdict, 'PASS', result.reason);
    assert.equal(result.target, 'reference');
    assert.match(result.findings[0]!.message, /2 error answer\(s\) with a body from 2 check\(s\).*1 without a body/);
  });

  test('FAIL names every offending exchange with check, method, path, status and Content-Type, quoting section 1', () => {
    const result = errorBodiesAreJson(
      'reference',
      [
        checkWith('auth.a', exchange('POST', '/v1/oauth/token', 422, 'text/plain', 'parameter_error: grant_type'), exchange('POST', '/v1/oauth/token', 422, 'application/json', JSON_ERROR)),
        checkWith('trading.b', exchange('PATCH', '/v1/offers/o1/accept', 409, 'application/json', 'conflict')),
        checkWith('crypto-transfers.c', exchange('POST', '/v1/crypto-transfers/addresses/withdrawals', 400, undefined, '{"error":"x"}')),
      ],
      { baseUrl: BASE },
    );
    assert.equal(result.verdict, 'FAIL');
    assert.match(result.reason!, /^3 of 4 error answer/);
    assert.match(result.reason!, /auth\.a: POST \/v1\/oauth\/token → 422 \(text\/plain, body not JSON\)/);
    assert.match(result.reason!, /trading\.b: PATCH \/v1\/offers\/o1\/accept → 409 \(application\/json, body not JSON\)/);
    assert.match(result.reason!, /crypto-transfers\.c: POST \/v1\/crypto-transfers\/addresses\/withdrawals → 400 \(no Content-Type\)/);
    assert.equal(result.basis?.quote, 'All request and response bodies are JSON (application/json).');
    const offending = result.details!.offending as Array<{ check: string; problem: string }>;
    assert.deepEqual(offending.map((o) => o.check), ['auth.a', 'trading.b', 'crypto-transfers.c']);
    assert.match(offending[0]!.problem, /^labelled text\/plain; the body is not JSON/);
    assert.equal(offending[2]!.problem, 'no Content-Type');
    assert.equal(result.evidence.length, 3);
    assert.deepEqual(result.evidence.map((e) => e.id), [1, 2, 3], 'evidence renumbered: ids of different checks collide');
    assert.match(result.evidence[0]!.label!, /^auth\.a: /);
  });

  test('a body kept only in part: a non-JSON beginning FAILs, a JSON beginning is REVIEW, never a silent PASS', () => {
    const longJson = JSON.stringify({ error: { code: 'x', message: 'y'.repeat(20_000) } });
    const longHtml = `<html>${'x'.repeat(20_000)}</html>`;
    const review = errorBodiesAreJson('t', [checkWith('users.a', exchange('GET', USER, 400, 'application/json', longJson))], { baseUrl: BASE });
    assert.equal(review.verdict, 'REVIEW', review.reason);
    assert.match(review.reason!, /kept beginning is JSON so far/);
    const cutAtCap = errorBodiesAreJson('t', [checkWith('users.a', exchange('GET', USER, 400, 'application/json', '{"error":', { truncated: true }))], { baseUrl: BASE });
    assert.equal(cutAtCap.verdict, 'REVIEW', 'a body cut off at the response cap is not complete either');
    const fail = errorBodiesAreJson('t', [checkWith('users.a', exchange('GET', USER, 400, 'application/json', longHtml))], { baseUrl: BASE });
    assert.equal(fail.verdict, 'FAIL');
    assert.match((fail.details!.offending as Array<{ problem: string }>)[0]!.problem, /not the start of a JSON value at character 1/);
  });

  test('a check that repeats one offending request is named once, counted', () => {
    const refused = () => exchange('GET', USER, 401, 'text/plain', 'unauthorized');
    const result = errorBodiesAreJson('t', [checkWith('auth.a', refused(), refused(), refused())], { baseUrl: BASE });
    assert.equal(result.verdict, 'FAIL');
    assert.match(result.reason!, /^3 of 3 .*auth\.a: GET \/v2\/users\/\S+ → 401 \(text\/plain, body not JSON\) ×3$/);
    assert.equal((result.details!.offending as unknown[]).length, 3, 'the details name each exchange');
  });

  test('a gateway status the operation\'s row does not list (502, 504, 503 where unlisted) is never judged; a listed 503 is, a proxy\'s page included', () => {
    const page = (status: number) => `<html><head><title>${status}</title></head><body>nginx</body></html>`;
    const gateway = errorBodiesAreJson(
      't',
      [
        checkWith('auth.a', exchange('POST', '/v1/oauth/token', 503, 'text/html', page(503)), exchange('POST', '/v1/oauth/token', 422, 'application/json', JSON_ERROR)),
        checkWith('users.b', exchange('GET', USER, 502, 'text/html', page(502)), exchange('GET', USER, 504, 'text/html', page(504))),
        checkWith('trading.c', exchange('PATCH', '/v1/offers/o1/accept', 502, 'text/html', page(502))),
      ],
      { baseUrl: BASE },
    );
    assert.equal(gateway.verdict, 'PASS', gateway.reason);
    const messages = gateway.findings.map((f) => f.message).join('\n');
    assert.match(messages, /4 gateway answer\(s\) that the operation's section 7 row does not list \(the token endpoint 503 ×1; user details v2 502 ×1, 504 ×1; accept trade offer 502 ×1\) were not judged/);
    assert.match(messages, /1 error answer\(s\) with a body from 1 check\(s\) \(the token endpoint 422\)/, 'only the 422 was judged');
    const onlyGateway = errorBodiesAreJson('t', [checkWith('auth.a', exchange('POST', '/v1/oauth/token', 503, 'text/html', page(503)))], { baseUrl: BASE });
    assert.equal(onlyGateway.verdict, 'SKIP');
    assert.match(onlyGateway.reason!, /other than gateway answers; 1 gateway answer/);
    for (const [method, path, status] of [['GET', USER, 503], ['POST', '/v1/crypto-transfers/addresses/withdrawals', 503], ['PATCH', '/v1/offers/o1/accept', 503], ['GET', USER, 429], ['PATCH', '/v1/offers/o1/accept', 413]] as const) {
      const listed = errorBodiesAreJson('t', [checkWith('x.a', exchange(method, path, status, 'text/html', page(status)))], { baseUrl: BASE });
      assert.equal(listed.verdict, 'FAIL', `${method} ${path} ${status}: the row lists it, or section 8 names it`);
      assert.equal(listed.basis?.quote, 'All request and response bodies are JSON (application/json).');
    }
  });

  test('an attempt the client asked again after and got past is at most WARN; the answer it stopped at still FAILs', () => {
    const page = '<html><body>Service Temporarily Unavailable</body></html>';
    const gotPast = errorBodiesAreJson(
      't',
      [checkWith('users.a', exchange('GET', USER, 503, 'text/html', page, { id: 7 }), exchange('GET', USER, 200, 'application/json', '{"data":{}}', { id: 8, retryOf: 7 }))],
      { baseUrl: BASE },
    );
    assert.equal(gotPast.verdict, 'WARN', gotPast.reason);
    assert.match(gotPast.reason!, /^1 error answer\(s\) the client asked again after, and got past, are not JSON \(application\/json\): users\.a: GET \S+ → 503 \(text\/html, body not JSON\); an attempt a retry got past is judged at most WARN$/);
    assert.equal(gotPast.evidence.length, 1);
    // Still 503 at the last attempt: the client stopped there, and that page is the answer the operation gave.
    const attempts = [1, 2, 3, 4].map((id) => exchange('GET', USER, 503, 'text/html', page, { id, ...(id > 1 ? { retryOf: id - 1 } : {}) }));
    const stayed = errorBodiesAreJson('t', [checkWith('users.a', ...attempts)], { baseUrl: BASE });
    assert.equal(stayed.verdict, 'FAIL');
    assert.deepEqual((stayed.details!.offending as Array<{ exchangeInCheck: number }>).map((o) => o.exchangeInCheck), [4]);
    assert.ok(stayed.findings.some((f) => f.level === 'WARN' && /^3 error answer\(s\) the client asked again after/.test(f.message)));
  });

  test('a declared intermediary\'s page on one of its statuses is a WARN naming it; other statuses stay the implementation\'s', () => {
    const html = (status: number) => exchange('GET', USER, status, 'text/html', `<html>${status}</html>`);
    const lb = { name: 'edge load balancer' };
    const its = errorBodiesAreJson('t', [checkWith('users.a', html(503))], { baseUrl: BASE, intermediary: lb });
    assert.equal(its.verdict, 'WARN', its.reason);
    assert.match(its.reason!, /with a status the declared intermediary "edge load balancer" \(http\.intermediary: 502, 503, 504\) answers itself are not JSON .*: its pages, not the service's$/);
    const notIts = errorBodiesAreJson('t', [checkWith('users.a', html(503), html(404))], { baseUrl: BASE, intermediary: lb });
    assert.equal(notIts.verdict, 'FAIL', 'a 404 is not among its statuses: the implementation\'s page');
    assert.match(notIts.reason!, /^1 of 2 .*→ 404/);
    const declared429 = errorBodiesAreJson('t', [checkWith('auth.a', exchange('POST', '/v1/oauth/token', 429, 'text/html', '<html>slow down</html>'))], { baseUrl: BASE, intermediary: { name: 'API gateway', statuses: [429] } });
    assert.equal(declared429.verdict, 'WARN', 'a 429 it declares answering itself');
    assert.match(declared429.reason!, /"API gateway" \(http\.intermediary: 429\)/);
  });

  test('SKIP when no check recorded an error answer of a specified operation', () => {
    const result = errorBodiesAreJson('t', [checkWith('webhooks.a', exchange('POST', '/v1/oauth/token', 200, 'application/json', '{}'))], { baseUrl: BASE });
    assert.equal(result.verdict, 'SKIP');
    assert.ok(result.reason);
  });
});

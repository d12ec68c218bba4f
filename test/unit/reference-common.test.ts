// What every route of the reference shares, over real HTTP: the default JSON
// labelling and error shape, each common variant of
// reference/variants/common.ts (applied through the per-request response
// scope, also to answers written after the request body was read) and the
// error-bodies-text-plain fault the cross-cutting check must catch.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startReference } from '../../reference/server.ts';
import { seedUsers } from '../../reference/fixtures/users.ts';
import type { ReferenceOptions } from '../../reference/options.ts';
import { commonVariants } from '../../reference/variants/common.ts';
import { compatibleVariants } from '../../reference/variants/index.ts';
import { describeSchemaErrors, validateAgainst } from '../../src/schemas/registry.ts';
import { isJsonMediaType } from '../../src/http/media-type.ts';

interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

type Ask = (path: string, init?: RequestInit) => Promise<Answer>;

interface Helpers {
  ask: Ask;
  bearer: () => Promise<string>;
  userId: string;
}

async function withReference(overrides: Partial<ReferenceOptions>, body: (helpers: Helpers) => Promise<void>): Promise<void> {
  const ref = await startReference({ port: 0, tokenRatePerSecond: 1_000, tokenBurst: 1_000, ...overrides });
  const ask: Ask = async (path, init) => {
    const res = await fetch(`${ref.url}${path}`, init);
    return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() };
  };
  const bearer = async () => {
    const answer = await ask('/v1/oauth/token', tokenRequest({ grant_type: 'client_credentials', client_id: ref.options.clientId, client_secret: ref.options.clientSecret }));
    return (JSON.parse(answer.text) as { access_token: string }).access_token;
  };
  try {
    await body({ ask, bearer, userId: seedUsers(ref.options.seed)[0]!.id });
  } finally {
    await ref.close();
  }
}

function tokenRequest(fields: Record<string, unknown>): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fields) };
}

/** A parameter error of the token endpoint: answered after the request body was read (an await away from the request). */
const PARAMETER_ERROR = tokenRequest({ grant_type: 'password', client_id: 'x' });

describe('common answers by default', () => {
  test('JSON is labelled application/json and errors carry {"error":{"code","message"}}', async () => {
    await withReference({}, async ({ ask }) => {
      const refused = await ask('/v1/oauth/token', PARAMETER_ERROR);
      assert.equal(refused.status, 422);
      assert.equal(refused.contentType, 'application/json');
      const body = JSON.parse(refused.text) as { error: { code: string; message: string } };
      assert.equal(typeof body.error.code, 'string');
      assert.equal(typeof body.error.message, 'string');
      const unrouted = await ask('/v9/nothing');
      assert.equal(unrouted.status, 404);
      assert.equal(unrouted.contentType, 'application/json');
    });
  });
});

describe('common variants', () => {
  test('the catalogue documents each variant, and the two error shapes are never combined', () => {
    for (const variant of commonVariants) {
      assert.equal(variant.area, 'all');
      assert.ok(variant.allowedBy.length > 40, `${variant.name} cites the clause that allows it`);
    }
    const together = compatibleVariants(commonVariants);
    assert.ok(!(together.includes('error-body-problem-json') && together.includes('error-body-empty')));
  });

  test('json-charset-utf8: every JSON answer, success or error, says charset=utf-8', async () => {
    await withReference({ variants: ['json-charset-utf8'] }, async ({ ask, bearer, userId }) => {
      const token = await bearer();
      const details = await ask(`/v2/users/${userId}`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(details.contentType, 'application/json; charset=utf-8');
      assert.equal((await ask('/v1/oauth/token', PARAMETER_ERROR)).contentType, 'application/json; charset=utf-8');
      assert.equal((await ask(`/v2/users/${userId}`)).contentType, 'application/json; charset=utf-8', 'the 401 too');
    });
  });

  test('error-body-problem-json: RFC 9457 problem documents, also after the body was read and from the router', async () => {
    await withReference({ variants: ['error-body-problem-json', 'json-charset-utf8'] }, async ({ ask }) => {
      for (const [path, init, status] of [
        ['/v1/oauth/token', PARAMETER_ERROR, 422],
        ['/v2/users/00000000-0000-4000-8000-000000000000', undefined, 401],
        ['/v9/nothing', undefined, 404],
      ] as const) {
        const answer = await ask(path, init);
        assert.equal(answer.status, status, path);
        assert.equal(answer.contentType, 'application/problem+json; charset=utf-8', path);
        const problem = JSON.parse(answer.text) as Record<string, unknown>;
        assert.equal(problem.status, status);
        for (const member of ['type', 'title', 'detail']) assert.equal(typeof problem[member], 'string', `${path} ${member}`);
        assert.equal(problem.error, undefined);
      }
    });
  });

  test('extra-response-fields: token_type, scope, a links member in data and a fresh meta, payloads still valid', async () => {
    await withReference({ variants: ['extra-response-fields'] }, async ({ ask, bearer, userId }) => {
      const issued = await ask('/v1/oauth/token', tokenRequest({ grant_type: 'client_credentials', client_id: 'ptas-reference-client', client_secret: 'reference-demo-secret-change-me' }));
      const pair = JSON.parse(issued.text) as Record<string, unknown>;
      assert.equal(pair.token_type, 'Bearer');
      assert.equal(typeof pair.scope, 'string');
      assert.deepEqual(validateAgainst('token-response.schema.json', pair), []);

      const token = await bearer();
      const first = JSON.parse((await ask(`/v2/users/${userId}`, { headers: { authorization: `Bearer ${token}` } })).text) as { data: Record<string, unknown>; meta: { request_id: string } };
      const second = JSON.parse((await ask(`/v2/users/${userId}`, { headers: { authorization: `Bearer ${token}` } })).text) as typeof first;
      const errors = validateAgainst('user-details.schema.json', first);
      assert.deepEqual(errors, [], describeSchemaErrors(errors));
      assert.equal(first.data.id, userId, 'the members the route set are kept');
      assert.deepEqual(first.data.links, { self: `/v2/users/${userId}` });
      assert.notEqual(first.meta.request_id, second.meta.request_id, 'meta is fresh per answer');

      const refused = JSON.parse((await ask('/v1/oauth/token', PARAMETER_ERROR)).text) as Record<string, unknown>;
      assert.ok(refused.error && refused.meta, 'error bodies get meta too');
    });
  });

  test('error-body-empty: error answers have no body and no Content-Type; successes keep theirs', async () => {
    await withReference({ variants: ['error-body-empty'] }, async ({ ask, bearer }) => {
      for (const [path, init] of [['/v1/oauth/token', PARAMETER_ERROR], ['/v2/users/00000000-0000-4000-8000-000000000000', undefined], ['/v9/nothing', undefined]] as const) {
        const answer = await ask(path, init);
        assert.ok(answer.status >= 400, path);
        assert.equal(answer.text, '', path);
        assert.equal(answer.contentType, null, path);
      }
      assert.ok((await bearer()).length > 20, 'a 200 still carries its JSON body');
    });
  });
});

describe('error-bodies-text-plain fault', () => {
  test('4xx of the token endpoint and user details are text/plain; other answers stay JSON', async () => {
    await withReference({ faults: ['error-bodies-text-plain'] }, async ({ ask, bearer, userId }) => {
      const token = await ask('/v1/oauth/token', PARAMETER_ERROR);
      assert.equal(token.status, 422);
      assert.equal(token.contentType, 'text/plain');
      assert.throws(() => JSON.parse(token.text));
      const details = await ask('/v2/users/00000000-0000-4000-8000-000000000000', { headers: { authorization: `Bearer ${await bearer()}` } });
      assert.equal(details.status, 404);
      assert.equal(details.contentType, 'text/plain');
      const ok = await ask(`/v2/users/${userId}`, { headers: { authorization: `Bearer ${await bearer()}` } });
      assert.ok(isJsonMediaType(ok.contentType ?? undefined), 'a 200 stays JSON');
      const withdrawal = await ask('/v1/crypto-transfers/addresses/withdrawals', { method: 'POST' });
      assert.ok(withdrawal.status >= 400 && isJsonMediaType(withdrawal.contentType ?? undefined), 'other operations keep JSON errors');
    });
  });
});

// The reference's token endpoint over real HTTP (spec 4.1, 2.1, 5): its
// default answers, each legitimate variant of reference/variants/auth.ts
// (a behaviour the spec allows, switched on per server) and the faults that
// the refresh checks added with issue 11 must catch. Every 200 is validated
// against the suite's own token-response schema.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { seedUsers } from '../../reference/fixtures/users.ts';
import { referenceProfile } from '../../reference/profile.ts';
import type { ReferenceOptions } from '../../reference/options.ts';
import { authVariants } from '../../reference/variants/auth.ts';
import { describeSchemaErrors, validateAgainst } from '../../src/schemas/registry.ts';

interface Answer {
  status: number;
  json: any;
}

/** A reference on a free port with helpers for its token endpoint; closed by the caller. */
async function tokenReference(overrides: Partial<ReferenceOptions> = {}) {
  const ref: RunningReference = await startReference({ port: 0, tokenRatePerSecond: 1_000, tokenBurst: 1_000, ...overrides });
  const post = async (body: string, contentType = 'application/json'): Promise<Answer> => {
    const res = await fetch(`${ref.url}/v1/oauth/token`, { method: 'POST', headers: { 'content-type': contentType }, body });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  };
  const token = (fields: Record<string, string>) => post(JSON.stringify(fields));
  const issue = () => token({ grant_type: 'client_credentials', client_id: ref.options.clientId, client_secret: ref.options.clientSecret });
  const refresh = (refreshToken: string, clientId = ref.options.clientId) => token({ grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken });
  const userDetails = async (bearer: string) =>
    (await fetch(`${ref.url}/v2/users/${seedUsers(ref.options.seed)[0]!.id}`, { headers: { authorization: `Bearer ${bearer}` } })).status;
  return { ref, post, issue, refresh, userDetails };
}

async function withReference(overrides: Partial<ReferenceOptions>, body: (r: Awaited<ReturnType<typeof tokenReference>>) => Promise<void>): Promise<void> {
  const r = await tokenReference(overrides);
  try {
    await body(r);
  } finally {
    await r.ref.close();
  }
}

function assertTokenResponse(answer: Answer, schema = 'token-response.schema.json'): void {
  assert.equal(answer.status, 200, JSON.stringify(answer.json));
  const errors = validateAgainst(schema, answer.json);
  assert.deepEqual(errors, [], describeSchemaErrors(errors));
}

const REFRESH_SCHEMA = 'token-response.schema.json#/$defs/refreshResponse';

describe('token endpoint defaults', () => {
  test('a refresh hands out a new refresh token; the used one is refused, also for another client', async () => {
    await withReference({}, async ({ ref, issue, refresh, userDetails }) => {
      const pair = await issue();
      assertTokenResponse(pair);
      assert.equal((await refresh(pair.json.refresh_token, ref.options.ownLicenceClientId)).status, 422, "another client's client_id is refused");
      const renewed = await refresh(pair.json.refresh_token);
      assertTokenResponse(renewed);
      assert.notEqual(renewed.json.refresh_token, pair.json.refresh_token);
      assert.equal(await userDetails(renewed.json.access_token), 200, 'the refreshed access token opens the API');
      assert.equal((await refresh(pair.json.refresh_token)).status, 422);
      assertTokenResponse(await refresh(renewed.json.refresh_token), REFRESH_SCHEMA);
    });
  });

  test('a form-encoded body is a parameter error', async () => {
    await withReference({}, async ({ ref, post }) => {
      const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: ref.options.clientId, client_secret: ref.options.clientSecret });
      assert.equal((await post(form.toString(), 'application/x-www-form-urlencoded')).status, 422);
    });
  });
});

describe('token endpoint variants (reference/variants/auth.ts)', () => {
  test('every variant cites what allows it', () => {
    for (const variant of authVariants) assert.match(variant.allowedBy, /\d(\.\d)?/, `${variant.name} cites no clause`);
  });

  test('refresh-omits-refresh-token: the refresh answers an access token only and still invalidates the used token', async () => {
    await withReference({ variants: ['refresh-omits-refresh-token'] }, async ({ issue, refresh, userDetails }) => {
      const pair = await issue();
      assert.ok(pair.json.refresh_token, 'client_credentials still issues a refresh token (4.1 rule 1)');
      const renewed = await refresh(pair.json.refresh_token);
      assertTokenResponse(renewed, REFRESH_SCHEMA);
      assert.equal(renewed.json.refresh_token, undefined);
      assert.equal(await userDetails(renewed.json.access_token), 200);
      assert.equal((await refresh(pair.json.refresh_token)).status, 422);
    });
  });

  test('refresh-reuse-revokes-family: reusing a used token revokes the tokens issued from it', async () => {
    await withReference({ variants: ['refresh-reuse-revokes-family'] }, async ({ issue, refresh }) => {
      const first = (await issue()).json.refresh_token as string;
      const second = (await refresh(first)).json.refresh_token as string;
      const third = (await refresh(second)).json.refresh_token as string;
      assert.equal((await refresh(first)).status, 422, 'the reuse itself is refused');
      assert.equal((await refresh(third)).status, 422, 'the unused descendant is revoked');
      const unrelated = (await issue()).json.refresh_token as string;
      assertTokenResponse(await refresh(unrelated), REFRESH_SCHEMA);
    });
  });

  test('without refresh-reuse-revokes-family a reuse revokes nothing else', async () => {
    await withReference({}, async ({ issue, refresh }) => {
      const first = (await issue()).json.refresh_token as string;
      const second = (await refresh(first)).json.refresh_token as string;
      assert.equal((await refresh(first)).status, 422);
      assertTokenResponse(await refresh(second), REFRESH_SCHEMA);
    });
  });

  test('token-form-body-accepted: both grants take a form-encoded body', async () => {
    await withReference({ variants: ['token-form-body-accepted'] }, async ({ ref, post }) => {
      const form = (fields: Record<string, string>) => post(new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded');
      const pair = await form({ grant_type: 'client_credentials', client_id: ref.options.clientId, client_secret: ref.options.clientSecret });
      assertTokenResponse(pair);
      assertTokenResponse(await form({ grant_type: 'refresh_token', client_id: ref.options.clientId, refresh_token: pair.json.refresh_token }), REFRESH_SCHEMA);
      assert.equal((await form({ grant_type: 'password', client_id: ref.options.clientId })).status, 422, 'the rules still apply');
    });
  });

  test('refresh-token-internal-key: refresh tokens are HS256 and do not verify against the JWK Set; access tokens do', async () => {
    await withReference({ variants: ['refresh-token-internal-key'] }, async ({ ref, issue, refresh }) => {
      const pair = await issue();
      const jwks = (await (await fetch(`${ref.url}/.well-known/jwks.json`)).json()) as JSONWebKeySet;
      await jwtVerify(pair.json.access_token, createLocalJWKSet(jwks));
      assert.equal(decodeProtectedHeader(pair.json.refresh_token).alg, 'HS256');
      await assert.rejects(jwtVerify(pair.json.refresh_token, createLocalJWKSet(jwks)));
      assertTokenResponse(await refresh(pair.json.refresh_token), REFRESH_SCHEMA);
    });
  });

  test('expires-in-milliseconds: expires_in counts milliseconds and the profile declares it', async () => {
    await withReference({ variants: ['expires-in-milliseconds'] }, async ({ ref, issue }) => {
      const pair = await issue();
      assertTokenResponse(pair);
      assert.equal(pair.json.expires_in, ref.options.accessTokenTtlSeconds * 1000);
      assert.equal(referenceProfile(ref.url, ref.options).auth?.expiresInUnit, 'milliseconds');
    });
  });
});

describe('faults of the refresh checks', () => {
  test('refreshed-access-token-rejected: the access token of a refresh does not open the API, the first one does', async () => {
    await withReference({ faults: ['refreshed-access-token-rejected'] }, async ({ issue, refresh, userDetails }) => {
      const pair = await issue();
      assert.equal(await userDetails(pair.json.access_token), 200);
      assert.equal(await userDetails((await refresh(pair.json.refresh_token)).json.access_token), 401);
    });
  });

  test('refresh-returns-used-token: the refresh hands back the token it used, which is then refused', async () => {
    await withReference({ faults: ['refresh-returns-used-token'] }, async ({ issue, refresh, userDetails }) => {
      const pair = await issue();
      const renewed = await refresh(pair.json.refresh_token);
      assertTokenResponse(renewed);
      assert.equal(renewed.json.refresh_token, pair.json.refresh_token, 'the refresh_token handed out is the one the request used');
      assert.equal(await userDetails(renewed.json.access_token), 200, 'the renewed access token still works');
      assert.equal((await refresh(renewed.json.refresh_token)).status, 422, 'the handed-out refresh token is refused on its first use');
    });
  });

  test("refresh-client-unbound: another client's client_id exchanges the refresh token", async () => {
    await withReference({ faults: ['refresh-client-unbound'] }, async ({ ref, issue, refresh }) => {
      const pair = await issue();
      assertTokenResponse(await refresh(pair.json.refresh_token, ref.options.ownLicenceClientId), REFRESH_SCHEMA);
    });
  });
});

describe('a server error where a refusal was due (issue 29, 5xx by effect)', () => {
  const withClientIdObject = (refreshToken: string, clientId: string) => JSON.stringify({ grant_type: 'refresh_token', client_id: { id: clientId }, refresh_token: refreshToken });

  test('clean: a refresh with client_id as an object is refused 422 and leaves its refresh token usable', async () => {
    await withReference({}, async ({ ref, post, issue, refresh }) => {
      const pair = await issue();
      assert.equal((await post(withClientIdObject(pair.json.refresh_token, ref.options.clientId))).status, 422);
      assertTokenResponse(await refresh(pair.json.refresh_token));
    });
  });

  test('refresh-spent-by-bad-client-id: that refresh is answered 500 and spends the refresh token', async () => {
    await withReference({ faults: ['refresh-spent-by-bad-client-id'] }, async ({ ref, post, issue, refresh }) => {
      const pair = await issue();
      const crashed = await post(withClientIdObject(pair.json.refresh_token, ref.options.clientId));
      assert.equal(crashed.status, 500);
      assert.equal(crashed.json.access_token, undefined, 'no access token is handed out');
      assert.equal((await refresh(pair.json.refresh_token)).status, 422, 'the refresh token is spent');
    });
  });

  test('refusal-500-listed: a body that is not JSON is answered 500 with a JSON error body, and issues nothing', async () => {
    await withReference({ variants: ['refusal-500-listed'] }, async ({ post, issue }) => {
      const crashed = await post('{"grant_type": "client_credentials", "client_id": ');
      assert.equal(crashed.status, 500);
      assert.equal(crashed.json.error.code, 'internal_error');
      assert.equal(crashed.json.access_token, undefined);
      assertTokenResponse(await issue());
    });
  });
});

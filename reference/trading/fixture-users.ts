// Reference-only fixture: POST /reference/v1/users creates a fresh user who
// can receive trade offers (the spec's "Create new user" exists, 4.5, but is
// not shown). Checks that depend on "the newest offer of a user" each work on
// their own user, so checks running in parallel cannot supersede each other's
// offers. Created users are real users: GET /v2/users/{id} finds them.
import type { ReferenceContext } from '../context.ts';
import { authenticate } from '../context.ts';
import { seedUsers } from '../fixtures/users.ts';
import { sendError, sendJson } from '../http-util.ts';
import type { Router } from '../router.ts';

export const FIXTURE_USERS_ROUTE = '/reference/v1/users';

/** Created users kept at most, so a long load run cannot grow the reference without limit. */
const FIXTURE_USER_CAP = 10_000;

export function registerFixtureUserRoute(router: Router, ctx: ReferenceContext): void {
  let created = 0;
  router.add('POST', FIXTURE_USERS_ROUTE, async (req, res) => {
    if (!(await authenticate(ctx, req, res))) return;
    if (created >= FIXTURE_USER_CAP) return sendError(res, 503, 'fixture_limit', `at most ${FIXTURE_USER_CAP} users can be created`);
    created += 1;
    const [template] = seedUsers(ctx.options.seed, 1);
    const user = {
      ...template!,
      id: crypto.randomUUID(),
      registered_at: ctx.clock.iso(ctx.clock.now()),
      external_id: `reference-fixture-${created}`,
      external_meta: { source: 'reference-fixture' },
    };
    ctx.users.set(user.id, user);
    sendJson(res, 201, { data: { id: user.id } });
  });
}

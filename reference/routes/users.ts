// GET /v2/users/{User-ID} (spec 4.2, 2.2).
import type { ReferenceContext } from '../context.ts';
import { authenticate } from '../context.ts';
import { sendError, sendJson } from '../http-util.ts';
import { UUID_SHAPE } from '../fixtures/ids.ts';
import type { Router } from '../router.ts';

export function registerUserRoutes(router: Router, ctx: ReferenceContext): void {
  router.add('GET', '/v2/users/:userId', async (req, res) => {
    if (!(await authenticate(ctx, req, res))) return;
    const { userId } = req.params;
    if (!UUID_SHAPE.test(userId!)) return sendError(res, 422, 'parameter_error', 'User-ID must be a UUID');
    const user = ctx.users.get(userId!.toLowerCase());
    if (!user) return sendError(res, 404, 'record_not_found', 'no user with this id');
    sendJson(res, 200, { data: user });
  });
}

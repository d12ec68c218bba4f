// Routes of area "webhooks" (not implemented yet).
import type { ReferenceContext } from '../context.ts';
import type { Router } from '../router.ts';

export function registerWebhooksRoutes(_router: Router, _ctx: ReferenceContext): void {}

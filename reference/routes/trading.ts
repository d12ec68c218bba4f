// Routes of area "trading" (not implemented yet).
import type { ReferenceContext } from '../context.ts';
import type { Router } from '../router.ts';

export function registerTradingRoutes(_router: Router, _ctx: ReferenceContext): void {}

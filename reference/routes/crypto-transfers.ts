// Routes of area "crypto-transfers" (not implemented yet).
import type { ReferenceContext } from '../context.ts';
import type { Router } from '../router.ts';

export function registerCryptoTransfersRoutes(_router: Router, _ctx: ReferenceContext): void {}

import type { ReferenceContext } from '../context.ts';
import type { Router } from '../router.ts';
import { registerTokenRoutes } from './token.ts';
import { registerUserRoutes } from './users.ts';
import { registerCryptoTransfersRoutes } from './crypto-transfers.ts';
import { registerTradingRoutes } from './trading.ts';
import { registerWebhooksRoutes } from './webhooks.ts';

export function registerRoutes(router: Router, ctx: ReferenceContext): void {
  registerTokenRoutes(router, ctx);
  registerUserRoutes(router, ctx);
  registerCryptoTransfersRoutes(router, ctx);
  registerTradingRoutes(router, ctx);
  registerWebhooksRoutes(router, ctx);
}

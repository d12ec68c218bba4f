// Profile section "trading": typed view of schemas/profile/trading.schema.json.
import type { OperationTemplate } from './operation.ts';

export interface TradingProfile {
  userId?: string;
  otherUserId?: string;
  createUser?: OperationTemplate;
  createOffer?: OperationTemplate;
  offerStatus?: OperationTemplate;
  terminalStatuses?: string[];
  processingTimeMs?: number;
  fastProcessingMs?: number;
  slowProcessingMs?: number;
  validitySeconds?: number;
  expiryValiditySeconds?: number;
  expiryMarginMs?: number;
  pollDeadlineMs?: number;
  pollIntervalMs?: number;
  pollMaxIntervalMs?: number;
  concurrency?: number;
}

// Profile section "crypto-transfers": typed view of schemas/profile/crypto-transfers.schema.json.
export interface CryptoTransfersProfile {
  [key: string]: unknown;
}

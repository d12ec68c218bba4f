// Profile section "trading": typed view of schemas/profile/trading.schema.json.
export interface TradingProfile {
  [key: string]: unknown;
}

// The quote an offer carries and the accepted trade (spec 2.4) it turns into.
// Amounts are decimal strings, computed in integer minor units so the strings
// add up exactly (total = fiat + tax + fees).

/** What the offer promises: buy `fiatMinor` / 100 euros' worth of one asset. */
export interface Quote {
  type: 'buy';
  fiatId: number;
  assetId: number;
  /** Euro cents. */
  fiatMinor: bigint;
  /** Price of one asset unit in euro cents. */
  priceMinor: bigint;
}

/** The accepted trade of spec 2.4. */
export interface AcceptedTrade {
  id: string;
  trade_id: string;
  type: string;
  fiat_id: number;
  asset_id: number;
  fiat_amount: string;
  tax_amount: string;
  total_amount: string;
  asset_amount: string;
  asset_price: string;
  time: string;
  spread: string;
  fees_after_cost: string;
  fee_percentage: string;
  net_asset_price: string;
  warning: Array<{ message: string; message_key: string; helpdesk_article_id: string; link_message: string; link_message_key: string }>;
}

const ASSET_DECIMALS = 8n;
/** Fee and spread in basis points. */
const FEE_BPS = 100n;
const SPREAD_BPS = 50n;

/** A decimal string of a non-negative `minor` with `decimals` (at least 1) fraction digits. */
function decimal(minor: bigint, decimals: bigint): string {
  const digits = minor.toString().padStart(Number(decimals) + 1, '0');
  const cut = digits.length - Number(decimals);
  return `${digits.slice(0, cut)}.${digits.slice(cut)}`;
}

export function quoteFor(sequence: number): Quote {
  // A few euros of drift between offers, so two offers of a user are told apart by their price too.
  return { type: 'buy', fiatId: 1, assetId: 1, fiatMinor: 10_000n, priceMinor: 5_234_117n + BigInt(sequence % 500) };
}

export function tradeFor(offerId: string, quote: Quote, at: Date): AcceptedTrade {
  const fees = (quote.fiatMinor * FEE_BPS) / 10_000n;
  const tax = 0n;
  const netPrice = (quote.priceMinor * (10_000n - SPREAD_BPS)) / 10_000n;
  const assetUnits = (quote.fiatMinor * 10n ** ASSET_DECIMALS) / quote.priceMinor;
  return {
    id: offerId,
    trade_id: crypto.randomUUID(),
    type: quote.type,
    fiat_id: quote.fiatId,
    asset_id: quote.assetId,
    fiat_amount: decimal(quote.fiatMinor, 2n),
    tax_amount: decimal(tax, 2n),
    total_amount: decimal(quote.fiatMinor + tax + fees, 2n),
    asset_amount: decimal(assetUnits, ASSET_DECIMALS),
    asset_price: decimal(quote.priceMinor, 2n),
    time: at.toISOString().replace('Z', '+00:00'),
    spread: decimal(SPREAD_BPS, 4n),
    fees_after_cost: decimal(fees, 2n),
    fee_percentage: decimal(FEE_BPS, 2n),
    net_asset_price: decimal(netPrice, 2n),
    warning: [
      {
        message: 'The value of crypto assets can go down as well as up.',
        message_key: 'trade.warning.volatility',
        helpdesk_article_id: '',
        link_message: '',
        link_message_key: '',
      },
    ],
  };
}

// The quote an offer carries and the accepted trade (spec 2.4) it turns into.
// Amounts are decimal strings, computed in integer minor units so the strings
// add up exactly (total = fiat + tax + fees).
import { basicFormat } from '../basic-format.ts';

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

/** The trade of an execution; `at` is the execution's ISO 8601 UTC timestamp ("…Z"), written with the spec's UTC offset. */
export function tradeFor(offerId: string, quote: Quote, at: string): AcceptedTrade {
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
    time: at.replace(/Z$/, '+00:00'),
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

/** How the reference writes a trade out, where the spec allows more than one way (legitimate variants). */
export interface TradePresentation {
  /** Write some amounts in exponent form, as a JSON number may be written ("1.91e-3"). */
  exponentAmounts?: boolean;
  /** Minutes east of UTC for `time` (0: "+00:00"). */
  timeOffsetMinutes?: number;
  /** Write `time` in ISO 8601 basic format (20261127T100000.123+0100). */
  basicFormat?: boolean;
}

/** A decimal string with exactly one digit before the point and an exponent: "0.0050" → "5.0e-3", "100.00" → "1.0000e2". */
export function exponentForm(decimal: string, exponentMark = 'e'): string {
  const negative = decimal.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  const digits = whole + fraction;
  const first = digits.search(/[1-9]/);
  if (first < 0) return `${negative ? '-' : ''}${digits[0] ?? '0'}${digits.length > 1 ? `.${digits.slice(1)}` : ''}${exponentMark}0`;
  const mantissa = digits.slice(first);
  const exponent = whole.length - first - 1;
  return `${negative ? '-' : ''}${mantissa[0]}${mantissa.length > 1 ? `.${mantissa.slice(1)}` : ''}${exponentMark}${exponent}`;
}

/** An ISO 8601 timestamp of `instant` written at a UTC offset of `minutes` ("+01:00"); `wholeSeconds` leaves the fraction out. */
export function atOffset(instant: Date, minutes: number, wholeSeconds = false): string {
  const local = new Date(instant.getTime() + minutes * 60_000).toISOString().slice(0, wholeSeconds ? 19 : -1);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** The trade as the reference answers it: the same values, written the way `presentation` asks. */
export function presentTrade(trade: AcceptedTrade, presentation: TradePresentation): AcceptedTrade {
  const shown = { ...trade };
  if (presentation.exponentAmounts) {
    // Both exponent marks JSON allows (RFC 8259 6), on amounts of either size.
    shown.asset_amount = exponentForm(trade.asset_amount);
    shown.spread = exponentForm(trade.spread, 'E');
  }
  if (presentation.timeOffsetMinutes !== undefined) {
    // A time written without a fraction (second-resolution) keeps none at the other offset.
    shown.time = atOffset(new Date(trade.time), presentation.timeOffsetMinutes, !trade.time.includes('.'));
  }
  if (presentation.basicFormat) shown.time = basicFormat(shown.time);
  return shown;
}

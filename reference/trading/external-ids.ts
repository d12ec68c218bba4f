// The external_transaction_ids accept was sent with, under
// accept-refusals-as-deployed: one reused for another offer is refused (406).

/** external_transaction_ids remembered at most, so load cannot grow them without limit. */
const EXTERNAL_IDS_KEPT = 50_000;

export class ExternalIdRegister {
  /** external_transaction_id → the offer it was first sent with. */
  private readonly used = new Map<string, string>();

  /** Was the id sent before with an offer other than this one? */
  usedForAnother(externalTransactionId: string, offerId: string): boolean {
    return (this.used.get(externalTransactionId) ?? offerId) !== offerId;
  }

  remember(externalTransactionId: string, offerId: string): void {
    // Bounded like the offer book: under load the oldest ids are forgotten first.
    if (this.used.size >= EXTERNAL_IDS_KEPT) this.used.delete(this.used.keys().next().value!);
    this.used.set(externalTransactionId, offerId);
  }
}

// Profile section "crypto-transfers": typed view of schemas/profile/crypto-transfers.schema.json.

/** The body of POST /v1/crypto-transfers/addresses/withdrawals (schemas/withdrawal-address-request.schema.json). */
export interface WithdrawalAddressRequest {
  coin_network_id?: string;
  address?: string;
  destination_tag?: string;
  host_type?: string;
  host_name?: string;
  host_id?: string;
  user_owned?: boolean;
  owner_legal_name?: string;
  [key: string]: unknown;
}

export interface CryptoTransfersProfile {
  userId?: string;
  withdrawalAddress?: WithdrawalAddressRequest;
}

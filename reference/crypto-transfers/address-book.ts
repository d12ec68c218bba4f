// Each user's address book of withdrawal addresses (2.3 resources). An
// address belongs to the user it was created for. Bounded per user, so a
// load run cannot grow the reference without limit.
import type { AddressRequest } from './address-request.ts';

/** The withdrawal-address resource of spec 2.3. */
export interface WithdrawalAddress {
  id: string;
  host_type: string;
  host_name: string;
  host_id: string;
  address: string;
  destination_tag: string;
  destination_tag_type: string;
  user_owned: boolean;
  owner_legal_name: string;
  asset_id: string;
  coin_network_id: string;
  network_id: string;
  created_at: string;
}

const ADDRESSES_PER_USER = 1_000;

export class AddressBook {
  private readonly byUser = new Map<string, WithdrawalAddress[]>();

  add(userId: string, request: AddressRequest, createdAt: string): WithdrawalAddress {
    const address: WithdrawalAddress = {
      id: crypto.randomUUID(),
      host_type: request.hostType,
      host_name: request.hostName,
      host_id: request.hostId,
      address: request.address,
      destination_tag: request.destinationTag,
      destination_tag_type: request.destinationTag ? request.coinNetwork.destinationTagType : 'NONE',
      user_owned: request.userOwned,
      owner_legal_name: request.ownerLegalName,
      asset_id: request.coinNetwork.assetId,
      coin_network_id: request.coinNetwork.id,
      network_id: request.coinNetwork.networkId,
      created_at: createdAt,
    };
    const book = this.byUser.get(userId) ?? [];
    book.push(address);
    if (book.length > ADDRESSES_PER_USER) book.shift();
    this.byUser.set(userId, book);
    return address;
  }

  /**
   * The user's address with the same network, address and destination tag,
   * if any (the duplicate-address-refused variant). Compared as stored: the
   * reference keeps both as sent.
   */
  duplicateOf(userId: string, request: AddressRequest): WithdrawalAddress | undefined {
    return this.of(userId).find(
      (a) => a.network_id === request.coinNetwork.networkId && a.address === request.address && a.destination_tag === request.destinationTag,
    );
  }

  /** The user's addresses, oldest first. */
  of(userId: string): readonly WithdrawalAddress[] {
    return this.byUser.get(userId) ?? [];
  }
}

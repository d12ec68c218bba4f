// What the reference knows about coins on networks and about VASPs. A coin
// network id in a request resolves to its asset and network (2.3 returns
// both); a KNOWN_VASP host_id must name a VASP of the directory (the "List of
// VASPs" operation exists, 4.5, but is not shown). A VASP has its registered
// legal name and the shorter name people use for it: the reference's profile
// sends the short one, and the directory-host-name variant answers the
// registered one.
import { uuidFrom } from '../fixtures/ids.ts';

export interface CoinNetwork {
  id: string;
  assetId: string;
  networkId: string;
  /** destination_tag_type of addresses on this network; NONE where the network has no tags. */
  destinationTagType: string;
}

export interface Vasp {
  id: string;
  /** The registered legal name, as the VASP directory holds it. */
  name: string;
  /** The name a partner's user would type. */
  shortName: string;
}

export interface Directory {
  coinNetworks: Map<string, CoinNetwork>;
  vasps: Map<string, Vasp>;
}

const COIN_NETWORKS = [
  { label: 'xrp-xrpl', asset: 'xrp', network: 'xrpl', destinationTagType: 'DESTINATION_TAG' },
  { label: 'xlm-stellar', asset: 'xlm', network: 'stellar', destinationTagType: 'MEMO' },
  { label: 'btc-bitcoin', asset: 'btc', network: 'bitcoin', destinationTagType: 'NONE' },
] as const;

const VASPS = [
  { name: 'Reference Custody GmbH', shortName: 'Reference Custody' },
  { name: 'Example Exchange S.A.', shortName: 'Example Exchange' },
] as const;

export function seedDirectory(seed: number): Directory {
  return {
    coinNetworks: new Map(
      COIN_NETWORKS.map((c) => {
        const id = uuidFrom(seed, `coin-network-${c.label}`);
        return [id, { id, assetId: uuidFrom(seed, `asset-${c.asset}`), networkId: uuidFrom(seed, `network-${c.network}`), destinationTagType: c.destinationTagType }];
      }),
    ),
    vasps: new Map(
      VASPS.map((vasp, i) => {
        const id = uuidFrom(seed, `vasp-${i}`);
        return [id, { id, ...vasp }];
      }),
    ),
  };
}

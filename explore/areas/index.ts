// The explored areas, in the order a run explores them.
import type { AreaModel } from '../model.ts';
import { cryptoTransfersModel } from './crypto-transfers.ts';
import { usersModel } from './users.ts';
import { tokensModel } from './tokens.ts';
import { offersModel } from './offers.ts';
import { webhooksModel } from './webhooks.ts';
import { EXPLORED_AREAS } from '../area-names.ts';

/** In the spec's order: tokens (4.1), user details (4.2), withdrawal addresses (4.3), accepting offers (4.4), the user-update webhook (6). */
export const AREA_MODELS: readonly AreaModel<any>[] = [tokensModel, usersModel, cryptoTransfersModel, offersModel, webhooksModel];

export const AREA_NAMES: readonly string[] = AREA_MODELS.map((m) => m.area);
if (AREA_NAMES.join() !== EXPLORED_AREAS.join()) throw new Error(`explore/area-names.ts lists ${EXPLORED_AREAS.join(', ')}, the models are of ${AREA_NAMES.join(', ')}`);

export function areaModel(name: string): AreaModel<any> | undefined {
  return AREA_MODELS.find((m) => m.area === name);
}

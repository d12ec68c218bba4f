// The explored areas, in the order a run explores them.
import type { AreaModel } from '../model.ts';
import { cryptoTransfersModel } from './crypto-transfers.ts';
import { offersModel } from './offers.ts';

export const AREA_MODELS: readonly AreaModel<any>[] = [cryptoTransfersModel, offersModel];

export const AREA_NAMES: readonly string[] = AREA_MODELS.map((m) => m.area);

export function areaModel(name: string): AreaModel<any> | undefined {
  return AREA_MODELS.find((m) => m.area === name);
}

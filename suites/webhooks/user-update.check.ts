// The user-update webhook (spec 5 rule 5, 6, 6.1, 6.2, 3.2). Every check works
// in a session on the target's receiver in the run's webhook hub, holding one
// of the profile's users (suites/webhooks/support.ts): checks run side by
// side when the profile lists more users, one at a time otherwise, in any
// worker and any order. Declared longest first: a worker picks the checks in
// this order, so the ones that wait out a hang-up or a window start at once
// and the short ones fill in after them.
import { declareAcknowledgementChecks } from './acknowledgement.ts';
import { declareActionChecks } from './actions.ts';
import { declareAddressCheck } from './address.ts';
import { declareDeliveryFormatChecks } from './delivery-format.ts';
import { declareEveryDeliveryCheck } from './every-delivery.ts';
import { declareIdempotencyChecks } from './idempotency.ts';
import { declareRetryChecks } from './retries.ts';

declareRetryChecks();
declareAcknowledgementChecks();
declareEveryDeliveryCheck();
declareIdempotencyChecks();
declareActionChecks();
declareAddressCheck();
declareDeliveryFormatChecks();

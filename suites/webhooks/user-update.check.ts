// The user-update webhook (spec 5 rule 5, 6.1, 6.2, 3.2). The receiving
// address is held once per client, so these checks run one at a time in one
// worker, in this order: parallel checks would take each other's deliveries.
// The checks that leave an event unacknowledged (and so retrying) come last.
// A late retry of an earlier check's event is kept out of the next session
// (src/webhooks/receiver.ts).
import { defineCheckGroup } from '../../src/check/index.ts';
import { declareAcknowledgementChecks } from './acknowledgement.ts';
import { declareActionChecks } from './actions.ts';
import { declareDeliveryFormatChecks } from './delivery-format.ts';
import { declareEveryDeliveryCheck } from './every-delivery.ts';
import { declareIdempotencyChecks } from './idempotency.ts';
import { declareRetryChecks } from './retries.ts';
import { closeWorkerReceiver } from './support.ts';

defineCheckGroup(
  'user-update webhook',
  () => {
    declareDeliveryFormatChecks();
    declareActionChecks();
    declareIdempotencyChecks();
    declareAcknowledgementChecks();
    declareEveryDeliveryCheck();
    declareRetryChecks();
  },
  { afterAll: closeWorkerReceiver },
);

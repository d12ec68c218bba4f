// The webhook hub an explored webhooks case opens its session in. `ptas run`
// starts the run's hub for the check workers through Playwright's global
// set-up (runner/webhook-hub/setup.ts), and only for them: the exploration
// stage runs in the run's own process, after the workers (and their hub) are
// gone, and the exploration proofs (test/support/explore-proof.ts) call the
// engine with no run at all. So each explored target gets a hub of its own,
// started on its first webhooks case and closed with the target: the same
// hub, receiver, router and session protocol the hand-written checks use
// (one per target, as in a run), reached through the same client.
import { WebhookHub } from '../../runner/webhook-hub/hub.ts';
import { serveHub } from '../../runner/webhook-hub/server.ts';
import { HubClient } from '../../runner/webhook-hub/client.ts';
import type { ExploreTarget } from '../target.ts';

const hubs = new WeakMap<ExploreTarget, Promise<HubClient>>();

/** The target's hub client; the hub starts on first use and stops when the target is closed. */
export function hubOf(target: ExploreTarget): Promise<HubClient> {
  let client = hubs.get(target);
  if (!client) {
    client = (async () => {
      const hub = new WebhookHub();
      const server = await serveHub(hub);
      target.onClose(async () => {
        await server.close();
        await hub.close();
      });
      return new HubClient(server.url);
    })();
    // A hub that could not start is forgotten, so the next case tries again and says why.
    client.catch(() => hubs.delete(target));
    hubs.set(target, client);
  }
  return client;
}

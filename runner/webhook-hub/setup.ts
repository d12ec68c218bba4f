// Playwright's global set-up (runner/playwright.config.ts): starts the run's
// webhook hub in the runner process and names its control address to the
// workers (PTAS_WEBHOOK_HUB), so webhook checks in any worker share one
// receiver per target (runner/webhook-hub/hub.ts). Returns the teardown.
import { WebhookHub } from './hub.ts';
import { WEBHOOK_HUB_ENV } from './protocol.ts';
import { serveHub } from './server.ts';

export default async function startWebhookHub(): Promise<() => Promise<void>> {
  const hub = new WebhookHub();
  const server = await serveHub(hub);
  process.env[WEBHOOK_HUB_ENV] = server.url;
  return async () => {
    await server.close();
    await hub.close();
  };
}

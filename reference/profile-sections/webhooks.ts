// The "webhooks" section of the reference's own implementation profile.
import type { WebhooksProfile } from '../../src/config/sections/webhooks.ts';
import type { ReferenceOptions } from '../options.ts';

export function webhooksSection(_baseUrl: string, _options: ReferenceOptions): WebhooksProfile | undefined {
  return undefined;
}

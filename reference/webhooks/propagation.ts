// webhook-address-propagation-delayed (reference/variants/webhooks.ts): how
// long a newly set up receiving address takes to take effect in the
// dispatcher (dispatcher.ts). Its own module: the variant's description and
// the dispatcher both read it, and the dispatcher sits below the variants.

export const ADDRESS_PROPAGATION_MS = 1_500;

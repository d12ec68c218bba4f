// The explored areas' names alone, for what must not load the models (the
// CLI's --help): explore/areas/index.ts checks its models against this list.
export const EXPLORED_AREAS = ['auth', 'users', 'crypto-transfers', 'trading', 'webhooks'] as const;

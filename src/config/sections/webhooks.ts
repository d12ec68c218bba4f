// Profile section "webhooks": typed view of schemas/profile/webhooks.schema.json.
export interface WebhooksProfile {
  [key: string]: unknown;
}

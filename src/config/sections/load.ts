// Profile section "load": typed view of schemas/profile/load.schema.json.
export interface LoadProfile {
  [key: string]: unknown;
}

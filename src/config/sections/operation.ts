// Typed view of schemas/profile/operation.schema.json.
export interface OperationTemplate {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
  bearer?: boolean;
  expectStatus?: number[];
  extract?: Record<string, string>;
}

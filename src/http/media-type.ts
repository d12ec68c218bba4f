// What counts as a JSON body's label (spec 1: "All request and response
// bodies are JSON (application/json)"): application/json, or any +json
// structured-syntax type (RFC 6839) such as application/problem+json, with
// parameters such as charset allowed (RFC 9110 8.3.1).
export function isJsonMediaType(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (!type) return false;
  return type === 'application/json' || /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(type);
}

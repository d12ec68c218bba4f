// What the console shows of a refusal: the API for CI answers {error: CODE,
// message: SENTENCE}, the console's own endpoints {error: SENTENCE}. No DOM
// here, so the unit tests read it too.

/** The API's `message` (its `error` is a code: "forbidden"), else the console's own `error` sentence, else the status. */
export function refusalMessage(status: number, statusText: string, body: unknown): string {
  const fields = body && typeof body === 'object' ? (body as { error?: unknown; message?: unknown }) : {};
  if (typeof fields.message === 'string') return fields.message;
  if (typeof fields.error === 'string') return fields.error;
  return `${status} ${statusText}`;
}

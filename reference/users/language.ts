// Accept-Language for the human-readable text of GET /v2/users/{User-ID}
// (RFC 9110 12.5.4), and the range the content-language variant echoes.
import { LANGUAGES, type Language } from '../fixtures/users.ts';

/**
 * The supported language of highest weight in an Accept-Language header
 * (RFC 9110 12.5.4), matching on the primary subtag; malformed parts are
 * ignored and no match falls back to the first supported language.
 */
export function negotiateLanguage(header: string | undefined): Language {
  const fallback = LANGUAGES[0];
  if (!header) return fallback;
  let best: Language = fallback;
  let bestWeight = 0;
  for (const part of header.split(',')) {
    const [range = '', ...parameters] = part.split(';');
    const q = parameters.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (!Number.isFinite(weight) || weight <= 0 || weight > 1) continue;
    const primary = range.trim().toLowerCase().split('-')[0]!;
    const language = primary === '*' ? fallback : LANGUAGES.find((l) => l === primary);
    if (language && weight > bestWeight) {
      best = language;
      bestWeight = weight;
    }
  }
  return best;
}

/** The range of an Accept-Language header that picked `language`, as the client wrote it (de-DE for de), for the content-language variant. */
export function matchedLanguageRange(header: string, language: Language): string {
  const ranges = header.split(',').map((part) => part.split(';')[0]!.trim());
  const range = ranges.find((r) => r.toLowerCase().split('-')[0] === language);
  return range && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(range) ? range : language;
}

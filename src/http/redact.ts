// Secrets never reach an artifact: every string that leaves a check is passed
// through a Redactor. A secret becomes a marker such as
// «client_secret#3f9a1c2b», so two exchanges that carry the same token can
// still be matched by a reader without exposing the token. The marker's
// digits are an HMAC-SHA-256 under the run's own random key, never written
// anywhere a reader gets: a plain hash's prefix gave a six-digit client
// secret away in under a second of guessing. Every process of one run uses
// the run's key (the Playwright processes get it with the run's settings,
// runner/settings.ts), so a token's marker is the same in every exchange.
import { createHmac, randomBytes } from 'node:crypto';

/** JSON keys whose values are always secret, whatever they look like. */
const SECRET_KEYS = /^(client_secret|access_token|refresh_token|id_token|token|password|secret|private_key)$/i;
/** Headers whose values are always secret. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'signature', 'x-api-key']);

/** A header whose value is a credential or what one computes (a signature): never kept as it was, whatever the redactor knows. */
export const isSecretHeader = (name: string): boolean => SECRET_HEADERS.has(name.toLowerCase());
/** A JWS compact serialization: every bearer and refresh token of the spec (2.1) has this shape. */
const JWT_SHAPE = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;

/** How deep redactJson walks; deeper subtrees are kept as redacted text. */
const MAX_DEPTH = 64;

let markerKey = randomBytes(32);

/** This process's key for markers, to hand to the other processes of its run. */
export function markerKeyOf(): string {
  return markerKey.toString('base64url');
}

/** Takes the run's key (a process of a run started by another: the Playwright runner and its workers). */
export function useMarkerKey(key: string): void {
  markerKey = Buffer.from(key, 'base64url');
}

export function fingerprint(value: string): string {
  return createHmac('sha256', markerKey).update(value).digest('hex').slice(0, 8);
}

export function secretMarker(label: string, value: string): string {
  return `«${label}#${fingerprint(value)}»`;
}

/** Shell placeholder used in curl lines instead of a secret. */
function placeholderFor(label: string): string {
  return '$' + (label === 'client_secret' ? 'PTAS_CLIENT_SECRET' : label.toUpperCase().replace(/[^A-Z0-9]+/g, '_'));
}

export type RedactionStyle = 'marker' | 'shell';

export class Redactor {
  private readonly secrets = new Map<string, string>();
  private pattern: RegExp | undefined;

  constructor(initial: Iterable<[value: string, label: string]> = []) {
    for (const [value, label] of initial) this.addSecret(value, label);
  }

  /** Remembers a value that must never appear in output. Short values are ignored: they would redact ordinary text. */
  addSecret(value: string | undefined, label: string): void {
    if (!value || value.length < 6 || this.secrets.has(value)) return;
    this.secrets.set(value, label);
    this.pattern = undefined;
  }

  private replacement(label: string, value: string, style: RedactionStyle): string {
    return style === 'marker' ? secretMarker(label, value) : placeholderFor(label);
  }

  redactString(text: string, style: RedactionStyle = 'marker'): string {
    let out = text;
    if (this.secrets.size) {
      // Longest first, so a secret that contains another is replaced whole.
      this.pattern ??= new RegExp(
        [...this.secrets.keys()]
          .sort((a, b) => b.length - a.length)
          .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('|'),
        'g',
      );
      out = out.replace(this.pattern, (match) => this.replacement(this.secrets.get(match) ?? 'secret', match, style));
    }
    return out.replace(JWT_SHAPE, (match) => this.replacement('token', match, style));
  }

  redactHeaderValue(name: string, value: string, style: RedactionStyle = 'marker'): string {
    if (!isSecretHeader(name)) return this.redactString(value, style);
    const bearer = /^(Bearer|Basic|Token)\s+(.*)$/i.exec(value);
    if (bearer) {
      const label = bearer[1]!.toLowerCase() === 'bearer' ? 'bearer' : 'credential';
      return `${bearer[1]} ${this.secrets.has(bearer[2]!) ? this.redactString(bearer[2]!, style) : this.replacement(label, bearer[2]!, style)}`;
    }
    return this.replacement(name.toLowerCase(), value, style);
  }

  redactHeaders(headers: Record<string, string>, style: RedactionStyle = 'marker'): Record<string, string> {
    return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, this.redactHeaderValue(k, v, style)]));
  }

  /**
   * Deep copy of a JSON value with secret keys replaced and every string
   * redacted. Below MAX_DEPTH a subtree is kept as redacted JSON text: a
   * hostile body nested 10,000 deep must not overflow the stack.
   */
  redactJson(value: unknown, style: RedactionStyle = 'marker', depth = 0): unknown {
    if (typeof value === 'string') return this.redactString(value, style);
    if (value && typeof value === 'object' && depth >= MAX_DEPTH) {
      // Not JSON.stringify: it overflows the stack on the 10,000-deep bodies this guards against.
      return `[${Array.isArray(value) ? 'array' : 'object'} nested deeper than ${MAX_DEPTH} levels: not shown]`;
    }
    if (Array.isArray(value)) return value.map((v) => this.redactJson(v, style, depth + 1));
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => {
          if (SECRET_KEYS.test(k) && typeof v === 'string' && v.length > 0) {
            this.addSecret(v, k.toLowerCase());
            return [k, this.replacement(k.toLowerCase(), v, style)];
          }
          return [k, this.redactJson(v, style, depth + 1)];
        }),
      );
    }
    return value;
  }

  /** Redacts a body given as text: JSON bodies key by key, anything else as a string. */
  redactBody(text: string, style: RedactionStyle = 'marker'): string {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object') return JSON.stringify(this.redactJson(parsed, style), null, 2);
    } catch {
      // Not JSON: fall through to plain string redaction.
    }
    // Form bodies (a=b&client_secret=c) get the same key treatment as JSON.
    if (/^[\w.[\]%-]+=[^&]*(&[\w.[\]%-]+=[^&]*)*$/.test(text)) {
      return text
        .split('&')
        .map((pair) => {
          const [k, v = ''] = pair.split('=');
          const value = decodeURIComponent(v.replace(/\+/g, ' '));
          if (SECRET_KEYS.test(k!) && value) {
            this.addSecret(value, k!.toLowerCase());
            return `${k}=${this.replacement(k!.toLowerCase(), value, style)}`;
          }
          return `${k}=${this.redactString(v, style)}`;
        })
        .join('&');
    }
    return this.redactString(text, style);
  }
}

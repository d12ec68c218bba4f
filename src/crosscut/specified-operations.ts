// Which of the four operations the spec specifies (4.1 to 4.4) a recorded
// request went to. The profile's set-up operations (create offer, register a
// webhook address, …), the JWK Set and the webhook receiver are not among
// them: what they answer is the implementation's business, not the spec's.
import type { SpecOperation } from '../spec/status-codes.ts';

interface SpecifiedOperation {
  operation: SpecOperation;
  method: string;
  /** The path relative to the base address (9: the version is a prefix of the path). */
  path: RegExp;
}

const SPECIFIED_OPERATIONS: readonly SpecifiedOperation[] = [
  { operation: 'token', method: 'POST', path: /^\/v1\/oauth\/token$/ },
  { operation: 'userDetails', method: 'GET', path: /^\/v2\/users\/[^/]+$/ },
  { operation: 'withdrawalAddress', method: 'POST', path: /^\/v1\/crypto-transfers\/addresses\/withdrawals$/ },
  { operation: 'acceptOffer', method: 'PATCH', path: /^\/v1\/offers\/[^/]+\/accept$/ },
];

/** The request's path below the base address ("All REST paths below are relative to it"), or undefined when it is elsewhere. */
export function pathBelowBase(url: string, baseUrl?: string): string | undefined {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return undefined;
  }
  if (!baseUrl) return target.pathname;
  const base = new URL(baseUrl);
  if (target.origin !== base.origin) return undefined;
  const prefix = base.pathname.replace(/\/+$/, '');
  if (!prefix) return target.pathname;
  return target.pathname.startsWith(`${prefix}/`) ? target.pathname.slice(prefix.length) : undefined;
}

/** The specified operation a request went to, or undefined for any other. */
export function specifiedOperationOf(method: string, url: string, baseUrl?: string): SpecOperation | undefined {
  const path = pathBelowBase(url, baseUrl);
  if (path === undefined) return undefined;
  return SPECIFIED_OPERATIONS.find((op) => op.method === method.toUpperCase() && op.path.test(path))?.operation;
}

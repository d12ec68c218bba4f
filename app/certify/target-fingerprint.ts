// Which server the run spoke to, as far as a client can tell: the TLS
// certificate an https target presents (its SHA-256 fingerprint) and the
// Server, X-Powered-By and Via values it answered with. A certifier compares
// them with what the vendor registered.
import tls from 'node:tls';
import type { Connection } from '../../src/http/connection.ts';
import type { RunResults } from '../../src/results/model.ts';

const IDENTIFYING_HEADERS = ['server', 'x-powered-by', 'via'];
const HANDSHAKE_LIMIT_MS = 5_000;

/** The SHA-256 fingerprint of the certificate an https target presents; null for http or when no handshake completes. */
export function tlsCertificateSha256(connection: Pick<Connection, 'baseUrl' | 'tls' | 'insecure'>): Promise<string | null> {
  const url = new URL(connection.baseUrl);
  if (url.protocol !== 'https:') return Promise.resolve(null);
  return new Promise((resolve) => {
    const socket = tls.connect({
      host: url.hostname,
      port: Number(url.port || 443),
      servername: url.hostname,
      ...connection.tls,
      // The fingerprint is recorded whatever the verification says: the run itself already applied it.
      rejectUnauthorized: false,
    });
    const done = (fingerprint: string | null) => {
      socket.destroy();
      resolve(fingerprint);
    };
    socket.setTimeout(HANDSHAKE_LIMIT_MS, () => done(null));
    socket.once('secureConnect', () => done(socket.getPeerCertificate()?.fingerprint256 ?? null));
    socket.once('error', () => done(null));
  });
}

/** Distinct identifying header values across every recorded exchange, "name: value", sorted. */
export function serverHeadersSeen(results: RunResults): string[] {
  const seen = new Set<string>();
  for (const check of results.checks) {
    for (const exchange of check.evidence) {
      const headers = exchange.response?.headers ?? {};
      for (const name of IDENTIFYING_HEADERS) if (headers[name]) seen.add(`${name}: ${headers[name]}`);
    }
  }
  return [...seen].sort();
}

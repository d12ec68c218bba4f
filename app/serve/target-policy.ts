// Which hosts the lab may send requests to on a profile's behalf. A token
// holder writes the profile, and Check shows what the target answered: left
// open, the server is a proxy into wherever it stands (the cloud's metadata
// service at 169.254.169.254, services on loopback, the lab's own API).
// Without `--allow-target`: any host but the link-local and metadata
// addresses, the unspecified address (0.0.0.0 reaches this machine), the
// server's own listening address, and loopback unless the server itself
// listens on loopback (then its users are on this machine anyway). With
// `--allow-target`: only hosts an entry names (a host name, *.suffix, an
// address or a CIDR); an address the defaults refuse is allowed only by an
// address or CIDR entry that covers it, never by a name (a name is the
// kind of thing a profile's author controls the resolution of).
//
// Every URL the suite would call is checked, with every address its host
// resolves to: the base URL, the JWK Sets' URLs and the operation templates
// written as absolute URLs. Names are resolved when the profile is checked
// and again when its run starts; a name that resolves otherwise between that
// and a connection (DNS rebinding) is beyond this check: an operator
// exposing the lab to untrusted profiles lists its targets by address.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import os from 'node:os';
import { ConfigError } from '../../src/config/errors.ts';
import { stringPlaces } from '../../src/config/secret-places.ts';
import type { Profile } from '../../src/config/profile.ts';
import { ServeError } from './errors.ts';

const family = (address: string): 'ipv4' | 'ipv6' => (isIP(address) === 6 ? 'ipv6' : 'ipv4');
const bare = (host: string): string => host.replace(/^\[|\]$/g, '');

interface AddressClass {
  list: BlockList;
  /** What the address is, for the refusal. */
  is: string;
}

function addressClass(subnets: Array<[string, number]>, is: string): AddressClass {
  const list = new BlockList();
  for (const [address, prefix] of subnets) list.addSubnet(address, prefix, family(address));
  return { list, is };
}

/** Never a target unless an address or CIDR entry of --allow-target covers it. */
const REFUSED: AddressClass[] = [
  // The metadata services of AWS, GCP, Azure and OpenStack answer at 169.254.169.254.
  addressClass([['169.254.0.0', 16], ['fe80::', 10]], 'a link-local address (cloud metadata services answer at 169.254.169.254)'),
  addressClass([['100.100.100.200', 32], ['fd00:ec2::254', 128]], "a cloud metadata service's address"),
  addressClass([['0.0.0.0', 8], ['::', 128]], 'the unspecified address (it reaches this machine)'),
];
const LOOPBACK = addressClass([['127.0.0.0', 8], ['::1', 128]], 'a loopback address');
const inClass = (cls: AddressClass, address: string): boolean => cls.list.check(address, family(address));

/** An IPv4-mapped IPv6 address as the IPv4 address it is (::ffff:127.0.0.1 and ::ffff:7f00:1 are 127.0.0.1); any other as it is. */
export function canonicalAddress(address: string): string {
  const dotted = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (dotted) return dotted[1]!;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return address;
  const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

interface AllowEntry {
  text: string;
  matchesName(host: string): boolean;
  /** Covers the address by address or CIDR (names never do). */
  coversAddress(address: string): boolean;
}

function allowEntry(text: string): AllowEntry {
  const slash = text.indexOf('/');
  const address = bare(slash < 0 ? text : text.slice(0, slash));
  if (isIP(address)) {
    const prefix = slash < 0 ? (isIP(address) === 4 ? 32 : 128) : Number(text.slice(slash + 1));
    const max = isIP(address) === 4 ? 32 : 128;
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) throw new ConfigError(`--allow-target ${text}: the prefix length must be 0 to ${max}`);
    const list = new BlockList();
    list.addSubnet(address, prefix, family(address));
    return { text, matchesName: () => false, coversAddress: (a) => list.check(a, family(a)) };
  }
  const name = text.toLowerCase();
  if (!/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(name)) {
    throw new ConfigError(`--allow-target ${text}: expected a host name (sandbox.acme.example), *.suffix (*.acme.example), an address (10.0.0.5) or a CIDR (10.0.0.0/8)`);
  }
  const matchesName = name.startsWith('*.') ? (host: string) => host.endsWith(name.slice(1)) : (host: string) => host === name;
  return { text, matchesName, coversAddress: () => false };
}

export interface ListeningAddress {
  host: string;
  port: number;
}

/** A URL of the profile that the suite would call, and the key that names it. */
export interface ProfileUrl {
  keyPath: string;
  /** The same as a JSON Pointer, for the refusal's details. */
  pointer: string;
  url: string;
}

/** An absolute URL written in a profile: the scheme and host must be written out (a {placeholder} there would let an answer choose the host). */
const ABSOLUTE = /^[a-z][a-z0-9+.-]*:\/\//i;

/** The URLs the suite would call for this profile: its base URL, JWK Sets and operations written as absolute URLs. */
export function profileUrls(profile: Profile): ProfileUrl[] {
  return stringPlaces(profile)
    .filter(({ keyPath, value }) => keyPath === 'baseUrl' || (ABSOLUTE.test(value) && /(^|\.)(jwksUrl|path)$/.test(keyPath)))
    .map(({ keyPath, pointer, value }) => ({ keyPath, pointer, url: value }));
}

export class TargetPolicy {
  private readonly allow: AllowEntry[];
  private listening?: ListeningAddress;

  /** allowEntries: --allow-target's; none, the default policy above. resolve: a host name's addresses (tests: a fixed table). */
  constructor(
    readonly allowEntries: readonly string[] = [],
    private readonly resolve: (host: string) => Promise<string[]> = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address),
  ) {
    this.allow = allowEntries.map(allowEntry);
  }

  /** Where the server listens, once it does: that address is never a target, and loopback is a target only when it is on loopback. */
  listeningOn(address: ListeningAddress): void {
    this.listening = { host: canonicalAddress(bare(address.host)), port: address.port };
  }

  private serverOnLoopback(): boolean {
    const host = this.listening?.host;
    return host !== undefined && isIP(host) !== 0 && inClass(LOOPBACK, host);
  }

  /** Whether `address:port` is where this server listens (an unspecified listening address listens on every local one). */
  private isServer(address: string, port: number): boolean {
    if (!this.listening || port !== this.listening.port) return false;
    const host = this.listening.host;
    if (host === address) return true;
    if (host === '0.0.0.0' || host === '::') {
      const local = Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
      return inClass(LOOPBACK, address) || local.includes(address);
    }
    return false;
  }

  /** Why the suite may not call this address of `host` (undefined: it may). */
  private addressProblem(host: string, address: string, port: number): string | undefined {
    if (this.isServer(address, port)) return `${address}:${port} is where this server listens`;
    const byAddress = this.allow.some((entry) => entry.coversAddress(address));
    if (this.allow.length && !byAddress && !this.allow.some((entry) => entry.matchesName(host))) {
      return `${host} is not among the targets this server allows (--allow-target ${this.allow.map((e) => e.text).join(' ')})`;
    }
    if (byAddress) return undefined;
    const refused = REFUSED.find((cls) => inClass(cls, address));
    if (refused) return `${address} is ${refused.is}`;
    if (inClass(LOOPBACK, address) && !this.serverOnLoopback()) return `${address} is a loopback address, and this server does not listen on loopback (allow it with --allow-target ${address})`;
    return undefined;
  }

  /** Refuses (422 target-refused) a URL the suite may not call; a host that does not resolve is 502 unreachable. */
  async checkUrl({ keyPath, pointer, url }: ProfileUrl): Promise<void> {
    const refuse = (why: string) => new ServeError('target-refused', `${keyPath}: ${why}`, { keyPath: pointer });
    const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1] ?? '';
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw refuse(`${JSON.stringify(url)} is not a URL`);
    }
    if (/[{}]/.test(authority)) throw refuse(`write the host of ${JSON.stringify(url)} out: a {placeholder} there would let a value the run learns choose the host`);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw refuse(`only http and https targets are called; got ${parsed.protocol}`);
    const host = canonicalAddress(bare(parsed.hostname).toLowerCase());
    const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
    let addresses: string[];
    try {
      addresses = isIP(host) ? [host] : await this.resolve(host);
    } catch (error) {
      throw new ServeError('unreachable', `${keyPath}: the host ${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { keyPath: pointer });
    }
    for (const address of addresses.map(canonicalAddress)) {
      const problem = this.addressProblem(host, address, port);
      if (problem) throw refuse(`the suite may not call ${parsed.origin}: ${problem}`);
    }
  }

  /** Every URL the profile's run or Check would call; the first refused one refuses the profile. */
  async check(profile: Profile): Promise<void> {
    for (const url of profileUrls(profile)) await this.checkUrl(url);
  }

  /** For the operator's banner. */
  describe(): string {
    if (this.allow.length) return `only ${this.allow.map((e) => e.text).join(', ')}; never this server's own address`;
    return `any host but link-local and metadata addresses, 0.0.0.0 and this server's own address${this.serverOnLoopback() ? '' : ', and loopback'}`;
  }
}

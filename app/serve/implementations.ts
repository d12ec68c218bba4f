// The implementations under certification: a name and a profile text that
// parses, validates and holds no secret in the clear (profile-text.ts),
// stored one file each (store/implementations.ts), and the list's summaries
// with each implementation's last run and its trend of verdicts.
import type { ImplementationRecord, ImplementationSummary, RunRecord } from './contract.ts';
import { notFound, ServeError, type ErrorBody } from './errors.ts';
import type { ProfilePolicy } from './profile-policy.ts';
import { baseUrlOf, checkStorableProfile } from './profile-text.ts';
import type { ImplementationStore } from './store/implementations.ts';
import { IMPLEMENTATION_ID_PATTERN, REFERENCE_ID } from './store/layout.ts';

export interface ImplementationInput {
  name: string;
  /** JSON with comments; secrets as env:NAME only. */
  profileText: string;
}

/** How many verdicts a summary's trend keeps. */
export const TREND_LENGTH = 20;
/** The bundled reference's line in the summaries. */
export const REFERENCE_NAME = 'The bundled reference';

const ID = new RegExp(IMPLEMENTATION_ID_PATTERN);

/**
 * The bundled reference as a record: a page for its runs like any
 * implementation's, whose text says why there is nothing to edit (saving it
 * is refused: put).
 */
function referenceRecord(): ImplementationRecord {
  const epoch = new Date(0).toISOString();
  return {
    id: REFERENCE_ID,
    name: REFERENCE_NAME,
    profileText: '// The bundled reference implementation: ptas starts it for each run, with its own profile.\n// Nothing to configure here; start a run below.\n{}\n',
    createdAt: epoch,
    updatedAt: epoch,
  };
}
const MAX_NAME = 200;

/** "Acme Payments (sandbox)" → "acme-payments-sandbox". */
export function idFromName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  return slug && slug !== REFERENCE_ID ? slug : `implementation${slug ? `-${slug}` : ''}`;
}

export class ImplementationService {
  constructor(
    private readonly store: ImplementationStore,
    /** The runs, newest first, for the summaries and to refuse deleting an implementation with a run in flight. */
    private readonly runs: (filter: { implementation?: string }) => RunRecord[],
    /** The files a stored profile may name (the operator's --profile-files). */
    private readonly policy: Pick<ProfilePolicy, 'files'>,
  ) {}

  list(): ImplementationRecord[] {
    return this.store.list();
  }

  /** A stored implementation, or the bundled reference's record ("reference"), which has no profile to edit: ptas starts it for each run. */
  get(id: string): ImplementationRecord | undefined {
    return id === REFERENCE_ID ? referenceRecord() : this.store.get(id);
  }

  /** Checks a profile text as PUT would, without storing it (the editor's "check"). */
  validate(profileText: string): { ok: true } | { ok: false; error: ErrorBody } {
    try {
      checkStorableProfile(profileText, this.policy);
      return { ok: true };
    } catch (error) {
      if (error instanceof ServeError) return { ok: false, error: error.body() };
      throw error;
    }
  }

  /** Creates or replaces the implementation `id`. */
  put(id: string, input: ImplementationInput): { record: ImplementationRecord; created: boolean } {
    if (!ID.test(id)) throw new ServeError('invalid-request', `an implementation id is 1 to 64 lower-case letters, digits and dashes; got ${JSON.stringify(id)}`, { keyPath: '/id' });
    if (id === REFERENCE_ID) throw new ServeError('conflict', '"reference" is the bundled reference: choose another id for an implementation', { keyPath: '/id' });
    const name = input.name.trim();
    if (!name || name.length > MAX_NAME) throw new ServeError('invalid-request', `name: 1 to ${MAX_NAME} characters`, { keyPath: '/name' });
    checkStorableProfile(input.profileText, this.policy);
    const existing = this.store.get(id);
    const at = new Date().toISOString();
    const record: ImplementationRecord = { id, name, profileText: input.profileText, createdAt: existing?.createdAt ?? at, updatedAt: at };
    this.store.save(record);
    return { record, created: !existing };
  }

  /** Stores a new implementation under an id made from its name (acme-payments, acme-payments-2, …). */
  create(input: ImplementationInput): ImplementationRecord {
    const base = idFromName(input.name);
    let id = base;
    for (let n = 2; this.store.get(id); n++) id = `${base.slice(0, 60)}-${n}`;
    return this.put(id, input).record;
  }

  /** Removes the implementation; its runs and bundles stay. Refused while one of its runs waits or runs. */
  remove(id: string): void {
    if (!this.store.get(id)) throw notFound(`implementation ${id}`);
    const inFlight = this.runs({ implementation: id }).find((r) => r.status === 'queued' || r.status === 'running');
    if (inFlight) throw new ServeError('conflict', `implementation ${id} has run ${inFlight.id} ${inFlight.status}: cancel it first`);
    this.store.remove(id);
  }

  summaries(): ImplementationSummary[] {
    const summary = (id: string, name: string, baseUrl: string | undefined): ImplementationSummary => {
      const runs = this.runs({ implementation: id });
      const last = runs[0];
      const trend = runs
        .filter((r) => r.verdict && r.finishedAt)
        .slice(0, TREND_LENGTH)
        .reverse()
        .map((r) => ({ runId: r.id, verdict: r.verdict!, finishedAt: r.finishedAt! }));
      return {
        id,
        name,
        ...(baseUrl ? { baseUrl } : {}),
        ...(last ? { lastRun: { id: last.id, ...(last.verdict ? { verdict: last.verdict } : {}), ...(last.finishedAt ? { finishedAt: last.finishedAt } : {}) } } : {}),
        trend,
      };
    };
    return [...this.store.list().map((i) => summary(i.id, i.name, baseUrlOf(i.profileText))), summary(REFERENCE_ID, REFERENCE_NAME, undefined)];
  }
}

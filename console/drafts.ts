// Unsaved edits of an implementation's name and profile, kept per
// implementation (and one for "New implementation") so that going to another
// page, or reloading, loses nothing: the editor opens on the draft again.
// In sessionStorage, not localStorage: a draft may hold what Save refuses (a
// secret typed in the clear), so it lives as long as the tab and no longer,
// and signing out forgets every draft. Closing the tab with a draft asks
// first (pages/implementation.ts).

const PREFIX = 'ptas-console-draft:';

export interface Draft {
  name: string;
  profileText: string;
  /** The stored profile the edits started from ('' for a new implementation): if it has changed since, the page says so. */
  base: string;
  /** When the draft was last kept (ISO 8601). */
  keptAt: string;
}

const keyOf = (implementationId: string | undefined) => PREFIX + (implementationId ?? 'new');

export function readDraft(implementationId: string | undefined): Draft | undefined {
  try {
    const raw = sessionStorage.getItem(keyOf(implementationId));
    if (!raw) return undefined;
    const draft = JSON.parse(raw) as Partial<Draft>;
    if (typeof draft.name !== 'string' || typeof draft.profileText !== 'string' || typeof draft.base !== 'string' || typeof draft.keptAt !== 'string') return undefined;
    return draft as Draft;
  } catch {
    return undefined;
  }
}

/** Keeps the draft; false when the browser would not (storage off, or the text beyond its quota of a few MB). */
export function keepDraft(implementationId: string | undefined, draft: Omit<Draft, 'keptAt'>): boolean {
  try {
    sessionStorage.setItem(keyOf(implementationId), JSON.stringify({ ...draft, keptAt: new Date().toISOString() }));
    return true;
  } catch {
    return false;
  }
}

export function dropDraft(implementationId: string | undefined): void {
  try {
    sessionStorage.removeItem(keyOf(implementationId));
  } catch {
    // Storage off: nothing was kept.
  }
}

/** Every draft of this tab, on sign-out. */
export function dropAllDrafts(): void {
  try {
    for (let i = sessionStorage.length - 1; i >= 0; i--) {
      const key = sessionStorage.key(i);
      if (key?.startsWith(PREFIX)) sessionStorage.removeItem(key);
    }
  } catch {
    // Storage off: nothing was kept.
  }
}

// `ptas doctor` for a profile text the console holds (app/doctor/run-doctor.ts
// in its JSON mode): each configured operation tried once, its rows and the
// broken keys as a structure, nothing printed. The profile is read as a run
// reads it (app/serve/profile-text.ts), held to the operator's policy: its
// secrets given with the request or from the environment names it allows,
// its targets and files those the policy lets it reach. The summary passes
// the Redactor before it is answered.
import { Writable } from 'node:stream';
import { Redactor } from '../../src/http/redact.ts';
import { runDoctor } from '../doctor/run-doctor.ts';
import type { DoctorSummary } from '../doctor/table.ts';
import type { ProfilePolicy } from './profile-policy.ts';
import { namesNoBaseUrl, runProfileWithinPolicy, type RunSecrets } from './profile-text.ts';
import { ServeError } from './errors.ts';

export interface DoctorResult {
  /** 0: every configured operation works; 2: a key is broken (ptas doctor's exit code). */
  exitCode: number;
  summary: DoctorSummary;
}

const discard = () => new Writable({ write: (_chunk, _encoding, done) => done() });

export async function doctorForProfile(profileText: string, policy: ProfilePolicy, secrets: RunSecrets = {}): Promise<DoctorResult> {
  const { profile, secrets: values } = await runProfileWithinPolicy(profileText, policy, secrets);
  const outcome = await runDoctor({ profile, profileFile: 'the profile text', json: true, output: discard(), errors: discard() });
  const redactor = new Redactor(values.map((value) => [value, 'secret'] as [string, string]));
  return { exitCode: outcome.exitCode, summary: redactor.redactJson(outcome.summary) as DoctorSummary };
}

/** What the console's Check shows (POST /api/doctor): the doctor's rows and broken keys, the keys a certifiable run still needs, or why nothing was tried. */
export interface ProfileCheck {
  rows: DoctorSummary['rows'];
  brokenKeys: string[];
  certificationNeeds?: DoctorSummary['certificationNeeds'];
  /** Set when the doctor tried nothing: the profile names no base URL, or the target does not answer. */
  error?: string;
}

/**
 * Check on a profile being edited. `ptas doctor` examines the bundled
 * reference when a profile names no base URL; Check is about the
 * implementation being edited, so it says what is missing instead (a text
 * that does not parse is refused for that, not for a missing baseUrl). A
 * profile the server refuses (422: unparsable, invalid, a secret in the
 * clear or out of reach, a target or file the policy refuses) is refused as
 * Save refuses it; any other refusal (the target does not answer) is the
 * table's to show.
 */
export async function checkProfile(profileText: string, doctor: (text: string) => Promise<DoctorResult>): Promise<ProfileCheck> {
  if (namesNoBaseUrl(profileText)) {
    return { rows: [], brokenKeys: ['baseUrl'], error: 'the profile names no baseUrl: set it to the address of the implementation to check (a run of a profile without one runs the bundled reference)' };
  }
  try {
    const { summary } = await doctor(profileText);
    return { rows: summary.rows, brokenKeys: summary.broken, certificationNeeds: summary.certificationNeeds };
  } catch (error) {
    if (error instanceof ServeError && error.status !== 422) return { rows: [], brokenKeys: [], error: error.message };
    throw error;
  }
}

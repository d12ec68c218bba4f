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
import { runProfileWithinPolicy, type RunSecrets } from './profile-text.ts';

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

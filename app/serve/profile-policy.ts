// What the lab's operator lets the profiles its token holders write reach:
// which environment variables they may read as secrets (secret-env.ts),
// which hosts the suite may call for them (target-policy.ts) and which files
// they may name (profile-files.ts). One object, made once from the flags of
// `ptas serve`, which the run queue, Check and Save all hold profiles to.
import { ProfileFilesPolicy } from './profile-files.ts';
import { SecretEnvPolicy } from './secret-env.ts';
import { TargetPolicy } from './target-policy.ts';

export interface ProfilePolicy {
  /** The server's environment, read only for the names secretEnv allows. */
  env: NodeJS.ProcessEnv;
  secretEnv: SecretEnvPolicy;
  targets: TargetPolicy;
  files: ProfileFilesPolicy;
}

export interface ProfilePolicyOptions {
  env?: NodeJS.ProcessEnv;
  /** --secret-env: names, or prefixes ending in *. */
  secretEnv?: readonly string[];
  /** --allow-target: host names, *.suffix, addresses, CIDRs. */
  allowTargets?: readonly string[];
  /** --profile-files: the folder a profile's file keys are relative to. */
  profileFiles?: string;
  /** How host names are resolved (tests: a fixed table). */
  resolveHost?: (host: string) => Promise<string[]>;
}

export function profilePolicy(options: ProfilePolicyOptions = {}): ProfilePolicy {
  return {
    env: options.env ?? process.env,
    secretEnv: new SecretEnvPolicy(options.secretEnv),
    targets: new TargetPolicy(options.allowTargets, options.resolveHost),
    files: new ProfileFilesPolicy(options.profileFiles),
  };
}

/** The operator's banner: what profiles may read and reach (names and counts, never values). */
export function describePolicy(policy: ProfilePolicy): string[] {
  return [
    `secrets profiles may read from this environment: ${policy.secretEnv.describe(policy.env)}`,
    `targets: ${policy.targets.describe()}`,
    `files profiles may name: ${policy.files.dir ? `inside ${policy.files.dir}` : 'none (--profile-files DIR allows a folder)'}`,
  ];
}

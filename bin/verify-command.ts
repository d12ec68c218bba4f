// `ptas verify DIR`: checks a certification bundle offline (app/verify/) and
// prints each step; the exit code says whether it holds.
import path from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { EXIT } from '../src/exit-codes.ts';
import { fail } from './connection.ts';
import { nonceArgument } from './bundle-args.ts';

interface VerifyArgs {
  dir: string;
  pubkey?: string;
  nonce?: string;
}

export const verifyCommand: CommandModule<object, VerifyArgs> = {
  command: 'verify <dir>',
  describe: 'Check a certification bundle: every hash, the signature, the nonce, that its reports agree, and that every required check has a verdict',
  builder: (y: Argv) =>
    y
      .positional('dir', { type: 'string', demandOption: true, describe: 'The bundle: the --out directory of ptas run' })
      .option('pubkey', { type: 'string', describe: 'Ed25519 public key (PEM file, or env:NAME) the manifest must be signed with' })
      .option('nonce', { type: 'string', coerce: nonceArgument, describe: 'The nonce the certifier issued for this run: the manifest and every request must carry it' })
      .example('$0 verify bundle --pubkey vendor.pub --nonce 7f3a9c', "A certifier's check of a bundle it received")
      .example('openssl pkey -in key.pem -pubout -out key.pub', 'The public half of a signing key (for --pubkey)')
      .epilog(`Exit codes: 0 the bundle holds, ${EXIT.NOT_CONFORMANT} a discrepancy (the first is named), 2 usage error (a key that cannot be read).`) as unknown as Argv<VerifyArgs>,
  handler: async (args) => {
    try {
      const [{ loadPublicKey }, { verifyBundle }] = await Promise.all([import('../src/certify/signing.ts'), import('../app/verify/verify-bundle.ts')]);
      const publicKey = args.pubkey ? loadPublicKey(args.pubkey) : undefined;
      const dir = path.resolve(args.dir);
      const report = await verifyBundle(dir, { publicKey, nonce: args.nonce });
      for (const step of report.steps) process.stdout.write(`${step.ok ? '✔' : '✖'} ${step.name.padEnd(16)} ${step.detail}\n`);
      if (report.problem) {
        process.stderr.write(`ptas verify: ${dir} does not hold: ${report.problem.detail}\n`);
        process.exitCode = EXIT.NOT_CONFORMANT;
      } else {
        process.stdout.write(`ptas verify: ${dir} holds\n`);
      }
    } catch (error) {
      fail(error);
    }
  },
};

// `ptas doctor`: tries each operation the profile configures once, in the
// order the checks depend on them (token first: every other step needs it),
// and reports per operation whether the profile's description of it works.
// A bounded handful of requests (about 20 on the reference), every wait
// bounded; no conformance verdicts, but the keys a certifiable run still
// needs (app/certify/certification-needs.ts). Exit 0 when everything configured works,
// 2 naming each broken key, 3 when the target is unreachable (preflight).
import { closeTransport, createTransport, HttpClient, TransportError } from '../../src/http/client.ts';
import { TransientAnswerError } from '../../src/http/transient.ts';
import { secretRedactor } from '../../src/http/connection.ts';
import type { Profile } from '../../src/config/profile.ts';
import { EXIT } from '../../src/exit-codes.ts';
import { assertReachable } from '../run/preflight.ts';
import { ExchangeLog } from './exchanges.ts';
import { brokenKeys, problemRow, type DoctorContext, type DoctorRow } from './model.ts';
import { heading, renderJson, renderRow, renderSummary, type DoctorSummary } from './table.ts';
import { doctorTarget } from './target.ts';
import { tokenStep } from './steps/token.ts';
import { userDetailsStep } from './steps/users.ts';
import { tradingUserStep } from './steps/trading-user.ts';
import { offerSteps } from './steps/offers.ts';
import { webhookSteps } from './steps/webhooks.ts';
import { withdrawalAddressStep } from './steps/crypto-transfers.ts';
import { jwksSteps } from './steps/jwks.ts';
import { certificationNeeds } from '../certify/certification-needs.ts';
import { requiredCheckIds } from '../certify/required-checks.ts';

export interface DoctorOptions {
  /** The profile from file, environment and flags; without baseUrl the bundled reference is examined. */
  profile: Profile;
  /** The file the profile came from, for the heading. */
  profileFile?: string;
  /** One JSON object on stdout instead of the table. */
  json?: boolean;
  output?: NodeJS.WritableStream;
  errors?: NodeJS.WritableStream;
}

export interface DoctorOutcome {
  exitCode: number;
  summary: DoctorSummary;
}

interface Step {
  run: (ctx: DoctorContext) => Promise<void>;
  /** Names a transport failure inside the step. */
  operation: string;
  key: string;
}

const STEPS: Step[] = [
  { run: tokenStep, operation: 'token', key: 'credentials' },
  { run: userDetailsStep, operation: 'user details', key: 'users.existingUserId' },
  { run: tradingUserStep, operation: 'create user', key: 'trading.createUser' },
  { run: offerSteps, operation: 'offer recipes', key: 'trading.createOffer' },
  { run: webhookSteps, operation: 'webhooks', key: 'webhooks.trigger' },
  { run: withdrawalAddressStep, operation: 'withdrawal address', key: 'cryptoTransfers.withdrawalAddress' },
  { run: jwksSteps, operation: 'JWKS', key: 'auth.jwksUrl' },
];

/** A request that got no answer, or only transient ones, ends its step with a PROBLEM row; the next step still runs. */
async function runStep(ctx: DoctorContext, step: Step): Promise<void> {
  try {
    await step.run(ctx);
  } catch (error) {
    if (error instanceof TransientAnswerError) {
      ctx.report(
        problemRow(step.operation, step.key, {
          request: ctx.exchanges.requestLine(error.exchangeId),
          answer: 'transient answers only',
          problem: `the request was only ever answered "not now": ${error.message}`,
          fix: 'run the doctor again when the target is less busy, or raise its rate limit for the client',
        }),
      );
      return;
    }
    if (!(error instanceof TransportError)) throw error;
    ctx.report(
      problemRow(step.operation, step.key, {
        request: ctx.exchanges.requestLine(error.exchangeId),
        answer: `no answer: ${error.kind}`,
        problem: `the request got no answer: ${error.message}`,
        fix: `check the path of the template ${step.key} describes, or raise http.timeoutMs if the target is slow`,
      }),
    );
  }
}

export async function runDoctor(options: DoctorOptions): Promise<DoctorOutcome> {
  const out = options.output ?? process.stdout;
  const started = performance.now();
  const target = await doctorTarget(options.profile, options.profileFile);
  try {
    const { profile, connection } = target;
    await assertReachable(connection);
    const transport = createTransport(connection);
    const exchanges = new ExchangeLog(connection.baseUrl);
    const http = HttpClient.to(connection, { transport, redactor: secretRedactor(connection), recorder: exchanges });
    const rows: DoctorRow[] = [];
    if (!options.json) out.write(heading(target.description, target.profileSource));
    const ctx: DoctorContext = {
      profile,
      http,
      exchanges,
      report: (row) => {
        rows.push(row);
        if (!options.json) out.write(renderRow(row));
      },
    };
    try {
      for (const step of STEPS) await runStep(ctx, step);
    } finally {
      await closeTransport(transport);
    }
    const broken = brokenKeys(rows);
    const summary: DoctorSummary = {
      target: profile.baseUrl,
      profile: target.profileSource,
      durationMs: Math.round(performance.now() - started),
      requests: exchanges.count,
      rows,
      broken,
      certificationNeeds: certificationNeeds(profile, await requiredCheckIds()),
    };
    out.write(options.json ? renderJson(summary) : renderSummary(summary));
    if (broken.length) (options.errors ?? process.stderr).write(`ptas doctor: broken: ${broken.join(', ')}\n`);
    return { exitCode: broken.length ? EXIT.USAGE : EXIT.CONFORMANT, summary };
  } finally {
    await target.stop();
  }
}

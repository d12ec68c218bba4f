// What a suite file imports: how a check is declared and run (this floor),
// and the core's check vocabulary it works with.
export { defineCheck, type CheckBody, type CheckFixtures } from './define.ts';
export { waitingOnOtherChecks } from './waiting.ts';
export { acquireExclusive } from './exclusive.ts';
export { CheckContext, CheckFailure, CheckSkip, clockOf, isSuccess, isServerError } from '../src/check/context.ts';
export type { CheckMeta, Severity, Area } from '../src/check/model.ts';
export { TransportError, type HttpResponse, type HttpClient } from '../src/http/client.ts';

// What a suite file imports.
export { defineCheck, type CheckBody, type CheckFixtures } from './define.ts';
export { waitingOnOtherChecks } from './waiting.ts';
export { CheckContext, CheckFailure, CheckSkip, clockOf, isSuccess, isServerError } from './context.ts';
export type { CheckMeta, Severity, Area, Verdict } from './model.ts';
export { TransportError, type HttpResponse, type HttpClient } from '../http/client.ts';

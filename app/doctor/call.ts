// Calling one profile template the way the checks do (callOperation), with
// the doctor's diagnosis when it does not work: a placeholder nothing fills
// (the request is then not sent) or an answer that is not the template's
// success. Either way a PROBLEM row names the key and the fix.
import type { HttpResponse } from '../../src/http/client.ts';
import type { OperationTemplate } from '../../src/config/sections/operation.ts';
import { callOperation, type OperationResult, type Placeholders } from '../../src/operations.ts';
import { placeholdersIn } from '../../src/template.ts';
import { answerProblem, unfilled, unfilledProblem } from './diagnose.ts';
import { problemRow, type DoctorContext } from './model.ts';

export interface TemplateCall {
  operation: string;
  /** The key a broken template is reported under. */
  key: string;
  /** The key a refused answer is blamed on, when it depends on the answer (a recipe changes only some parts). */
  blame?: (res: HttpResponse) => string;
  template: OperationTemplate;
  values: Placeholders;
  label: string;
  /** Told the key of the PROBLEM row when the call does not work. */
  onProblem?: (key: string) => void;
}

export interface TemplateAnswer {
  result: OperationResult;
  /** The request as sent ("POST /v1/…"). */
  request?: string;
}

/** The template's answer when it is the template's success; otherwise a PROBLEM row is reported and undefined returned. */
export async function callTemplate(ctx: DoctorContext, call: TemplateCall): Promise<TemplateAnswer | undefined> {
  const names = unfilled(call.template, call.values);
  if (names.length) {
    const request = `${call.template.method} ${call.template.path}`;
    ctx.report(problemRow(call.operation, call.key, { request, answer: 'not sent', ...unfilledProblem(call.key, names, call.values) }));
    call.onProblem?.(call.key);
    return undefined;
  }
  const result = await callOperation(ctx.http, call.template, call.values, { bearer: ctx.bearer, label: `doctor: ${call.label}` });
  const request = ctx.exchanges.requestLine(result.response);
  if (result.ok) return { result, request };
  const key = call.blame?.(result.response) ?? call.key;
  const diagnosis = answerProblem(key, result.response, request, ctx.http.redactor, call.template.expectStatus, placeholdersIn(call.template.path));
  ctx.report(problemRow(call.operation, key, { request, answer: String(result.response.status), ...diagnosis }));
  call.onProblem?.(key);
  return undefined;
}

/** "1f2e3d4c…" for long ids, so answers stay one line. */
export function short(value: unknown): string {
  const text = typeof value === "string" ? value : String(JSON.stringify(value) ?? value);
  return text.length > 12 ? `${text.slice(0, 8)}…` : text;
}

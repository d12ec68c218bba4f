// Step 3: the user offers are made for. trading.createUser when configured
// (the checks make a user of their own with it), else the shared
// trading.userId. A createUser that does not work falls back to
// trading.userId, so the recipes can still be tried.
import { callTemplate, short } from '../call.ts';
import { extractProblem, missingExtract } from '../diagnose.ts';
import { okRow, problemRow, skippedRow, type DoctorContext } from '../model.ts';

const OPERATION = 'create user';
const KEY = 'trading.createUser';

export async function tradingUserStep(ctx: DoctorContext): Promise<void> {
  const section = ctx.profile.trading;
  const shared = section?.userId;
  ctx.tradingUserId = shared;
  if (!section?.createUser) {
    const why = shared ? `not configured (${KEY}): offers are made for trading.userId` : undefined;
    return ctx.report(skippedRow(OPERATION, KEY, why));
  }
  if (!ctx.bearer) return ctx.report(skippedRow(OPERATION, KEY, 'not run: no access token'));
  const answer = await callTemplate(ctx, { operation: OPERATION, key: KEY, template: section.createUser, values: {}, label: 'create a user (trading.createUser)' });
  if (!answer) return;
  const { result, request } = answer;
  if (!section.createUser.extract?.userId) {
    return ctx.report(problemRow(OPERATION, `${KEY}.extract.userId`, { request, answer: String(result.response.status), ...missingExtract(KEY, 'userId', "the new user's id") }));
  }
  const userId = result.extracted.userId;
  if ((typeof userId !== 'string' && typeof userId !== 'number') || userId === '') {
    const diagnosis = extractProblem(KEY, 'userId', result.response, ctx.http.redactor, "the new user's id", ['id', 'user_id', 'userId']);
    return ctx.report(problemRow(OPERATION, `${KEY}.extract.userId`, { request, answer: String(result.response.status), ...diagnosis }));
  }
  ctx.tradingUserId = String(userId);
  ctx.report(okRow(OPERATION, KEY, request, `${result.response.status} userId ${short(userId)}`));
}

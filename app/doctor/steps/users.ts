// Step 2: user details v2 of users.existingUserId (spec 4.2), with no
// journey parameter (rule 6: the default journeys apply).
import { short } from '../call.ts';
import { answerProblem } from '../diagnose.ts';
import { okRow, problemRow, skippedRow, type DoctorContext } from '../model.ts';

const OPERATION = 'user details';
const KEY = 'users.existingUserId';

export async function userDetailsStep(ctx: DoctorContext): Promise<void> {
  const userId = ctx.profile.users?.existingUserId;
  if (!userId) return ctx.report(skippedRow(OPERATION, KEY));
  if (!ctx.bearer) return ctx.report(skippedRow(OPERATION, KEY, 'not run: no access token'));
  const res = await ctx.http.get(`/v2/users/${encodeURIComponent(userId)}`, { bearer: ctx.bearer, label: 'doctor: user details' });
  const request = ctx.exchanges.requestLine(res);
  const data = (res.json as { data?: Record<string, unknown> } | undefined)?.data;
  if (res.status === 200 && data && typeof data === 'object') {
    const terms = Array.isArray(data.terms_not_accepted) ? `, ${data.terms_not_accepted.length} terms not accepted` : '';
    return ctx.report(okRow(OPERATION, KEY, request, `200 data.id ${short(data.id)}${terms}`));
  }
  if (res.status === 404) {
    return ctx.report(
      problemRow(OPERATION, KEY, { request, answer: '404', problem: `no user ${userId} on the target`, fix: `set ${KEY} to a user this client can read` }),
    );
  }
  if (res.status === 403) {
    // 4.2 rule 7: restricted for partners that run the service under their own licence.
    const fix = 'the client may not read user details (spec 4.2 rule 7: restricted under an own licence): use credentials of a client that may';
    return ctx.report(problemRow(OPERATION, 'credentials', { request, answer: '403', problem: `user details of ${userId} answered 403`, fix }));
  }
  const { problem, fix } = answerProblem(KEY, res, request, ctx.http.redactor, [200]);
  ctx.report(problemRow(OPERATION, KEY, { request, answer: String(res.status), problem, fix: res.status === 200 ? 'the answer has no data object: is baseUrl the service\'s own address?' : fix }));
}

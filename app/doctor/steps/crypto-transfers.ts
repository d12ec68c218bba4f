// Step 6 (optional): one withdrawal address (spec 4.3) from
// cryptoTransfers.withdrawalAddress for cryptoTransfers.userId, named in the
// user-id header, generated placeholders filled afresh as the checks do.
import { withFreshValues } from '../../../src/placeholders.ts';
import { short } from '../call.ts';
import { placeholdersIn } from '../../../src/template.ts';
import { answerProblem } from '../diagnose.ts';
import { okRow, problemRow, skippedRow, type DoctorContext } from '../model.ts';

const OPERATION = 'withdrawal address';
const KEY = 'cryptoTransfers.withdrawalAddress';
const PATH = '/v1/crypto-transfers/addresses/withdrawals';

export async function withdrawalAddressStep(ctx: DoctorContext): Promise<void> {
  const section = ctx.profile.cryptoTransfers;
  if (!section?.withdrawalAddress) return ctx.report(skippedRow(OPERATION, KEY));
  if (!section.userId) return ctx.report(skippedRow(OPERATION, 'cryptoTransfers.userId'));
  if (!ctx.bearer) return ctx.report(skippedRow(OPERATION, KEY, 'not run: no access token'));
  const body = withFreshValues(section.withdrawalAddress, { userId: section.userId });
  const left = placeholdersIn(JSON.stringify(body));
  if (left.length) {
    const problem = `${KEY} names ${left.map((n) => `{${n}}`).join(', ')}, which nothing fills here`;
    return ctx.report(problemRow(OPERATION, KEY, { request: `POST ${PATH}`, answer: 'not sent', problem, fix: `use only {userId} and the generated placeholders ({uuid} {unique} {uniqueDigits} {now} {nowUnix}) in ${KEY}` }));
  }
  const res = await ctx.http.post(PATH, { headers: { [ctx.http.userIdHeader]: section.userId }, json: body, bearer: ctx.bearer, label: 'doctor: create a withdrawal address' });
  const request = ctx.exchanges.requestLine(res);
  if (res.status === 200) {
    const id = (res.json as { data?: { id?: unknown } } | undefined)?.data?.id;
    return ctx.report(okRow(OPERATION, KEY, request, `200${id === undefined ? '' : ` data.id ${short(id)}`}`));
  }
  const diagnosis = answerProblem(KEY, res, request, ctx.http.redactor, [200]);
  // A 404 here is the user (the path is the spec's); a 422 or 400 the body (4.3: which fields are required is not shown).
  const key = res.status === 404 ? 'cryptoTransfers.userId' : res.status === 401 || res.status === 403 ? 'credentials' : KEY;
  const fix =
    res.status === 404
      ? `set cryptoTransfers.userId to a user who may create withdrawal addresses (sent ${ctx.http.userIdHeader}: ${section.userId})`
      : res.status === 400 || res.status === 422
        ? `the request was refused: fill in ${KEY} with values the implementation accepts (its coin network ids and VASPs: the bundled reference's start banner lists them with the entry to copy), and check the user-id header (sent ${ctx.http.userIdHeader}; userIdHeader)`
        : diagnosis.fix;
  ctx.report(problemRow(OPERATION, key, { request, answer: String(res.status), problem: diagnosis.problem, fix }));
}

// What one answer of the 413 probe says about the token endpoint's body-size
// limit, decided once for the probe (run.ts) and its judgement (analysis.ts):
//   - 'refused': a 413, a bare reset, or a server error that is no gateway's
//     (8 names 413 for the size limit: another refusal FAILs on that sentence);
//   - 'accepted': a 2xx/3xx, or a 4xx other than 413 (the body was read);
//   - 'unobserved': no answer in time — a time-out is not a refusal, the
//     probe stopped waiting — or a gateway status the token endpoint's row
//     does not list (502, 503, 504: src/spec/answer-class.ts), still so after
//     being asked again: transient, it says nothing about a size.
import type { SizeOutcome } from '../../../src/results/load-model.ts';
import { answerClass } from '../../../src/spec/answer-class.ts';

export type SizeAnswer = 'refused' | 'accepted' | 'unobserved';

export function sizeAnswer(answer: { outcome: SizeOutcome; status?: number }): SizeAnswer {
  if (answer.outcome === 'timeout') return 'unobserved';
  if (answer.outcome === '5xx' && answerClass('token', answer.status ?? 0) === 'gateway') return 'unobserved';
  return answer.outcome === 'accepted' || answer.outcome === 'other-4xx' ? 'accepted' : 'refused';
}

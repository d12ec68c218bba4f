// npm run corpus:update: accept what the verdict policy now gives. Judges the
// recorded corpus again, prints every check whose verdict or basis changed,
// and writes the corpus with the new judgments (the records stay as they
// were observed). Commit it with the change that caused the flips.
import { listAllChecks } from '../../app/run/list.ts';
import { installedSuite } from '../../app/rejudge/rejudge.ts';
import { acceptJudgments, corpusFlips, describeFlip, readCorpus, writeCorpus, CORPUS_FILE } from '../support/corpus.ts';

await listAllChecks();
const corpus = readCorpus();
const { flips, judged } = corpusFlips(corpus, installedSuite());
for (const flip of flips) process.stdout.write(`${describeFlip(flip)}\n`);
if (!flips.length) {
  process.stdout.write(`corpus: every verdict as recorded; ${CORPUS_FILE} unchanged\n`);
} else {
  const bytes = writeCorpus(acceptJudgments(corpus, judged));
  process.stdout.write(`corpus: ${flips.length} judgments accepted; ${CORPUS_FILE} written (${bytes} bytes)\n`);
}

// What the benches share: the order statistics their figures are, and how a
// bench ends when a figure is over its budget (exit 1 naming each, so
// `npm run bench` fails).

export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The q-quantile (0 < q ≤ 1) by the nearest-rank method. */
export const quantile = (xs: readonly number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)]!;

/** Prints "within budget", or each failure (falsy entries are met budgets) and sets exit code 1. */
export function endWithBudgets(failures: ReadonlyArray<string | false>): void {
  const over = failures.filter((f): f is string => Boolean(f));
  if (over.length) {
    console.error(`FAIL: ${over.join('; ')}`);
    process.exitCode = 1;
  } else console.log('within budget');
}

// One second of a load run, in its own module with no imports: the k6 scripts
// (load/result, type-checked without Node) and results.json's model share it.
/** One second of a load run (by completion time): the engines produce it, results.json keeps it as is. */
export interface TimeBucket {
  tSec: number;
  offered: number;
  sent: number;
  status2xx: number;
  status429: number;
  status5xx: number;
  /** Other statuses plus transport failures. */
  other: number;
  p95Ms?: number;
}

// The instances given to `ptas load merge` cannot make one run: the message
// names each problem and the instances it concerns (exit 2).
import { PtasError } from '../../src/errors.ts';

export class LoadMergeRefused extends PtasError {
  readonly code = 'load-merge-refused';
  constructor(message: string) {
    super(message);
    this.name = 'LoadMergeRefused';
  }
}

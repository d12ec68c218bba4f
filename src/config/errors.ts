import { PtasError } from '../errors.ts';

/**
 * A configuration problem the user can fix. It names where the bad value
 * came from, the key path, what shape was expected and an example, and
 * makes the CLI exit with code 2.
 */
export class ConfigError extends PtasError {
  readonly code = 'config';
  constructor(
    message: string,
    readonly keyPath?: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

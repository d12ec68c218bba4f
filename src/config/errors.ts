/**
 * A configuration problem the user can fix. It names where the bad value
 * came from, the key path, what shape was expected and an example, and
 * makes the CLI exit with code 2.
 */
export class ConfigError extends Error {
  readonly code = 'PTAS_CONFIG';
  constructor(
    message: string,
    readonly keyPath?: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

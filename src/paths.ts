// One place that knows where the package's own files live, so modules work
// the same from the CLI, from Playwright workers and from tests.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const schemasDir = path.join(packageRoot, 'schemas');
export const fromRoot = (...parts: string[]): string => path.join(packageRoot, ...parts);

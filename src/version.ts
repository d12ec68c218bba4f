import { readFileSync } from 'node:fs';
import { fromRoot } from './paths.ts';
import { catalogue } from './requirements.ts';

export const suiteVersion: string = (JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { version: string }).version;
export const specVersion = (): string => catalogue().specVersion;

#!/usr/bin/env node
// Launcher: registers tsx so the TypeScript CLI runs without a build step.
import { register } from 'tsx/esm/api';

register();
await import('./ptas.ts');

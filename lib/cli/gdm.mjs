#!/usr/bin/env node
// Entry of the `gdm` command (package.json "bin"): the bundled CLI, or its TypeScript sources
// when they changed since the last build (lib/cli/start.mjs).
import './node-runtime.mjs';
import { startCli } from './start.mjs';

await startCli('gdm', 'gdm-main.ts');

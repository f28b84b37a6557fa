#!/usr/bin/env node
// Entry of the `insights-admin` command (package.json "bin"): runs the TypeScript CLI through tsx.
import './node-runtime.mjs';
import { register } from 'tsx/esm/api';

register();
await import('./insights-admin-main.ts');

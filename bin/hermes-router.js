#!/usr/bin/env node
// The compiled CLI lives in dist/ (built by `npm run build`, which `npm ci` runs through `prepare`): the bundled,
// minified copy in dist/bundle/ (scripts/build/bundle-cli.mjs: a few files to load instead of ~480, which halves the time
// to start) or, where only `tsc` ran, the per-file output.
import { existsSync } from 'node:fs';

const bundled = new URL('../dist/bundle/run.mjs', import.meta.url);
await import(existsSync(bundled) ? bundled.href : '../dist/cli/run.js');

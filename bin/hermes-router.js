#!/usr/bin/env node
// The compiled CLI lives in dist/ (built by `npm run build`, which `npm ci` runs through `prepare`).
import '../dist/cli/run.js';

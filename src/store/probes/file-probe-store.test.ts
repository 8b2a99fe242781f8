import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { FileProbeStore } from './file-probe-store.js';
import { describeProbeStoreContract } from './probe-store.contract.js';
import { probeFilePath } from './probe-results.js';

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

describeProbeStoreContract('file', () => {
  const directory = mkdtempSync(join(tmpdir(), 'hermes-router-probes-'));
  directories.push(directory);
  const path = probeFilePath(join(directory, 'data'));
  return { store: new FileProbeStore(path), reopen: () => new FileProbeStore(path) };
});

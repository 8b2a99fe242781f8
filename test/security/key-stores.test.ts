import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { FileKeyStore } from '../../src/security/file-key-store.js';
import { keyStoreContract } from '../../src/security/key-store.contract.js';
import { MemoryKeyStore } from '../../src/security/memory-key-store.js';

const directory = mkdtempSync(join(tmpdir(), 'hermes-router-key-stores-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;

keyStoreContract('memory', () => new MemoryKeyStore());
keyStoreContract('file', () => new FileKeyStore(join(directory, `keys-${(files += 1)}.json`)));

import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { emptyPolicyDocument, policyDocumentSchema } from './policy-document.js';
import type { PolicyDocument } from './policy-document.js';
import { PolicyRevisionConflict } from './policy-store.js';
import type { PolicyStore } from './policy-store.js';

export const policyFileName = 'model-policy.json';

/** `HERMES_ROUTER_MODEL_POLICY_FILE` when set, else `model-policy.json` in the data directory. */
export function policyFilePath(dataDir: string, env: NodeJS.ProcessEnv = {}): string {
  return env.HERMES_ROUTER_MODEL_POLICY_FILE ?? join(dataDir, policyFileName);
}

/**
 * The policy as one JSON file, replaced atomically on every save. Reads are synchronous too (`loadSync`) so the
 * gateway has its switches before it takes the first request.
 */
export class FilePolicyStore implements PolicyStore {
  readonly specificationVersion = 'v1' as const;

  constructor(readonly location: string) {}

  loadSync(): PolicyDocument {
    if (!existsSync(this.location)) return emptyPolicyDocument();
    const text = readFileSync(this.location, 'utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new Error(`${this.location} is not valid JSON (${error instanceof Error ? error.message : String(error)}); fix or delete it`);
    }
    const result = policyDocumentSchema.safeParse(parsed);
    if (!result.success) throw new Error(`${this.location} is not a model policy file: ${result.error.issues[0]?.message ?? 'invalid'}`);
    return result.data;
  }

  load(): Promise<PolicyDocument> {
    return Promise.resolve().then(() => this.loadSync());
  }

  save(next: PolicyDocument, expectedRevision: number): Promise<void> {
    return Promise.resolve().then(() => {
      // Re-read right before writing: another process (the CLI editing the file) may have saved meanwhile.
      const current = this.loadSync();
      if (current.revision !== expectedRevision) throw new PolicyRevisionConflict(expectedRevision, current.revision);
      mkdirSync(dirname(this.location), { recursive: true });
      writeFileAtomic(this.location, `${JSON.stringify(policyDocumentSchema.parse(next), null, 2)}\n`);
    });
  }
}

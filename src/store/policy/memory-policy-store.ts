import { emptyPolicyDocument } from './policy-document.js';
import type { PolicyDocument } from './policy-document.js';
import { PolicyRevisionConflict } from './policy-store.js';
import type { PolicyStore } from './policy-store.js';

/** For tests and for a gateway started without a data directory. */
export class MemoryPolicyStore implements PolicyStore {
  readonly specificationVersion = 'v1' as const;
  readonly location = 'memory';
  private document: PolicyDocument = emptyPolicyDocument();

  load(): Promise<PolicyDocument> {
    return Promise.resolve(structuredClone(this.document));
  }

  save(next: PolicyDocument, expectedRevision: number): Promise<void> {
    if (this.document.revision !== expectedRevision) {
      return Promise.reject(new PolicyRevisionConflict(expectedRevision, this.document.revision));
    }
    this.document = structuredClone(next);
    return Promise.resolve();
  }
}

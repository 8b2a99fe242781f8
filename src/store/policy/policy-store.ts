import type { PolicyDocument } from './policy-document.js';

/** The stored revision was not the one the writer read: someone else saved in between. */
export class PolicyRevisionConflict extends Error {
  constructor(
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`the model policy changed (revision ${actual}, expected ${expected}); reload it and try again`);
    this.name = 'PolicyRevisionConflict';
  }
}

/**
 * Where the routing policy (model switches) lives (version 1). The file implementation serves one process;
 * a Postgres one will serve several instances with the same contract (compare-and-set on `revision`).
 */
export interface PolicyStore {
  readonly specificationVersion: 'v1';
  /** Where it is stored, for messages (`/data/model-policy.json`). */
  readonly location: string;
  load(): Promise<PolicyDocument>;
  /**
   * Saves `next` only if the stored revision is still `expectedRevision`, else throws `PolicyRevisionConflict`.
   * `next.revision` must be `expectedRevision + 1`. A failed save leaves the stored document unchanged.
   */
  save(next: PolicyDocument, expectedRevision: number): Promise<void>;
}

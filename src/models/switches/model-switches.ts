import type { Deployment } from '../../catalog/deployment.js';
import { auditLimit } from '../../store/policy/policy-document.js';
import type { PolicyAuditEntry, PolicyDocument } from '../../store/policy/policy-document.js';
import { PolicyRevisionConflict } from '../../store/policy/policy-store.js';
import type { PolicyStore } from '../../store/policy/policy-store.js';

export interface SwitchChange {
  provider: string;
  model: string;
  enabled: boolean;
}

export interface SwitchState {
  provider: string;
  model: string;
  enabled: boolean;
  revision: number;
}

/**
 * The live on/off switch of every (provider, model), and the policy document that holds them (the tool routing
 * mode is saved in it too, through `update`). Reads are synchronous and in memory (the attempt loop asks
 * on every attempt); a change is saved first and applied in memory only once the save succeeded, so a failed
 * save leaves the running policy unchanged. Saves are serialised, so two quick changes cannot lose one another.
 */
export class ModelSwitches {
  private document: PolicyDocument;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners: ((document: PolicyDocument) => void)[] = [];

  constructor(
    private readonly store: PolicyStore,
    initial: PolicyDocument,
  ) {
    this.document = initial;
  }

  get revision(): number {
    return this.document.revision;
  }

  get location(): string {
    return this.store.location;
  }

  /** The whole policy in force (switches, tool routing mode); replaced, never mutated, on a save or reload. */
  get current(): Readonly<PolicyDocument> {
    return this.document;
  }

  /**
   * Calls `listener` with the policy in force after every save and every reload, including a reload because
   * another instance or the CLI saved a change (how the tool routing mode follows the shared policy).
   */
  onChange(listener: (document: PolicyDocument) => void): void {
    this.listeners.push(listener);
  }

  /** Models default to on until switched off. */
  isEnabled(deployment: Pick<Deployment, 'qualifiedName'>): boolean {
    return this.document.models[deployment.qualifiedName]?.enabled ?? true;
  }

  /** Switches that were explicitly saved, including ones for models no longer configured. */
  saved(): PolicyDocument['models'] {
    return structuredClone(this.document.models);
  }

  /**
   * Saves a change. With `expectedRevision`, a policy that moved on since the caller read it is a conflict
   * (HTTP 409) instead of a silent overwrite.
   */
  set(change: SwitchChange, expectedRevision?: number, actor = 'unknown'): Promise<SwitchState> {
    const name = `${change.provider}/${change.model}`;
    return this.update((next, now) => {
      next.models[name] = { enabled: change.enabled, updatedAt: now };
      next.audit = [...(next.audit ?? []), { at: now, model: name, enabled: change.enabled, by: actor, revision: next.revision }].slice(-auditLimit);
    }, expectedRevision).then((saved) => ({ ...change, revision: saved.revision }));
  }

  /**
   * Saves one edit of the policy document (`edit` changes `next`, a copy one revision ahead) through the same
   * serialised compare-and-set as a switch change, so two kinds of change never overwrite one another.
   */
  update(edit: (next: PolicyDocument, now: string) => void, expectedRevision?: number): Promise<PolicyDocument> {
    const run = async (): Promise<PolicyDocument> => {
      if (expectedRevision !== undefined && expectedRevision !== this.document.revision) {
        throw new PolicyRevisionConflict(expectedRevision, this.document.revision);
      }
      const now = new Date().toISOString();
      const next: PolicyDocument = {
        ...structuredClone(this.document),
        revision: this.document.revision + 1,
        updatedAt: now,
      };
      edit(next, now);
      try {
        await this.store.save(next, this.document.revision);
      } catch (error) {
        // Another writer got there first (the CLI editing the file): adopt its state so the next try can succeed.
        if (error instanceof PolicyRevisionConflict) this.adopt(await this.store.load());
        throw error;
      }
      this.adopt(next);
      return next;
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** The latest changes, newest last. */
  audit(limit = 20): PolicyAuditEntry[] {
    return (this.document.audit ?? []).slice(-limit);
  }

  /** Re-reads the store (e.g. after another process changed it). */
  async reload(): Promise<void> {
    this.adopt(await this.store.load());
  }

  private adopt(document: PolicyDocument): void {
    this.document = document;
    for (const listener of this.listeners) listener(document);
  }
}

import type { PolicyDocument } from '../store/policy/policy-document.js';
import { auditLimit } from '../store/policy/policy-document.js';
import { PolicyRevisionConflict } from '../store/policy/policy-store.js';
import type { ToolRoutingMode } from './config.js';
import { readLegacyRouterMode } from './router-mode-file.js';

// The tool routing mode as part of the routing policy: saved in the policy document next to the model switches
// (the policy file for one instance, Postgres for a cluster), with the same revision and compare-and-set, and
// applied on every instance when a save is announced or resynced (`ModelSwitches.reload`).

/** What the mode needs of the routing policy (model routing's `ModelSwitches` is one), taken as a parameter. */
export interface RoutingPolicy {
  readonly current: Readonly<PolicyDocument>;
  update(edit: (next: PolicyDocument, now: string) => void, expectedRevision?: number): Promise<PolicyDocument>;
  onChange(listener: (document: PolicyDocument) => void): void;
}

/**
 * The mode a gateway starts in: the policy's, else the legacy `tool-routing-mode.json` (an instance switched
 * before the mode joined the policy keeps its choice until the next switch saves it in the policy), else the
 * config's `tool_routing.mode`.
 */
export function startingRouterMode(policy: Pick<RoutingPolicy, 'current'>, dataDir: string, configured: ToolRoutingMode): ToolRoutingMode {
  return policy.current.toolRouting?.mode ?? readLegacyRouterMode(dataDir) ?? configured;
}

/** How many times a switch without an expected revision re-reads and retries after losing a race. */
const conflictRetries = 3;

/**
 * Saves `mode` in the shared policy, audited under `actor`. With `expectedRevision` a policy that moved on is a
 * conflict; without it, a save that lost a race to another writer retries on the policy it adopted, because
 * "switch it off" means the same whatever else changed meanwhile.
 */
export async function saveRouterMode(
  policy: Pick<RoutingPolicy, 'update'>,
  mode: ToolRoutingMode,
  actor: string,
  expectedRevision?: number,
): Promise<{ mode: ToolRoutingMode; revision: number }> {
  const edit = (next: PolicyDocument, now: string): void => {
    next.toolRouting = { mode, updatedAt: now };
    next.audit = [...(next.audit ?? []), { at: now, toolRoutingMode: mode, by: actor, revision: next.revision }].slice(-auditLimit);
  };
  for (let attempt = 0; ; attempt += 1) {
    try {
      const saved = await policy.update(edit, expectedRevision);
      return { mode, revision: saved.revision };
    } catch (error) {
      if (!(error instanceof PolicyRevisionConflict) || expectedRevision !== undefined || attempt >= conflictRetries) throw error;
    }
  }
}

/**
 * Calls `apply` whenever the policy's mode changes: a save on this instance, or another instance's save seen
 * through a reload. A reload that leaves the mode entry as it was applies nothing, so a resync every few
 * seconds never undoes a mode set on the gateway object directly (tests do that).
 */
export function followRouterMode(policy: Pick<RoutingPolicy, 'current' | 'onChange'>, apply: (mode: ToolRoutingMode) => void): void {
  let applied = policy.current.toolRouting;
  policy.onChange((document) => {
    const entry = document.toolRouting;
    if (!entry || (entry.mode === applied?.mode && entry.updatedAt === applied.updatedAt)) return;
    applied = entry;
    apply(entry.mode);
  });
}

/**
 * Spending the surface's token budget on recall. The classifier's bars decide what a message clearly needs; what
 * it misses on unseen phrasing is mostly a second need the model scores low, or a need in words it does not
 * know (src/tools/ARCHITECTURE.md, "Surface budget"). Two cheap insurances, both measured leave one writer out:
 *
 * - A small surface (at most `share` of the client's tool schema tokens, request_toolset included) is filled up
 *   to that share with the toolsets the model gives at least `floor`, most probable per token first: the surface
 *   stays that small, and a few hundred tokens of likely extras cost less than one recovery round trip.
 * - A surface already past `broadShare` (several needs, or a model unsure between toolsets) is where second
 *   needs hide, and it is already broad: every toolset whose probability × `broadMissCost` reaches its own schema
 *   tokens comes along.
 *
 * Applied to surfaces of toolsets and to "no tool needed" ones alike (a chat message that turns out to need a
 * tool is a miss too). Only toolsets with a known size (the model's, Hermes-named) are spent on.
 */
export interface SurfaceBudgetPolicy {
  /** Fill a surface up to this share of the client's tool schema tokens; 0 turns filling off. */
  share: number;
  /** The least model probability a toolset needs to be spent on. */
  floor: number;
  /** A surface above this share widens by expected cost instead; 1 turns widening off. */
  broadShare: number;
  /** What a missed toolset costs on a broad surface, in tokens (toolsets with P × this ≥ their tokens come along). */
  broadMissCost: number;
  /**
   * Only tools arrays of at least this many schema tokens: on an agent's handful of tools one toolset is already a
   * large share, and shares say nothing about what is cheap.
   */
  minimumTokens: number;
}

export interface SurfaceSize {
  /** Schema tokens of the surface as built (its tools and request_toolset). */
  used: number;
  /** Schema tokens of the client's whole tools array. */
  total: number;
  /** The toolsets it loads. */
  loaded: Iterable<string>;
}

export interface BudgetSpending {
  /** Toolsets to add to the surface, in the order they were chosen. */
  added: string[];
  /** 'filled' (small surface, budget spent), 'broadened' (broad surface widened) or undefined (nothing added). */
  kind?: 'filled' | 'broadened';
}

/**
 * Which toolsets to add to a surface. `evidence` is the calibrated model probability per toolset
 * (ToolsetClassification.evidence); `toolsetTokens` the estimated schema tokens of each toolset the model knows.
 * `fillEvidence` is what filling a small surface reads (ToolsetClassification.budgetEvidence: the evidence raised by
 * clauses read alone); widening a broad surface reads `evidence` only, because clause scores are sharper and a broad
 * surface spends them on many toolsets at once (measured: −7 points of mean reduction, fallback ×2.5).
 * Pure and deterministic (ties broken by name).
 */
export function spendSurfaceBudget(
  size: SurfaceSize,
  evidence: Readonly<Record<string, number>>,
  toolsetTokens: ReadonlyMap<string, number>,
  policy: SurfaceBudgetPolicy,
  fillEvidence: Readonly<Record<string, number>> = evidence,
): BudgetSpending {
  const { total } = size;
  if (total <= 0 || total < policy.minimumTokens) return { added: [] };
  const loaded = new Set(size.loaded);
  let used = size.used;
  const candidates = [...toolsetTokens.entries()].filter(([name, tokens]) => !loaded.has(name) && tokens > 0 && (evidence[name] ?? 0) > 0);

  if (used / total > policy.broadShare) {
    if (policy.broadMissCost <= 0) return { added: [] };
    const added = candidates
      .filter(([name, tokens]) => evidence[name]! * policy.broadMissCost >= tokens)
      .map(([name]) => name)
      .sort();
    return added.length > 0 ? { added, kind: 'broadened' } : { added };
  }

  if (policy.share <= 0) return { added: [] };
  const ranked = [...toolsetTokens.entries()]
    .filter(([name, tokens]) => !loaded.has(name) && tokens > 0 && (fillEvidence[name] ?? 0) >= policy.floor && fillEvidence[name]! > 0)
    .sort(([left, leftTokens], [right, rightTokens]) => fillEvidence[right]! / rightTokens - fillEvidence[left]! / leftTokens || (left < right ? -1 : 1));
  const added: string[] = [];
  for (const [name, tokens] of ranked) {
    if ((used + tokens) / total > policy.share) continue;
    added.push(name);
    used += tokens;
  }
  return added.length > 0 ? { added, kind: 'filled' } : { added };
}

import { loadToolsetModel } from '../classify/toolsets/model-file.js';
import type { ToolsetClassification } from '../classify/toolsets/toolset-classifier.js';
import { classifyToolsets } from '../classify/toolsets/toolset-classifier.js';
import type { RankingPolicy } from '../classify/toolsets/tool-ranker.js';
import { rankTools } from '../classify/toolsets/tool-ranker.js';
import { loadWordClusters } from '../classify/toolsets/word-clusters.js';
import { loadNeighbourIndex } from '../classify/toolsets/neighbour-index.js';
import { thresholdFor } from './config.js';
import type { SurfaceDecision, SurfaceInput, SurfaceReason } from './decision.js';
import type { SurfaceBudgetPolicy } from './surface-budget.js';
import { spendSurfaceBudget } from './surface-budget.js';
import { fullDecision } from './decision.js';
import { togetherWith } from './loaded-together.js';
import { calledToolNames, firstUserText, latestUserText } from './first-turn.js';
import type { ToolRoutingContext } from './routing-context.js';
import { toolRoutingContext } from './routing-context.js';
import { buildSurface, toolsetOfTool } from './surface.js';

/**
 * First turn → surface. Confident → the predicted toolsets + floor + pinned + unowned tools + request_toolset;
 * otherwise (abstain, long message, unreadable tools, any error) the client's own tools array untouched.
 * Never throws: a routing failure must not fail a request that would have succeeded without the router.
 */
export function decideFirstTurnSurface(input: SurfaceInput): SurfaceDecision {
  return guarded(input, () => decide(input, false));
}

/**
 * A request with history whose session the gateway does not know (restart, expiry, compaction): the first user
 * message's classification joined with the latest user message's (the request being made now, which may add or
 * switch a need: "now send it to the team") and the toolsets of every tool already called, or the full surface
 * when either classification abstains.
 */
export function decideResumedSurface(input: SurfaceInput): SurfaceDecision {
  return guarded(input, () => decide(input, true));
}

function guarded(input: SurfaceInput, run: () => SurfaceDecision): SurfaceDecision {
  try {
    return run();
  } catch (error) {
    return fullDecision(input, 'internal_error', { error: error instanceof Error ? error.message : String(error) });
  }
}

function decide(input: SurfaceInput, resumed: boolean): SurfaceDecision {
  const { config } = input;
  if (config.mode === 'off') return fullDecision(input, 'routing_off');
  if (input.tools.length === 0) return fullDecision(input, 'no_tools');
  const context = toolRoutingContext(input.tools, input.format, config);
  if (typeof context === 'string') return fullDecision(input, context);
  const availableToolsets = context.registry.toolsets.map((toolset) => toolset.name);
  if (availableToolsets.length === 0) return fullDecision(input, 'no_known_toolsets');
  const user = firstUserText(input.messages);
  if (!user || user.text.trim().length === 0 && !user.hasImage) return fullDecision(input, 'no_user_message', { availableToolsets });
  if (user.text.length > config.max_first_message_chars) return fullDecision(input, 'message_too_long', { availableToolsets });

  const first = classifyWithRanking(input, context, user.text, user.hasImage);
  // A latest message too long to classify is left to the first message's surface, as anticipation leaves it.
  const latest = resumed ? latestUserText(input.messages) : undefined;
  const classification = latest && latest.text !== user.text && latest.text.length <= config.max_first_message_chars
    ? joinedClassification(first, classifyWithRanking(input, context, latest.text, latest.hasImage))
    : first;
  if (classification.verdict === 'abstain') return fullDecision(input, 'abstain', commonOf(classification, availableToolsets, classification.rules));

  const toolsets = [...classification.toolsets];
  const rules = [...classification.rules];
  if (resumed) {
    for (const name of calledToolNames(input.messages)) {
      const owner = toolsetOfTool(context, name);
      if (owner !== undefined) toolsets.push(owner);
    }
  }
  const together = togetherWith(toolsets, config.loaded_together, availableToolsets);
  if (together.length > 0) {
    toolsets.push(...together);
    rules.push('loaded-together');
  }
  let surface = buildSurface(context, config, toolsets);
  if (classification.verdict === 'toolsets' || classification.verdict === 'no_tool') {
    // Cheap insurance for the needs the bars miss (a second need, unfamiliar words): see surface-budget.ts.
    const used = surface.keptIndices.reduce((sum, index) => sum + (context.toolTokens[index] ?? 0), context.requestToolsetTokens);
    const spending = spendSurfaceBudget({ used, total: context.totalTokens, loaded: surface.loadedToolsets }, classification.evidence, context.toolsetTokens, budgetPolicy(config), classification.budgetEvidence);
    if (spending.kind) {
      toolsets.push(...spending.added);
      rules.push(`budget-${spending.kind}`);
      surface = buildSurface(context, config, toolsets);
    }
  }
  if (classification.verdict === 'toolsets' || classification.verdict === 'no_tool') {
    const insured = insuredToolsets(context, config, surface, toolsets, classification, availableToolsets);
    if (insured.length > 0) {
      toolsets.push(...insured.flatMap(({ toolset, companions }) => [toolset, ...companions]));
      for (const source of new Set(insured.map(({ source }) => source))) rules.push(source);
      surface = buildSurface(context, config, toolsets);
    }
  }
  const common = commonOf(classification, availableToolsets, rules);
  if (surface.keptIndices.length >= context.views.length) return fullDecision(input, 'nothing_pruned', common);
  return { outcome: 'narrowed', reason: resumed ? 'resumed' : reasonOf(classification), ...common, surface, tools: surface.tools };
}

/**
 * Insurance after the surface budget: the toolsets the nearest training messages vote for (`neighbours`) and those a
 * clause or a window of the message asks for read alone below the bars that select (`parts`), each worth its tokens:
 * share of the vote × `neighbour_miss_cost_tokens`, or the part's probability × `part_miss_cost_tokens`, ≥ the
 * toolset's schema tokens, the largest expected miss cost first. Loaded last, outside the surface budget: the budget
 * prices its own insurance without them, and a surface they make broad must not set off a broadening. A narrow
 * surface takes one only while it stays within `neighbour_narrow_share` of the schema, a surface already at
 * `neighbour_broad_share` or more takes any: the insurance goes where the surface is already small enough to afford
 * it, or already broad because the classifier is unsure, and no narrow first turn is made a middling one
 * (src/tools/ARCHITECTURE.md, "Twenty-sixth session"). Only on tools arrays as large as the budget's, for the
 * cost-aware bars' reason. Each added toolset names the evidence that brought it (the rule it is reported under).
 */
function insuredToolsets(context: ToolRoutingContext, config: SurfaceInput['config'], surface: ReturnType<typeof buildSurface>, toolsets: readonly string[], classification: ToolsetClassification, available: readonly string[]): Insured[] {
  const thresholds = config.thresholds;
  if (context.totalTokens < config.surface_budget.min_schema_tokens) return [];
  const expected = new Map<string, { cost: number; source: Insured['source'] }>();
  const weigh = (evidence: Record<string, number> | undefined, missCost: number, source: Insured['source']): void => {
    for (const [toolset, value] of Object.entries(evidence ?? {})) {
      if (value * missCost > (expected.get(toolset)?.cost ?? 0)) expected.set(toolset, { cost: value * missCost, source });
    }
  };
  weigh(classification.neighbours, thresholds.neighbour_miss_cost_tokens, 'neighbours');
  weigh(classification.parts, thresholds.part_miss_cost_tokens, 'parts');
  let used = surface.keptIndices.reduce((sum, index) => sum + (context.toolTokens[index] ?? 0), context.requestToolsetTokens);
  const broad = used >= thresholds.neighbour_broad_share * context.totalTokens;
  const chosen = [...toolsets];
  const added: Insured[] = [];
  for (const [toolset, { cost, source }] of [...expected].sort((a, b) => b[1].cost - a[1].cost)) {
    const tokens = context.toolsetTokens.get(toolset);
    if (tokens === undefined || chosen.includes(toolset) || cost < tokens) continue;
    // An insured toolset comes with the members of its `loaded_together` group, and the narrow share counts them too.
    const companions = togetherWith([toolset], config.loaded_together, available).filter((member) => !chosen.includes(member));
    const withCompanions = tokens + companions.reduce((sum, member) => sum + (context.toolsetTokens.get(member) ?? 0), 0);
    if (!broad && used + withCompanions > thresholds.neighbour_narrow_share * context.totalTokens) continue;
    added.push({ toolset, companions, source });
    chosen.push(toolset, ...companions);
    used += withCompanions;
  }
  return added;
}

interface Insured {
  toolset: string;
  /** The members of its `loaded_together` group the surface lacked. */
  companions: string[];
  /** The evidence that brought it, the rule it is reported under. */
  source: 'neighbours' | 'parts';
}

/**
 * The toolset classifier for the toolsets a map knows, and per-tool relevance ranking for the tools none knows
 * (per-tool mode). A ranking that finds no tool standing out keeps every ranked tool (unsure → keep); with no
 * other toolsets that is the full surface.
 */
function classifyWithRanking(input: SurfaceInput, context: ToolRoutingContext, text: string, hasImage: boolean): ToolsetClassification {
  const perTool = context.perTool;
  if (!perTool) return classify(input, context, text, hasImage, context.described, context.profile);
  const mapped = perTool.mapped;
  const ranking = rankTools(perTool.index, text, loadWordClusters(), rankingPolicy(input.config));
  const rankedScores: Record<string, number> = {};
  // BM25 units in `scores`; `evidence` is the share of the best tool's score, in [0, 1] like the model's.
  const rankedEvidence: Record<string, number> = {};
  const best = Math.max(1e-9, ...ranking.kept.map((position) => ranking.scores[position]!));
  for (const position of ranking.kept) {
    rankedScores[perTool.toolsets[position]!] = Math.round(ranking.scores[position]! * 100) / 100;
    rankedEvidence[perTool.toolsets[position]!] = Math.round((ranking.scores[position]! / best) * 1e4) / 1e4;
  }
  const rankedKept = ranking.unsure ? perTool.toolsets : ranking.kept.map((position) => perTool.toolsets[position]!);
  if (mapped.length === 0) {
    return ranking.unsure
      ? { verdict: 'abstain', toolsets: [], scores: {}, evidence: {}, needsTool: 1, confidence: 0, rules: ['per-tool-unsure'] }
      : { verdict: 'toolsets', toolsets: rankedKept, scores: rankedScores, evidence: rankedEvidence, needsTool: 1, confidence: 0.5, rules: ['per-tool'] };
  }
  const classification = classify(input, context, text, hasImage, mapped, perTool.mappedProfile);
  // Unsure about the mapped toolsets while the ranked tools are most of the surface: widen to every mapped
  // toolset rather than give up the narrowing the ranking earned.
  const mappedKept = classification.verdict === 'abstain' ? mapped.map((toolset) => toolset.name) : classification.toolsets;
  const toolsets = [...mappedKept, ...rankedKept];
  return { ...classification, verdict: toolsets.length > 0 ? 'toolsets' : classification.verdict, toolsets, scores: { ...classification.scores, ...rankedScores }, evidence: { ...classification.evidence, ...rankedEvidence }, rules: [...classification.rules, ranking.unsure ? 'per-tool-unsure' : 'per-tool'] };
}

/**
 * Two requests of one conversation, both to be served: every toolset either selects, each score and evidence at its
 * higher value, abstaining when either abstains (unsure about the request being made now is reason enough to keep
 * everything).
 */
function joinedClassification(first: ToolsetClassification, latest: ToolsetClassification): ToolsetClassification {
  const higher = (a: Record<string, number>, b: Record<string, number>): Record<string, number> => {
    const joined = { ...a };
    for (const [name, value] of Object.entries(b)) joined[name] = Math.max(joined[name] ?? 0, value);
    return joined;
  };
  const verdict = first.verdict === 'abstain' || latest.verdict === 'abstain' ? 'abstain'
    : first.verdict === 'toolsets' || latest.verdict === 'toolsets' ? 'toolsets' : first.verdict;
  const budgetEvidence = first.budgetEvidence || latest.budgetEvidence ? higher(first.budgetEvidence ?? first.evidence, latest.budgetEvidence ?? latest.evidence) : undefined;
  return {
    verdict,
    toolsets: [...new Set([...first.toolsets, ...latest.toolsets])],
    scores: higher(first.scores, latest.scores),
    evidence: higher(first.evidence, latest.evidence),
    ...(budgetEvidence ? { budgetEvidence } : {}),
    needsTool: Math.max(first.needsTool, latest.needsTool),
    ...(first.neighbours || latest.neighbours ? { neighbours: higher(first.neighbours ?? {}, latest.neighbours ?? {}) } : {}),
    ...(first.parts || latest.parts ? { parts: higher(first.parts ?? {}, latest.parts ?? {}) } : {}),
    confidence: Math.min(first.confidence, latest.confidence),
    rules: [...first.rules, ...latest.rules.map((rule) => `latest:${rule}`)],
  };
}

function commonOf(classification: ToolsetClassification, availableToolsets: string[], rules: string[]): Pick<SurfaceDecision, 'predictedToolsets' | 'confidence' | 'scores' | 'availableToolsets' | 'rules'> {
  return { predictedToolsets: classification.toolsets, confidence: classification.confidence, scores: classification.scores, availableToolsets, rules };
}

function budgetPolicy(config: SurfaceInput['config']): SurfaceBudgetPolicy {
  const budget = config.surface_budget;
  return { share: budget.share, floor: budget.floor, broadShare: budget.broad_share, broadMissCost: budget.broad_miss_cost_tokens, minimumTokens: budget.min_schema_tokens };
}

/** The `per_tool` section as the ranker's policy (exported for bench/per-tool-ranking.ts). */
export function rankingPolicy(config: SurfaceInput['config']): RankingPolicy {
  return { relativeCut: config.per_tool.relative_cut, maximumKept: config.per_tool.maximum_kept, minimumKept: config.per_tool.minimum_kept, minimumTopScore: config.per_tool.minimum_top_score, semanticWeight: config.per_tool.semantic_weight, semanticFloor: config.per_tool.semantic_floor };
}

function classify(
  input: SurfaceInput,
  context: ToolRoutingContext,
  text: string,
  hasImage: boolean,
  available: ToolRoutingContext['described'],
  profile?: ToolRoutingContext['profile'],
): ToolsetClassification {
  const { config } = input;
  // The expected-cost bars (a cheap toolset kept on weak evidence) only on tools arrays as large as the surface budget
  // needs: on an agent's handful of small tools (Codex: four tools, 162 tokens) every toolset is a few dozen tokens, so
  // its bar fell to ~0.001 and any noise in the model kept it; the plain bars decide there.
  const sized = context.totalTokens >= config.surface_budget.min_schema_tokens;
  return classifyToolsets(input.model ?? loadToolsetModel(), {
    text,
    hasImage,
    available,
    ...(profile ? { profile } : {}),
    thresholdFor: (toolset, evidence) => thresholdFor(config, toolset, sized ? context.toolsetTokens.get(toolset) : undefined, evidence),
    descriptionThreshold: config.thresholds.description_match,
    abstainWhenTask: config.thresholds.abstain_when_task,
    guessing: { bestBelow: config.thresholds.guessing_best_below, barFactor: config.thresholds.guessing_bar_factor },
    secondNeedBar: config.thresholds.second_need,
    windowNeed: { bar: config.thresholds.window_need, taskBar: config.thresholds.window_need_task, words: config.thresholds.window_words, unspacedCharacters: config.thresholds.window_unspaced_characters },
    unfamiliarScriptLines: config.thresholds.unfamiliar_script_lines,
    // The votes are weighed against schema tokens on sized tools arrays only (insuredToolsets): elsewhere they are not asked.
    ...(sized ? { neighbours: { index: input.neighbours === undefined ? loadNeighbourIndex() : input.neighbours, bar: config.thresholds.neighbour_vote, count: config.thresholds.neighbour_count } } : {}),
    clauseEvidence: config.surface_budget.clause_evidence,
    ...(sized ? { partVote: config.thresholds.part_vote, ruleSupport: config.thresholds.rule_support } : {}),
  });
}

function reasonOf(classification: ToolsetClassification): SurfaceReason {
  if (classification.verdict === 'capability_inquiry') return 'capability_inquiry';
  if (classification.verdict === 'no_tool') return 'no_tool_needed';
  return 'classified';
}

import { z } from 'zod';
import { toolRoutingModes, type ToolRoutingMode } from './tool-routing-modes.js';

export { toolRoutingModes, type ToolRoutingMode };

/** Toolsets whose loss breaks the agent's core work; their thresholds favour recall. */
export const defaultCriticalToolsets = ['terminal', 'file', 'browser', 'cronjob'];

const toolsetOverrideSchema = z
  .object({
    /** Exact tool names or globs with `*` (`browser_*`, `mcp_github_*`). Config wins over every built-in rule. */
    tools: z.array(z.string().min(1)).min(1),
    /** The line shown in the capability catalog. */
    description: z.string().min(1).optional(),
  })
  .strict();

const thresholdsSchema = z
  .object({
    /** A toolset is loaded when its calibrated probability reaches this. */
    default: z.number().min(0).max(1).default(0.15),
    /** Lower bar for `critical_toolsets`: a wrong extra costs tokens, a miss costs a recovery round trip. */
    critical: z.number().min(0).max(1).default(0.1),
    per_toolset: z.record(z.string(), z.number().min(0).max(1)).default({}),
    /**
     * What losing a needed toolset costs, in tokens: a recovery round trip re-sends the conversation (or the agent
     * says it cannot). A toolset the model knows is also kept when its probability × this reaches its own schema
     * tokens, so cheap toolsets (vision, tts: ~200 tokens) come along on weak evidence and expensive ones (cronjob:
     * ~1,800) on a few percent; only while the model is unsure (thresholdFor). 0 turns it off. 35,000 from the
     * five-writer model (leave one writer out: 25,000 → 35,000 gave 0.6 points of case recall for 0.3 of reduction);
     * 80,000 with the fifty-six-writer model (two leave-writers-out folds: 29 of 300 misses kept for about 0.4 points
     * of median reduction); 30,000 since the model's probabilities are calibrated on out-of-writer logits (they are
     * higher for the rare toolsets, so a lower miss cost keeps as much; src/tools/ARCHITECTURE.md, "Calibration");
     * 40,000 with the word windows, together with `broad_miss_cost_tokens` 70,000: as many misses, more reduction
     * (ARCHITECTURE, "Eighteenth session"). 100,000 with the breadth writers' model, which keeps fewer tokens at the
     * same misses: the higher cost spends that on recall (ARCHITECTURE, "Twenty-first session"). 150,000 with
     * `rule_support`, which frees the median that a higher cost spends (ARCHITECTURE, "Twenty-eighth session").
     */
    miss_cost_tokens: z.number().min(0).default(150000),
    /**
     * A recall-first rule (rules.ts) adds its toolset only when the model gives that toolset at least this, per
     * toolset; toolsets not named here take every rule's word. On tools arrays as large as the surface budget's only.
     * The terminal's lexicon is the broadest ("changes", "branch", "process", "backup", "version"): on the training
     * writers' single-turn messages it named the shell for 64% of those it fired on, and where the model is sure the
     * shell is not wanted (under 0.1%) the word is usually the other sense. Shipped with `miss_cost_tokens` 150,000,
     * which spends the median it frees on recall (ARCHITECTURE, "Twenty-eighth session").
     */
    rule_support: z.record(z.string(), z.number().min(0).max(1)).default({ terminal: 0.001 }),
    /** Probability that the message needs some tool above which "no toolset confident" means abstain (full surface). */
    abstain_when_task: z.number().min(0).max(1).default(0.6),
    /**
     * First turns: the message needs a tool (≥ `abstain_when_task`) but no toolset the classifier selected scores
     * this much (only the cost-aware low bars let them in): the model does not understand the message (another
     * language, an unfamiliar paraphrase), so its bars are multiplied by `guessing_bar_factor`. 0 turns it off.
     */
    guessing_best_below: z.number().min(0).max(1).default(0.15),
    /**
     * While guessing, every bar times this: a broad surface (whatever the model gives a real chance) instead of
     * the full one, which spends the fallback budget a tenth as fast for most of the recall. 0 → abstain (full).
     */
    guessing_bar_factor: z.number().min(0).max(1).default(0.05),
    /**
     * A first message of several coordinated clauses ("… and remind me Friday"): each clause is scored alone and its
     * most probable toolset is loaded when the clause alone gives it at least this (the second need the whole
     * message scores low). 1 turns it off.
     */
    second_need: z.number().min(0).max(1).default(0.5),
    /**
     * The training messages most like the first message (neighbour-index.ts) vote with their writers' labels. A
     * toolset the surface lacks with at least this share of the `neighbour_count` nearest messages' similarity is a
     * candidate, loaded when its share × `neighbour_miss_cost_tokens` reaches its schema tokens and the surface stays
     * within `neighbour_narrow_share` of the schema or already holds `neighbour_broad_share` (decide-surface.ts). The
     * vote carries whole-message judgements the word-by-word model does not reach (src/tools/ARCHITECTURE.md,
     * "Twenty-sixth session"). 1 turns it off.
     */
    neighbour_vote: z.number().min(0).max(1).default(0.2),
    neighbour_miss_cost_tokens: z.number().min(0).default(5000),
    neighbour_narrow_share: z.number().min(0).max(1).default(0.14),
    neighbour_broad_share: z.number().min(0).max(1).default(0.15),
    neighbour_count: z.number().int().min(1).max(50).default(10),
    /**
     * A toolset a clause or a window of the first message gives at least this read alone (below `second_need` and
     * `window_need`, which select) is insured like a voted one: loaded when its probability ×
     * `part_miss_cost_tokens` reaches its schema tokens, within the same shares as the neighbour vote
     * (decide-surface.ts). 0.7 × 3,000 covers every Hermes toolset but kanban; 0.5 and 0.6 buy a few more needs at
     * four to five times the mean reduction per need (src/tools/ARCHITECTURE.md, "Twenty-seventh session"). 1 turns
     * it off.
     */
    part_vote: z.number().min(0).max(1).default(0.7),
    part_miss_cost_tokens: z.number().min(0).default(3000),
    /**
     * A first message of at most 400 characters is also read in windows of `window_words` words (half-overlapping),
     * each scored alone: a toolset a window gives at least this is loaded (the minority need a whole-message score
     * misses: "paint a poster … then copy it to ~/flyers/poster.png" needs the terminal). Windows are fragments and score sharply, so
     * the bar is high, and only windows whose "needs a tool" probability reaches `window_need_task` count. 1 turns it
     * off. 0.9 / 0.9 with the fill share at 11% (was 13%): fewer misses at the same mean reduction (src/tools/
     * ARCHITECTURE.md, "Eighteenth session").
     */
    window_need: z.number().min(0).max(1).default(0.9),
    window_need_task: z.number().min(0).max(1).default(0.9),
    window_words: z.number().int().min(2).default(6),
    /**
     * Characters of a script written without spaces (Chinese, Japanese, Thai) read as one window word, so such a
     * message is read in windows too; 0: a run is one word (and a short message in it is one window, never read).
     * 3: fold of writers 48-56 104 / 97 / 96 → 102 / 95 / 95 misses over three seeds at the same mean reduction
     * (src/tools/ARCHITECTURE.md, "Nineteenth session").
     */
    window_unspaced_characters: z.number().int().min(0).default(3),
    /**
     * First turns: a message mostly in a writing system (Armenian, Khmer, Ethiopic, …) the toolset model was trained on
     * fewer written lines of than this is not narrowed (full surface): the model cannot read it, and guessing there
     * missed a need in 7% of held-out writers' messages. Latin is always read. 0 turns it off.
     */
    unfamiliar_script_lines: z.number().int().min(0).default(100),
    /** Score a non-Hermes toolset needs from the description matcher to be loaded. */
    description_match: z.number().min(0).max(1).default(0.3),
  })
  .strict();

const perToolSchema = z
  .object({
    /**
     * When at least this many of the client's tools are unknown to every toolset map (MCP servers, an agent's own
     * tools), each of them is ranked on its own against the first message instead of being kept whole or grouped
     * by server; the relevant ones are sent and request_toolset's catalog lists the rest. 0 turns it off.
     */
    min_tools: z.number().int().min(0).default(12),
    /** A tool is kept when its relevance is at least this share of the best tool's. */
    relative_cut: z.number().min(0).max(1).default(0.2),
    /** At most this many ranked tools are kept. */
    maximum_kept: z.number().int().positive().default(24),
    /** At least the best this many are kept (when they match the message at all). */
    minimum_kept: z.number().int().min(0).default(5),
    /**
     * Below this best relevance the message points at no tool and every tool is kept (fail open). In units of the
     * idf of a word only one tool uses, so it means the same for 14 tools as for 200.
     */
    minimum_top_score: z.number().min(0).default(1.2),
    /**
     * Relevance that needs no shared word: a tool whose meaning in pretrained word vectors (its name and description
     * against the message's) has a cosine above `semantic_floor` gains up to this × the idf of a word only one tool
     * uses, rising linearly to a cosine of 1. 0 turns it off. 2 above 0.6 on the BFCL narrowing dev split: pool 200
     * 22 → 18 misses at median reduction 0.836 → 0.831, pool 50 10 → 8 at 0.753 → 0.750 (src/tools/ARCHITECTURE.md,
     * "Thirty-ninth session").
     */
    semantic_weight: z.number().min(0).default(2),
    semantic_floor: z.number().min(-1).max(1).default(0.6),
  })
  .strict();

const llmClassifierSchema = z
  .object({
    enabled: z.boolean().default(false),
    base_url: z.url().optional(),
    model: z.string().min(1).optional(),
    api_key_env: z.string().min(1).optional(),
    timeout_ms: z.number().int().positive().default(1500),
    /** The classifier's own confidence needed to narrow; below it the full surface stays. */
    min_confidence: z.number().min(0).max(1).default(0.8),
    disable_thinking: z.boolean().default(false),
    extra_body: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

const surfaceBudgetSchema = z
  .object({
    /**
     * A first surface of at most this share of the client's tool schema tokens (request_toolset included) is filled
     * up to it with the toolsets the model gives at least `floor`, most probable per token first: cheap insurance
     * for the needs the bars miss (src/tools/surface-budget.ts). 0 turns filling off. 11% (was 13%) since the
     * windows of `thresholds.window_need` catch minority needs more cheaply: on 23,792 unseen cases the last two points
     * of share kept 12 needs for 0.4 points of mean reduction, the windows keep 36 for 0.35.
     */
    share: z.number().min(0).max(1).default(0.11),
    /** The least model probability a toolset needs to be added to fill the budget. */
    floor: z.number().min(0).max(1).default(0.003),
    /**
     * A surface already above this share (several needs, or unsure between toolsets) widens instead: every toolset
     * whose probability × `broad_miss_cost_tokens` reaches its schema tokens comes along. 1 turns it off. 18% (was
     * 20%): such a surface is below every writer's cli median, so no median moves (leave one writer out, +0.16
     * points of case recall for 0.6 of mean reduction; src/tools/ARCHITECTURE.md).
     */
    broad_share: z.number().min(0).max(1).default(0.18),
    /**
     * 100,000 (was 300,000) since the out-of-writer calibration: its probabilities of the rare toolsets are higher;
     * 70,000 since the word windows (thresholds.window_need) select more second needs themselves.
     */
    broad_miss_cost_tokens: z.number().min(0).default(70000),
    /**
     * In a message of several coordinated clauses, a toolset's evidence for the budget is also its best probability
     * in a clause read alone (the second need the whole message scores low).
     */
    clause_evidence: z.boolean().default(false),
    /**
     * Only for tools arrays of at least this many schema tokens (Hermes CLI ~14,000, the full registry ~26,000):
     * on an agent's handful of tools one toolset is already a large share.
     */
    min_schema_tokens: z.number().min(0).default(6000),
  })
  .strict();

const anticipationSchema = z
  .object({
    /**
     * Classify every later user turn of a narrowed session and grow the surface before the call when the turn
     * clearly needs a toolset the session lacks (each growth rewrites the provider's prompt cache from the tools
     * on, so it has to be worth a hidden request_toolset round trip).
     */
    enabled: z.boolean().default(true),
    /** A missing toolset's calibrated probability that triggers a growth (high: a needless growth is a cache break). */
    trigger: z.number().min(0).max(1).default(0.7),
    /** A recall-first rule's toolset counts as a trigger (and companion) when the model gives it at least this. */
    rule_support: z.number().min(0).max(1).default(0.15),
    /**
     * No growth when a loaded toolset is this likely, or at least as likely as the missing one: the session
     * already explains the turn.
     */
    served: z.number().min(0).max(1).default(0.9),
    /** Once growing, every other missing toolset at least this likely comes along (one break instead of several). */
    companion: z.number().min(0).max(1).default(0.8),
    /** The same two bars for toolsets scored by the description matcher (MCP, prefix and config toolsets). */
    description_trigger: z.number().min(0).max(1).default(0.99),
    description_companion: z.number().min(0).max(1).default(0.99),
  })
  .strict();

/** The `tool_routing:` section. Every field has a default, so an empty section is valid. */
export const toolRoutingConfigSchema = z
  .object({
    mode: z.enum(toolRoutingModes).default('on'),
    /** Toolsets always loaded on a narrowed surface. */
    floor_toolsets: z.array(z.string().min(1)).default([]),
    /** Tool names always kept, whatever their toolset. */
    pinned_tools: z.array(z.string().min(1)).default([]),
    /**
     * Groups of toolsets loaded together: a narrowed surface that loads one member loads every member the client
     * has, on the first turn and whenever the surface grows (anticipation, request_toolset, a pruned tool called).
     * For toolsets that split one service's actions where users do not: Hermes's discord reads messages and opens
     * threads, discord_admin lists channels and pins, and "which channels are dead?" or "pin the welcome post" needs
     * both or the other one (src/tools/ARCHITECTURE.md, "Nineteenth session").
     */
    loaded_together: z.array(z.array(z.string().min(1)).min(2)).default([['discord', 'discord_admin']]),
    critical_toolsets: z.array(z.string().min(1)).default(defaultCriticalToolsets),
    /** Toolset definitions that add to or override the built-in ownership (Hermes map, MCP, prefixes). */
    toolsets: z.record(z.string().min(1), toolsetOverrideSchema).default({}),
    /** Group otherwise-unowned tools by a shared name prefix (`spotify_play`, `spotify_search`). */
    prefix_grouping: z.boolean().default(true),
    thresholds: thresholdsSchema.prefault({}),
    /** A first message longer than this is not classified: long pasted context is where classifiers guess. */
    max_first_message_chars: z.number().int().positive().default(6000),
    /** Per-tool relevance ranking for tools no toolset map knows. */
    per_tool: perToolSchema.prefault({}),
    /** Optional LLM classifier, asked only when the local one abstains (decideFirstTurnSurfaceWithLlm). */
    llm_classifier: llmClassifierSchema.prefault({}),
    /** First turns: spend a small token budget on the likeliest extra toolsets, and widen already broad surfaces. */
    surface_budget: surfaceBudgetSchema.prefault({}),
    /** Later turns: grow the surface before the call instead of waiting for request_toolset. */
    anticipation: anticipationSchema.prefault({}),
  })
  .strict();

export type ToolRoutingConfig = z.infer<typeof toolRoutingConfigSchema>;
export type ToolsetOverride = z.infer<typeof toolsetOverrideSchema>;

export function defaultToolRoutingConfig(): ToolRoutingConfig {
  return toolRoutingConfigSchema.parse({});
}

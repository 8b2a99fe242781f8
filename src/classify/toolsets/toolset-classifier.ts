import { frameTokens, instructionText } from '../features/scopes.js';
import { dominantWritingSystem } from '../features/writing-system.js';
import type { MultilabelModel } from '../linear/multilabel-model.js';
import type { DescribedToolset, DescriptionProfile } from './description-matcher.js';
import { buildDescriptionProfile, scoreDescriptions, termsOf } from './description-matcher.js';
import { messageLanguage } from './message-language.js';
import { blankNegatedInstructions } from './negation-languages.js';
import { applyRules } from './rules.js';
import type { NeighbourIndex } from './neighbour-index.js';
import { neighbourTerms } from './neighbour-terms.js';
import { needClauses, secondNeeds } from './second-need.js';
import { toolsetFeatures } from './toolset-features.js';
import type { WindowNeedOptions } from './window-need.js';
import { instructionWords, windowMaxima, windowNeeds } from './window-need.js';
import type { WordClusters } from './word-clusters.js';
import { loadWordClusters } from './word-clusters.js';

/** The label of the model's "this message needs some tool" output; never a toolset name. */
export const needsToolLabel = '_task';

export interface ToolsetClassifierInput {
  text: string;
  hasImage: boolean;
  /** The toolsets the client actually has; predictions are limited to them. */
  available: readonly DescribedToolset[];
  /** Probability a toolset needs to be selected, given what the model says of the whole message. */
  thresholdFor: (toolset: string, evidence: { needsTool: number; strongest: number }) => number;
  /** Score a toolset unknown to the model needs from the description matcher. */
  descriptionThreshold: number;
  /** "No toolset confident" while P(needs a tool) is at least this → abstain (full surface). */
  abstainWhenTask: number;
  /**
   * While P(needs a tool) is at least `abstainWhenTask`, toolsets were selected but none scores `bestBelow` (they
   * came in on the cost-aware low bars): the model does not understand the message, so every bar is multiplied by
   * `barFactor` (a broad surface), or with `barFactor` 0 the classifier abstains (the full surface). Off when absent.
   */
  guessing?: { bestBelow: number; barFactor: number };
  /**
   * A message of several coordinated clauses: each clause is scored alone and its most probable toolset is selected
   * when the clause alone gives it at least this (second-need.ts). 1 or absent turns it off.
   */
  secondNeedBar?: number;
  /**
   * Windows of a few words of a message scored alone (window-need.ts); a toolset one of them asks for clearly is
   * selected. Off when absent or its bar is 1. Read with the clauses (selected toolsets, a short message).
   */
  windowNeed?: WindowNeedOptions;
  /**
   * The nearest training messages' vote (neighbour-index.ts): a toolset the model knows with at least `bar` of the
   * `count` nearest messages' similarity is reported in `neighbours`. Off when absent or its bar is 1.
   */
  neighbours?: { index: NeighbourIndex | null; bar: number; count: number };
  /**
   * Per toolset, the least model probability at which a rule's word still selects it (below, the model's own score
   * decides; the rule is still listed in `rules` as having matched). Toolsets not named here take every rule's word;
   * absent, all do.
   */
  ruleSupport?: Readonly<Record<string, number>>;
  /** Also score the clauses of a multi-clause message for the surface budget (`budgetEvidence`). */
  clauseEvidence?: boolean;
  /**
   * Report in `parts` each unselected toolset a clause or a window of the message gives at least this alone, below
   * the bars that select (the clauses and windows are read anyway). Off when absent or 1.
   */
  partVote?: number;
  /**
   * A message mostly in a writing system the model was trained on fewer written lines of than this (its
   * `trainedOn.writingSystems`) is not classified: the verdict is `abstain` (the full surface). Latin is always read.
   * Off when absent or 0, and for a model that does not record its writing systems.
   */
  unfamiliarScriptLines?: number;
  /** A cached profile for `available` (built from it when absent). */
  profile?: DescriptionProfile;
  /** The word-cluster table the shipped model was trained with (loadWordClusters()); without it, words only. */
  clusters?: WordClusters | null;
}

export type ClassificationVerdict = 'toolsets' | 'no_tool' | 'capability_inquiry' | 'abstain';

export interface ToolsetClassification {
  verdict: ClassificationVerdict;
  /** Selected toolsets, in the order of `available`. */
  toolsets: string[];
  /** Score per available toolset (model probability, rule 1, or description match). */
  scores: Record<string, number>;
  /**
   * The same scores before the recall-first rules: the calibrated model probability, or for toolsets the model
   * does not know the description match (0.99 when the user names the toolset). For callers that need precision
   * more than recall (growing a later turn's surface breaks the prompt cache).
   */
  evidence: Record<string, number>;
  /**
   * For the surface budget only: `evidence` raised to each toolset's best probability in a clause of its own (a
   * multi-clause message with `clauseEvidence`). Absent when the clauses were not scored.
   */
  budgetEvidence?: Record<string, number>;
  needsTool: number;
  /**
   * Toolsets the nearest training messages' writers asked for that the selection left out (`input.neighbours`), with
   * their share of the vote; only with the `toolsets` or `no_tool` verdict, for the caller to weigh against their
   * schema tokens after the surface budget.
   */
  neighbours?: Record<string, number>;
  /**
   * Toolsets a clause or a window of the message gives at least `input.partVote` read alone that the selection left
   * out, with that probability; like `neighbours`, for the caller to weigh against their schema tokens.
   */
  parts?: Record<string, number>;
  /** The weakest of the decisions taken (selected: its score; left out: 1 − its score). */
  confidence: number;
  rules: string[];
}

/**
 * First-message classifier: the shipped linear model for the toolsets it knows, the description matcher for
 * the others, and rules that can only add. Pure and synchronous; a few hundred microseconds per call.
 */
export function classifyToolsets(model: MultilabelModel, input: ToolsetClassifierInput): ToolsetClassification {
  const tokens = frameTokens(input.text);
  // English and Chinese negations are framed already; the other languages' are blanked for the rules here.
  const language = messageLanguage(input.text);
  const framed = instructionText(input.text, tokens);
  const instruction = language === 'english' ? framed : blankNegatedInstructions(framed);
  const features = toolsetFeatures(input.text, input.hasImage, model.featureBits, tokens, input.clusters === undefined ? loadWordClusters() : input.clusters);
  const probabilities = model.predict(features);
  const labelIndex = new Map(model.labels.map((label, index) => [label, index]));
  const rules = applyRules(tokens, input.text, input.hasImage, instruction, language, new Set(input.available.map((toolset) => toolset.name)));
  const needsTool = probabilities[labelIndex.get(needsToolLabel) ?? -1] ?? 0.5;

  const strongest = Math.max(0, ...model.labels.map((label, index) => (label === needsToolLabel ? 0 : probabilities[index]!)));
  const unknownToModel = input.available.filter((toolset) => !labelIndex.has(toolset.name));
  let descriptionScores: number[] = [];
  if (unknownToModel.length > 0) {
    const profile = input.profile ?? buildDescriptionProfile(input.available);
    const plainTerms = termsOf(tokens.filter((token) => token.frame === 'plain').map((token) => token.text).join(' '));
    const all = scoreDescriptions(profile, plainTerms);
    descriptionScores = input.available.map((toolset) => all[profile.names.indexOf(toolset.name)] ?? 0);
  }

  const named = namedToolsets(instruction, input.available);
  const scores: Record<string, number> = {};
  const evidence: Record<string, number> = {};
  const toolsets: string[] = [];
  let confidence = 1;
  const thresholds: number[] = [];
  input.available.forEach((toolset, position) => {
    const modelIndex = labelIndex.get(toolset.name);
    const known = modelIndex !== undefined;
    let score = known ? probabilities[modelIndex]! : descriptionScores[position] ?? 0;
    // The model has seen its toolsets' names in training; naming only adds evidence for the toolsets it does not know.
    evidence[toolset.name] = round(!known && named.has(toolset.name) ? Math.max(score, 0.99) : score);
    const ruleSelects = rules.toolsets.has(toolset.name) && (!known || rules.unambiguous.has(toolset.name) || score >= (input.ruleSupport?.[toolset.name] ?? 0));
    if (ruleSelects || named.has(toolset.name)) score = Math.max(score, 0.99);
    scores[toolset.name] = round(score);
    thresholds.push(known ? input.thresholdFor(toolset.name, { needsTool, strongest }) : input.descriptionThreshold);
  });
  const widen = widening(input.available, scores, thresholds);
  const selected = new Set<string>();
  input.available.forEach((toolset, position) => {
    const score = scores[toolset.name]!;
    if (score >= thresholds[position]! * widen(toolset.name)) selected.add(toolset.name);
  });
  const secondNeedBar = input.secondNeedBar ?? 1;
  let budgetEvidence: Record<string, number> | undefined;
  const partMaxima = new Map<string, number>();
  const partVote = input.partVote ?? 1;
  // Asks of several needs are short; a long message is mostly pasted context whose sentences are not asks, and each
  // clause costs one more model evaluation (p99 of a decision is the budget, 2 ms).
  const windowNeed = input.windowNeed;
  const windowsRead = windowNeed !== undefined && windowNeed.bar < 1;
  if (selected.size > 0 && (secondNeedBar < 1 || input.clauseEvidence || windowsRead || partVote < 1) && instruction.length <= clauseScoredCharacters) {
    const candidates = new Set(input.available.filter((toolset) => labelIndex.has(toolset.name)).map((toolset) => toolset.name));
    const scorer = { labels: model.labels, predict: (clause: string) => model.predict(toolsetFeatures(clause, false, model.featureBits, undefined, input.clusters === undefined ? loadWordClusters() : input.clusters)) };
    // A toolset a part of the message asks for alone joins the selection under the rule that found it.
    const selectFromParts = (found: ReadonlyMap<string, number>, rule: string): void => {
      for (const [toolset, probability] of found) {
        if (selected.has(toolset)) continue;
        selected.add(toolset);
        scores[toolset] = round(Math.max(scores[toolset]!, probability));
        if (!rules.fired.includes(rule)) rules.fired.push(rule);
      }
    };
    const clauseNeeds = secondNeeds(needClauses(instruction), scorer, candidates, needsToolLabel, secondNeedBar, maximumScoredClauses);
    selectFromParts(clauseNeeds.top, 'second-need');
    const windowScores = windowNeed !== undefined && (windowsRead || partVote < 1) ? windowMaxima(instructionWords(instruction, windowNeed.unspacedCharacters), scorer, candidates, needsToolLabel, windowNeed) : new Map<string, number>();
    if (windowsRead) selectFromParts(windowNeeds(windowScores, windowNeed.bar), 'window-need');
    for (const maxima of [clauseNeeds.maxima, windowScores]) for (const [toolset, probability] of maxima) partMaxima.set(toolset, Math.max(partMaxima.get(toolset) ?? 0, probability));
    if (input.clauseEvidence && clauseNeeds.maxima.size > 0) {
      budgetEvidence = { ...evidence };
      for (const [toolset, probability] of clauseNeeds.maxima) budgetEvidence[toolset] = round(Math.max(budgetEvidence[toolset] ?? 0, probability));
    }
  }
  // Read apart from the selection: the caller adds these after the surface budget, so they neither count toward the
  // share that decides a fill or a broadening nor bring one on (the budget's own insurance is priced without them).
  const neighbourToolsets: Record<string, number> = {};
  const neighbours = input.neighbours;
  if (neighbours?.index && neighbours.bar < 1) {
    for (const [toolset, share] of neighbours.index.vote(neighbourTerms(input.text, tokens), neighbours.count)) {
      if (share < neighbours.bar || selected.has(toolset) || !labelIndex.has(toolset) || !input.available.some((candidate) => candidate.name === toolset)) continue;
      neighbourToolsets[toolset] = round(share);
    }
  }
  const partToolsets: Record<string, number> = {};
  for (const [toolset, probability] of partMaxima) if (probability >= partVote && !selected.has(toolset)) partToolsets[toolset] = round(probability);
  input.available.forEach((toolset) => {
    const score = scores[toolset.name]!;
    if (selected.has(toolset.name)) {
      toolsets.push(toolset.name);
      confidence = Math.min(confidence, score);
    } else confidence = Math.min(confidence, 1 - score);
  });

  const voted = { ...(Object.keys(neighbourToolsets).length > 0 ? { neighbours: neighbourToolsets } : {}), ...(Object.keys(partToolsets).length > 0 ? { parts: partToolsets } : {}) };
  // The capability pattern matches the whole message (rules.ts), so there is no task in it: what the n-gram model
  // selects on such a message is noise (the eighty-one-writer model gave web 16% on 你能做什么？). Only a rule or a
  // named toolset (an attached image, "your todo tool") outweighs it.
  if (rules.capabilityInquiry && rules.toolsets.size === 0 && named.size === 0) {
    // Every toolset is left out here, so the weakest decision is leaving out the best-scored one.
    const leftOut = Math.min(1, ...input.available.map((toolset) => 1 - scores[toolset.name]!));
    return { verdict: 'capability_inquiry', toolsets: [], scores, evidence, needsTool: round(needsTool), confidence: round(leftOut), rules: [...rules.fired, 'capability-inquiry'] };
  }
  // The model's scores on a script it has barely read are noise (held-out writers in such scripts: 7% of cases missed
  // a need, against 2.5% in English), and a rule or the description matcher reads little of it either.
  const unfamiliar = unfamiliarWritingSystem(model, input.text, input.unfamiliarScriptLines ?? 0);
  if (unfamiliar) return { verdict: 'abstain', toolsets: [], scores, evidence, needsTool: round(needsTool), confidence: 0, rules: [...rules.fired, `unfamiliar-script:${unfamiliar}`] };
  const best = Math.max(0, ...toolsets.map((name) => scores[name]!));
  if (toolsets.length > 0 && needsTool >= input.abstainWhenTask && best < (input.guessing?.bestBelow ?? 0)) {
    // Guessing: every toolset the model gives any real chance comes along (or, with no factor, the full surface).
    const factor = input.guessing?.barFactor ?? 0;
    if (factor <= 0) return { verdict: 'abstain', toolsets: [], scores, evidence, needsTool: round(needsTool), confidence: round(best), rules: [...rules.fired, 'guessing'] };
    const wide = input.available.filter((toolset, position) => scores[toolset.name]! >= thresholds[position]! * factor).map((toolset) => toolset.name);
    return { verdict: 'toolsets', toolsets: wide, scores, evidence, needsTool: round(needsTool), confidence: round(best), rules: [...rules.fired, 'guessing'] };
  }
  if (toolsets.length === 0) {
    const verdict = needsTool >= input.abstainWhenTask ? 'abstain' : 'no_tool';
    confidence = Math.min(confidence, verdict === 'abstain' ? needsTool : 1 - needsTool);
    return { verdict, toolsets, scores, evidence, needsTool: round(needsTool), ...(verdict === 'no_tool' ? voted : {}), confidence: round(confidence), rules: rules.fired };
  }
  return { verdict: 'toolsets', toolsets, scores, evidence, ...(budgetEvidence ? { budgetEvidence } : {}), needsTool: round(needsTool), ...voted, confidence: round(confidence), rules: rules.fired };
}

/** Messages longer than this are not split into clauses; at most this many clauses are scored. */
const clauseScoredCharacters = 400;
const maximumScoredClauses = 3;

/**
 * Calibration that widens rather than trusts a sharp wrong answer: when no selected toolset clears 0.5 (the
 * model knows a tool is needed but not which), every toolset within half its bar comes along. A miss costs a
 * recovery round trip (or an agent that says "I can't"); an extra costs a few hundred tokens. Returns the factor
 * applied to a toolset's threshold.
 */
function widening(available: readonly DescribedToolset[], scores: Record<string, number>, thresholds: readonly number[]): (toolset: string) => number {
  const selected = available.filter((toolset, position) => scores[toolset.name]! >= thresholds[position]!).map((toolset) => toolset.name);
  const strongest = Math.max(0, ...selected.map((name) => scores[name]!));
  const unsure = selected.length > 0 && strongest < 0.5;
  return () => (unsure ? 0.5 : 1);
}

/**
 * Toolsets the user names outright ("use the todo tool", "with computer_use", "session search"): the toolset's
 * own name, or one of its tools whose name is distinctive (has an underscore or dash, so "find" or "add" in a
 * BFCL-style API never fire). Written with spaces or underscores alike.
 */
function namedToolsets(instruction: string, available: readonly DescribedToolset[]): Set<string> {
  const found = new Set<string>();
  const text = ` ${instruction.replace(/[_-]/g, ' ').replace(/\s+/g, ' ')} `;
  for (const toolset of available) {
    const candidates = [toolset.name.replace(/^mcp:/, ''), ...toolset.toolNames.filter((name) => /[_-]/.test(name))];
    for (const candidate of candidates) {
      const spaced = candidate.toLowerCase().replace(/[_-]/g, ' ').trim();
      if (spaced.length >= 4 && text.includes(` ${spaced} `)) {
        found.add(toolset.name);
        break;
      }
    }
  }
  return found;
}

/** The message's writing system when the model was trained on fewer than `minimumLines` written lines of it. */
function unfamiliarWritingSystem(model: MultilabelModel, text: string, minimumLines: number): string | undefined {
  const taught = model.trainedOn.writingSystems;
  if (minimumLines <= 0 || taught === undefined) return undefined;
  const system = dominantWritingSystem(text);
  if (system === 'Latin' || system === 'none') return undefined;
  return (taught[system] ?? 0) < minimumLines ? system : undefined;
}

function round(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}

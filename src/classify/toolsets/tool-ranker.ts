import { normalizeText } from '../features/normalize.js';
import { stem } from './description-matcher.js';
import type { WordClusters } from './word-clusters.js';
import type { WordVectors } from './word-vectors.js';

/**
 * Per-tool relevance for tools no toolset map knows (MCP servers, an agent's own tools): BM25 over each tool's
 * name, description and parameter names, plus word-cluster terms so "forecast" finds a tool that says "weather",
 * plus the cosine of the message's and the tool's meaning in pretrained word vectors (word-vectors.ts), so a
 * "psychologist" finds a tool that names a "therapist". The index is built once per tools array (cached with the
 * routing context); ranking a message is a few map lookups per word and one dot product per tool.
 */
export interface RankedToolDocument {
  name: string;
  description: string;
  /** Parameter names and their descriptions, joined. */
  parameters: string;
}

export interface ToolIndex {
  /** term → the documents holding it and what it adds to each one's score (below) */
  postings: Map<string, TermPostings>;
  documents: number;
  /** Each tool's meaning (name and description) when the index was built with word vectors. */
  meanings?: ToolMeanings;
}

export interface ToolMeanings {
  vectors: WordVectors;
  clusters: WordClusters;
  /** `documents × vectors.dimensions`, unit length; a tool whose words the table does not know has zeros. */
  documents: Float32Array;
}

/**
 * BM25's parts that depend only on the tools array, computed once per tools array: a message is scored with one
 * multiply-add per posting (a term's weight × its idf × the saturation below), not the whole formula.
 */
export interface TermPostings {
  idf: number;
  documents: Uint32Array;
  /** BM25's saturated term frequency per posting: tf × (k1 + 1) / (tf + k1 × (1 − b + b × length / average)). */
  saturations: Float64Array;
}

export interface ToolRanking {
  scores: number[];
  /** Indices of the documents to keep, best first. */
  kept: number[];
  /** No tool stood out: keep them all (the caller's fail-open answer). */
  unsure: boolean;
}

export interface RankingPolicy {
  /** A tool is kept when its score is at least this share of the best score. */
  relativeCut: number;
  /** Never more than this many tools (the best ones). */
  maximumKept: number;
  /** Always the best this many (when they score at all): ranks 2–5 are cheap insurance against a close call. */
  minimumKept: number;
  /**
   * Below this best score nothing in the message points at a tool: unsure. In units of the idf of a term found in
   * one tool only (log(1 + (N − 0.5) / 1.5) for N tools), so the bar means the same for 14 tools as for 200.
   */
  minimumTopScore: number;
  /**
   * A tool whose meaning is closer to the message's than `semanticFloor` (cosine) gains up to `semanticWeight` ×
   * the rarest term's idf, rising linearly from the floor to a cosine of 1. 0 turns it off.
   */
  semanticWeight: number;
  semanticFloor: number;
}

export const defaultRankingPolicy: RankingPolicy = { relativeCut: 0.2, maximumKept: 24, minimumKept: 5, minimumTopScore: 1.2, semanticWeight: 2, semanticFloor: 0.6 };

const stopwords = new Set(
  'a an the and or of to in on for with by from at as is are be this that it its into your you can will use used using when which what if not no do does than then these those their there here only all any each other more most some such via tool tools call function functions returns return current specified given default optional required string number integer boolean list also one two me my i please could would should get given based provide provides type object array value values name'.split(' '),
);

const fieldWeights = { name: 3, description: 1, parameters: 0.5 };
/** A cluster term counts for this share of an exact term: related, not the same word. */
const clusterWeight = 0.35;
const k1 = 1.2;
const b = 0.75;

/** A text's words, lower-case, with names split at camel case and at `_ . - /` (`getWeather`, `weather.get_city`). */
function wordsOf(text: string): string[] {
  const spaced = text.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_.\-/]/g, ' ');
  return normalizeText(spaced).split(/[^\p{L}\p{N}]+/u);
}

/** Terms of a text: stemmed words without stop words, and `#<cluster>` for each word the cluster table knows. */
export function rankingTerms(text: string, clusters: WordClusters | null): { term: string; weight: number }[] {
  const terms: { term: string; weight: number }[] = [];
  for (const word of wordsOf(text)) {
    if (word.length < 2 || stopwords.has(word) || /^\d+$/.test(word)) continue;
    terms.push({ term: stem(word), weight: 1 });
    const found = clusters?.clustersOf(word);
    if (found) terms.push({ term: `#${found[0]}`, weight: clusterWeight });
  }
  return terms;
}

/**
 * The words a text's meaning is read from: its words (as the ranking reads them) without the ranking's stop words
 * or the words of asking ("find", "show", "tell", "want"): every request has those.
 */
export function meaningWords(text: string): string[] {
  return wordsOf(text).filter((word) => word.length >= 2 && !stopwords.has(word) && !askingWords.has(word));
}

const askingWords = new Set('how we our us find show give tell want need like'.split(' '));

export function buildToolIndex(documents: readonly RankedToolDocument[], clusters: WordClusters | null, vectors: WordVectors | null = null): ToolIndex {
  const lengths = new Float64Array(documents.length);
  const lists = new Map<string, { document: number; frequency: number }[]>();
  documents.forEach((document, index) => {
    const frequencies = new Map<string, number>();
    for (const [field, weight] of Object.entries(fieldWeights) as [keyof RankedToolDocument, number][]) {
      for (const term of rankingTerms(document[field], clusters)) {
        frequencies.set(term.term, (frequencies.get(term.term) ?? 0) + weight * term.weight);
        lengths[index]! += weight * term.weight;
      }
    }
    for (const [term, frequency] of frequencies) {
      let list = lists.get(term);
      if (!list) lists.set(term, (list = []));
      list.push({ document: index, frequency });
    }
  });
  const total = lengths.reduce((sum, length) => sum + length, 0);
  const averageLength = documents.length > 0 ? total / documents.length : 1;
  const postings = new Map<string, TermPostings>();
  for (const [term, list] of lists) {
    const saturations = new Float64Array(list.length);
    list.forEach(({ document, frequency }, position) => {
      const norm = frequency + k1 * (1 - b + (b * lengths[document]!) / averageLength);
      saturations[position] = (frequency * (k1 + 1)) / norm;
    });
    const idf = Math.log(1 + (documents.length - list.length + 0.5) / (list.length + 0.5));
    postings.set(term, { idf, documents: Uint32Array.from(list, ({ document }) => document), saturations });
  }
  const index: ToolIndex = { postings, documents: documents.length };
  // The vectors sit at the cluster table's positions; a table distilled apart from the other would mismatch words.
  if (vectors && clusters && vectors.size === clusters.size) {
    const meanings = new Float32Array(documents.length * vectors.dimensions);
    documents.forEach((document, position) => {
      const meaning = vectors.meaningOf(meaningWords(`${document.name} ${document.description}`), clusters);
      if (meaning) meanings.set(meaning, position * vectors.dimensions);
    });
    index.meanings = { vectors, clusters, documents: meanings };
  }
  return index;
}

/**
 * BM25 scores of every document for the message, and which to keep under `policy`. A message with several asks
 * ("convert the currency, then find the directions") is also ranked clause by clause, and each clause's best
 * tools are kept too: one strong ask must not push a second one under the relative cut.
 */
export function rankTools(index: ToolIndex, message: string, clusters: WordClusters | null, policy: RankingPolicy = defaultRankingPolicy): ToolRanking {
  const whole = rankText(index, message, clusters, policy, policy.maximumKept);
  if (whole.unsure) return whole;
  const clauses = message.split(/[.?!;\n]+\s+|,?\s+\b(?:and then|then|also|additionally|after that|afterwards|finally|plus|as well as|and)\b\s+/i).filter((clause) => clause.trim().length >= 12);
  if (clauses.length < 2) return whole;
  const kept = new Set(whole.kept);
  // Clauses rank by their words alone: the meaning added no recall there (BFCL dev split, pools 50 and 200) and
  // costs a dot product per tool per clause.
  const clausePolicy = { ...policy, semanticWeight: 0 };
  for (const clause of clauses.slice(0, 8)) {
    const part = rankText(index, clause, clusters, clausePolicy, 3);
    if (part.unsure) continue;
    for (const position of part.kept) kept.add(position);
  }
  const ordered = [...kept].sort((left, right) => whole.scores[right]! - whole.scores[left]! || left - right).slice(0, policy.maximumKept);
  return { scores: whole.scores, kept: ordered, unsure: false };
}

/**
 * A message that quotes a shell command ("using docker ps", "taskkill code.exe", "list the C drive", a `--flag`) asks
 * for a tool that runs commands, in words no command tool's description shares: those describe executing commands,
 * not the programs. Such a message also ranks with the words command tools are described by, at half weight.
 * Measured on the BFCL narrowing dev split (pool 200, 1,650 cases): 26 → 22 misses, median reduction 0.8357 → 0.8362.
 */
const commandShape = /(?:^|[\s`'"(])(?:docker|kubectl|taskkill|tasklist|git|npm|npx|pip3?|ls|dir|mkdir|rmdir|chmod|sudo|apt-get|systemctl|netstat|ipconfig|ifconfig|curl|wget|powershell|cmd(?:\.exe)?)(?=[\s`'".,?!)]|$)|\b(?:apt|brew) (?:install|upgrade|update|remove|list|services)\b|\bping (?:-\w+ )?(?:\d|[\w-]+\.[a-z]{2,})|\s--[a-z][\w-]*|\s-[a-z]{1,2}(?=\s|$)|\b[c-h] drive\b|\b[c-h]:\\/i;
const commandTerms = ['command', 'execute', 'shell', 'terminal', 'system'].map((word) => ({ term: stem(word), weight: 0.5 }));

/** The message's ranking terms, with the command words when it quotes a command. */
function messageTerms(message: string, clusters: WordClusters | null): { term: string; weight: number }[] {
  const terms = rankingTerms(message, clusters);
  return commandShape.test(message) ? [...terms, ...commandTerms] : terms;
}

/** BM25 scores of every document, and the first `limit` of those `policy` keeps. */
function rankText(index: ToolIndex, message: string, clusters: WordClusters | null, policy: RankingPolicy, limit: number): ToolRanking {
  const scores = new Array<number>(index.documents).fill(0);
  const seen = new Set<string>();
  for (const { term, weight } of messageTerms(message, clusters)) {
    if (seen.has(term)) continue;
    seen.add(term);
    const postings = index.postings.get(term);
    if (!postings) continue;
    const scale = weight * postings.idf;
    const { documents, saturations } = postings;
    for (let position = 0; position < documents.length; position += 1) scores[documents[position]!]! += scale * saturations[position]!;
  }
  const rarestIdf = Math.log(1 + (index.documents - 0.5) / 1.5);
  if (index.meanings && policy.semanticWeight > 0) addMeaning(scores, index.meanings, message, policy, rarestIdf);
  let top = 0;
  for (const score of scores) if (score > top) top = score;
  if (index.documents === 0 || top < policy.minimumTopScore * rarestIdf) return { scores, kept: [], unsure: true };
  return { scores, kept: keptPositions(scores, top, policy, limit), unsure: false };
}

/** Adds to each tool's score its share of the semantic bonus: its cosine with the message's meaning above the floor. */
function addMeaning(scores: number[], meanings: ToolMeanings, message: string, policy: RankingPolicy, rarestIdf: number): void {
  const query = meanings.vectors.meaningOf(meaningWords(message), meanings.clusters);
  if (!query) return;
  const dimensions = query.length;
  const floor = policy.semanticFloor;
  const scale = (policy.semanticWeight * rarestIdf) / Math.max(1e-9, 1 - floor);
  const vectors = meanings.documents;
  for (let document = 0; document < scores.length; document += 1) {
    let cosine = 0;
    const start = document * dimensions;
    for (let dimension = 0; dimension < dimensions; dimension += 1) cosine += query[dimension]! * vectors[start + dimension]!;
    if (cosine > floor) scores[document]! += scale * (cosine - floor);
  }
}

/**
 * The documents `policy` keeps, best first (ties by position), at most `limit`: those at or above the cut, and the
 * first `minimumKept` that scored at all. Both hold for a prefix of the documents ordered by score, so the kept ones
 * are that prefix, and only its first few are selected rather than every document sorted. With a cut of 0 every
 * document is at it, and those that scored nothing follow the others in their own order.
 */
function keptPositions(scores: readonly number[], top: number, policy: RankingPolicy, limit: number): number[] {
  const cut = top * policy.relativeCut;
  let scored = 0;
  let atCut = 0;
  for (const score of scores) {
    if (score > 0) scored += 1;
    if (score >= cut) atCut += 1;
  }
  const length = Math.min(Math.max(atCut, Math.min(policy.minimumKept, scored)), policy.maximumKept, limit);
  const wanted = Math.min(length, scored);
  const best: number[] = [];
  for (let position = 0; position < scores.length && wanted > 0; position += 1) {
    const score = scores[position]!;
    if (score <= 0 || (best.length === wanted && score <= scores[best[wanted - 1]!]!)) continue;
    let at = best.length === wanted ? wanted - 1 : best.length;
    while (at > 0 && scores[best[at - 1]!]! < score) {
      best[at] = best[at - 1]!;
      at -= 1;
    }
    best[at] = position;
  }
  for (let position = 0; position < scores.length && best.length < length; position += 1) if (scores[position]! <= 0) best.push(position);
  return best;
}

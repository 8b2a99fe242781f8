import { normalizeText } from '../features/normalize.js';

/**
 * Zero-shot scoring for toolsets the trained model has never seen (MCP servers, prefix groups, an agent's own
 * config): how much of the message's vocabulary is distinctive of a toolset's tool names and descriptions.
 * Terms shared by many toolsets weigh little (inverse document frequency over toolsets).
 */
export interface DescribedToolset {
  name: string;
  toolNames: readonly string[];
  descriptions: readonly string[];
}

export interface DescriptionProfile {
  /** term → (toolset index → weight) */
  terms: Map<string, Map<number, number>>;
  names: string[];
}

const stopwords = new Set(
  'a an the and or of to in on for with by from at as is are be this that it its into your you can will use used using when which what if not no do does than then these those their there here only all any each other more most some such via tool tools call returns return current specified given default e.g optional required string number list also one two'.split(' '),
);

export function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('es') && !word.endsWith('ses')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  return word;
}

export function termsOf(text: string): string[] {
  const spaced = text.replace(/([a-z])([A-Z])/g, '$1 $2');
  const words = normalizeText(spaced).split(/[^\p{L}\p{N}]+/u);
  const terms: string[] = [];
  for (const word of words) {
    if (word.length < 2 || stopwords.has(word) || /^\d+$/.test(word)) continue;
    terms.push(stem(word));
  }
  return terms;
}

export function buildDescriptionProfile(toolsets: readonly DescribedToolset[]): DescriptionProfile {
  const perToolset = toolsets.map((toolset) => {
    const counts = new Map<string, number>();
    const nameTerms = toolset.toolNames.flatMap((name) => termsOf(name.replace(/[_.-]/g, ' ')));
    for (const term of [...termsOf(toolset.name.replace(/[_.:-]/g, ' ')), ...nameTerms]) counts.set(term, (counts.get(term) ?? 0) + 3);
    for (const description of toolset.descriptions) for (const term of termsOf(description)) counts.set(term, (counts.get(term) ?? 0) + 1);
    return counts;
  });
  const documentFrequency = new Map<string, number>();
  for (const counts of perToolset) for (const term of counts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const terms = new Map<string, Map<number, number>>();
  const total = toolsets.length;
  perToolset.forEach((counts, toolsetIndex) => {
    for (const [term, count] of counts) {
      const idf = Math.log((total + 1) / (documentFrequency.get(term)! + 0.5));
      if (idf <= 0) continue;
      const weight = idf * Math.min(1 + Math.log(count), 3);
      let row = terms.get(term);
      if (!row) terms.set(term, (row = new Map()));
      row.set(toolsetIndex, weight);
    }
  });
  return { terms, names: toolsets.map((toolset) => toolset.name) };
}

/** A score in [0,1) per toolset: 1 − e^(−evidence/3), so one distinctive word gives about 0.4. */
export function scoreDescriptions(profile: DescriptionProfile, messageTerms: readonly string[]): number[] {
  const evidence = profile.names.map(() => 0);
  for (const term of new Set(messageTerms)) {
    const row = profile.terms.get(term);
    if (!row) continue;
    for (const [toolsetIndex, weight] of row) evidence[toolsetIndex]! += weight;
  }
  return evidence.map((value) => 1 - Math.exp(-value / 3));
}

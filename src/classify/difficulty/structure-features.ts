/**
 * Numeric measures of a prompt's structure, for the boosted trees. They count what a solver has to hold and
 * combine: quantities, operations, sentences, entities, answer options. Trees can read them per kind of
 * prompt (a word problem's count of quantities, a multiple-choice question's option length), which a linear
 * model over words cannot.
 */
export const structureFeatureNames = [
  'words',
  'characters',
  'sentences',
  'lines',
  'questions',
  'numbers',
  'distinct_numbers',
  'decimals',
  'fractions',
  'percentages',
  'money',
  'largest_number_digits',
  'operation_words',
  'comparison_words',
  'rate_words',
  'time_units',
  'capitalised_names',
  'choices',
  'option_words',
  'numeric_options',
  'stem_words',
  'negation_capitals',
  'math_symbols',
  'code_symbols',
  'mean_word_length',
  'long_words',
  'condition_words',
  'number_words',
  'measure_units',
  'largest_number_log',
  'clauses',
] as const;

export type StructureFeatureName = (typeof structureFeatureNames)[number];

const operationWords = /\b(?:twice|double|triple|half|halves|third|quarter|times|product|sum|total|difference|remaining|left|rest|each|altogether|combined|split|shared?|divided?|increase[sd]?|decrease[sd]?|discount|profit|loss|interest|average)\b/gi;
const comparisonWords = /\b(?:more|less|fewer|older|younger|longer|shorter|taller|faster|slower|cheaper|than)\b/gi;
const rateWords = /\b(?:per|every|an hour|a day|a week|a month|a year|rate|speed)\b/gi;
const conditionWords = /\b(?:if|when|after|before|until|then|while|unless|instead)\b/gi;
const numberWords = /\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|dozens?|hundreds?|thousands?|millions?)\b/gi;
const measureUnits = /\b(?:pounds?|ounces?|feet|foot|inch(?:es)?|miles?|yards?|meters?|kilometers?|km|kg|grams?|liters?|litres?|gallons?|cups?|mph)\b/gi;
const timeUnits = /\b(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b/gi;

export function structureFeatures(prompt: string): Record<StructureFeatureName, number> {
  const words = prompt.split(/\s+/).filter(Boolean);
  const numbers = prompt.match(/\d+(?:[.,]\d+)*/g) ?? [];
  const optionLines = prompt.split('\n').filter((line) => /^[A-D][.)]\s/.test(line));
  const stem = prompt.split(/\n[A-D][.)]\s/)[0] ?? prompt;
  const count = (pattern: RegExp): number => (prompt.match(pattern) ?? []).length;
  return {
    words: words.length,
    characters: prompt.length,
    sentences: (stem.match(/[.!?](?:\s|$)/g) ?? []).length,
    lines: prompt.split('\n').filter((line) => line.trim()).length,
    questions: count(/\?/g),
    numbers: numbers.length,
    distinct_numbers: new Set(numbers).size,
    decimals: count(/\d\.\d/g),
    fractions: count(/\d\s*\/\s*\d/g) + count(/\b(?:half|third|quarter|fourth|fifth)s?\b/gi),
    percentages: count(/%|\bpercent/gi),
    money: count(/\$|€|£|\bdollars?\b|\bcents?\b/gi),
    largest_number_digits: Math.max(0, ...numbers.map((number) => number.replace(/\D/g, '').length)),
    operation_words: count(operationWords),
    comparison_words: count(comparisonWords),
    rate_words: count(rateWords),
    time_units: count(timeUnits),
    // Capitalised words not at a sentence start: people and things a word problem relates to each other.
    capitalised_names: new Set(stem.match(/(?<=[a-z,;:]\s)[A-Z][a-z]+/g) ?? []).size,
    choices: optionLines.length,
    option_words: optionLines.reduce((sum, line) => sum + line.split(/\s+/).length - 1, 0) / Math.max(1, optionLines.length),
    numeric_options: optionLines.filter((line) => /\d/.test(line.slice(2))).length,
    stem_words: stem.split(/\s+/).filter(Boolean).length,
    negation_capitals: count(/\b(?:NOT|EXCEPT|LEAST|FALSE|INCORRECT)\b/g),
    math_symbols: count(/[=+^√∫∑π×÷≤≥<>]/g),
    code_symbols: count(/[{};]|\bdef\b|\bfunction\b|\breturn\b/g),
    mean_word_length: words.length ? words.reduce((sum, word) => sum + word.length, 0) / words.length : 0,
    long_words: words.filter((word) => /^[A-Za-z]{10,}$/.test(word)).length,
    condition_words: count(conditionWords),
    number_words: count(numberWords),
    measure_units: count(measureUnits),
    largest_number_log: Math.log10(1 + Math.max(0, ...numbers.map((number) => Number(number.replace(/,/g, '')) || 0))),
    clauses: count(/,|;|\band\b/g) + (stem.match(/[.!?](?:\s|$)/g) ?? []).length,
  };
}

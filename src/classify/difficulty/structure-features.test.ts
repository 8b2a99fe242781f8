import { describe, expect, it } from 'vitest';
import { structureFeatures } from './structure-features.js';

describe('structureFeatures', () => {
  it('counts the quantities and relations of a word problem', () => {
    const features = structureFeatures('Anna buys 3 pens for $2.50 each. Later Ben buys twice as many with a 20% discount. How much did Ben pay?');
    expect(features).toMatchObject({ numbers: 3, distinct_numbers: 3, decimals: 1, percentages: 1, money: 1, questions: 1, sentences: 3, choices: 0 });
    expect(features.operation_words).toBe(3); // each, twice, discount
    expect(features.capitalised_names).toBe(1); // Ben (Anna starts the sentence)
  });

  it('reads the options of a multiple-choice question apart from its stem', () => {
    const features = structureFeatures('Which of these is NOT a prime?\nA. 2\nB. 9\nC. 13\nD. 7\nAnswer:');
    expect(features).toMatchObject({ choices: 4, numeric_options: 4, negation_capitals: 1, stem_words: 7, option_words: 1 });
  });

  it('counts conditions, spelled-out numbers and units of measure', () => {
    const features = structureFeatures('If Sam walks two miles a day for a dozen days, then rests, how many feet did he walk?');
    expect(features).toMatchObject({ condition_words: 2, number_words: 2, measure_units: 2, numbers: 0, largest_number_log: 0 });
  });
});

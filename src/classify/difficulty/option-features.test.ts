import { describe, expect, it } from 'vitest';
import { optionFeatures } from './option-features.js';

describe('optionFeatures', () => {
  it('measures the options of a multiple-choice question and the stem that asks it', () => {
    const features = optionFeatures('Which of the following is NOT a mammal?\nA. the blue whale\nB. the bat\nC. the gecko lizard of the desert\nD. none of the above\nAnswer:');
    expect(features).toMatchObject({
      longest_option_words: 6,
      shortest_option_words: 2,
      option_length_range: 4,
      longest_option_position: 2,
      catch_all_option: 1,
      stem_is_question: 1,
      stem_which_of_the_following: 1,
      stem_negation: 1,
      distinct_option_first_words: 2, // "the" and "none"
    });
    // Closest pair: "the gecko lizard of the desert" and "none of the above" share "of" and "the", 2 of 7 words.
    expect(features.option_overlap_max).toBeCloseTo(2 / 7, 5);
  });

  it('counts bare-number options, statement bars and a stem to complete', () => {
    const features = optionFeatures('Statement 1 | x + 1 = 2 has one root. Statement 2 | the sum of ___ is\nA. 1\nB. 2.5\nC. $3\nD. three\nAnswer:');
    expect(features).toMatchObject({ bare_number_options: 3, stem_statement_bars: 1, stem_blank: 1, stem_is_question: 0, stem_operators: 2 });
  });

  it('gives a prompt without options zeros and no longest option', () => {
    const features = optionFeatures('Write a poem about (3, 4) and the sea.');
    expect(features).toMatchObject({ longest_option_words: 0, option_overlap_mean: 0, longest_option_position: -1, coordinates: 1 });
  });
});

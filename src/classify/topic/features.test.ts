import { describe, expect, it } from 'vitest';
import { topicFeatures } from './features.js';

describe('topicFeatures (turns remembered between readings)', () => {
  it('gives the same features for a turn read again, alone or after others', () => {
    const alone = topicFeatures(['how many grams of flour are in a cup']);
    topicFeatures(['what is a good bread recipe', 'how many grams of flour are in a cup']);
    const again = topicFeatures(['how many grams of flour are in a cup']);
    expect([...again.keys()].some((name) => name.startsWith('ctx:'))).toBe(false);
    expect(again).toEqual(alone);
  });

  it('reads an earlier turn in the context namespace', () => {
    const features = topicFeatures(['what is a good bread recipe', 'and without yeast?']);
    expect(features.has('ctx:w:bread')).toBe(true);
    expect(features.has('w:bread')).toBe(false);
  });

  it('marks the form of small talk whatever the language: emoji, exclamation, question, stretched words', () => {
    const chat = topicFeatures(['¡¡Holaaa!! ¿qué tal? 😄']);
    for (const name of ['shape:emoji', 'shape:exclamation', 'shape:question', 'shape:repeated']) expect(chat.has(name)).toBe(true);
    const request = topicFeatures(['Convert 3 km to miles.']);
    for (const name of ['shape:emoji', 'shape:exclamation', 'shape:question', 'shape:repeated']) expect(request.has(name)).toBe(false);
  });

  it('counts typed faces and laughter as emoji, not code or ranges', () => {
    for (const turn of ['오늘 진짜 피곤하다 ㅠㅠ', '今日は楽しかったwww', 'see you tomorrow :)', '좋아요 ^^']) expect(topicFeatures([turn]).has('shape:emoji')).toBe(true);
    for (const turn of ['x = a[1:3]; f(b)', 'std::map<int, int> m;', 'see https://example.com/a:b']) expect(topicFeatures([turn]).has('shape:emoji')).toBe(false);
  });

  it('cuts words outside ASCII into trigrams from three letters on, English words from five', () => {
    const korean = topicFeatures(['코드를 고쳐 주세요']);
    expect(korean.has('g:^코드')).toBe(true);
    expect(korean.has('g:드를$')).toBe(true);
    const english = topicFeatures(['fix the code']);
    expect([...english.keys()].some((name) => name.startsWith('g:'))).toBe(false);
  });
});

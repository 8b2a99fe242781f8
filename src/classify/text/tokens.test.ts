import { describe, expect, it } from 'vitest';
import { tokenize } from './tokens.js';

describe('tokenize', () => {
  it('splits spaced scripts into words and collapses numbers', () => {
    expect(tokenize('Fix the API test, error 404!').words).toEqual(['fix', 'the', 'api', 'test', 'error', '<num>']);
  });

  it('turns Chinese and Thai runs into character bigrams', () => {
    expect(tokenize('写诗').unspacedGrams).toEqual(['写诗']);
    expect(tokenize('python的代码').words).toEqual(['python']);
    expect(tokenize('python的代码').unspacedGrams).toEqual(['的代', '代码']);
    expect(tokenize('แปล').unspacedGrams.length).toBeGreaterThan(0);
  });

  it('splits a Korean particle off the English word or number it is written onto', () => {
    expect(tokenize('Spring에서 API로 2박').words).toEqual(['spring', '에서', 'api', '로', '<num>', '박']);
    expect(tokenize('코드를 보여줘').words).toEqual(['코드를', '보여줘']);
  });
});

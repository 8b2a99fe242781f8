import { describe, expect, it } from 'vitest';
import { foldAccents, LexiconMatcher } from './lexicon-matcher.js';

const matcher = new LexiconMatcher({ math: ['ecuación', 'уравнени*', '수학*', 'phương trình', '方程'], medicine_healthcare: ['बुखार', 'fièvre'] });

describe('LexiconMatcher in other scripts', () => {
  it('matches words of any spaced alphabet exactly, by stem and as phrases', () => {
    expect(matcher.match('Помоги решить уравнение')).toEqual(new Map([['math', ['уравнени*']]]));
    expect(matcher.match('수학을 도와줘')).toEqual(new Map([['math', ['수학*']]]));
    expect(matcher.match('giải phương trình này')).toEqual(new Map([['math', ['phương trình']]]));
    expect(matcher.match('मुझे बुखार है')).toEqual(new Map([['medicine_healthcare', ['बुखार']]]));
  });

  it('ignores Latin accents on either side, and still needs the whole word', () => {
    expect(matcher.match('resuelve esta ecuacion')).toEqual(new Map([['math', ['ecuacion']]]));
    expect(matcher.match('j’ai de la FIEVRE')).toEqual(new Map([['medicine_healthcare', ['fievre']]]));
    expect(matcher.match('ecuaciones')).toEqual(new Map());
  });

  it('keeps Chinese terms as substrings', () => {
    expect(matcher.match('这个方程怎么解')).toEqual(new Map([['math', ['方程']]]));
  });

  it('folds only what has accents', () => {
    expect(foldAccents('plain')).toBe('plain');
    expect(foldAccents('matemáticas')).toBe('matematicas');
    expect(foldAccents('ёлка')).toBe('елка');
    expect(foldAccents('수학')).toBe('수학');
  });
});

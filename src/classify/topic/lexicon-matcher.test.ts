import { describe, expect, it } from 'vitest';
import { foldAccents, LexiconMatcher } from './lexicon-matcher.js';
import { intentLexicon, subjectLexicon } from './lexicon.js';

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

describe('LexiconMatcher in Arabic and Indic scripts', () => {
  const scripts = new LexiconMatcher({ medicine_healthcare: ['الطبيب', 'دواء', 'ڈاکٹر'], legal_government: ['محامي'], entertainment_media: ['फिल्म'] });

  it('reads Arabic and Persian letter forms, short vowels and the Indic nukta as one', () => {
    expect(scripts.match('أريد دَوَاء')).toEqual(new Map([['medicine_healthcare', ['دواء']]]));
    expect(scripts.match('محامى')).toEqual(new Map([['legal_government', ['محامی']]]));
    expect(scripts.match('मुझे फ़िल्म देखनी है')).toEqual(new Map([['entertainment_media', ['फिल्म']]]));
    expect(foldAccents('ڈاکٹر')).toBe(foldAccents('ڈاكٹر'));
  });

  it('takes the Arabic conjunction and article off a word no term matched whole, counting it once', () => {
    expect(scripts.match('والطبيب')).toEqual(new Map([['medicine_healthcare', ['الطبیب']]]));
    expect(scripts.match('بالدواء')).toEqual(new Map([['medicine_healthcare', ['دواء']]]));
    expect(scripts.match('للمحامي')).toEqual(new Map([['legal_government', ['محامی']]]));
    expect(scripts.match('وداع')).toEqual(new Map());
  });
});

describe('LexiconMatcher with apostrophes', () => {
  // The tokenizer splits "that's" into "that", "s" (the apostrophe is a symbol), so a term must be compiled the same way.
  const withApostrophes = new LexiconMatcher({ none: ["that's all"], software_it: ["l'ordinateur", "dell'applicazione"], math: ["aujourd'hui"] });

  it("matches terms written with a straight apostrophe, typed with either apostrophe", () => {
    expect(withApostrophes.match("Ok, that's all for today")).toEqual(new Map([['none', ["that's all"]]]));
    expect(withApostrophes.match('That’s all')).toEqual(new Map([['none', ["that's all"]]]));
    expect(withApostrophes.match("mon l'ordinateur ne démarre pas")).toEqual(new Map([['software_it', ["l'ordinateur"]]]));
    expect(withApostrophes.match('l’ordinateur plante')).toEqual(new Map([['software_it', ["l'ordinateur"]]]));
    expect(withApostrophes.match("il codice dell'applicazione")).toEqual(new Map([['software_it', ["dell'applicazione"]]]));
  });

  it('still needs the words in order', () => {
    expect(withApostrophes.match('that is all')).toEqual(new Map());
    expect(withApostrophes.match('ordinateur')).toEqual(new Map());
  });

  it('matches every shipped lexicon term written on its own', () => {
    const unmatched: string[] = [];
    for (const lexicon of [subjectLexicon, intentLexicon] as Record<string, readonly string[]>[]) {
      const matcher = new LexiconMatcher(lexicon);
      for (const [label, terms] of Object.entries(lexicon)) {
        for (const term of terms) {
          const text = term.replace(/\*/g, '');
          if (!(matcher.match(text).get(label) ?? []).length) unmatched.push(`${label}: ${term}`);
        }
      }
    }
    expect(unmatched).toEqual([]);
  });
});

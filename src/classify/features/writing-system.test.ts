import { describe, expect, it } from 'vitest';
import { dominantWritingSystem } from './writing-system.js';

describe('dominantWritingSystem', () => {
  it('names the script most of the letters are in', () => {
    expect(dominantWritingSystem('find the cheapest flight to Lisbon')).toBe('Latin');
    expect(dominantWritingSystem('Փնտրիր վերջին հոդվածները')).toBe('Armenian');
    expect(dominantWritingSystem('найди новости про выборы')).toBe('Cyrillic');
    expect(dominantWritingSystem('帮我查一下明天的天气')).toBe('Han');
    expect(dominantWritingSystem('')).toBe('none');
    expect(dominantWritingSystem('42 + 17 = ?')).toBe('none');
  });

  it('reads kana with kanji as Japanese, not Chinese', () => {
    expect(dominantWritingSystem('明日の天気を調べて')).toBe('Japanese');
  });

  it('weighs Latin letters at a third, since code and product names are written in them', () => {
    // 21 Georgian letters against 32 Latin ones: the sentence is Georgian, the names are not.
    expect(dominantWritingSystem('გახსოვს docker-compose volume configuration რომ ვსაუბრობდით')).toBe('Georgian');
    expect(dominantWritingSystem('please check the status of the deployment named ბაზა')).toBe('Latin');
  });
});

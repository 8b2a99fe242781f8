import { describe, expect, it } from 'vitest';
import { scriptCounts } from './message-language.js';

describe('scriptCounts', () => {
  it('counts what the regular-expression matches count, in any script, with surrogate pairs and lone surrogates', () => {
    const samples = [
      '',
      'Run the tests @ 10:30 [ok] `x` {y} ~z',
      'Recuérdame mañana: ¿qué tal? ÀÉÎÕÜ ß æ ø å ł ő',
      'ネットで検索しないで、ファイルを開いて 한국어 문장 中文句子 ไทย русский текст العربية हिन्दी',
      'Ⅻ ª º ﬁ ＡＢＣ ℌ 𝐀𝐁 😀 \ud800 lone \udc00 end',
      'Tiếng Việt có dấu: đường, ươ, ặ',
    ];
    for (const text of samples) {
      expect(scriptCounts(text)).toEqual({ latin: text.match(/\p{Script=Latin}/gu)?.length ?? 0, letters: text.match(/\p{L}/gu)?.length ?? 0 });
    }
  });
});

/**
 * Which language a message is mostly written in, as far as the rules need to know: English, or another language
 * (and which, for the Latin-script languages the lexicons of rules-languages.ts cover). The English lexicons of
 * rules.ts are keyed to English words, and some of those words are ordinary words elsewhere ("todo" is "all" in
 * Spanish and Portuguese), so a rule word that collides with another language is only read in English text.
 *
 * Function words only (articles, pronouns, prepositions, conjunctions): general vocabulary of each language,
 * frequent in any sentence, rare in another language's. A message in a script other than Latin is not English.
 */
export type MessageLanguage = 'english' | 'spanish' | 'portuguese' | 'french' | 'german' | 'italian' | 'dutch' | 'polish' | 'turkish' | 'indonesian' | 'vietnamese' | 'other';

const functionWords: Record<Exclude<MessageLanguage, 'other'>, readonly string[]> = {
  english: ['the', 'and', 'is', 'are', 'of', 'to', 'for', 'with', 'my', 'me', 'you', 'it', 'this', 'that', 'what', 'can', 'please', 'i', 'a', 'an', 'in', 'on', 'from', 'be', 'do', 'have', 'if', 'we', 'our', 'your', 'at', 'about', 'how', 'so', 'just', 'need', 'want', 'all', 'some'],
  spanish: ['el', 'los', 'las', 'del', 'una', 'unos', 'que', 'por', 'para', 'con', 'mi', 'mis', 'tu', 'es', 'está', 'esta', 'este', 'esto', 'puedes', 'favor', 'qué', 'cómo', 'pero', 'también', 'muy', 'hay', 'todos', 'todas', 'mañana', 'necesito', 'quiero', 'sobre', 'cuando', 'yo', 'ayúdame', 'dónde', 'si', 'sí', 'lo', 'le', 'al', 'y', 'en', 'la', 'no', 'de', 'un', 'se', 'me', 'te', 'solo', 'sólo', 'porque', 'hoy'],
  portuguese: ['o', 'os', 'as', 'do', 'da', 'dos', 'das', 'um', 'uma', 'que', 'para', 'com', 'meu', 'minha', 'você', 'voce', 'é', 'está', 'isso', 'isto', 'esse', 'essa', 'pode', 'por', 'favor', 'não', 'nao', 'também', 'muito', 'tem', 'todos', 'amanhã', 'preciso', 'quero', 'sobre', 'quando', 'eu', 'no', 'na', 'nos', 'e', 'pra'],
  french: ['le', 'la', 'les', 'des', 'du', 'un', 'une', 'que', 'qui', 'pour', 'avec', 'mon', 'ma', 'mes', 'est', 'sont', 'ce', 'cette', 'peux', 'tu', 'vous', 'moi', 'je', 'et', 'dans', 'sur', 'pas', 'plus', 'aussi', 'très', 'il', 'elle', 'nous', 'au', 'aux', 'stp', 'svp', "c'est", "j'ai", 'mais'],
  german: ['der', 'die', 'das', 'den', 'dem', 'ein', 'eine', 'einen', 'und', 'ist', 'sind', 'mit', 'für', 'mein', 'meine', 'mir', 'mich', 'ich', 'du', 'bitte', 'nicht', 'auf', 'auch', 'kannst', 'zu', 'von', 'im', 'wie', 'was', 'wenn', 'oder', 'aber', 'noch', 'es', 'sie', 'wir', 'uns', 'ob'],
  italian: ['il', 'lo', 'gli', 'della', 'dei', 'delle', 'uno', 'che', 'per', 'con', 'mio', 'mia', 'miei', 'è', 'sono', 'questo', 'questa', 'puoi', 'mi', 'ti', 'non', 'anche', 'molto', 'ci', 'di', 'da', 'nel', 'nella', 'al', 'alla', 'come', 'ma', 'se', 'io', 'tu', 'favore', 'grazie'],
  dutch: ['de', 'het', 'een', 'en', 'is', 'zijn', 'van', 'voor', 'met', 'mijn', 'ik', 'je', 'jij', 'niet', 'op', 'ook', 'kun', 'kan', 'wat', 'dat', 'die', 'dit', 'deze', 'naar', 'om', 'er', 'aan', 'bij', 'alsjeblieft', 'graag', 'maar', 'hoe', 'wij', 'we', 'ons'],
  polish: ['i', 'w', 'z', 'na', 'do', 'się', 'jest', 'nie', 'że', 'to', 'mi', 'mnie', 'mój', 'moje', 'moja', 'proszę', 'czy', 'jak', 'co', 'dla', 'od', 'po', 'ten', 'ta', 'też', 'także', 'oraz', 'ale', 'możesz', 'jutro', 'przez'],
  turkish: ['ve', 'bir', 'bu', 'şu', 'için', 'ile', 'mi', 'mı', 'da', 'de', 'ne', 'ben', 'sen', 'bana', 'benim', 'lütfen', 'çok', 'daha', 'gibi', 'olan', 'var', 'yok', 'ama', 'her', 'şey', 'nasıl', 'neden'],
  indonesian: ['dan', 'yang', 'di', 'ke', 'dari', 'untuk', 'dengan', 'ini', 'itu', 'saya', 'aku', 'kamu', 'tolong', 'bisa', 'tidak', 'juga', 'ada', 'akan', 'sudah', 'belum', 'apa', 'bagaimana', 'gimana', 'dong', 'ya', 'nya', 'buat', 'besok', 'jangan', 'saja', 'aja', 'cari', 'buka', 'yg', 'gak', 'nggak', 'tolong'],
  vietnamese: ['và', 'của', 'cho', 'tôi', 'mình', 'bạn', 'này', 'đó', 'là', 'có', 'không', 'được', 'với', 'trong', 'những', 'các', 'một', 'giúp', 'hãy', 'nhé', 'nha', 'cái', 'để', 'thì', 'mà', 'về'],
};

/** Letters only Vietnamese writes (a hooked or dotted vowel, đ): one is enough. */
const vietnameseLetters = /[ăđơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]/u;

const lookup = new Map<string, MessageLanguage[]>();
for (const [language, words] of Object.entries(functionWords) as [MessageLanguage, readonly string[]][]) {
  for (const word of words) lookup.set(word, [...(lookup.get(word) ?? []), language]);
}

/**
 * The language a message's words point to. English wins ties (the rules' default); a message with more letters in
 * other scripts than in Latin is 'other'. Cheap: one pass over the words, no allocation per word beyond the split.
 */
export function messageLanguage(text: string): MessageLanguage {
  if (vietnameseLetters.test(text)) return 'vietnamese';
  const { latin, letters } = scriptCounts(text);
  if (letters - latin > latin) return 'other';
  const counts = new Map<MessageLanguage, number>();
  for (const word of text.toLowerCase().split(/[^\p{L}\p{M}']+/u)) {
    for (const language of lookup.get(word) ?? []) counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  let best: MessageLanguage = 'english';
  let bestCount = counts.get('english') ?? 0;
  for (const [language, count] of counts) {
    if (count > bestCount) {
      best = language;
      bestCount = count;
    }
  }
  return best;
}

const latinCharacter = /\p{Script=Latin}/u;
const letterCharacter = /\p{L}/u;

/**
 * How many characters of the text are of the Latin script, and how many are letters: what
 * `text.match(/\p{Script=Latin}/gu)` and `text.match(/\p{L}/gu)` count, without an array of one string per
 * character (a pasted 50 KB log cost ~12 ms that way, on the first turn's decision). ASCII, most of any text, is
 * decided by its code (its Latin characters are its letters, A-Z and a-z); other code points by the same classes.
 */
export function scriptCounts(text: string): { latin: number; letters: number } {
  let latin = 0;
  let letters = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 128) {
      const lower = code | 32;
      if (lower >= 97 && lower <= 122) {
        latin += 1;
        letters += 1;
      }
      continue;
    }
    const character = String.fromCodePoint(text.codePointAt(index)!);
    index += character.length - 1;
    if (latinCharacter.test(character)) latin += 1;
    if (letterCharacter.test(character)) letters += 1;
  }
  return { latin, letters };
}

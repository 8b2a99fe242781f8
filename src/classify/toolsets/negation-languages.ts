/**
 * Negated instructions in the languages the rule lexicons cover besides English and Chinese (which
 * features/scopes.ts frames already): "no busques en internet", "ne cherche pas sur le web", "such nicht im
 * Internet", "не ищи в интернете", "ウェブで検索しないで". The rules read the instruction text with these words blanked,
 * so a rule cannot add the toolset the user asked to leave out. The model's features are unchanged (it learns
 * negation from generated English and Chinese copies only), so this reads the text the rules see, nothing else.
 *
 * Like scopes.ts, only negated INSTRUCTIONS count, never problem reports ("no funciona", "ne marche pas", "es
 * geht nicht"): a cue opens a scope only as an imperative or a "no need to" phrase, at a clause start or after a
 * conjunction or "please". Three shapes:
 * - prefix cues (Romance, Slavic, Indonesian, Vietnamese, Thai, Arabic): the scope runs from the cue to the clause
 *   end or a breaker ("solo", "sino", "y" …);
 * - verb-second cues (German, Dutch: "such nicht …", "zoek niet …"): an imperative first word then nicht/niet/kein,
 *   the scope is that clause up to a breaker;
 * - verb-final cues (Japanese, Korean, Turkish, Hindi: "検索しないで", "검색하지 마", "aramaya gerek yok", "mat"): the
 *   scope is the clause up to the cue.
 * "Don't forget" asks for the action in every language and opens nothing.
 */

const letter = '[\\p{L}\\p{M}]';
/** Clause ends: punctuation in any script, and line breaks. */
const clauseEnd = /[.,;:!?¿¡()\n。，、；：！？]/u;

/** A word that ends a negated scope: what follows is asked for again ("no busques en internet, solo lee el archivo"). */
const breakers = new Set([
  'solo', 'sólo', 'sino', 'pero', 'y', 'luego', 'después', 'mejor', 'só', 'apenas', 'mas', 'e', 'depois', 'seulement', 'juste', 'mais', 'et', 'puis', 'plutôt',
  'nur', 'sondern', 'aber', 'und', 'dann', 'stattdessen', 'invece', 'ma', 'poi', 'alleen', 'maar', 'dan', 'tylko', 'ale', 'i', 'potem',
  'только', 'но', 'а', 'и', 'потім', 'лише', 'тільки', 'sadece', 'ama', 've', 'hanya', 'cukup', 'tapi', 'lalu', 'chỉ', 'nhưng', 'mà', 'và', 'rồi', 'sau', 'bas', 'sirf', 'lekin',
]);

/** Prefix cues that always open a scope ("without …", "no need to …"), lower case, matched at word starts. */
const prefixPhrases = [
  'sin', 'no hace falta', 'no es necesario', 'no necesitas', 'no hay que', 'no tienes que', 'sem', 'não precisa', 'nao precisa', 'não é necessário', 'não é preciso',
  'sans', 'pas besoin', 'inutile de', 'pas la peine', 'ohne', 'nicht nötig', 'kein bedarf', 'senza', 'non serve', "non c'è bisogno", 'non è necessario', 'zonder', 'niet nodig',
  'bez', 'nie trzeba', 'nie musisz', 'без', 'не надо', 'не нужно', 'не треба', 'не потрібно', 'tanpa', 'tidak perlu', 'nggak perlu', 'gak perlu', 'ga usah', 'nggak usah',
  'gak usah', 'jangan', 'đừng', 'không cần', 'ไม่ต้อง', 'อย่า',
];
const prefixCue = new RegExp(`^(?:${prefixPhrases.join('|')})(?!${letter})`, 'u');

/**
 * Negative imperatives whose form shows they are one (so a report in the indicative does not match): Spanish "no"
 * + a subjunctive in -es/-as (busques, abras), Italian "non" + an infinitive, Russian/Ukrainian "не" + an
 * imperative (ищи, запускай), Polish "nie" + an imperative (szukaj, otwieraj), French "ne/n'" at a clause start,
 * Portuguese "não" + a subjunctive of a common verb, Arabic "لا" + a second-person verb. Each matched at a clause
 * start or after a conjunction / "please" (checked by the caller).
 */
const imperativeNegations = [
  `no ${letter}+(?:es|as)(?!${letter})`,
  `non ${letter}+(?:are|ere|ire)(?!${letter})`,
  `не ${letter}+(?:и|й|йте|ите|ь|ьте)(?!${letter})`,
  `nie ${letter}+(?:aj|uj|ij|yj|ajcie|ujcie)(?!${letter})`,
  `nie (?:rób|róbcie|ruszaj|dotykaj)(?!${letter})`,
  `(?:ne|n')\\s?${letter}+ (?:pas|plus|jamais|rien)(?!${letter})`,
  `n'${letter}+ (?:pas|plus|jamais|rien)(?!${letter})`,
  `não (?:pesquise|procure|busque|use|abra|rode|execute|mexa|toque|altere|mude|apague|instale|mande|envie|faça|crie|pesquisa|procura|busca|usa|mexe|toca|altera|muda|apaga|instala|manda|envia|faz|cria)(?!${letter})`,
  'لا ت',
];
const imperativeCue = new RegExp(`^(?:${imperativeNegations.join('|')})`, 'u');

/** Words after which an instruction starts (as a clause start does): conjunctions and "please". */
const openers = new Set(['y', 'e', 'et', 'und', 'i', 'и', 've', 'dan', 'và', 'pero', 'mas', 'mais', 'aber', 'ma', 'maar', 'ale', 'но', 'ama', 'tapi', 'nhưng', 'por', 'favor', 'favore', 'stp', 'svp', 'bitte', 'proszę', 'пожалуйста', 'lütfen', 'tolong', 'please', 'también', 'também', 'aussi', 'auch', 'anche', 'ook', 'też', 'также', 'juga', 'cũng']);

/** "Don't forget to …" in these languages: asks for the action, never a negation. */
const forgetCue = /^(?:no (?:olvides|te olvides)|não (?:esqueça|esqueca|se esqueça)|n'oublie|non dimenticare|nie zapomnij|не забудь|не забувай|jangan lupa|đừng quên|อย่าลืม)/u;

/** Verb-second languages: an imperative first word, then the negation. */
const verbSecondNegation = /^(\p{L}+) (?:nicht|kein|keine|keinen|niet|geen)(?!\p{L})/u;
/** Verb-final cues: the clause up to the cue is negated. "忘れないで" and "잊지 마" (don't forget) ask. */
const verbFinalCue = /(?<!忘れ)ないで|なくていい|なくて(?:大丈夫|いい)|不要です|(?<!잊)지 ?마(?:세요|라|요)?(?!\p{L})|(?<!잊)지 말고|필요 없|gerek yok|lazım değil|(?<!\p{L})mat(?!\p{L})|मत/u;

/**
 * The instruction text with negated instructions of these languages blanked (same length, so offsets hold).
 * Runs per request on text the English/Chinese framing already saw; a message with no cue costs one regex test.
 */
export function blankNegatedInstructions(instruction: string): string {
  if (!mayHoldCue.test(instruction)) return instruction;
  const characters = instruction.split('');
  let clauseStart = 0;
  for (let index = 0; index <= instruction.length; index += 1) {
    if (index < instruction.length && !clauseEnd.test(instruction[index]!)) continue;
    blankClause(instruction, characters, clauseStart, index);
    clauseStart = index + 1;
  }
  return characters.join('');
}

const mayHoldCue = /(?<!\p{L})(?:sin|sem|sans|ohne|senza|zonder|bez|без|tanpa|jangan|đừng|không|no|non|не|nie|ne|n'|não|nao|pas|inutile|nicht|kein\w*|niet|geen|gerek|lazım|mat|ga|gak|nggak|tidak)(?!\p{L})|ないで|なくて|不要です|지 ?마|지 말고|필요 없|ไม่ต้อง|อย่า|لا ت|मत/u;

function blankClause(text: string, characters: string[], start: number, end: number): void {
  const clause = text.slice(start, end);
  const words = [...clause.matchAll(/[\p{L}\p{M}'’]+/gu)];
  const blank = (from: number, to: number): void => {
    for (let index = start + from; index < start + to; index += 1) characters[index] = ' ';
  };
  const verbFinal = verbFinalCue.exec(clause);
  if (verbFinal) blank(0, verbFinal.index + verbFinal[0].length);
  const first = words[0];
  if (first) {
    const second = verbSecondNegation.exec(clause.slice(first.index));
    // "such nicht …" (imperative) but not "es geht nicht", "sucht nicht" (indicative, third person ends in -t).
    if (second && !/t$/u.test(second[1]!) && !subjects.has(second[1]!)) blank(first.index, scopeEnd(clause, words, 1));
  }
  for (let position = 0; position < words.length; position += 1) {
    const word = words[position]!;
    const atStart = position === 0 || openers.has(words[position - 1]![0]);
    const rest = clause.slice(word.index);
    if (forgetCue.test(rest)) continue;
    if (prefixCue.test(rest)) {
      blank(word.index, scopeEnd(clause, words, position + 1));
      continue;
    }
    if (atStart && imperativeCue.test(rest)) blank(word.index, scopeEnd(clause, words, position + 1));
  }
}

/** German / Dutch subjects and articles: "es nicht", "das nicht" are statements, not imperatives. */
const subjects = new Set(['es', 'das', 'der', 'die', 'er', 'sie', 'ich', 'wir', 'ihr', 'man', 'dies', 'het', 'dat', 'hij', 'zij', 'ik', 'we', 'wij', 'jij', 'je', 'u', 'dit', 'de']);

/** Where a scope opened at word `from` ends: the first breaker word after it, or the clause end. */
function scopeEnd(clause: string, words: readonly RegExpMatchArray[], from: number): number {
  for (let position = Math.max(1, from); position < words.length; position += 1) {
    if (breakers.has(words[position]![0])) return words[position]!.index!;
  }
  return clause.length;
}

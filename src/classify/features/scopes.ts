import { normalizeText, unspacedCharacter } from './normalize.js';

/**
 * How a token is framed in the sentence. A word inside a negation ("don't run the tests") or inside quoted or
 * reported speech ("the log says 'run the migration'") is not a request to act, so it becomes a different
 * feature from the same word used as an instruction.
 */
export type TokenFrame = 'plain' | 'negated' | 'quoted';

export interface FramedToken {
  text: string;
  /** Offsets in the normalised text (`normalizeText`), so rules can mask what is not an instruction. */
  start: number;
  end: number;
  /** Ideographic runs are kept whole; the feature extractor cuts them into character n-grams. */
  unspaced: boolean;
  frame: TokenFrame;
}

// An apostrophe stays inside a word only before a letter or digit ("don't", "rock'n'roll"): in "'Aufwach'-Playlist"
// it is the closing quote, and swallowed into the word it left the quote open to the end of the message.
const tokenPattern = /https?:\/\/[^\s"'<>)\]]+|[\p{L}\p{M}\p{N}_](?:(?:[\p{L}\p{M}\p{N}_.\-/]|'(?=[\p{L}\p{M}\p{N}_]))*[\p{L}\p{M}\p{N}_])?|[^\s\p{L}\p{M}\p{N}]/gu;

/**
 * Only negated INSTRUCTIONS open a scope ("don't run the tests", "no need to search", "without touching the
 * files"). Negated descriptions are problem reports that need tools ("I can't get the tests to pass", "the
 * server won't start", "it doesn't compile"), so can't/won't/doesn't/isn't/not are not cues, and don't/never
 * count only where an instruction starts (clause start, after please/and/but/so/just/you).
 */
const imperativeNegationCues = new Set(['dont', "don't", 'never', 'avoid']);
const alwaysNegationCues = new Set(['without']);
const instructionOpeners = new Set(['please', 'pls', 'and', 'but', 'so', 'just', 'you', 'ok', 'okay', 'also', 'then', 'now', 'hey', 'hi']);
/** "don't forget to run the migrations" asks for the run. */
const negationCancellers = new Set(['forget', 'hesitate', 'miss', 'stop']);
/**
 * Words that close a negation's scope: what follows is asked for again ("don't run the tests, just read the log").
 * "also" starts a further request, often unpunctuated ("fix it without touching the tests also add a changelog line").
 */
const englishScopeBreakers = new Set(['but', 'just', 'instead', 'only', 'rather', 'then', 'and', 'also', 'please', 'however']);
const reportingVerbs = new Set(['says', 'said', 'saying', 'reads', 'wrote', 'writes', 'mentions', 'mentioned', 'claims', 'stated', 'states', 'quote', 'quoting']);
/** Who or what "says" something that is only being reported (the log says…, my boss wrote…). */
const reporters = new Set(['log', 'logs', 'error', 'message', 'readme', 'docs', 'documentation', 'doc', 'ticket', 'issue', 'instructions', 'manual', 'wiki', 'guide', 'comment', 'commit', 'email', 'note', 'sign', 'output', 'warning', 'popup', 'colleague', 'coworker', 'boss', 'manager', 'teacher', 'friend', 'someone', 'he', 'she', 'they', 'it', 'team', 'lead', 'task', 'description', 'spec', 'tutorial', 'article', 'post', 'screen', 'prompt']);

/** "tell me what the error says and search for it": the verb ends an indirect question, nothing is reported after it. */
const indirectQuestionWords = new Set(['what', 'whatever', 'whether']);

/**
 * "who wrote the book…" and "what are people saying in our channel" report nothing. A reporting verb opens
 * reported speech only before a quote or a colon, or after a reporter noun ("the log says run the migration") that
 * no "what" introduces ("what the log says" is the object of an ask).
 */
function reportsSpeech(text: string, verbEnd: number, previous: readonly FramedToken[]): boolean {
  if (/^\s*["'“「:：]/.test(text.slice(verbEnd, verbEnd + 4))) return true;
  if (isRelativeClause(text, previous.slice(-6, -1))) return false;
  const before = previous.slice(-4, -1);
  return before.some((token) => reporters.has(token.text)) && !before.some((token) => indirectQuestionWords.has(token.text));
}

const pronounReporters = new Set(['he', 'she', 'they', 'it', 'someone']);
const determiners = new Set(['the', 'this', 'that', 'these', 'those', 'a', 'an', 'any', 'every', 'each', 'my', 'your', 'our', 'his', 'her', 'their']);

/**
 * "add the meeting it mentions as a reminder", "open the file she wrote", "the release date someone mentioned": a
 * pronoun right before the verb with a determiner and a noun phrase of one to three words before it is a relative
 * clause whose object came first, so nothing after the verb is reported. `before` is up to five tokens before the verb.
 */
function isRelativeClause(text: string, before: readonly FramedToken[]): boolean {
  const pronoun = before.at(-1);
  if (!pronoun || !pronounReporters.has(pronoun.text)) return false;
  for (let nounWords = 1; nounWords <= 3; nounWords += 1) {
    const determiner = before.at(-2 - nounWords);
    if (!determiner || !determiners.has(determiner.text)) continue;
    // "my payslip, it says …" and "is it a scam? it says …" are two clauses: the pronoun starts a report. (The text
    // is normalised, so a curly apostrophe is "'" already.)
    return !/[^\s\p{L}\p{M}\p{N}']/u.test(text.slice(determiner.start, pronoun.end));
  }
  return false;
}

const clauseEnd = new Set(['.', ',', ';', '!', '?', ':', '\n', '。', '，', '；', '！', '？', '、', '(', ')']);

/**
 * A dash between words ends a clause as a comma does ("my teacher says she needs one — and check the listings"):
 * an em or en dash anywhere, a hyphen only with a space on both sides (so `ls -la` and "well-known" stay whole).
 */
function isDash(text: string, start: number, token: string): boolean {
  if (token === '\u2014' || token === '\u2013') return true;
  return token === '-' && /\s/.test(text[start - 1] ?? '') && /\s/.test(text[start + 1] ?? '');
}

const chineseNegationCues = ['不要', '不用', '无需', '不需要', '不必', '别', '勿', '禁止', '没必要', '千万别', '先别'];
/** 别忘了 / 不要忘记 ("don't forget to…") and 别让我忘了 / 不要让我错过 ("don't let me forget / miss…") ask for the action. */
const chineseCancellers = ['忘', '客气', '让我忘', '让我们忘', '让我错过', '让我们错过', '让我迟到', '让我睡过'];
const chineseScopeBreakers = ['只', '但', '而是', '就', '然后', '再'];
/** Narrow on purpose: bare 说 also starts 说明 ("explain"), and 显示/提示 are instructions as often as reports. */
const chineseReportingCues = ['写着', '里说', '上说', '中说', '说要', '说让', '报错说'];

const openingQuotes: Record<string, string> = { '"': '"', '「': '」', '『': '』', '《': '》', "'": "'" };

/** The normalised text with every negated or quoted token blanked out: what the message actually asks for. */
export function instructionText(rawText: string, tokens: readonly FramedToken[] = frameTokens(rawText)): string {
  const characters = normalizeText(rawText).split('');
  for (const token of tokens) {
    if (token.frame === 'plain') continue;
    for (let index = token.start; index < token.end; index += 1) characters[index] = ' ';
  }
  return characters.join('');
}

/** Splits text into tokens and marks each as plain, negated or quoted. Pure and allocation-light: runs per request. */
export function frameTokens(rawText: string): FramedToken[] {
  const text = normalizeText(rawText);
  const tokens: FramedToken[] = [];
  let negated = false;
  let reported = false;
  // Reported speech opened by a quote right after its verb ("the sign says 'closed'") ends where that quote closes;
  // opened by a colon ("my friend said: call him") it runs past the colon to the clause's end. (NFKC has folded a
  // full-width colon onto ':' already.)
  let reportEndsWithQuote = false;
  let reportOpenedByColon = false;
  let quoteCloser: string | undefined;
  // Where the closing mark of a forwarded message sits (forwardedMessageEnd), -1 when none is open.
  let forwardedEnd = -1;
  let previousEnd = 0;
  let clause: string[] = [];
  for (const match of text.matchAll(tokenPattern)) {
    const token = match[0];
    const start = match.index;
    const gap = text.slice(previousEnd, start);
    previousEnd = start + token.length;
    if (gap.includes('\n')) {
      negated = false;
      reported = false;
      clause = [];
    }
    if (forwardedEnd === start) {
      forwardedEnd = -1;
      continue;
    }
    if (quoteCloser !== undefined) {
      if (token === quoteCloser) {
        quoteCloser = undefined;
        if (reportEndsWithQuote) reported = false;
        reportEndsWithQuote = false;
        continue;
      }
    } else if (token in openingQuotes && isQuoteOpening(text, start, token)) {
      const closing = forwardedMessageEnd(text, start, openingQuotes[token]!);
      if (closing >= 0) {
        // The quote marks are dropped and the words inside read as the request; a report that leads to the quote
        // ("my boss wrote: "…"", "she says "…"") is the forwarding, not a report, so it ends here.
        forwardedEnd = closing;
        reported = false;
        reportEndsWithQuote = false;
        continue;
      }
      quoteCloser = openingQuotes[token];
      continue;
    }
    if (clauseEnd.has(token) || isDash(text, start, token)) {
      negated = false;
      if (!(reportOpenedByColon && token === ':')) reported = false;
      reportOpenedByColon = false;
      clause = [];
      continue;
    }
    reportOpenedByColon = false;
    if (unspacedCharacter.test(token)) {
      pushUnspaced(token, start, text, tokens, quoteCloser !== undefined, { negated, reported }, (next) => {
        negated = next.negated;
        reported = next.reported;
      });
      continue;
    }
    if (!/[\p{L}\p{N}]/u.test(token)) {
      tokens.push({ text: token, start, end: start + token.length, unspaced: false, frame: frameOf(quoteCloser !== undefined || reported, negated) });
      continue;
    }
    if (/^https?:\/\//.test(token)) {
      tokens.push({ text: token, start, end: start + token.length, unspaced: false, frame: frameOf(quoteCloser !== undefined || reported, negated) });
      continue;
    }
    const word = token.replace(/^[-'./]+|[-'./]+$/g, '');
    if (englishScopeBreakers.has(word)) negated = false;
    tokens.push({ text: word, start, end: start + token.length, unspaced: false, frame: frameOf(quoteCloser !== undefined || reported, negated) });
    if (opensNegation(word, clause, text, start + token.length)) negated = true;
    clause.push(word);
    if (reportingVerbs.has(word) && !reported && reportsSpeech(text, start + token.length, tokens)) {
      reported = true;
      const next = text.slice(start + token.length).trimStart()[0];
      reportEndsWithQuote = next !== undefined && next in openingQuotes;
      reportOpenedByColon = next === ':';
    }
  }
  return tokens;
}

/**
 * Whether `word` opens a negated instruction. `clause` holds the words of the current clause before it.
 */
const possibleCues = new Set(['without', 'no', 'not', "don't", 'dont', 'never', 'avoid']);
/** The cues that negate a need ("no need", "don't need", "do not want"), which may name a thing to get rid of. */
const needCues = new Set(['no', 'not', "don't", 'dont']);

function opensNegation(word: string, clause: readonly string[], text: string, end: number): boolean {
  // Runs for every word: most are not cues, and the look-ahead below is the costly part.
  if (!possibleCues.has(word)) return false;
  const next = /^\s*([\p{L}']+)(?:\s+([\p{L}']+))?/u.exec(text.slice(end, end + 40));
  const nextWord = next?.[1] ?? '';
  if (alwaysNegationCues.has(word)) return true;
  if ((nextWord === 'need' || nextWord === 'want') && needCues.has(word) && namesWhatToDiscard(text, end)) return false;
  // "no need to …", "not necessary to …", "you don't need to …", "I don't want you to …"
  if ((word === 'no' && nextWord === 'need') || (word === 'not' && nextWord === 'necessary')) return true;
  if ((word === "don't" || word === 'dont') && (nextWord === 'need' || (nextWord === 'want' && next?.[2] === 'you'))) return true;
  const opener = (before: readonly string[]): boolean => before.length === 0 || instructionOpeners.has(before.at(-1)!);
  // "don't let me forget to call mom at 5", "never let us miss the bin day": a request to prevent it, as "don't forget".
  const cancelled = negationCancellers.has(nextWord) || (nextWord === 'let' && (next?.[2] === 'me' || next?.[2] === 'us'));
  if (word === 'not' && clause.at(-1) === 'do') return !cancelled && opener(clause.slice(0, -1));
  if (!imperativeNegationCues.has(word) || cancelled) return false;
  return opener(clause);
}

/**
 * "I don't need the 9am standup reminder anymore, cancel it", "don't want the old logs folder, delete it": what is
 * no longer needed is the thing to remove, so its words are the request, not a negated one. Read from just after the
 * cue: need/want followed by a noun phrase (not "need to search", "want you to"), and either "anymore" / "any
 * longer" in the same clause or a next clause that opens by discarding "it" / "them" / "that".
 */
const discardVerbs = 'delete|remove|cancel|kill|stop|drop|archive|block|close|forget|erase|wipe|clear|clean up|uninstall|unsubscribe from|turn off|switch off|disable|get rid of|trash|purge|retire|scrap|ditch|nuke|unschedule|deactivate|pause|mute';
const discardAfterClause = new RegExp(`^\\s*(?:(?:so|please|pls|just|and|can you|could you|go ahead and)\\s+)*(?:${discardVerbs})\\s+(?:it|them|that|those|this|these)\\b`);
// A bare pronoun ("I don't need it anymore") names nothing to read: left as it was.
const needsWhat = /^\s*(?:need|want)\s+(?:for\s+)?(?!(?:to|you|u|anything|anymore|it|them|him|her|(?:any|all|either|both|none) of (?:it|them|those|these))\b|(?:that|this|those|these|one)\s*(?:anymore|any more|any longer|[.,;!?:]|$))[\p{L}\p{N}]/u;
const clauseClose = /[.,;!?:\n\u2014\u2013]|\s-\s/;

function namesWhatToDiscard(text: string, end: number): boolean {
  const rest = text.slice(end, end + 240);
  if (!needsWhat.test(rest)) return false;
  const close = clauseClose.exec(rest);
  const clauseText = close ? rest.slice(0, close.index) : rest;
  if (/\b(anymore|any more|any longer)\b/.test(clauseText)) return true;
  return close !== null && discardAfterClause.test(rest.slice(close.index + close[0].length));
}

function frameOf(quoted: boolean, negated: boolean): TokenFrame {
  if (quoted) return 'quoted';
  return negated ? 'negated' : 'plain';
}

/** An apostrophe opens a quote only at a word boundary and when it is closed later ("don't" is not a quote). */
function isQuoteOpening(text: string, start: number, token: string): boolean {
  if (token !== "'" && token !== '"') return true;
  const before = start === 0 ? ' ' : text[start - 1]!;
  if (/[\p{L}\p{N}]/u.test(before)) return false;
  const closing = text.indexOf(token, start + 1);
  if (closing < 0) return false;
  const after = text[closing + 1] ?? ' ';
  return !/[\p{L}\p{N}]/u.test(after) && closing - start < 400;
}

/**
 * A quote of a whole message ("my boss sent this: "compile the deploy numbers from the git logs and chart them" can
 * you handle it?") is forwarded work, not reported speech: what it asks is what the user wants done. A short quote is
 * a phrase (an error, a title, the words on a sign); a long one is a message. Returns the closing mark's offset when
 * the quote holds at least `forwardedMessageWords` words (or twice as many unspaced characters), else -1.
 */
const forwardedMessageWords = 6;

function forwardedMessageEnd(text: string, start: number, closer: string): number {
  const closing = text.indexOf(closer, start + 1);
  if (closing < 0) return -1;
  const inside = text.slice(start + 1, closing);
  const words = inside.match(/[\p{L}\p{N}]+/gu) ?? [];
  let count = 0;
  for (const word of words) count += unspacedCharacter.test(word) ? Math.ceil(word.length / 2) : 1;
  return count >= forwardedMessageWords ? closing : -1;
}

interface ScopeState {
  negated: boolean;
  reported: boolean;
}

/**
 * 我不需要那个每天的提醒了，删掉吧 ("I don't need that daily reminder any more, delete it"): as in English, what is no
 * longer needed (a cue of needing, the rest of the run closed by 了) is the thing to remove when the next clause
 * opens by removing it; 不用搜索了，直接回答 stays negated.
 */
const chineseNeedCues = new Set(['不需要', '不用', '没必要']);
const chineseDiscardOpening = /^[，,。；;]\s*(?:请|帮我|帮忙|就|直接|麻烦)?(?:删|取消|关掉|关了|停掉|停了|去掉|清掉|清除|移除|卸载|撤销|撤掉|退订)/;

function discardsWhatFollows(cue: string, rest: string, text: string, runEnd: number): boolean {
  return chineseNeedCues.has(cue) && rest.length > 1 && rest.endsWith('了') && chineseDiscardOpening.test(text.slice(runEnd, runEnd + 16));
}

/** Chinese runs carry their own cues inside the run; split the run where a cue starts or ends a scope. */
function pushUnspaced(run: string, runStart: number, text: string, tokens: FramedToken[], quoted: boolean, state: ScopeState, update: (state: ScopeState) => void): void {
  let { negated, reported } = state;
  let segment = '';
  let segmentStart = runStart;
  const flush = (): void => {
    if (segment) tokens.push({ text: segment, start: segmentStart, end: segmentStart + segment.length, unspaced: true, frame: frameOf(quoted || reported, negated) });
    segmentStart += segment.length;
    segment = '';
  };
  let index = 0;
  while (index < run.length) {
    const rest = run.slice(index);
    const breaker = chineseScopeBreakers.find((cue) => rest.startsWith(cue));
    if (breaker && negated) {
      flush();
      negated = false;
    }
    const negation = chineseNegationCues.find((cue) => rest.startsWith(cue));
    if (negation && !chineseCancellers.some((canceller) => rest.slice(negation.length).startsWith(canceller)) && !discardsWhatFollows(negation, rest.slice(negation.length), text, runStart + run.length)) {
      segment += negation;
      flush();
      negated = true;
      index += negation.length;
      continue;
    }
    const reporting = chineseReportingCues.find((cue) => rest.startsWith(cue));
    if (reporting && index > 0) {
      segment += reporting;
      flush();
      reported = true;
      index += reporting.length;
      continue;
    }
    segment += run[index];
    index += 1;
  }
  flush();
  update({ negated, reported });
}

import { intentLexicon, subjectLexicon } from './lexicon.js';
import { LexiconMatcher } from './lexicon-matcher.js';
import type { Intent, Topic } from './taxonomy.js';

let subject: LexiconMatcher<Exclude<Topic, 'none'>> | undefined;
let intent: LexiconMatcher<Intent> | undefined;

/**
 * The subject and intent lexicons compiled once, on first use, and shared by the keyword mode and the learned
 * model's features. Not at module load: the config schema imports this folder for the topic names and modes, so
 * every gateway start (and every CLI command) would compile them, though only topic routing with topics
 * configured ever matches against them.
 */
export function subjectMatcher(): LexiconMatcher<Exclude<Topic, 'none'>> {
  subject ??= new LexiconMatcher(subjectLexicon);
  return subject;
}

export function intentMatcher(): LexiconMatcher<Intent> {
  intent ??= new LexiconMatcher(intentLexicon);
  return intent;
}

/** The ARC topic taxonomy; `none` means "no specialist": the default model answers, shown as `[general]`. */
export const topics = [
  'software_it',
  'math',
  'science',
  'business_finance',
  'legal_government',
  'medicine_healthcare',
  'writing_language',
  'entertainment_media',
  'none',
] as const;
export type Topic = (typeof topics)[number];

/** What the user is trying to do, decided before the subject. */
export const intents = ['technical', 'analytical', 'creative', 'conversational'] as const;
export type Intent = (typeof intents)[number];

export function isTopic(value: string): value is Topic {
  return (topics as readonly string[]).includes(value);
}

/**
 * The intent a topic's requests almost always carry in the hand-written training data (P(topic | intent) there:
 * technical→software_it 0.96, creative→writing_language 0.96, conversational→none 0.81 / entertainment 0.18,
 * analytical→the five subject topics). Used to label examples written without an intent.
 */
export function usualIntent(topic: Topic): Intent {
  if (topic === 'software_it') return 'technical';
  if (topic === 'writing_language') return 'creative';
  if (topic === 'none' || topic === 'entertainment_media') return 'conversational';
  return 'analytical';
}

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

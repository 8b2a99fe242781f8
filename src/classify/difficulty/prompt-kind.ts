/**
 * The kind of a prompt, read from its shape alone (so it is known at inference): a multiple-choice question
 * (two or more option lines "A. …", "B) …") or any other request. What makes a question hard for the cheap
 * model differs between the kinds, so each kind with enough training rows gets a linear model of its own.
 */
export const promptKinds = ['choice', 'other'] as const;
export type PromptKind = (typeof promptKinds)[number];

const optionLine = /^[A-D][.)]\s/gm;

export function promptKind(prompt: string): PromptKind {
  return (prompt.match(optionLine) ?? []).length >= 2 ? 'choice' : 'other';
}

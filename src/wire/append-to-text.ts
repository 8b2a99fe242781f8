/** `existing` (a string, a list of content parts, or nothing) with `note` at its end, as a new value. */
export function appendToText(existing: unknown, note: string): unknown {
  if (typeof existing === 'string') return existing === '' ? note : `${existing}\n\n${note}`;
  if (Array.isArray(existing)) return [...existing, { type: 'text', text: note }];
  return note;
}

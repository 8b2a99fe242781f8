/**
 * Every secret this process was configured with (provider keys from the config and the environment, the admin
 * key from the environment). Redaction by shape cannot know a provider's own key format or a self-hosted token;
 * this list can. It is process-wide on purpose: a secret loaded by any part of the process (a gateway, a CLI
 * command that read the config) must be removed from every text that leaves it, whichever module writes that
 * text. It only grows; a secret removed from the config stays redacted until the process ends, which costs
 * nothing.
 */
const secrets = new Set<string>();
let ordered: readonly string[] = [];

/**
 * Shorter values are not redacted by value: a placeholder key like `none` or `local` would otherwise mangle
 * every text containing that word. Real keys are far longer; short ones are still caught by shape if they have one.
 */
export const shortestRedactedSecret = 8;

export function rememberSecrets(values: Iterable<string | undefined>): void {
  let added = false;
  for (const value of values) {
    const trimmed = value?.trim();
    if (trimmed === undefined || trimmed.length < shortestRedactedSecret || secrets.has(trimmed)) continue;
    secrets.add(trimmed);
    added = true;
  }
  // Longest first, so a key that contains another is replaced whole.
  if (added) ordered = [...secrets].sort((left, right) => right.length - left.length);
}

export function knownSecrets(): readonly string[] {
  return ordered;
}

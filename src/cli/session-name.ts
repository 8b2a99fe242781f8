/**
 * How a session is named to a person: its generated title, else its first prompt, else its id (a fingerprint
 * shortened to `session 0a1b2c`, as the dashboard does); the agent in brackets when known.
 */
export function sessionName(sessionId: string, labels: { title: string | null; firstPrompt: string | null; agent: string | null } | undefined): string {
  const named = labels?.title ?? labels?.firstPrompt ?? (sessionId.startsWith('fp_') ? `session ${sessionId.slice(3, 9)}` : sessionId);
  return labels?.agent ? `${named} [${labels.agent}]` : named;
}

/**
 * Personas from an AGENTS.md-style text: each level-one heading `# <topic>` starts a section whose body (up to
 * the next level-one heading) is that topic's system prompt. Text before the first heading and empty sections
 * are ignored; headings are matched case-insensitively and later duplicates replace earlier ones.
 */
export function parsePersonas(markdown: string): Map<string, string> {
  const personas = new Map<string, string>();
  let topic: string | undefined;
  let body: string[] = [];
  let inFence = false;
  const flush = (): void => {
    const text = body.join('\n').trim();
    if (topic && text) personas.set(topic, text);
    body = [];
  };
  for (const line of markdown.split(/\r?\n/)) {
    // A `# comment` inside a fenced code block is not a heading.
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const heading = inFence ? null : /^#\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      flush();
      topic = heading[1]!.trim().toLowerCase();
      continue;
    }
    if (topic) body.push(line);
  }
  flush();
  return personas;
}

/** The persona for a topic: configured text wins over the AGENTS.md section. */
export function personaFor(topic: string, configured: Readonly<Record<string, { persona?: string } | undefined>>, agentsPersonas?: ReadonlyMap<string, string>): string | undefined {
  return configured[topic]?.persona ?? agentsPersonas?.get(topic.toLowerCase());
}

/**
 * Model ids from a provider's model list (`{data: [{id}]}`, as OpenAI, Anthropic and their look-alikes answer),
 * or undefined when the body is not such a list.
 */
export function listedModelIds(body: unknown): string[] | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const data = (body as { data?: unknown }).data;
  if (!Array.isArray(data)) return undefined;
  return data.flatMap((entry: unknown) => {
    const id = typeof entry === 'object' && entry !== null ? (entry as { id?: unknown }).id : undefined;
    return typeof id === 'string' ? [id] : [];
  });
}

/** Whether a configured upstream model name is in the list; Ollama adds `:latest`, Gemini a `models/` prefix. */
export function modelListed(upstreamName: string, listed: readonly string[]): boolean {
  return listed.some((id) => id === upstreamName || id === `${upstreamName}:latest` || id.endsWith(`/${upstreamName}`));
}

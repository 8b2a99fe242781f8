/** `GET /v1/models` and `POST /v1/embeddings` bodies, in OpenAI's list formats. */

export const defaultModels = ['gpt-4.1-nano', 'gpt-4o-mini', 'claude-sonnet-4-5'];

export function modelsBody(models: readonly string[]): unknown {
  return {
    object: 'list',
    data: models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'fake-upstream' })),
  };
}

/** FNV-1a: a stable seed per input, so the same text always gets the same vector. */
function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** A unit vector derived from the text by a small linear congruential sequence. */
export function deterministicVector(text: string, dimensions: number): number[] {
  let state = hashText(text) || 1;
  const values: number[] = [];
  for (let index = 0; index < dimensions; index++) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    values.push(state / 0xffffffff - 0.5);
  }
  const norm = Math.hypot(...values) || 1;
  return values.map((value) => Math.fround(value / norm));
}

function inputTexts(input: unknown): string[] {
  if (typeof input === 'string') return [input];
  if (Array.isArray(input)) return input.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
  return [JSON.stringify(input ?? '')];
}

export function embeddingsBody(json: unknown, vectorFor?: (text: string) => number[] | undefined): unknown {
  const request = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
  const dimensions = typeof request['dimensions'] === 'number' ? request['dimensions'] : 8;
  // The openai SDK asks for base64 by default and decodes little-endian float32 itself.
  const asBase64 = request['encoding_format'] === 'base64';
  const texts = inputTexts(request['input']);
  const tokens = texts.reduce((sum, text) => sum + Math.max(1, Math.ceil(text.length / 4)), 0);
  return {
    object: 'list',
    data: texts.map((text, index) => {
      const vector = vectorFor?.(text) ?? deterministicVector(text, dimensions);
      return {
        object: 'embedding',
        index,
        embedding: asBase64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector,
      };
    }),
    model: typeof request['model'] === 'string' ? request['model'] : 'fake-embedding',
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

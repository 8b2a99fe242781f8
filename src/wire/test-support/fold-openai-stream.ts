import type { JsonObject } from '../../core/json.js';
import type { Usage } from '../../core/usage.js';
import { readNumber, readObject, readObjects, readString } from '../json-read.js';
import { createOpenAiUsageAccumulator } from '../openai-chat/usage.js';

export interface FoldedToolCall {
  id: string;
  name: string;
  argumentsText: string;
}

export interface FoldedOpenAiMessage {
  id: string | undefined;
  role: string | undefined;
  text: string;
  reasoning: string;
  toolCalls: FoldedToolCall[];
  finishReason: string | undefined;
  usage: Usage | undefined;
  /** Chunk ids seen (a translated stream must use one). */
  chunkIds: Set<string>;
}

/** Folds chat-completion chunks into the final message, the way an OpenAI client accumulates them. */
export function foldOpenAiStream(chunks: JsonObject[]): FoldedOpenAiMessage {
  const usage = createOpenAiUsageAccumulator();
  const calls = new Map<number, FoldedToolCall>();
  const folded: FoldedOpenAiMessage = {
    id: undefined,
    role: undefined,
    text: '',
    reasoning: '',
    toolCalls: [],
    finishReason: undefined,
    usage: undefined,
    chunkIds: new Set(),
  };
  for (const chunk of chunks) {
    usage.observe(chunk);
    const id = readString(chunk, 'id');
    if (id !== undefined && id.length > 0) {
      folded.id ??= id;
      folded.chunkIds.add(id);
    }
    for (const choice of readObjects(chunk, 'choices')) {
      const delta = readObject(choice, 'delta') ?? {};
      folded.role ??= readString(delta, 'role');
      folded.text += readString(delta, 'content') ?? '';
      folded.reasoning += readString(delta, 'reasoning_content') ?? '';
      readObjects(delta, 'tool_calls').forEach((call, position) => {
        const key = readNumber(call, 'index') ?? position;
        const called = readObject(call, 'function') ?? {};
        let entry = calls.get(key);
        if (entry === undefined) {
          entry = { id: '', name: '', argumentsText: '' };
          calls.set(key, entry);
        }
        const callId = readString(call, 'id');
        if (callId !== undefined && callId.length > 0 && entry.id === '') entry.id = callId;
        const name = readString(called, 'name');
        if (name !== undefined && name.length > 0) entry.name = name;
        entry.argumentsText += readString(called, 'arguments') ?? '';
      });
      const reason = choice['finish_reason'];
      if (typeof reason === 'string') folded.finishReason = reason;
    }
  }
  folded.toolCalls = [...calls.entries()].sort(([left], [right]) => left - right).map(([, call]) => call);
  folded.usage = usage.result();
  return folded;
}

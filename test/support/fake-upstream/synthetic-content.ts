import type { SyntheticBehaviour, SyntheticToolCall, SyntheticUsage } from './types.js';

/** What a synthesized reply says, resolved from a behaviour and the request, shared by both formats. */
export interface SyntheticContent {
  model: string;
  textPieces: string[];
  toolCalls: ResolvedToolCall[];
  usage: SyntheticUsage;
}

export interface ResolvedToolCall {
  id: string;
  name: string;
  argumentsJson: string;
  argumentPieces: string[];
}

/** Splits text into `count` consecutive pieces of near-equal length (never empty while text remains). */
export function splitIntoPieces(text: string, count: number): string[] {
  if (count <= 1 || text.length <= 1) return [text];
  const pieces: string[] = [];
  const size = Math.max(1, Math.ceil(text.length / count));
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}

/** Default wording: one delta per word, keeping the spaces so the pieces join back to the text. */
function splitIntoWords(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [text];
}

function generatedWords(count: number): string {
  return Array.from({ length: count }, (_, index) => `w${index + 1} `).join('');
}

function estimateTokens(characters: number): number {
  return Math.max(1, Math.ceil(characters / 4));
}

export function resolveSyntheticContent(
  behaviour: SyntheticBehaviour,
  requestedModel: string | undefined,
  requestBody: string,
  idPrefix: 'call_' | 'toolu_',
): SyntheticContent {
  const hasToolCalls = (behaviour.toolCalls?.length ?? 0) > 0;
  const text =
    behaviour.text ??
    (behaviour.chunkCount !== undefined ? generatedWords(behaviour.chunkCount) : hasToolCalls ? '' : 'Hello from the fake upstream.');
  const textPieces =
    text === '' ? [] : behaviour.chunkCount !== undefined ? fitPieces(text, behaviour.chunkCount) : splitIntoWords(text);
  const toolCalls = (behaviour.toolCalls ?? []).map((call, index) =>
    resolveToolCall(call, index, idPrefix, behaviour.argumentFragments ?? 3),
  );
  const outputCharacters = text.length + toolCalls.reduce((sum, call) => sum + call.argumentsJson.length, 0);
  return {
    model: behaviour.model ?? requestedModel ?? 'fake-model',
    textPieces,
    toolCalls,
    usage: behaviour.usage ?? {
      inputTokens: estimateTokens(requestBody.length),
      outputTokens: estimateTokens(outputCharacters),
    },
  };
}

/** Exactly `count` pieces when the generated words line up with it; otherwise near-equal slices. */
function fitPieces(text: string, count: number): string[] {
  const words = splitIntoWords(text);
  return words.length === count ? words : splitIntoPieces(text, count);
}

function resolveToolCall(
  call: SyntheticToolCall,
  index: number,
  idPrefix: string,
  fragments: number,
): ResolvedToolCall {
  const argumentsJson = JSON.stringify(call.arguments);
  return {
    id: call.id ?? `${idPrefix}fake${String(index + 1).padStart(4, '0')}`,
    name: call.name,
    argumentsJson,
    argumentPieces: splitIntoPieces(argumentsJson, fragments),
  };
}

import type { JsonObject } from '../../core/json.js';
import type { Usage } from '../../core/usage.js';
import { createAnthropicUsageAccumulator } from '../anthropic-messages/usage.js';
import { readNumber, readObject, readString } from '../json-read.js';

export interface FoldedAnthropicBlock {
  type: string;
  text: string;
  id: string;
  name: string;
  /** Concatenated `partial_json` of a tool_use block. */
  inputJson: string;
  /** The `input` of the block start. */
  startInput: JsonObject | undefined;
  signature: string;
  closed: boolean;
}

export interface FoldedAnthropicMessage {
  id: string | undefined;
  blocks: FoldedAnthropicBlock[];
  stopReason: string | undefined;
  usage: Usage | undefined;
  messageStops: number;
  /** Every problem with the event order a strict Anthropic client would trip on. */
  problems: string[];
}

/** Folds Messages stream events into the final message, checking the order of starts, deltas and stops. */
export function foldAnthropicStream(events: JsonObject[]): FoldedAnthropicMessage {
  const usage = createAnthropicUsageAccumulator();
  const blocks = new Map<number, FoldedAnthropicBlock>();
  const folded: FoldedAnthropicMessage = {
    id: undefined,
    blocks: [],
    stopReason: undefined,
    usage: undefined,
    messageStops: 0,
    problems: [],
  };
  let sawStart = false;
  for (const event of events) {
    usage.observe(event);
    const index = readNumber(event, 'index') ?? -1;
    switch (event['type']) {
      case 'message_start': {
        sawStart = true;
        folded.id ??= readString(readObject(event, 'message') ?? {}, 'id');
        break;
      }
      case 'content_block_start': {
        if (!sawStart) folded.problems.push('content_block_start before message_start');
        if (blocks.has(index)) folded.problems.push(`block ${index} started twice`);
        const block = readObject(event, 'content_block') ?? {};
        blocks.set(index, {
          type: readString(block, 'type') ?? '',
          text: readString(block, 'text') ?? readString(block, 'thinking') ?? '',
          id: readString(block, 'id') ?? '',
          name: readString(block, 'name') ?? '',
          inputJson: '',
          startInput: readObject(block, 'input'),
          signature: readString(block, 'signature') ?? '',
          closed: false,
        });
        break;
      }
      case 'content_block_delta': {
        const block = blocks.get(index);
        if (block === undefined || block.closed) {
          folded.problems.push(`delta for block ${index} that is not open`);
          break;
        }
        const delta = readObject(event, 'delta') ?? {};
        block.text += readString(delta, 'text') ?? readString(delta, 'thinking') ?? '';
        block.inputJson += readString(delta, 'partial_json') ?? '';
        block.signature += readString(delta, 'signature') ?? '';
        break;
      }
      case 'content_block_stop': {
        const block = blocks.get(index);
        if (block === undefined || block.closed) folded.problems.push(`stop for block ${index} that is not open`);
        else block.closed = true;
        break;
      }
      case 'message_delta': {
        const reason = readString(readObject(event, 'delta') ?? {}, 'stop_reason');
        if (reason !== undefined) folded.stopReason = reason;
        break;
      }
      case 'message_stop':
        folded.messageStops++;
        for (const [blockIndex, block] of blocks) if (!block.closed) folded.problems.push(`block ${blockIndex} open at message_stop`);
        break;
    }
  }
  folded.blocks = [...blocks.entries()].sort(([left], [right]) => left - right).map(([, block]) => block);
  folded.usage = usage.result();
  return folded;
}

/** The input of a folded tool_use block, as an Anthropic client computes it: streamed JSON, `""` meaning `{}`. */
export function foldedToolInput(block: FoldedAnthropicBlock): unknown {
  return block.inputJson.trim().length === 0 ? (block.startInput ?? {}) : JSON.parse(block.inputJson);
}

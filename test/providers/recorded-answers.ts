import type { ApiFormat } from '../../src/core/api-format.js';
import type { Usage } from '../../src/core/usage.js';
import type { RecordingName } from '../support/recordings.js';

/**
 * What each recorded provider response says, read off the recording by hand (see the fixtures README's notes
 * next to each file): the text, the tool calls with their parsed arguments, the stop reason and the usage in
 * the gateway's terms (`core/usage.ts`). The provider contract suite checks that an adapter, fed these bytes by
 * a fake upstream, yields an answer that decodes to exactly this.
 */

export interface ExpectedToolCall {
  id: string;
  name: string;
  arguments: unknown;
}

export interface RecordedAnswer {
  recording: RecordingName;
  /** The whole text, or (long answers) its start and length. */
  text: string | { startsWith: string; length: number };
  /** Anthropic thinking text, when the answer has some. */
  thinking?: { startsWith: string; length: number };
  toolCalls: ExpectedToolCall[];
  stopReason: string;
  usage: Usage | undefined;
  /** Stream recordings: how many events the provider sent (OpenAI's `[DONE]` not counted). */
  events?: number;
}

function usage(inputTokens: number, outputTokens: number, cacheReadTokens = 0, cacheWriteTokens = 0, reasoningTokens = 0): Usage {
  return { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, reasoningTokens };
}

const weatherInSanFrancisco = { location: 'San Francisco' };

/**
 * The formats providers speak first (`ProviderKindInfo.format`), whose recordings the contract replays. The
 * Responses API is only ever a second format (`alsoSpeaks`): its pass-through is tested against a fake of
 * OpenAI's /v1/responses (test/gateway/responses-passthrough.test.ts).
 */
export type RecordedFormat = Exclude<ApiFormat, 'openai-responses'>;

export const recordedStreams: Record<RecordedFormat, RecordedAnswer[]> = {
  'openai-chat': [
    { recording: 'openai-text', text: { startsWith: '**Holiday Name:** Harmony Day', length: 1724 }, toolCalls: [], stopReason: 'stop', usage: usage(16, 300), events: 303 },
    {
      recording: 'issue-15789-step-1',
      text: 'PRE_TOOL',
      toolCalls: [{ id: 'call_NZa7xqfefoaMI2YYHowVXVlU', name: 'weather', arguments: {} }],
      stopReason: 'tool_calls',
      usage: usage(58, 12),
      events: 7,
    },
    // The first chunk is Azure's empty prompt-filter chunk; 64 reasoning tokens inside completion's 78.
    { recording: 'azure-model-router', text: 'Capital of Denmark.', toolCalls: [], stopReason: 'stop', usage: usage(15, 78, 0, 0, 64), events: 8 },
    {
      recording: 'xai-tool-call',
      text: '',
      toolCalls: [{ id: 'call_55117580', name: 'weather', arguments: weatherInSanFrancisco }],
      stopReason: 'tool_calls',
      // total 513 = 291 + 26 + 196: xAI counts reasoning outside completion_tokens.
      usage: usage(291, 26 + 196, 290, 0, 196),
      events: 8,
    },
    {
      recording: 'deepseek-tool-call',
      text: '',
      toolCalls: [{ id: 'call_00_ioIn7yN9p1ZOMNpDLwd4MgAF', name: 'weather', arguments: weatherInSanFrancisco }],
      stopReason: 'tool_calls',
      usage: usage(339, 83, 320, 0, 39),
      events: 52,
    },
    {
      recording: 'groq-tool-call',
      text: '',
      toolCalls: [{ id: 'tk85n1k4m', name: 'weather', arguments: {} }],
      stopReason: 'tool_calls',
      usage: usage(210, 15),
      events: 3,
    },
    {
      recording: 'alibaba-tool-call',
      text: '',
      // Continuation deltas repeat `"id":""`: still one call.
      toolCalls: [{ id: 'call_eee11723464a4b9eb8cee71d', name: 'weather', arguments: weatherInSanFrancisco }],
      stopReason: 'tool_calls',
      usage: usage(295, 22),
      events: 6,
    },
    {
      recording: 'anthropic-fallback-tool-call',
      text: 'Reading it.',
      // The first (and only) call has index 1.
      toolCalls: [{ id: 'toolu_sanitized', name: 'read_file', arguments: { path: 'a.txt' } }],
      stopReason: 'tool_calls',
      usage: undefined,
      events: 8,
    },
  ],
  'anthropic-messages': [
    { recording: 'anthropic-text', text: { startsWith: "Hello! I'm doing well, thank you for asking.", length: 108 }, toolCalls: [], stopReason: 'end_turn', usage: usage(12, 30), events: 12 },
    {
      recording: 'anthropic-tool-no-args',
      text: "I'll update the issue list for you.",
      // The only input delta is `partial_json: ""`: the arguments are `{}`.
      toolCalls: [{ id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', name: 'updateIssueList', arguments: {} }],
      stopReason: 'tool_use',
      usage: usage(565, 48),
      events: 13,
    },
    {
      recording: 'anthropic-issue-15652-false',
      text: '',
      toolCalls: [
        { id: 'toolu_01LtEf4h1QW7KCKLsYMuhTNB', name: 'searchDocs', arguments: { query: 'alpha' } },
        { id: 'toolu_016tfZE7otAFSBjhc67wu189', name: 'searchDocs', arguments: { query: 'beta' } },
        { id: 'toolu_01XkU35z8BVWqqc9tijDuLrA', name: 'searchDocs', arguments: { query: 'gamma' } },
      ],
      stopReason: 'tool_use',
      usage: usage(798, 110),
      events: 19,
    },
    {
      recording: 'anthropic-clear-thinking',
      text: '925 ÷ 5 = 185',
      thinking: { startsWith: 'The previous result was 925.', length: 75 },
      toolCalls: [],
      stopReason: 'end_turn',
      usage: usage(69, 53),
      events: 22,
    },
    { recording: 'anthropic-issue-5942-cache-write', text: 'OK', toolCalls: [], stopReason: 'max_tokens', usage: usage(3 + 18639, 1, 0, 18639), events: 7 },
    { recording: 'anthropic-issue-5942-cache-read', text: 'OK', toolCalls: [], stopReason: 'max_tokens', usage: usage(3 + 18639, 1, 18639, 0), events: 7 },
    // message_start says 43 input tokens, message_delta 61: the delta's count wins.
    { recording: 'anthropic-message-delta-input-tokens', text: 'pong', toolCalls: [], stopReason: 'end_turn', usage: usage(61, 2), events: 8 },
    { recording: 'duplicate-message-start', text: 'Hello, World!', toolCalls: [], stopReason: 'end_turn', usage: usage(17, 227), events: 7 },
    { recording: 'anthropic-refusal', text: '', toolCalls: [], stopReason: 'refusal', usage: usage(18, 5), events: 4 },
  ],
};

export const recordedBodies: Record<RecordedFormat, RecordedAnswer[]> = {
  'openai-chat': [
    { recording: 'openai-text', text: { startsWith: '**Holiday Name:** Galaxy Day', length: 1842 }, toolCalls: [], stopReason: 'stop', usage: usage(16, 363) },
    {
      recording: 'xai-tool-call',
      text: '',
      toolCalls: [{ id: 'call_93562515', name: 'weather', arguments: weatherInSanFrancisco }],
      stopReason: 'tool_calls',
      usage: usage(291, 26 + 189, 244, 0, 189),
    },
    {
      recording: 'deepseek-tool-call',
      text: '',
      toolCalls: [{ id: 'call_00_9V0vrf86Pc9aelHCJMZqnJBo', name: 'weather', arguments: weatherInSanFrancisco }],
      stopReason: 'tool_calls',
      usage: usage(339, 92, 320, 0, 48),
    },
  ],
  'anthropic-messages': [
    {
      recording: 'anthropic-text',
      text: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?",
      toolCalls: [],
      stopReason: 'end_turn',
      usage: usage(12, 29),
    },
    {
      recording: 'anthropic-json-tool',
      text: '',
      toolCalls: [
        {
          id: 'toolu_01Q9ExVZnzZj7E2QQYHYtNUa',
          name: 'json',
          arguments: {
            elements: [
              { location: 'San Francisco', temperature: -5, condition: 'snowy' },
              { location: 'London', temperature: 0, condition: 'snowy' },
              { location: 'Paris', temperature: 23, condition: 'cloudy' },
              { location: 'Berlin', temperature: -9, condition: 'snowy' },
            ],
          },
        },
      ],
      stopReason: 'tool_use',
      usage: usage(1151, 87),
    },
    {
      recording: 'issue-13430-thinking-tool-call',
      text: '',
      thinking: { startsWith: 'The user wants me to call checkSandboxErrors', length: 57 },
      toolCalls: [{ id: 'toolu_017R7ACrx7NF7sLDDtvdQ1u9', name: 'checkSandboxErrors', arguments: {} }],
      stopReason: 'tool_use',
      usage: usage(599, 59, 0, 0, 18),
    },
  ],
};

/** Recorded 400 error bodies (the status was not recorded; both providers send these as 400). */
export const recordedErrors: Record<RecordedFormat, { recording: RecordingName; message: string }[]> = {
  'openai-chat': [{ recording: 'reasoning-model-legacy-parameter-error', message: "Unsupported parameter: 'max_tokens'" }],
  'anthropic-messages': [{ recording: 'anthropic-parallel-provider-client-tools-error', message: '`tool_use` ids were found without `tool_result` blocks' }],
};

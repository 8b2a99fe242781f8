import type { FakeBehaviour, ReceivedRequest } from '../../test/support/fake-upstream/index.js';

/**
 * The fake provider's side of an agent run: a scripted model that behaves the same whatever agent asks.
 * - A prompt containing `run ls` gets a call to the agent's shell tool with `ls` (once per conversation);
 *   when the call's result is in the conversation it answers `Files: <the result>`.
 * - A request for JSON output (Gemini CLI's routing classifier) gets a minimal object matching the schema.
 * - Anything else gets `pong`.
 * It reads both provider formats (chat completions and Anthropic Messages), so an agent can be served either way.
 */
export function agentProviderBehaviour(request: ReceivedRequest): FakeBehaviour {
  const body = isObject(request.json) ? request.json : {};
  const schema = jsonSchemaAsked(body);
  if (schema !== undefined) return { kind: 'synthetic', text: JSON.stringify(valueFor(schema)) };
  const toolResult = lastToolResult(body);
  if (toolResult !== undefined) return { kind: 'synthetic', text: `Files: ${toolResult.trim().split(/\s+/).join(' ').slice(0, 300)}` };
  if (latestUserText(body).includes('run ls')) {
    const call = shellCall(body);
    if (call !== undefined) return { kind: 'synthetic', toolCalls: [call] };
    // The gateway narrowed the shell away: ask for it back, as a model reading the catalog would.
    if (toolNames(body).includes('request_toolset')) {
      return { kind: 'synthetic', toolCalls: [{ name: 'request_toolset', arguments: { toolsets: ['terminal'], reason: 'run ls' } }] };
    }
  }
  return { kind: 'synthetic', text: 'pong' };
}

type Json = Record<string, unknown>;

/** The newest tool result in a provider request, in either format. */
export function toolResultIn(request: ReceivedRequest): string | undefined {
  return isObject(request.json) ? lastToolResult(request.json) : undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objects(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return objects(content)
    .map((part) => (typeof part['text'] === 'string' ? part['text'] : typeof part['content'] === 'string' ? part['content'] : textOf(part['content'])))
    .join('\n');
}

/** The newest user text, skipping tool results (Anthropic carries them in user messages). */
function latestUserText(body: Json): string {
  for (const message of objects(body['messages']).reverse()) {
    if (message['role'] !== 'user') continue;
    const parts = Array.isArray(message['content']) ? objects(message['content']).filter((part) => part['type'] !== 'tool_result') : [];
    if (Array.isArray(message['content']) && parts.length === 0) continue;
    return textOf(Array.isArray(message['content']) ? parts : message['content']);
  }
  return '';
}

/** The result of a tool call made after the newest real user message, in either format. */
function lastToolResult(body: Json): string | undefined {
  let result: string | undefined;
  for (const message of objects(body['messages'])) {
    if (message['role'] === 'tool') result = textOf(message['content']);
    else if (message['role'] === 'user') {
      const blocks = objects(message['content']);
      const results = blocks.filter((block) => block['type'] === 'tool_result');
      if (results.length > 0) result = results.map((block) => textOf(block['content'])).join('\n');
      else if (typeof message['content'] === 'string' || blocks.some((block) => block['type'] === 'text' && String(block['text']).includes('run ls'))) result = undefined;
    }
  }
  return result;
}

function toolNames(body: Json): string[] {
  return objects(body['tools']).map((tool) => String((isObject(tool['function']) ? tool['function'] : tool)['name'] ?? ''));
}

const shellNames = ['Bash', 'bash', 'exec_command', 'shell', 'shell_command', 'run_shell_command', 'local_shell'];

/** A call of the agent's shell tool running `ls`, with every required argument filled. */
function shellCall(body: Json): { name: string; arguments: Record<string, unknown> } | undefined {
  const tools = objects(body['tools']).map((tool) => {
    const definition = isObject(tool['function']) ? tool['function'] : tool;
    const parameters = definition['parameters'] ?? definition['input_schema'];
    return { name: String(definition['name'] ?? ''), parameters: isObject(parameters) ? parameters : {} };
  });
  const tool = shellNames.map((name) => tools.find((candidate) => candidate.name === name)).find((found) => found !== undefined);
  if (tool === undefined) return undefined;
  const properties = isObject(tool.parameters['properties']) ? tool.parameters['properties'] : {};
  const required = Array.isArray(tool.parameters['required']) ? tool.parameters['required'].map(String) : [];
  const argumentsObject: Record<string, unknown> = {};
  for (const name of new Set(['command', 'cmd', ...required])) {
    const property = properties[name];
    if (!isObject(property)) continue;
    const type = String(property['type'] ?? 'string').toLowerCase();
    const isCommand = name === 'command' || name === 'cmd';
    if (type === 'array') argumentsObject[name] = isCommand ? ['ls'] : [];
    else if (type === 'string') argumentsObject[name] = isCommand ? 'ls' : 'List the files';
    else if (type === 'boolean') argumentsObject[name] = false;
    else if (type === 'number' || type === 'integer') argumentsObject[name] = 10_000;
  }
  return { name: tool.name, arguments: argumentsObject };
}

/** The JSON schema a request asks the answer to follow (OpenAI `response_format`, Anthropic `output_format`). */
function jsonSchemaAsked(body: Json): Json | undefined {
  const responseFormat = body['response_format'];
  if (isObject(responseFormat)) {
    if (responseFormat['type'] === 'json_object') return {};
    const schema = isObject(responseFormat['json_schema']) ? responseFormat['json_schema']['schema'] : undefined;
    if (isObject(schema)) return schema;
  }
  const outputFormat = isObject(body['output_format']) ? body['output_format'] : isObject(body['output_config']) ? body['output_config']['format'] : undefined;
  if (isObject(outputFormat) && isObject(outputFormat['schema'])) return outputFormat['schema'];
  return undefined;
}

/** A minimal value of a JSON schema (Gemini writes types in capitals). */
function valueFor(schema: Json): unknown {
  const type = String(schema['type'] ?? 'object').toLowerCase();
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return schema['enum'][0];
  if (type === 'object') {
    const properties = isObject(schema['properties']) ? schema['properties'] : {};
    return Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, isObject(property) ? valueFor(property) : null]));
  }
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return false;
  return 'simple';
}

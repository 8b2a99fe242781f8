import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isJsonObject } from '../../core/json.js';
import type { JsonObject } from '../../core/json.js';
import type { PromptParts } from './prefix-cache-cost.js';

/** What the model is asked to do on the current turn. */
export interface TurnScript {
  needs: string[];
  callPruned: boolean;
  /** tool name → owning toolset, from the registry fixture. */
  toolsetOf: ReadonlyMap<string, string>;
  /** toolset → the tool the model calls for it. */
  toolFor: ReadonlyMap<string, string>;
}

export interface UpstreamCall extends PromptParts {
  /** `toolsJson`: the exact bytes of the tools array the gateway sent. */
  toolNames: string[];
  /** The model answered with `request_toolset`: the gateway re-issues the call, hidden from the client. */
  requestedToolset: boolean;
}

/**
 * A deterministic stand-in for a model, over real HTTP (OpenAI chat completions, JSON answers). On each
 * request it looks at what happened since the last user message: for the first need not yet met it calls a tool
 * of that toolset if it can see one, else the tool by name when told to (`callPruned`), else
 * `request_toolset`; with every need met it answers in text.
 */
export class ScriptedModel {
  readonly calls: UpstreamCall[] = [];
  script: TurnScript | undefined;
  private server: Server | undefined;
  private counter = 0;

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const parts: Buffer[] = [];
      request.on('data', (part: Buffer) => parts.push(part));
      request.on('end', () => {
        const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as JsonObject;
        const answer = this.answer(body);
        const text = JSON.stringify(answer);
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        response.end(text);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private answer(body: JsonObject): JsonObject {
    const tools = Array.isArray(body.tools) ? body.tools : [];
    const toolNames = tools.map((tool) => (isJsonObject(tool) && isJsonObject(tool.function) && typeof tool.function.name === 'string' ? tool.function.name : ''));
    const script = this.script;
    const messages = Array.isArray(body.messages) ? body.messages.filter(isJsonObject) : [];
    const upstreamCall: UpstreamCall = {
      toolsJson: JSON.stringify(tools),
      systemJson: JSON.stringify(messages.filter((message) => message.role === 'system')),
      messagesJson: JSON.stringify(messages.filter((message) => message.role !== 'system')),
      toolNames,
      requestedToolset: false,
    };
    this.calls.push(upstreamCall);
    const lastUser = messages.map((message) => message.role).lastIndexOf('user');
    const met = new Set<string>();
    for (const message of messages.slice(lastUser + 1)) {
      for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
        const name = isJsonObject(call) && isJsonObject(call.function) ? call.function.name : undefined;
        const toolset = typeof name === 'string' ? script?.toolsetOf.get(name) : undefined;
        if (toolset) met.add(toolset);
      }
    }
    const next = script?.needs.find((need) => !met.has(need));
    this.counter += 1;
    const id = `chatcmpl-scripted-${this.counter}`;
    if (!script || next === undefined) return this.message(id, { role: 'assistant', content: 'Done.' }, 'stop');
    const tool = script.toolFor.get(next);
    const visible = tool !== undefined && toolNames.includes(tool);
    const call =
      visible || (script.callPruned && tool !== undefined)
        ? { name: tool, arguments: '{}' }
        : { name: 'request_toolset', arguments: JSON.stringify({ toolsets: [next] }) };
    upstreamCall.requestedToolset = call.name === 'request_toolset';
    const toolCall = { id: `call_${this.counter}`, type: 'function', function: call };
    return this.message(id, { role: 'assistant', content: '', tool_calls: [toolCall] }, 'tool_calls');
  }

  private message(id: string, message: JsonObject, finishReason: string): JsonObject {
    return {
      id,
      object: 'chat.completion',
      created: 0,
      model: 'scripted',
      choices: [{ index: 0, message, finish_reason: finishReason }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    };
  }
}

import { isJsonObject, type JsonObject } from '../../core/json.js';
import { invalidRequest } from '../invalid-request.js';
import { readNumber, readObject, readObjects, readString } from '../json-read.js';
import { budgetToReasoningEffort } from '../translate/reasoning-budget.js';
import type { GeminiRequest } from './request.js';
import { geminiSchemaToJsonSchema } from './schema.js';

/**
 * A Gemini `generateContent` request → a chat-completions request. `systemInstruction` becomes the system
 * message; a `model` turn's `functionCall` parts become `tool_calls`, a user turn's `functionResponse` parts
 * `tool` messages (matched to their call by id, else by name in order); thought parts become
 * `reasoning_content`; `functionDeclarations` become function tools (schemas with lower-case types). Built-in
 * tools (Google Search, code execution, URL context) have no chat-completions equivalent and are dropped.
 */
export function geminiToChatRequest(request: GeminiRequest): JsonObject {
  const body = request.body;
  const messages: JsonObject[] = [];
  const system = readObject(body, 'systemInstruction') ?? readObject(body, 'system_instruction');
  const systemText = system === undefined ? '' : textOfParts(readObjects(system, 'parts'));
  if (systemText.length > 0) messages.push({ role: 'system', content: systemText });

  /** Call ids handed out for the last model turn, per function name, for responses that carry no id. */
  let pendingIds = new Map<string, string[]>();
  request.contents.forEach((content, contentIndex) => {
    const parts = readObjects(content, 'parts');
    if (content['role'] === 'model') {
      pendingIds = new Map();
      messages.push(modelMessage(parts, contentIndex, pendingIds));
      return;
    }
    const userParts: JsonObject[] = [];
    for (const part of parts) {
      const response = readObject(part, 'functionResponse');
      if (response !== undefined) {
        const name = readString(response, 'name') ?? '';
        const id = readString(response, 'id') ?? pendingIds.get(name)?.shift() ?? `call_${name}`;
        const output = response['response'];
        messages.push({ role: 'tool', tool_call_id: id, content: typeof output === 'string' ? output : JSON.stringify(output ?? {}) });
        continue;
      }
      const converted = userPart(part);
      if (converted !== undefined) userParts.push(converted);
    }
    if (userParts.length > 0) {
      const allText = userParts.every((part) => part['type'] === 'text');
      messages.push({ role: 'user', content: allText ? userParts.map((part) => part['text']).join('\n') : userParts });
    }
  });

  if (!messages.some((message) => message['role'] !== 'system')) throw invalidRequest('contents: no part a model can answer (text, inline data, function call or response).');
  const chat: JsonObject = { model: request.model, messages };
  const tools = readObjects(body, 'tools').flatMap((tool) =>
    readObjects(tool, 'functionDeclarations').concat(readObjects(tool, 'function_declarations')).map(functionToChat),
  );
  if (tools.length > 0) {
    chat['tools'] = tools;
    const toolChoice = toolChoiceToChat(readObject(readObject(body, 'toolConfig') ?? {}, 'functionCallingConfig'));
    if (toolChoice !== undefined) chat['tool_choice'] = toolChoice;
  }
  const generation = readObject(body, 'generationConfig') ?? readObject(body, 'generation_config') ?? {};
  const temperature = readNumber(generation, 'temperature');
  if (temperature !== undefined) chat['temperature'] = temperature;
  const topP = readNumber(generation, 'topP');
  if (topP !== undefined) chat['top_p'] = topP;
  const maxTokens = readNumber(generation, 'maxOutputTokens');
  if (maxTokens !== undefined) chat['max_tokens'] = maxTokens;
  const stop = generation['stopSequences'];
  if (Array.isArray(stop) && stop.length > 0) chat['stop'] = stop;
  const schema = generation['responseJsonSchema'] ?? generation['responseSchema'];
  if (isJsonObject(schema)) chat['response_format'] = { type: 'json_schema', json_schema: { name: 'response', schema: geminiSchemaToJsonSchema(schema) } };
  else if (readString(generation, 'responseMimeType') === 'application/json') chat['response_format'] = { type: 'json_object' };
  const budget = readNumber(readObject(generation, 'thinkingConfig') ?? {}, 'thinkingBudget');
  if (budget !== undefined && budget > 0) chat['reasoning_effort'] = budgetToReasoningEffort(budget);
  if (request.stream) {
    chat['stream'] = true;
    chat['stream_options'] = { include_usage: true };
  }
  return chat;
}

function textOfParts(parts: JsonObject[]): string {
  return parts
    .filter((part) => part['thought'] !== true)
    .map((part) => readString(part, 'text') ?? '')
    .filter((text) => text.length > 0)
    .join('\n');
}

function modelMessage(parts: JsonObject[], contentIndex: number, pendingIds: Map<string, string[]>): JsonObject {
  const texts: string[] = [];
  const thoughts: string[] = [];
  const calls: JsonObject[] = [];
  for (const part of parts) {
    const call = readObject(part, 'functionCall');
    if (call !== undefined) {
      const name = readString(call, 'name') ?? '';
      const id = readString(call, 'id') ?? `call_${contentIndex}_${calls.length}`;
      pendingIds.set(name, [...(pendingIds.get(name) ?? []), id]);
      calls.push({ id, type: 'function', function: { name, arguments: JSON.stringify(call['args'] ?? {}) } });
      continue;
    }
    const text = readString(part, 'text');
    if (text === undefined) continue;
    if (part['thought'] === true) thoughts.push(text);
    else texts.push(text);
  }
  const message: JsonObject = { role: 'assistant', content: texts.length > 0 ? texts.join('') : calls.length > 0 ? null : '' };
  if (thoughts.length > 0) message['reasoning_content'] = thoughts.join('');
  if (calls.length > 0) message['tool_calls'] = calls;
  return message;
}

function userPart(part: JsonObject): JsonObject | undefined {
  const text = readString(part, 'text');
  if (text !== undefined) return part['thought'] === true ? undefined : { type: 'text', text };
  const inline = readObject(part, 'inlineData') ?? readObject(part, 'inline_data');
  if (inline !== undefined) {
    const mimeType = readString(inline, 'mimeType') ?? readString(inline, 'mime_type') ?? 'application/octet-stream';
    const url = `data:${mimeType};base64,${readString(inline, 'data') ?? ''}`;
    return mimeType.startsWith('image/') ? { type: 'image_url', image_url: { url } } : { type: 'file', file: { file_data: url, filename: 'file' } };
  }
  const file = readObject(part, 'fileData') ?? readObject(part, 'file_data');
  const uri = file === undefined ? undefined : readString(file, 'fileUri') ?? readString(file, 'file_uri');
  if (uri !== undefined && (uri.startsWith('https://') || uri.startsWith('http://'))) return { type: 'image_url', image_url: { url: uri } };
  return undefined;
}

function functionToChat(declaration: JsonObject): JsonObject {
  const parameters = declaration['parametersJsonSchema'] ?? geminiSchemaToJsonSchema(declaration['parameters']);
  const definition: JsonObject = { name: readString(declaration, 'name') ?? '', parameters: isJsonObject(parameters) ? parameters : { type: 'object', properties: {} } };
  const description = readString(declaration, 'description');
  if (description !== undefined) definition['description'] = description;
  return { type: 'function', function: definition };
}

function toolChoiceToChat(config: JsonObject | undefined): unknown {
  const mode = config === undefined ? undefined : readString(config, 'mode');
  if (mode === 'NONE') return 'none';
  if (mode === 'AUTO') return 'auto';
  if (mode !== 'ANY' && mode !== 'VALIDATED') return undefined;
  const allowed = config?.['allowedFunctionNames'];
  if (Array.isArray(allowed) && allowed.length === 1 && typeof allowed[0] === 'string') return { type: 'function', function: { name: allowed[0] } };
  return 'required';
}

import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { MessageRole, MessageView } from '../../core/turn.js';
import { isJsonObject } from '../../core/json.js';

/** One tool-routing case (EVALS.md): `messages` in OpenAI chat format, or the seed corpus's `prompt`. */
const toolCaseSchema = z
  .object({
    id: z.string(),
    registry: z.string().default('cli'),
    messages: z.array(z.object({ role: z.string(), content: z.unknown() }).loose()).optional(),
    prompt: z.string().optional(),
    required_toolsets: z.array(z.string()).default([]),
    required_any: z.array(z.array(z.string()).min(1)).default([]),
    acceptable_extra_toolsets: z.array(z.string()).default([]),
    critical: z.boolean().default(false),
  })
  .loose()
  .refine((value) => value.messages !== undefined || value.prompt !== undefined, 'a case needs `messages` or `prompt`');

export type ToolCase = z.infer<typeof toolCaseSchema>;

export function parseToolCases(text: string, source: string): ToolCase[] {
  const cases: ToolCase[] = [];
  text.split('\n').forEach((line, lineIndex) => {
    if (!line.trim()) return;
    const result = toolCaseSchema.safeParse(JSON.parse(line));
    if (!result.success) throw new Error(`${source}:${lineIndex + 1}: ${result.error.issues.map((issue) => issue.message).join('; ')}`);
    cases.push(result.data);
  });
  return cases;
}

export function readToolCases(path: string): ToolCase[] {
  return parseToolCases(readFileSync(path, 'utf8'), path);
}

/** EVALS.md's case recall: every required toolset kept, and one toolset of each `required_any` group. */
export function caseRecalled(toolCase: ToolCase, kept: ReadonlySet<string>): boolean {
  return toolCase.required_toolsets.every((name) => kept.has(name)) && toolCase.required_any.every((group) => group.some((name) => kept.has(name)));
}

const roles = new Set<MessageRole>(['system', 'user', 'assistant', 'tool']);

/** The format-independent message view the router reads, from OpenAI chat messages (text and image parts). */
export function caseMessages(toolCase: ToolCase): MessageView[] {
  if (!toolCase.messages) return [{ role: 'user', text: toolCase.prompt ?? '', toolCallNames: [], hasImage: false }];
  return toolCase.messages.map((message) => {
    const role: MessageRole = roles.has(message.role as MessageRole) ? (message.role as MessageRole) : 'user';
    const texts: string[] = [];
    let hasImage = false;
    if (typeof message.content === 'string') texts.push(message.content);
    else if (Array.isArray(message.content)) {
      for (const part of message.content) {
        if (!isJsonObject(part)) continue;
        if (typeof part['text'] === 'string') texts.push(part['text']);
        if (part['type'] === 'image_url' || part['type'] === 'image') hasImage = true;
      }
    }
    const toolCalls = (message as Record<string, unknown>)['tool_calls'];
    const toolCallNames = Array.isArray(toolCalls)
      ? toolCalls.flatMap((call) => (isJsonObject(call) && isJsonObject(call['function']) && typeof call['function']['name'] === 'string' ? [call['function']['name']] : []))
      : [];
    return { role, text: texts.join('\n'), toolCallNames, hasImage };
  });
}

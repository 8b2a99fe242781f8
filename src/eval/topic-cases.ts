import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** A topic case (EVALS.md): the label is for the last user message, in the context of the earlier ones. */
const topicCaseSchema = z
  .object({
    id: z.string(),
    messages: z.array(z.object({ role: z.string(), content: z.unknown() })).optional(),
    prompt: z.string().optional(),
    topic: z.string(),
    action: z.string().optional(),
    acceptable_topics: z.array(z.string()).optional(),
  })
  .refine((value) => value.messages || value.prompt, { message: 'a case needs messages or prompt' });
export type TopicCase = z.infer<typeof topicCaseSchema>;

/** A CLINC150 row for user-defined routes; `domain: null` rows are out of scope. */
const routeRowSchema = z.object({ split: z.string(), text: z.string(), domain: z.string().nullable(), intent: z.string().optional() });
export type RouteRow = z.infer<typeof routeRowSchema>;

function readJsonLines<T>(path: string, schema: z.ZodType<T>, what: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line, index) => {
      const parsed = schema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`${path}:${index + 1}: not a ${what} (${parsed.error.issues[0]?.message ?? 'invalid'})`);
      return parsed.data;
    });
}

export function readTopicCases(path: string): TopicCase[] {
  return readJsonLines(path, topicCaseSchema, 'topic case');
}

export function readRouteRows(path: string): RouteRow[] {
  return readJsonLines(path, routeRowSchema, 'CLINC route row');
}

export function caseMessages(topicCase: TopicCase): { role: string; content: unknown }[] {
  return topicCase.messages ?? [{ role: 'user', content: topicCase.prompt ?? '' }];
}

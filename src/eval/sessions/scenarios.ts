import { readFileSync } from 'node:fs';
import { z } from 'zod';

const turnSchema = z.object({
  user: z.string().min(1),
  /** Toolsets the turn needs: the scripted model calls one tool of each. */
  needs: z.array(z.string().min(1)).default([]),
  /** The model calls a needed tool by name even when the surface hides it (the client still has it). */
  call_pruned: z.boolean().default(false),
});

export const scenarioSchema = z.object({
  id: z.string().min(1),
  registry: z.string().min(1).default('cli'),
  turns: z.array(turnSchema).min(1),
});

export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioTurn = Scenario['turns'][number];

export function readScenarios(path: string): Scenario[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line !== '')
    .map(({ line, number }) => {
      const parsed = scenarioSchema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`${path}:${number}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
      return parsed.data;
    });
}

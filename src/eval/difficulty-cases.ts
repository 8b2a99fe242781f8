import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** One RouteLLM row: binary correctness (GSM8K, MMLU) or 1–10 judge scores (MT-Bench). */
export const difficultyCaseSchema = z.object({
  benchmark: z.string(),
  /** MMLU subject or MT-Bench category: the subject prior's training label, never an input. */
  domain: z.string().nullish(),
  prompt: z.string(),
  weak_correct: z.boolean().optional(),
  strong_correct: z.boolean().optional(),
  weak_score: z.number().optional(),
  strong_score: z.number().optional(),
});
export type DifficultyCase = z.infer<typeof difficultyCaseSchema>;

export function readDifficultyCases(path: string): DifficultyCase[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line, index) => {
      const parsed = difficultyCaseSchema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`${path}:${index + 1}: not a difficulty case (${parsed.error.issues[0]?.message ?? 'invalid'})`);
      return parsed.data;
    });
}

/** Quality in [0, 1]: correctness, or a judge score ÷ 10 (MT-Bench). Undefined when the row carries neither. */
/** The training label of the subject prior: benchmark and subject (`mmlu:professional_law`). */
export function caseSubject(row: DifficultyCase): string {
  return `${row.benchmark}:${row.domain ?? ''}`;
}

export function caseQualities(row: DifficultyCase): { weak: number; strong: number } | undefined {
  if (row.weak_correct !== undefined && row.strong_correct !== undefined) return { weak: Number(row.weak_correct), strong: Number(row.strong_correct) };
  if (row.weak_score !== undefined && row.strong_score !== undefined) return { weak: row.weak_score / 10, strong: row.strong_score / 10 };
  return undefined;
}

import { z } from 'zod';

/**
 * The `difficulty:` config section. `threshold` is the cost/quality knob of the cheapest-capable policy: a
 * prompt whose difficulty probability reaches it is sent to the strong model. The default, 0.56, is about the
 * held-out score at which the RouteLLM dev split reached 95% of always-strong quality while sending about 45%
 * of prompts to the strong model (data/difficulty/cv-report.json); lower it for quality, raise it for cost.
 */
export const difficultyConfigSchema = z
  .object({
    /** Route to the strong model when `probability` ≥ threshold (0 = always strong, 1 = never). */
    threshold: z.number().min(0).max(1).default(0.56),
  })
  .strict();

export type DifficultyConfig = z.output<typeof difficultyConfigSchema>;

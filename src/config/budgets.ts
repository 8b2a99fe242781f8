import { z } from 'zod';

/** A limit in dollars, in tokens (input + output), or both; whichever is reached first counts. */
const amountsSchema = z
  .object({
    usd: z.number().positive().optional(),
    tokens: z.number().int().positive().optional(),
  })
  .strict()
  .refine((amounts) => amounts.usd !== undefined || amounts.tokens !== undefined, 'give `usd`, `tokens` or both');

/** The windows one scope may limit: each session on its own, the UTC day, the UTC month. */
const windowsSchema = z
  .object({
    session: amountsSchema.optional(),
    day: amountsSchema.optional(),
    month: amountsSchema.optional(),
  })
  .strict();

/**
 * The `budgets:` section: spend and token guards for one person's gateway, with or without application keys.
 * `gateway` counts every request; `session` (shorthand for `gateway.session`) each session on its own; `models`,
 * `providers` and `keys` (application key id or name) count the requests they served or sent.
 */
export const budgetsConfigSchema = z
  .object({
    /** Fraction of a limit at which a warning starts (log line, `/metrics`, dashboard, response header). */
    soft_at: z.number().gt(0).max(1).default(0.8),
    /** Output tokens assumed for a request without `max_tokens` when its cost is reserved before the call. */
    estimate_output_tokens: z.number().int().positive().default(1_000),
    gateway: windowsSchema.default({}),
    session: amountsSchema.optional(),
    models: z.record(z.string().min(1), windowsSchema).default({}),
    providers: z.record(z.string().min(1), windowsSchema).default({}),
    keys: z.record(z.string().min(1), windowsSchema).default({}),
  })
  .strict();

export type BudgetsConfig = z.output<typeof budgetsConfigSchema>;
export type BudgetAmounts = z.output<typeof amountsSchema>;

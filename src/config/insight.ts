import { z } from 'zod';

/**
 * The `insight:` section. Every field has a default, so `insight: {}` (or no section) is valid.
 *
 * `baseline_model` is what model-routing savings are measured against: `requested` (the model the client asked
 * for; the alias `hermes-router` then means `default_model`) or one fixed model id every request is compared to.
 */
export const insightConfigSchema = z
  .object({
    baseline_model: z.string().min(1).default('requested'),
    /** Context nudge: off unless enabled here (globally) or for listed client key ids. */
    nudge: z
      .object({
        enabled: z.boolean().default(false),
        client_keys: z.array(z.string().min(1)).default([]),
        /** Fill fractions (prompt tokens over the served model's window) that trigger the note, then its escalation. */
        first_at: z.number().gt(0).lt(1).default(0.7),
        escalate_at: z.number().gt(0).lt(1).default(0.85),
      })
      .strict()
      .prefault({}),
    /** Hermes Agent's home (state.db, config.yaml); `~/.hermes` or `$HERMES_HOME` when absent. */
    hermes_home: z.string().min(1).optional(),
    /** How often the dashboard page refreshes its data, in ms. */
    dashboard_refresh_ms: z.number().int().min(1_000).max(600_000).default(10_000),
  })
  .strict();

export type InsightConfigInput = z.input<typeof insightConfigSchema>;
export type InsightConfig = z.output<typeof insightConfigSchema>;

export const defaultInsightConfig: InsightConfig = insightConfigSchema.parse({});

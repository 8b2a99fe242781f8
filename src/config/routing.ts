import { z } from 'zod';

/** Ordering policies for requests the router chooses a model for; applied in the listed order. */
export const routingPolicyNames = ['topic', 'cheapest-capable', 'workload-hint', 'affinity'] as const;
export type RoutingPolicyName = (typeof routingPolicyNames)[number];

const difficultySchema = z
  .object({
    /** `heuristic`: transparent keyword and shape rules; `learned`: the trained estimator when installed. */
    estimator: z.enum(['heuristic', 'learned']).default('heuristic'),
    /** Output tokens assumed when pricing a request that sets no max_tokens. */
    expected_output_tokens: z.number().int().positive().default(500),
  })
  .strict();

const affinitySchema = z
  .object({
    /** How long a session remembers the model that last answered it. */
    ttl_ms: z.number().int().positive().default(2 * 60 * 60 * 1000),
    /** Accepted for older configs; affinity now lives in the session record, bounded by `sessions.max_sessions`. */
    max_sessions: z.number().int().positive().default(50_000),
  })
  .strict();

const signatureSchema = z
  .object({
    /** Append `- model [topic]` to every answer's text. */
    enabled: z.boolean().default(false),
  })
  .strict();

/** The `routing:` section of the config. An empty section is valid. */
export const routingConfigSchema = z
  .object({
    /**
     * Policies that order the candidates when the client lets the router choose (model `hermes-router` or one
     * of `auto_models`), applied in this order, each reordering the previous result: a later policy takes
     * precedence (a topic specialist beats the cheapest order, a client hint beats the classifier, and
     * `affinity` last keeps a session on its model unless the turn needs a stronger one).
     */
    policies: z.array(z.enum(routingPolicyNames)).default(['cheapest-capable', 'topic', 'workload-hint', 'affinity']),
    /** More model names that mean "let the router choose". */
    auto_models: z.array(z.string().min(1)).default(['auto']),
    /** `honor`: a client naming a concrete model gets it with its fallbacks; `route`: the policies choose anyway. */
    explicit: z.enum(['honor', 'route']).default('honor'),
    /** Append the global default model (and its fallbacks) to every explicit chain, as the last resort. */
    global_default_fallback: z.boolean().default(true),
    difficulty: difficultySchema.default(difficultySchema.parse({})),
    affinity: affinitySchema.default(affinitySchema.parse({})),
    /** `models probe` results older than this are ignored. */
    probe_ttl_hours: z.number().positive().default(24 * 7),
    signature: signatureSchema.default(signatureSchema.parse({})),
  })
  .strict();

export type RoutingConfig = z.output<typeof routingConfigSchema>;

export function defaultRoutingConfig(): RoutingConfig {
  return routingConfigSchema.parse({});
}

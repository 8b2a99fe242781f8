import { z } from 'zod';
import { topicModes } from '../classify/topic/classifier.js';
import { topics } from '../classify/topic/taxonomy.js';

/** A model a topic routes to: same shape for the primary and each fallback. */
const modelTargetSchema = z
  .object({
    model: z.string().min(1),
    /** Optional provider id when the model name alone is ambiguous. */
    provider: z.string().min(1).optional(),
  })
  .strict();

const topicTargetSchema = modelTargetSchema
  .extend({
    /** Tried in order when the primary fails (429, 5xx, timeout), before the global default. */
    fallbacks: z.array(modelTargetSchema).default([]),
    /**
     * Persona for this topic, appended to the system prompt of requests sent to its model and fallbacks (not to
     * the global default); overrides the `# <topic>` section of `agents_file`.
     */
    persona: z.string().min(1).optional(),
  })
  .strict();

/** A user-defined route (semantic-router style): matched from example utterances, out-of-scope gets none. */
const userRouteSchema = topicTargetSchema
  .extend({
    name: z.string().min(1),
    description: z.string().optional(),
    utterances: z.array(z.string().min(1)).min(1),
  })
  .strict();

const llmClassifierSchema = z
  .object({
    /** Ask an LLM only when the local classifier finds no confident specialist (hybrid mode). Off by default. */
    enabled: z.boolean().default(false),
    /** Any OpenAI-compatible base URL, e.g. https://openrouter.ai/api/v1 */
    base_url: z.string().url().optional(),
    model: z.string().min(1).optional(),
    /** Name of the environment variable holding the API key (never the key itself). */
    api_key_env: z.string().min(1).optional(),
    timeout_ms: z.number().int().positive().default(1500),
    /** The LLM's own confidence must reach this for its answer to be used. */
    min_confidence: z.number().min(0).max(1).default(0.7),
  })
  .strict()
  .refine((value) => !value.enabled || (value.base_url && value.model), { message: 'llm.enabled needs base_url and model' });

const topicKeySchema = z.enum(topics.filter((topic) => topic !== 'none') as [string, ...string[]]);

/**
 * The `topic_routing:` config section. Empty is valid (and routes nothing until topics are mapped).
 * `min_confidence` defaults to the threshold trained with the shipped weights (data/topics/weights.bin).
 */
export const topicRoutingConfigSchema = z
  .object({
    enabled: z.boolean().default(true),
    mode: z.enum(topicModes).default('learned'),
    /** Calibrated probability a specialist needs; unset = the trained value. */
    min_confidence: z.number().min(0).max(1).optional(),
    /** Consecutive confident turns a new specialist needs to replace the current one in a session. */
    inertia: z.number().int().min(1).max(10).default(2),
    /** A single turn at least this confident switches specialists at once (1 = never: always build up). */
    switch_confidence: z.number().min(0).max(1).default(0.85),
    /** How many recent user turns the classifier reads (recency-weighted). */
    context_turns: z.number().int().min(1).max(10).default(3),
    /** An AGENTS.md-style file whose `# <topic>` sections are personas. */
    agents_file: z.string().min(1).optional(),
    /**
     * The same switch as `routing.signature` (either turns it on), kept where ARC configs put it. Off by default:
     * a signature changes the answer's text, which an agent may store or act on.
     */
    signature: z.object({ enabled: z.boolean().default(false) }).strict().default({ enabled: false }),
    /** Topic → target model, fallbacks and persona. Topics left out stay on the default model. */
    topics: z.partialRecord(topicKeySchema, topicTargetSchema).default({}),
    llm: llmClassifierSchema.default(llmClassifierSchema.parse({})),
    /** User-defined routes, checked before the ARC topics; a confident route wins. */
    routes: z.array(userRouteSchema).default([]),
    /**
     * A route's probability must beat "no route" by at least this. Left out, it is calibrated at start-up on
     * the examples: routes left out of calibration models (with negatives and 3+ routes), else held-out
     * examples (src/classify/routes/rejection-calibration.ts).
     */
    route_threshold: z.number().min(0).max(1).optional(),
    /** Word cosine with the route's nearest example must reach this (default 0.15 without `route_negatives`, 0 with). */
    route_min_similarity: z.number().min(0).max(1).optional(),
    /** Requests that must match no route (they train the "no route" class). */
    route_negatives: z.array(z.string().min(1)).default([]),
  })
  .strict();

export type TopicRoutingConfig = z.output<typeof topicRoutingConfigSchema>;
export type TopicTarget = z.output<typeof topicTargetSchema>;
export type UserRouteConfig = z.output<typeof userRouteSchema>;

export function defaultTopicRoutingConfig(): TopicRoutingConfig {
  return topicRoutingConfigSchema.parse({});
}

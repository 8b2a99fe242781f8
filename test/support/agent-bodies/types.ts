/**
 * One request shape an agent CLI sends, synthesized: the same paths, headers, fields and block types as the
 * captured request (see README.md), with our own short texts instead of the agent's prompts.
 */
export interface AgentBodyShape {
  agent: string;
  /** What the shape is (first turn, tool turn…). */
  name: string;
  /** Path and query as the agent sends them, e.g. `/v1/messages?beta=true`; `{model}` stands for the model. */
  path: string;
  headers: Record<string, string>;
  /** The body for a given model name. */
  body(model: string): Record<string, unknown>;
}

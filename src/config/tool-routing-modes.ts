/**
 * Tool routing's modes: `on` narrows, `shadow` decides and records but sends everything, `off` passes
 * through. Down here because both the config section (`tools/config.ts`) and the stored policy document
 * (`store/policy/`) name them.
 */
export const toolRoutingModes = ['on', 'shadow', 'off'] as const;
export type ToolRoutingMode = (typeof toolRoutingModes)[number];

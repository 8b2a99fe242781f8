/** The tool-routing library's public surface: what the gateway, the CLI and the evals call. */
export { toolRoutingConfigSchema, defaultToolRoutingConfig, thresholdFor, toolRoutingModes } from './config.js';
export type { ToolRoutingConfig, ToolRoutingMode, ToolsetOverride } from './config.js';
export { decideFirstTurnSurface, decideResumedSurface } from './decide-surface.js';
export { decideFirstTurnSurfaceWithLlm, llmClassifierSettings } from './decide-with-llm.js';
export type { SurfaceDecision, SurfaceInput, SurfaceReason } from './decision.js';
export { isFirstTurn, firstUserText, calledToolNames } from './first-turn.js';
export { toolRoutingContext } from './routing-context.js';
export type { ToolRoutingContext } from './routing-context.js';
export { buildSurface, expandSurface, restoreSurface, toolsetOfTool, alwaysLoadedToolsets } from './surface.js';
export type { ToolSurface } from './surface.js';
export { parseRequestToolsetCall, requestToolsetResultText } from './recovery.js';
export type { RequestToolsetArguments } from './recovery.js';
export { buildCapabilityCatalog, requestToolsetName } from './catalog.js';
export { buildRequestToolsetTool } from './request-toolset.js';
export { buildToolsetRegistry, matchesPattern } from './toolsets/registry.js';
export type { ToolsetEntry, ToolsetRegistry } from './toolsets/registry.js';
export { readToolView, readToolViews } from './tool-shape.js';
export { countToolsTokens, countSerializedTokens } from './token-count.js';

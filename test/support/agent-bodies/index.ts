import { claudeCodeShapes } from './claude-code.js';
import { codexShapes } from './codex.js';
import { geminiCliShapes } from './gemini-cli.js';
import { opencodeShapes } from './opencode.js';
import { qwenCodeShapes } from './qwen-code.js';
import type { AgentBodyShape } from './types.js';

export type { AgentBodyShape } from './types.js';

/** Every agent request shape the gateway must accept (README.md says where they come from). */
export const agentBodyShapes: AgentBodyShape[] = [...claudeCodeShapes, ...codexShapes, ...opencodeShapes, ...qwenCodeShapes, ...geminiCliShapes];

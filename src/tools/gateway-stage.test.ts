import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolRoutingConfigSchema } from '../config/tool-routing.js';
import type { JsonObject } from '../core/json.js';
import { decodeOpenAiChatRequest } from '../wire/openai-chat/decode.js';
import { hermesRequestsDirectory, readJsonObject } from '../wire/test-support/recordings.js';
import { routeTools } from './gateway-stage.js';

const context = { requestId: 'request-1', receivedAt: 1_700_000_000_000, hints: {} };

/** Hermes's first turn asking for work that needs its terminal, with one description no other test sends. */
function firstTurnBody(): JsonObject {
  const body = readJsonObject(join(hermesRequestsDirectory, 'turn-1.json'));
  const messages = body.messages as { role: string; content: unknown }[];
  const user = messages.findLast((message) => message.role === 'user');
  if (user) user.content = 'run the test suite in this repository and fix whatever fails';
  // A description of its own, so the process-wide caches of schema counts cannot answer at once.
  const tools = body.tools as { function: { description: string } }[];
  if (tools[0]) tools[0].function.description += ` (gateway-stage test ${process.pid}-${Date.now()})`;
  return body;
}

describe('routeTools schema token counts', () => {
  it('counts from the decision on, beside the upstream call, so the wait after the answer finds the count done', async () => {
    const turn = decodeOpenAiChatRequest(firstTurnBody(), context);
    const result = await routeTools(turn, { updatedAt: 0 }, toolRoutingConfigSchema.parse({}), 'on');
    expect(result.decision.outcome).toBe('narrowed');
    // Nothing asks for the count here (the pipeline would be waiting for the provider); it must arrive anyway.
    const deadline = Date.now() + 30_000;
    while (result.decision.fullSchemaTokens === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(result.decision.fullSchemaTokens).toBeGreaterThan(1_000);
    expect(result.decision.sentSchemaTokens).toBeGreaterThan(0);
    expect(result.decision.sentSchemaTokens).toBeLessThan(result.decision.fullSchemaTokens ?? 0);
    // The pipeline's wait is then already settled, and a second call hands out nothing.
    await result.countSchemaTokens?.();
    expect(result.countSchemaTokens?.()).toBeUndefined();
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AgentBodyShape } from '../support/agent-bodies/index.js';
import { claudeCodeShapes } from '../support/agent-bodies/claude-code.js';
import { codexShapes } from '../support/agent-bodies/codex.js';
import { opencodeShapes } from '../support/agent-bodies/opencode.js';
import { qwenCodeShapes } from '../support/agent-bodies/qwen-code.js';
import { lastUpstreamRequest, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());
beforeEach(() => harness.upstream.reset());

function shape(shapes: AgentBodyShape[], name: string): AgentBodyShape {
  const found = shapes.find((candidate) => candidate.name.startsWith(name));
  if (!found) throw new Error(`no shape ${name}`);
  return found;
}

/** Sends a shape through the gateway and returns the tool routing decision and the tool names sent upstream. */
async function route(agentShape: AgentBodyShape, model = 'gpt-test') {
  const before = harness.observer.records.length;
  const response = await fetch(`${harness.gateway.url}${agentShape.path.replace('{model}', model)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...agentShape.headers },
    body: JSON.stringify(agentShape.body(model)),
  });
  expect(response.status).toBe(200);
  await response.text();
  const record = (await harness.observer.waitFor(before + 1)).at(-1);
  const tools = ((lastUpstreamRequest(harness).json as { tools?: { name?: string; function?: { name: string } }[] }).tools ?? []).map((tool) => tool.function?.name ?? tool.name ?? '');
  return { decision: record?.decision.tools, tools };
}

describe('tool routing for agents other than Hermes', () => {
  it('leaves Claude Code, which defers its own tools (ToolSearch, defer_loading), alone', async () => {
    const { decision, tools } = await route(shape(claudeCodeShapes, 'first turn'), 'claude-test');
    expect(decision).toMatchObject({ outcome: 'full', reason: 'agent_defers_tools' });
    expect(tools).toContain('ToolSearch');
    expect(tools).toContain('DeferredToolPlaceholder');
    expect(tools).toHaveLength(5);
  });

  it('leaves Qwen Code, which has tool_search, alone (its reminder blocks no longer make the message too long)', async () => {
    const { decision, tools } = await route(shape(qwenCodeShapes, 'first turn'));
    expect(decision?.reason).toBe('agent_defers_tools');
    expect(tools).toContain('tool_search');
  });

  it("narrows opencode's tools by the user's request, keeping the shell", async () => {
    const { decision, tools } = await route(shape(opencodeShapes, 'first turn with tools'));
    expect(decision?.reason).not.toBe('no_known_toolsets');
    expect(decision?.outcome).toBe('narrowed');
    expect(tools).toContain('bash');
    expect(tools).toContain('request_toolset');
    expect(tools).not.toContain('todowrite');
  });

  it("classifies Codex's request, not its environment context, and keeps exec_command", async () => {
    const { decision, tools } = await route(shape(codexShapes, 'first turn'));
    expect(decision?.reason).not.toBe('no_known_toolsets');
    expect(decision?.outcome).toBe('narrowed');
    expect(tools).toContain('exec_command');
  });
});

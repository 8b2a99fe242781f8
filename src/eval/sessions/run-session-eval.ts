import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { parseConfig } from '../../config/load.js';
import { isJsonObject } from '../../core/json.js';
import type { JsonObject } from '../../core/json.js';
import { startGateway } from '../../server/start-gateway.js';
import type { ToolRoutingMode } from '../../tools/config.js';
import { countSerializedTokens } from '../../tools/token-count.js';
import type { Scenario } from './scenarios.js';
import { ScriptedModel } from './scripted-model.js';
import type { UpstreamCall } from './scripted-model.js';

export interface SessionEvalReport {
  scenarios: number;
  task_success: number;
  unrecovered: number;
  total_reduction: number;
  cache_stable: number;
  turns: number;
  upstream_calls: number;
  recoveries: number;
  routed_tools_tokens: number;
  full_tools_tokens: number;
  failures: string[];
}

interface ModeRun {
  calls: UpstreamCall[];
  /** Per scenario: the upstream calls it made, in order. */
  callsByScenario: UpstreamCall[][];
  unmet: string[];
  turns: number;
}

interface RegistryMaps {
  tools: unknown[];
  toolsetOf: Map<string, string>;
  toolFor: Map<string, string>;
}

function loadRegistry(directory: string, registry: string): RegistryMaps {
  const raw = JSON.parse(readFileSync(join(directory, `tools.${registry}.json`), 'utf8')) as unknown[];
  const toolsetOf = new Map<string, string>();
  const toolFor = new Map<string, string>();
  const tools = raw.map((entry) => {
    if (!isJsonObject(entry)) return entry;
    const { toolset, ...tool } = entry;
    const name = isJsonObject(tool.function) && typeof tool.function.name === 'string' ? tool.function.name : undefined;
    if (name && typeof toolset === 'string') {
      toolsetOf.set(name, toolset);
      if (!toolFor.has(toolset)) toolFor.set(toolset, name);
    }
    return tool;
  });
  return { tools, toolsetOf, toolFor };
}

async function runMode(
  scenarios: readonly Scenario[],
  registries: string,
  mode: ToolRoutingMode,
  toolRouting: Record<string, unknown>,
  onProgress?: (done: number) => void,
): Promise<ModeRun> {
  const model = new ScriptedModel();
  const baseUrl = await model.start();
  const dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-eval-sessions-'));
  const config = parseConfig(
    {
      server: { port: 0 },
      providers: [{ id: 'scripted', kind: 'openai-compatible', base_url: baseUrl, models: ['scripted'] }],
      tool_routing: { ...toolRouting, mode },
      ledger: {},
    },
    'eval sessions',
  );
  const gateway = await startGateway({ config, dataDir, env: {}, logger: pino({ level: 'silent' }) });
  const run: ModeRun = { calls: model.calls, callsByScenario: [], unmet: [], turns: 0 };
  try {
    for (const [scenarioIndex, scenario] of scenarios.entries()) {
      const registry = loadRegistry(registries, scenario.registry);
      const messages: JsonObject[] = [{ role: 'system', content: `You are a helpful agent. (eval scenario ${scenario.id})` }];
      const firstCall = model.calls.length;
      for (const [turnIndex, turn] of scenario.turns.entries()) {
        run.turns += 1;
        model.script = { needs: turn.needs, callPruned: turn.call_pruned, toolsetOf: registry.toolsetOf, toolFor: registry.toolFor };
        messages.push({ role: 'user', content: turn.user });
        const called = new Set<string>();
        for (let step = 0; step < 8; step += 1) {
          const response = await fetch(`${gateway.url}/v1/chat/completions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ model: 'scripted', messages, tools: registry.tools }),
          });
          const body = (await response.json()) as JsonObject;
          const choice = Array.isArray(body.choices) && isJsonObject(body.choices[0]) ? body.choices[0] : undefined;
          const message = choice && isJsonObject(choice.message) ? choice.message : undefined;
          if (!message) throw new Error(`scenario ${scenario.id}: the gateway answered ${response.status}: ${JSON.stringify(body).slice(0, 200)}`);
          messages.push(message);
          const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isJsonObject) : [];
          if (toolCalls.length === 0) break;
          for (const call of toolCalls) {
            const name = isJsonObject(call.function) && typeof call.function.name === 'string' ? call.function.name : '';
            if (name === 'request_toolset') throw new Error(`scenario ${scenario.id}: the client saw request_toolset`);
            const toolset = registry.toolsetOf.get(name);
            if (toolset) called.add(toolset);
            messages.push({ role: 'tool', tool_call_id: call.id, name, content: '{"ok": true}' });
          }
        }
        for (const need of turn.needs) if (!called.has(need)) run.unmet.push(`${scenario.id}#${turnIndex + 1}:${need}`);
      }
      run.callsByScenario.push(model.calls.slice(firstCall));
      onProgress?.(scenarioIndex + 1);
    }
  } finally {
    await gateway.close();
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return run;
}

/** A call's tools are an expansion of the previous call's when they hold every tool it had, and more. */
function isExpansion(previous: UpstreamCall, current: UpstreamCall): boolean {
  return current.toolNames.length > previous.toolNames.length && previous.toolNames.every((name) => current.toolNames.includes(name));
}

/**
 * `eval sessions` (EVALS.md): every scenario through the real gateway in-process against a scripted model,
 * once with tool routing on and once off, then task success, unrecovered needs, total tools-token reduction
 * (recovery re-issues included) and prefix-cache stability.
 */
export async function runSessionEval(
  scenarios: readonly Scenario[],
  registries: string,
  onProgress?: (mode: string, done: number, total: number) => void,
  /** Extra `tool_routing:` settings, e.g. toolset definitions for a non-Hermes agent. */
  toolRouting: Record<string, unknown> = {},
): Promise<SessionEvalReport> {
  const routed = await runMode(scenarios, registries, 'on', toolRouting, (done) => onProgress?.('routing on', done, scenarios.length));
  const baseline = await runMode(scenarios, registries, 'off', toolRouting, (done) => onProgress?.('routing off', done, scenarios.length));
  const tokens = (calls: UpstreamCall[]) => calls.reduce((sum, call) => sum + countSerializedTokens(call.toolsJson), 0);
  const routedTokens = tokens(routed.calls);
  const fullTokens = tokens(baseline.calls);
  let stable = 0;
  let compared = 0;
  for (const calls of routed.callsByScenario) {
    for (let index = 1; index < calls.length; index += 1) {
      const previous = calls[index - 1] as UpstreamCall;
      const current = calls[index] as UpstreamCall;
      if (current.toolsJson === previous.toolsJson) {
        stable += 1;
        compared += 1;
      } else if (!isExpansion(previous, current)) compared += 1;
    }
  }
  const scenariosFailed = new Set(routed.unmet.map((entry) => entry.split('#')[0]));
  return {
    scenarios: scenarios.length,
    task_success: scenarios.length === 0 ? 1 : (scenarios.length - scenariosFailed.size) / scenarios.length,
    unrecovered: routed.unmet.length,
    total_reduction: fullTokens === 0 ? 0 : 1 - routedTokens / fullTokens,
    cache_stable: compared === 0 ? 1 : stable / compared,
    turns: routed.turns,
    upstream_calls: routed.calls.length,
    recoveries: routed.calls.length - baseline.calls.length,
    routed_tools_tokens: routedTokens,
    full_tools_tokens: fullTokens,
    failures: routed.unmet,
  };
}

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { parseConfig } from '../../pipeline/load-config.js';
import { isJsonObject } from '../../core/json.js';
import type { JsonObject } from '../../core/json.js';
import { Gateway } from '../../pipeline/gateway.js';
import { handleTurn } from '../../pipeline/handle-turn.js';
import { InProcessResponse } from '../../pipeline/in-process-response.js';
import type { ToolRoutingMode } from '../../tools/config.js';
import { countSerializedTokens } from '../../tools/token-count.js';
import type { CacheCostTotals } from './prefix-cache-cost.js';
import { promptTokens, scenarioCacheCosts, sumCacheCosts } from './prefix-cache-cost.js';
import type { Scenario } from './scenarios.js';
import { ScriptedModel } from './scripted-model.js';
import type { UpstreamCall } from './scripted-model.js';

/** The cache-aware figures of one routed run (EVALS.md), against the same scenarios with routing off. */
export interface CacheFigures {
  /** Hidden request_toolset re-issues. */
  reissues: number;
  reissues_per_turn: number;
  /** Upstream calls whose tools bytes differ from the previous call of the same scenario. */
  surface_changes: number;
  /** Input cost under the prefix-cache model, routed over routing off (sums over all calls). */
  cached_cost_ratio: number;
  /** Cached share of all prompt tokens of the routed run. */
  cached_share: number;
}

export interface SessionEvalReport extends CacheFigures {
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
  /** The same routed run with `tool_routing.anticipation` off: later turns wait for request_toolset. */
  without_anticipation: CacheFigures & { task_success: number; unrecovered: number };
  /** Cached share of all prompt tokens with routing off (the baseline's own cache behaviour). */
  baseline_cached_share: number;
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
  anticipation: boolean,
  onProgress?: (done: number) => void,
): Promise<ModeRun> {
  const model = new ScriptedModel();
  const baseUrl = await model.start();
  const dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-eval-sessions-'));
  const config = parseConfig(
    {
      server: { port: 0 },
      providers: [{ id: 'scripted', kind: 'openai-compatible', base_url: baseUrl, models: ['scripted'] }],
      tool_routing: { ...toolRouting, mode, anticipation: { ...anticipationSettings(toolRouting), enabled: anticipation } },
      ledger: {},
    },
    'eval sessions',
  );
  // The turns run through the request pipeline as a library: the same path as over HTTP, without a server.
  const gateway = new Gateway({ config, dataDir, env: {}, logger: pino({ level: 'silent' }) });
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
          const response = await askGateway(gateway, { model: 'scripted', messages, tools: registry.tools });
          const body = response.body;
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

let requestCounter = 0;

/** One chat-completions turn through `handleTurn`, as an OpenAI client would send it (body serialized once). */
async function askGateway(gateway: Gateway, request: JsonObject): Promise<{ status: number; body: JsonObject }> {
  const text = JSON.stringify(request);
  const response = new InProcessResponse();
  requestCounter += 1;
  await handleTurn(
    gateway,
    {
      format: 'openai-chat',
      context: { requestId: `eval-${requestCounter}`, receivedAt: Date.now(), monotonicStart: performance.now(), endpoint: '/v1/chat/completions' },
      readBody: async () => ({ body: JSON.parse(text) as JsonObject, length: text.length }),
      hints: {},
      principal: undefined,
      forwardHeaders: {},
    },
    response,
  );
  const answer = await response.answer;
  return { status: answer.status, body: JSON.parse(answer.text) as JsonObject };
}

function anticipationSettings(toolRouting: Record<string, unknown>): Record<string, unknown> {
  return isJsonObject(toolRouting.anticipation) ? toolRouting.anticipation : {};
}

function scenariosFailed(run: ModeRun): number {
  return new Set(run.unmet.map((entry) => entry.split('#')[0])).size;
}

function cacheTotals(run: ModeRun, memo: Map<string, Uint32Array>): CacheCostTotals {
  return sumCacheCosts(run.callsByScenario.flatMap((calls) => scenarioCacheCosts(calls.map((call) => promptTokens(call, memo)))));
}

function cacheFigures(run: ModeRun, baseline: CacheCostTotals, memo: Map<string, Uint32Array>): CacheFigures {
  const totals = cacheTotals(run, memo);
  const reissues = run.calls.filter((call) => call.requestedToolset).length;
  let surfaceChanges = 0;
  for (const calls of run.callsByScenario) {
    for (let index = 1; index < calls.length; index += 1) if (calls[index]?.toolsJson !== calls[index - 1]?.toolsJson) surfaceChanges += 1;
  }
  return {
    reissues,
    reissues_per_turn: run.turns === 0 ? 0 : reissues / run.turns,
    surface_changes: surfaceChanges,
    cached_cost_ratio: baseline.cost === 0 ? 1 : totals.cost / baseline.cost,
    cached_share: totals.promptTokens === 0 ? 0 : totals.cachedTokens / totals.promptTokens,
  };
}

/** A call's tools are an expansion of the previous call's when they hold every tool it had, and more. */
function isExpansion(previous: UpstreamCall, current: UpstreamCall): boolean {
  return current.toolNames.length > previous.toolNames.length && previous.toolNames.every((name) => current.toolNames.includes(name));
}

/**
 * `eval sessions` (EVALS.md): every scenario through the real gateway in-process against a scripted model,
 * with tool routing on, on without anticipation, and off; then task success, unrecovered needs, total
 * tools-token reduction (recovery re-issues included), prefix-cache stability, and the cache-aware figures:
 * re-issues, surface changes and the prefix-cache cost of each routed run over the run with routing off.
 */
export async function runSessionEval(
  scenarios: readonly Scenario[],
  registries: string,
  onProgress?: (mode: string, done: number, total: number) => void,
  /** Extra `tool_routing:` settings, e.g. toolset definitions for a non-Hermes agent. */
  toolRouting: Record<string, unknown> = {},
): Promise<SessionEvalReport> {
  const total = scenarios.length;
  const routed = await runMode(scenarios, registries, 'on', toolRouting, true, (done) => onProgress?.('routing on', done, total));
  const unanticipated = await runMode(scenarios, registries, 'on', toolRouting, false, (done) => onProgress?.('routing on, no anticipation', done, total));
  const baseline = await runMode(scenarios, registries, 'off', toolRouting, false, (done) => onProgress?.('routing off', done, total));
  const memo = new Map<string, Uint32Array>();
  const baselineCost = cacheTotals(baseline, memo);
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
  const success = (run: ModeRun) => (total === 0 ? 1 : (total - scenariosFailed(run)) / total);
  return {
    scenarios: total,
    task_success: success(routed),
    unrecovered: routed.unmet.length,
    total_reduction: fullTokens === 0 ? 0 : 1 - routedTokens / fullTokens,
    cache_stable: compared === 0 ? 1 : stable / compared,
    turns: routed.turns,
    upstream_calls: routed.calls.length,
    recoveries: routed.calls.length - baseline.calls.length,
    routed_tools_tokens: routedTokens,
    full_tools_tokens: fullTokens,
    failures: routed.unmet,
    ...cacheFigures(routed, baselineCost, memo),
    without_anticipation: { ...cacheFigures(unanticipated, baselineCost, memo), task_success: success(unanticipated), unrecovered: unanticipated.unmet.length },
    baseline_cached_share: baselineCost.promptTokens === 0 ? 0 : baselineCost.cachedTokens / baselineCost.promptTokens,
  };
}

/**
 * What per-tool ranking (BM25 over the tools no toolset map knows, `src/classify/toolsets/tool-ranker.ts`) costs
 * inside a first-turn decision, on the BFCL narrowing pools of `eval tools --retrieval`: each case's ranking alone
 * and its whole decision, alternated on the same cached routing context, at pools of 50 and 200 tools. The
 * decision is the baseline measured in the same run (the machines are shared and noisy, so only the ratio is
 * worth comparing across runs).
 *
 *   node --import tsx bench/per-tool-ranking.ts [--rounds 5] [--cases FILE --catalogue FILE]
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../src/classify/toolsets/model-file.js';
import { rankTools } from '../src/classify/toolsets/tool-ranker.js';
import { loadWordClusters } from '../src/classify/toolsets/word-clusters.js';
import { toJsonSchema } from '../src/eval/tools/bfcl.js';
import { readRetrieval, retrievalPool } from '../src/eval/tools/retrieval.js';
import { defaultToolRoutingConfig } from '../src/tools/config.js';
import { decideFirstTurnSurface, rankingPolicy } from '../src/tools/decide-surface.js';
import { toolRoutingContext } from '../src/tools/routing-context.js';
import { percentile } from './support.js';

const external = resolve(packageRoot(), '../shared/corpora/external');
const { values: flags } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    cases: { type: 'string', default: resolve(external, 'bfcl_narrowing.jsonl') },
    catalogue: { type: 'string', default: resolve(external, 'bfcl_catalogue.json') },
  },
});
if (!existsSync(flags.cases) || !existsSync(flags.catalogue)) {
  console.log(`skipped: the BFCL narrowing corpus is not at ${flags.cases} (pass --cases and --catalogue)`);
  process.exit(0);
}
const rounds = Number(flags.rounds);
const { cases, catalogue } = readRetrieval(flags.cases, flags.catalogue);
const keys = Object.keys(catalogue).sort();
const config = defaultToolRoutingConfig();
const clusters = loadWordClusters();
const policy = rankingPolicy(config);

for (const pool of [50, 200]) {
  const ranking: number[] = [];
  const decision: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    cases.forEach((toolCase, position) => {
      const tools = retrievalPool(toolCase, catalogue, pool, keys).map((key) => {
        const entry = catalogue[key]!;
        return { type: 'function', function: { name: entry.name, description: entry.description, parameters: toJsonSchema(entry.parameters) } };
      });
      const text = toolCase.messages.find((message) => message.role === 'user')?.content ?? '';
      const input = { tools, format: 'openai-chat' as const, messages: [{ role: 'user' as const, text, toolCallNames: [], hasImage: false }], config };
      // The gateway builds a tools array's routing context once and caches it: build it before timing.
      decideFirstTurnSurface(input);
      const context = toolRoutingContext(tools, 'openai-chat', config);
      const index = typeof context === 'string' ? undefined : context.perTool?.index;
      if (!index) return;
      // Alternate which goes first, so a burst of load or a collection hits both alike.
      const timeRanking = (): void => {
        const started = process.hrtime.bigint();
        rankTools(index, text, clusters, policy);
        ranking.push(Number(process.hrtime.bigint() - started) / 1e6);
      };
      const timeDecision = (): void => {
        const started = process.hrtime.bigint();
        decideFirstTurnSurface(input);
        decision.push(Number(process.hrtime.bigint() - started) / 1e6);
      };
      if ((position + round) % 2 === 0) {
        timeRanking();
        timeDecision();
      } else {
        timeDecision();
        timeRanking();
      }
    });
  }
  const rows = { ranking: [...ranking].sort((a, b) => a - b), decision: [...decision].sort((a, b) => a - b) };
  const line = (name: string, values: number[]): string => `${name.padEnd(10)} p50 ${percentile(values, 0.5).toFixed(3)} ms  p99 ${percentile(values, 0.99).toFixed(3)} ms`;
  console.log(`pool ${pool}: ${rows.ranking.length / rounds} cases × ${rounds} rounds`);
  console.log(`  ${line('ranking', rows.ranking)}`);
  console.log(`  ${line('decision', rows.decision)}`);
  console.log(`  ratio (ranking / decision): p50 ${(percentile(rows.ranking, 0.5) / percentile(rows.decision, 0.5)).toFixed(2)}×  p99 ${(percentile(rows.ranking, 0.99) / percentile(rows.decision, 0.99)).toFixed(2)}×`);
}

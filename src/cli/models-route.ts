import { ModelCatalog } from '../catalog/model-catalog.js';
import { readConfiguredProbeResults } from './configured-probe-results.js';
import { toGatewayError } from '../core/errors.js';
import type { ClientHints } from '../core/turn.js';
import { loadLearnedDifficulty } from '../models/difficulty/load-learned.js';
import { ModelRouter } from '../models/model-router.js';
import { ModelSwitches } from '../models/switches/model-switches.js';
import { FilePolicyStore, policyFilePath } from '../store/policy/file-policy-store.js';
import { decodeOpenAiChatRequest } from '../wire/openai-chat/decode.js';
import type { Command } from './command.js';
import { setupModelsCommand } from './models-setup.js';

const usage =
  'Usage: hermes-router models route "<prompt>" [--model NAME] [--tools] [--image] [--hint planning|coding|review|debug|vision]\n' +
  '                                    [--tool-loop] [--config FILE] [--data-dir DIR] [--json]\n' +
  'Shows which models would answer the prompt, in order, and why, without calling any provider.\n';

const pixel = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

export const modelsRouteCommand: Command = {
  name: 'models route',
  summary: 'Explain which models would answer a prompt, and why (no provider is called)',
  async run(args, context) {
    const setup = setupModelsCommand(args, context, usage, {
      model: { type: 'string' },
      tools: { type: 'boolean' },
      image: { type: 'boolean' },
      hint: { type: 'string' },
      'tool-loop': { type: 'boolean' },
    });
    if (typeof setup === 'number') return setup;
    const prompt = setup.positionals.join(' ');
    if (prompt.trim() === '') {
      context.stderr.write(`Give the prompt to route.\n${usage}`);
      return 2;
    }
    const { config, dataDir, values } = setup;
    const catalog = new ModelCatalog(config, { probes: await readConfiguredProbeResults(setup, context), probeTtlMs: config.routing.probe_ttl_hours * 3_600_000 });
    const store = new FilePolicyStore(policyFilePath(dataDir, context.env));
    const router = new ModelRouter({ catalog, config: config.routing, switches: new ModelSwitches(store, store.loadSync()) });
    if (config.routing.difficulty.estimator === 'learned') {
      const learned = await loadLearnedDifficulty();
      if (learned.estimator) router.setDifficultyEstimator(learned.estimator);
    }
    const content = values.image ? [{ type: 'text', text: prompt }, { type: 'image_url', image_url: { url: pixel } }] : prompt;
    const body = {
      model: typeof values.model === 'string' ? values.model : 'hermes-router',
      messages: [{ role: 'user', content }],
      ...(values.tools || values['tool-loop']
        ? { tools: [{ type: 'function', function: { name: 'example_tool', description: 'A tool', parameters: { type: 'object', properties: {} } } }] }
        : {}),
    };
    const hints: ClientHints = {};
    if (typeof values.hint === 'string') hints.workloadHint = values.hint.toLowerCase();
    if (values['tool-loop']) hints.toolLoop = true;
    try {
      const turn = decodeOpenAiChatRequest(body, { requestId: 'cli', receivedAt: Date.now(), hints });
      const { candidates, decision } = router.route(turn, undefined);
      if (setup.json) {
        context.stdout.write(`${JSON.stringify({ candidates: candidates.map((candidate) => ({ model: candidate.deployment.qualifiedName, route: candidate.source })), decision })}\n`);
        return 0;
      }
      context.stdout.write(`${decision.policy}${decision.difficulty === undefined ? '' : `, difficulty ${decision.difficulty}`}\n`);
      candidates.forEach((candidate, index) => context.stdout.write(`  ${index + 1}. ${candidate.deployment.qualifiedName}  (${candidate.source})\n`));
      for (const step of decision.steps ?? []) context.stdout.write(`  ${step.policy}: ${step.reason}\n`);
      for (const skipped of decision.skipped ?? []) context.stdout.write(`  skipped ${skipped.provider}/${skipped.model}: ${skipped.reason}\n`);
      return 0;
    } catch (caught) {
      const error = toGatewayError(caught);
      if (setup.json) context.stdout.write(`${JSON.stringify({ error: { status: error.status, message: error.message } })}\n`);
      else context.stderr.write(`${error.status}: ${error.message}\n`);
      return 1;
    }
  },
};

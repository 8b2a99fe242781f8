/**
 * Experiment: per-case out-of-fold outcomes (each writer's cases decided by the model trained without it), with
 * candidate "the model does not understand this message" signals, as JSON lines for offline analysis.
 *   npx tsx scripts/tool-routing/oof-dump.ts > /tmp/oof.jsonl
 */
import { packageRoot } from '../../src/classify/toolsets/model-file.js';
import { loadWordClusters } from '../../src/classify/toolsets/word-clusters.js';
import { frameTokens } from '../../src/classify/features/scopes.js';
import { toolsetFeatures } from '../../src/classify/toolsets/toolset-features.js';
import { defaultRegistriesDirectory, loadRegistryTools } from '../../src/eval/tools/registries.js';
import { runToolEval } from '../../src/eval/tools/run-tool-eval.js';
import { caseMessages } from '../../src/eval/tools/tool-cases.js';
import { heldOutFold } from './fold-models.js';
import { trainingFiles } from './training.js';

const root = packageRoot();
const files = trainingFiles(root);
const holdouts = files.filter((name) => /^train-writer-[\w-]+\.jsonl$/.test(name));
const clusters = loadWordClusters()!;
const directory = defaultRegistriesDirectory();
for (const holdout of holdouts) {
  const { cases, byId, model, neighbours } = heldOutFold(root, holdout);
  runToolEval(cases, {
    toolsFor: (registry) => loadRegistryTools(directory, registry),
    model,
    neighbours,
    timingRuns: 1,
    onCase: (outcome) => {
      const toolCase = byId.get(outcome.id)!;
      const user = caseMessages(toolCase).find((message) => message.role === 'user');
      const text = user?.text ?? '';
      const tokens = frameTokens(text);
      const words = tokens.filter((token) => !token.unspaced && /^\p{L}[\p{L}\p{M}'-]*$/u.test(token.text) && token.text.length >= 2);
      const known = words.filter((token) => clusters.clustersOf(token.text) !== undefined).length;
      const probabilities = model.predict(toolsetFeatures(text, user?.hasImage ?? false, model.featureBits, tokens, clusters));
      const probability = Object.fromEntries(model.labels.map((label, index) => [label, Math.round(probabilities[index]! * 1e4) / 1e4]));
      const letters = [...text].filter((character) => /\p{L}/u.test(character));
      const latin = letters.filter((character) => /\p{Script=Latin}/u.test(character)).length;
      const han = letters.filter((character) => /\p{Script=Han}/u.test(character)).length;
      const accented = letters.filter((character) => /[\u00c0-\u024f]/u.test(character)).length;
      process.stdout.write(
        `${JSON.stringify({
          holdout,
          id: outcome.id,
          registry: toolCase.registry,
          critical: toolCase.critical,
          recalled: outcome.recalled,
          reduction: outcome.reduction,
          outcome: outcome.decision.outcome,
          reason: outcome.decision.reason,
          kept: outcome.keptToolsets,
          required: toolCase.required_toolsets,
          any: toolCase.required_any,
          scores: outcome.decision.scores,
          confidence: outcome.decision.confidence,
          probability,
          words: words.length,
          knownWords: known,
          letters: letters.length,
          latin,
          han,
          accented,
          chars: text.length,
          text: text.slice(0, 300),
        })}\n`,
      );
    },
  });
}

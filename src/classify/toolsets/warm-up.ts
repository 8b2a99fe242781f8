import { MultilabelModel } from '../linear/multilabel-model.js';
import { classifyToolsets, needsToolLabel } from './toolset-classifier.js';

/**
 * Runs the first-message classifier twice on two short messages, with an empty model (no rows) and no word
 * clusters, so its code and its regular expressions are compiled before the first tool-routed request needs them,
 * and nothing large is loaded (the shipped model and cluster table still load at that request: idle memory stays
 * as it was). The rule lexicons are large regular expressions; V8 first compiles each to bytecode and interprets
 * it, and compiles it to machine code on its second use, which cost the first request ~50 ms of CPU on the build
 * machine (bench:memory). Two runs take both steps here. Decisions do not depend on it: it changes no state the
 * classifier reads. Returns whether both runs went through.
 */
export function warmToolsetClassifier(): boolean {
  const model = new MultilabelModel({
    format: 'hashed-ovr-logistic/1',
    featureBits: 10,
    labels: [needsToolLabel, 'terminal'],
    bias: [0, 0],
    rows: {},
    weightScale: 1,
    temperatures: [1, 1],
    trainedOn: { examples: 0, seed: 0, dataHash: 'warm-up' },
  });
  // One toolset the model does not know, so the description matcher runs too.
  const available = [{ name: 'warm_up', toolNames: ['warm_up_now'], descriptions: ['Compiles the classifier before the first request.'] }];
  try {
    for (const text of ['Please run the failing tests and fix the build, then search the web for the docs.', "Don't open https://example.com; what can you do?"]) {
      classifyToolsets(model, { text, hasImage: false, available, thresholdFor: () => 0.5, descriptionThreshold: 0.5, abstainWhenTask: 0.5, clusters: null });
    }
    return true;
  } catch {
    // Only time is at stake: the first request compiles what is left.
    return false;
  }
}

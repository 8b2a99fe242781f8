import { MultilabelModel } from '../../classify/linear/multilabel-model.js';
import { needsToolLabel } from '../../classify/toolsets/toolset-classifier.js';
import { hermesToolsets } from '../toolsets/hermes-map.js';

const labels = [...Object.keys(hermesToolsets.toolsets).sort(), needsToolLabel];
const logit = (probability: number): number => Math.log(probability / (1 - probability));

/**
 * A model over every Hermes toolset whose biases give each label `probabilities[label]` whatever the message says
 * (0.00002 for labels not named; "needs a tool" 0.99 unless named), plus optional hashed-feature rows (`rows`: feature
 * bucket → weight per label name) for the words a test wants to move a label.
 */
export function hermesStubModel(probabilities: Record<string, number>, rows: Record<number, Record<string, number>> = {}, featureBits = 12): MultilabelModel {
  const bias = labels.map((label) => logit(probabilities[label] ?? (label === needsToolLabel ? 0.99 : 0.00002)));
  const packedRows = Object.fromEntries(Object.entries(rows).map(([bucket, weights]) => [bucket, labels.map((label) => weights[label] ?? 0)]));
  return new MultilabelModel({ format: 'hashed-ovr-logistic/1', featureBits, labels, bias, rows: packedRows, weightScale: 1, temperatures: labels.map(() => 1), trainedOn: { examples: 0, seed: 0, dataHash: 'stub' } });
}

import type { MultilabelModelJson } from '../../src/classify/linear/multilabel-model.js';

/**
 * The mean of several one-vs-rest logistic models trained on the same data with different seeds (a "model soup").
 * A linear model's logit is linear in its weights, so the mean of the weights is exactly the mean of the members'
 * logits: an ensemble at the memory and speed of one model. Each seed draws its own generated variants and shuffle,
 * so the members disagree where the data is thin, and the mean is less sure there (src/tools/ARCHITECTURE.md,
 * "Sixteenth session"). A bucket missing from a member counts as zero weight for it.
 */
export function averageModels(models: readonly MultilabelModelJson[]): MultilabelModelJson {
  const first = models[0];
  if (!first) throw new Error('averageModels needs at least one model');
  for (const model of models) {
    if (model.featureBits !== first.featureBits || model.weightScale !== first.weightScale || model.labels.join('\n') !== first.labels.join('\n')) {
      throw new Error('averageModels: the models differ in labels, feature bits or weight scale');
    }
  }
  const count = models.length;
  const width = first.labels.length;
  const sums = new Map<number, Float64Array>();
  for (const model of models) {
    for (const [bucket, weights] of Object.entries(model.rows)) {
      const key = Number(bucket);
      let sum = sums.get(key);
      if (!sum) sums.set(key, (sum = new Float64Array(width)));
      for (let label = 0; label < width; label += 1) sum[label]! += weights[label] ?? 0;
    }
  }
  const rows: Record<string, number[]> = {};
  // Ascending integer keys: the packed form requires its rows in bucket order.
  for (const bucket of [...sums.keys()].sort((left, right) => left - right)) {
    const averaged = Array.from(sums.get(bucket)!, (sum) => Math.round(sum / count));
    if (averaged.some((weight) => weight !== 0)) rows[String(bucket)] = averaged;
  }
  const mean = (pick: (model: MultilabelModelJson) => readonly number[], digits: number): number[] =>
    first.labels.map((_, label) => Math.round((models.reduce((sum, model) => sum + pick(model)[label]!, 0) / count) * 10 ** digits) / 10 ** digits);
  return {
    ...first,
    bias: mean((model) => model.bias, 4),
    temperatures: mean((model) => model.temperatures, 3),
    rows,
    trainedOn: { ...first.trainedOn, seeds: models.flatMap((model) => model.trainedOn.seeds ?? [model.trainedOn.seed]) },
  };
}

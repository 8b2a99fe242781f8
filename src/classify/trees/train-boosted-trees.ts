import { seededRandom } from '../text/random.js';
import type { BoostedTreesJson, TreeNode } from './boosted-trees.js';
import { leafOf } from './boosted-trees.js';

export interface BoostingRow {
  values: ArrayLike<number>;
  target: number;
  weight?: number;
  /** A prediction the trees start from and correct (another model's score); 0 when absent. */
  offset?: number;
}

export interface BoostingOptions {
  trees: number;
  depth: number;
  learningRate: number;
  /** Least total weight on each side of a split: keeps leaves from fitting a handful of prompts. */
  minLeafWeight: number;
  /** Ridge penalty on leaf values (shrinks leaves with little weight toward 0). */
  l2: number;
  /** Candidate thresholds per feature: quantiles of the training values. */
  bins: number;
  /** Share of rows each tree is grown on (seeded), a cheap guard against over-fitting. */
  subsample: number;
  seed: number;
}

/**
 * Least-squares gradient boosting with histogram splits. Deterministic: thresholds come from sorted training
 * values and row sampling from a seeded generator, so the same rows always give the same trees.
 */
export function trainBoostedTrees(rows: readonly BoostingRow[], featureNames: readonly string[], options: BoostingOptions): BoostedTreesJson {
  const featureCount = featureNames.length;
  const weights = rows.map((row) => row.weight ?? 1);
  const totalWeight = weights.reduce((sum, weight) => sum + weight, 0);
  const base = totalWeight > 0 ? rows.reduce((sum, row, index) => sum + (row.target - (row.offset ?? 0)) * weights[index]!, 0) / totalWeight : 0;
  const thresholds = featureNames.map((_, feature) => candidateThresholds(rows.map((row) => row.values[feature] ?? 0), options.bins));
  // binOf[feature][row]: index of the first threshold ≥ the value (= thresholds.length when above all).
  const binOf = thresholds.map((cuts, feature) => Uint8Array.from(rows, (row) => binIndex(cuts, row.values[feature] ?? 0)));
  const predictions = Float64Array.from(rows, (row) => base + (row.offset ?? 0));
  const random = seededRandom(options.seed);
  const trees: TreeNode[] = [];
  for (let round = 0; round < options.trees; round += 1) {
    const residuals = Float64Array.from(rows, (row, index) => row.target - predictions[index]!);
    const sample = rows.flatMap((_, index) => (random() < options.subsample ? [index] : []));
    const tree = growNode(sample, 0);
    trees.push(tree);
    rows.forEach((row, index) => {
      predictions[index]! += leafOf(tree, row.values);
    });

    function growNode(members: number[], depth: number): TreeNode {
      let weightSum = 0;
      let residualSum = 0;
      for (const index of members) {
        weightSum += weights[index]!;
        residualSum += weights[index]! * residuals[index]!;
      }
      const leaf = round4((options.learningRate * residualSum) / (weightSum + options.l2));
      if (depth >= options.depth || weightSum < 2 * options.minLeafWeight) return leaf;
      const parentScore = (residualSum * residualSum) / (weightSum + options.l2);
      let best: { feature: number; bin: number; gain: number } | undefined;
      for (let feature = 0; feature < featureCount; feature += 1) {
        const cuts = thresholds[feature]!;
        if (!cuts.length) continue;
        const bins = binOf[feature]!;
        const binWeight = new Float64Array(cuts.length + 1);
        const binResidual = new Float64Array(cuts.length + 1);
        for (const index of members) {
          binWeight[bins[index]!]! += weights[index]!;
          binResidual[bins[index]!]! += weights[index]! * residuals[index]!;
        }
        let leftWeight = 0;
        let leftResidual = 0;
        for (let bin = 0; bin < cuts.length; bin += 1) {
          leftWeight += binWeight[bin]!;
          leftResidual += binResidual[bin]!;
          const rightWeight = weightSum - leftWeight;
          if (leftWeight < options.minLeafWeight || rightWeight < options.minLeafWeight) continue;
          const rightResidual = residualSum - leftResidual;
          const gain = (leftResidual * leftResidual) / (leftWeight + options.l2) + (rightResidual * rightResidual) / (rightWeight + options.l2) - parentScore;
          if (gain > 1e-12 && (!best || gain > best.gain)) best = { feature, bin, gain };
        }
      }
      if (!best) return leaf;
      const { feature, bin } = best;
      const bins = binOf[feature]!;
      const left = members.filter((index) => bins[index]! <= bin);
      const right = members.filter((index) => bins[index]! > bin);
      return { feature, threshold: thresholds[feature]![bin]!, left: growNode(left, depth + 1), right: growNode(right, depth + 1) };
    }
  }
  return { features: [...featureNames], base: round4(base), trees };
}

/** Up to `bins` distinct cut points at evenly spaced quantiles (a value equal to a cut goes left). */
function candidateThresholds(values: number[], bins: number): number[] {
  const sorted = [...values].sort((left, right) => left - right);
  const cuts = new Set<number>();
  for (let step = 1; step < bins; step += 1) {
    const value = sorted[Math.floor((step / bins) * (sorted.length - 1))];
    if (value !== undefined && value < sorted[sorted.length - 1]!) cuts.add(round4(value));
  }
  return [...cuts].sort((left, right) => left - right).slice(0, 255);
}

function binIndex(cuts: readonly number[], value: number): number {
  let low = 0;
  let high = cuts.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (value <= cuts[middle]!) high = middle;
    else low = middle + 1;
  }
  return low;
}

function round4(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}

/**
 * Gradient-boosted regression trees over named dense features, serialised as plain JSON. Small on purpose:
 * a few hundred shallow trees decide in microseconds, and unlike a linear model they can use a feature only
 * in the context of another (a long prompt matters in a law question, a count of quantities in a word problem).
 */
export interface BoostedTreesJson {
  /** Names of the inputs, in the order `predict` expects them. */
  features: string[];
  /** Starting prediction (the weighted mean target of the training rows). */
  base: number;
  /** Each tree's leaves already include the learning rate: the prediction is `base` plus one leaf per tree. */
  trees: TreeNode[];
}

/** A split sends `value ≤ threshold` left; a leaf is a bare number. */
export type TreeNode = number | { feature: number; threshold: number; left: TreeNode; right: TreeNode };

export class BoostedTrees {
  readonly features: readonly string[];

  constructor(private readonly json: BoostedTreesJson) {
    this.features = json.features;
  }

  /** `values` in `features` order; a missing value counts as 0. */
  predict(values: ArrayLike<number>): number {
    let total = this.json.base;
    for (const tree of this.json.trees) total += leafOf(tree, values);
    return total;
  }
}

export function leafOf(tree: TreeNode, values: ArrayLike<number>): number {
  let node = tree;
  while (typeof node !== 'number') node = (values[node.feature] ?? 0) <= node.threshold ? node.left : node.right;
  return node;
}

/** Named, weighted features: the input of every linear model here, and what explanations are made of. */
export type SparseVector = Map<string, number>;

export function addFeature(vector: SparseVector, name: string, value: number): void {
  vector.set(name, (vector.get(name) ?? 0) + value);
}

/** Adds `source` scaled by `scale` into `target`. */
export function addScaled(target: SparseVector, source: SparseVector, scale: number): void {
  for (const [name, value] of source) addFeature(target, name, value * scale);
}

/** Scales to unit Euclidean length so long prompts do not get more confident just by being long. */
export function normalizeL2(vector: SparseVector): SparseVector {
  let sum = 0;
  for (const value of vector.values()) sum += value * value;
  if (sum === 0) return vector;
  const scale = 1 / Math.sqrt(sum);
  for (const [name, value] of vector) vector.set(name, value * scale);
  return vector;
}

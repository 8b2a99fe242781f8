/** The vector scaled to length 1 (a zero vector stays zero), so similarity is a dot product. */
export function unitVector(vector: readonly number[]): number[] {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  return norm === 0 ? vector.map(() => 0) : vector.map((value) => value / norm);
}

/** Cosine similarity of two unit vectors; vectors of different lengths (another embedding model) are unrelated. */
export function unitSimilarity(left: ArrayLike<number>, right: ArrayLike<number>): number {
  if (left.length !== right.length || left.length === 0) return -1;
  let dot = 0;
  for (let index = 0; index < left.length; index++) dot += (left[index] as number) * (right[index] as number);
  return dot;
}

/** The position of `value` in the ascending `sorted`, or -1: a binary search (the model's buckets, the index's terms). */
export function indexInSorted(sorted: ArrayLike<number>, value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = sorted[middle]!;
    if (found === value) return middle;
    if (found < value) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

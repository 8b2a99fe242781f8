// One seeded generator for every training script (mulberry32), so runs are reproducible bit for bit.
export { seededRandom } from '../linear/seeded-random.js';

export function shuffleInPlace<T>(items: T[], random: () => number): T[] {
  for (let index = items.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    const held = items[index]!;
    items[index] = items[other]!;
    items[other] = held;
  }
  return items;
}

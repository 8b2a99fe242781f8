/** The experiment scripts' options: `--name value` pairs read from process.argv. */

/** The value after `name`, or undefined when the option is not given. */
export function option(name: string): string | undefined {
  return process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
}

/**
 * `--seed N` or `--seeds A,B,C`: the training seeds (several train a mean of models, average-models.ts), or undefined
 * when neither is given (the trainer's default seed).
 */
export function seedsOption(): number[] | undefined {
  const text = option('--seeds') ?? option('--seed');
  if (text === undefined) return undefined;
  const seeds = text.split(',').map(Number);
  if (seeds.some((seed) => !Number.isInteger(seed))) throw new Error(`--seed and --seeds take integers (joined by commas), not ${text}`);
  return seeds;
}

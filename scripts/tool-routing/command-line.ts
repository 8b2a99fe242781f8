/** The experiment scripts' options: `--name value` pairs read from process.argv, and the build scripts' `--check`. */
import { readFileSync, writeFileSync } from 'node:fs';

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

/**
 * A deterministic build's output: with `--check`, compares `bytes` with the file at `target` and sets the exit code
 * (1 when they differ, so CI can tell a shipped file is stale); otherwise writes them there. Returns whether it wrote.
 */
export function writeOrCheck(target: string, bytes: Uint8Array, what: { current: string; stale: string }): boolean {
  if (!process.argv.includes('--check')) {
    writeFileSync(target, bytes);
    return true;
  }
  const same = Buffer.compare(readFileSync(target), bytes) === 0;
  process.stdout.write(`${same ? what.current : what.stale}\n`);
  process.exitCode = same ? 0 : 1;
  return false;
}

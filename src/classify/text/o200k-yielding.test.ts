import { readFileSync } from 'node:fs';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { countTokensYielding } from './o200k.js';

// Its own file, so the tables are not loaded yet: the yielding load is part of what is tested.
const file = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

describe('o200k token counts that yield', () => {
  it('equal the synchronous count, and let other work run while the tables load and the text is counted', async () => {
    const text = file('test/fixtures/hermes/tools.cli.json');
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    // A slice of 0 ms yields after every 1,024 rank lines and every 256 pieces, however fast the machine.
    const counted = await countTokensYielding(text.repeat(3), 0);
    ticking = false;
    expect(counted).toBe(encode(text.repeat(3)).length);
    expect(turns).toBeGreaterThan(10);
    expect(await countTokensYielding('', 0)).toBe(0);
    await expect(countTokensYielding('before <|endoftext|> after')).rejects.toThrow(/Disallowed special token/);
  });
});

import { createRequire } from 'node:module';

type GenaiPrices = typeof import('@pydantic/genai-prices');

const require = createRequire(import.meta.url);
let loaded: GenaiPrices | undefined;

/**
 * The price catalogue (@pydantic/genai-prices), loaded on first use. It is half a megabyte of price data and
 * ~3 MB of heap once evaluated: a gateway whose providers are all self-hosted or of unknown billing
 * (`openai-compatible`, `vllm`, `ollama`, …) never looks a price up and so never loads it, and the CLI commands
 * that price nothing do not pay for it either. Loaded through `require` (the package's own CommonJS build, the
 * same data) because every lookup is synchronous; the bundle leaves the package outside (scripts/build).
 */
export function genaiPrices(): GenaiPrices {
  loaded ??= require('@pydantic/genai-prices') as GenaiPrices;
  return loaded;
}

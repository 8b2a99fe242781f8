import type { ModelMetadata } from './model-metadata.js';

/** Parameter count in billions from names like `llama-3.1-8b`, `qwen2.5-72b-instruct`, `mixtral-8x7b`. */
function parameterBillions(name: string): number | undefined {
  const mixture = /(\d+)x(\d+(?:\.\d+)?)b\b/.exec(name);
  if (mixture?.[1] && mixture[2]) return Number(mixture[1]) * Number(mixture[2]);
  const plain = /(?:^|[-_:/.])(\d+(?:\.\d+)?)b\b/.exec(name);
  return plain?.[1] ? Number(plain[1]) : undefined;
}

function tierFromName(name: string): number {
  const size = parameterBillions(name);
  if (size !== undefined) {
    if (size >= 300) return 2;
    if (size >= 60) return 3;
    if (size >= 20) return 4;
    return 5;
  }
  if (/(nano|lite|tiny|micro)/.test(name)) return 4;
  if (/(mini|small|flash|haiku|turbo|instant|fast)/.test(name)) return 3;
  if (/(opus|ultra|pro\b|-pro|large|max\b|-max)/.test(name)) return 2;
  return 3;
}

/**
 * Last-resort guesses from a model's name alone, for models nothing else describes. Capabilities are only
 * guessed where the name says so outright (`embed`, `-vl`, `vision`); everything else stays unknown so the
 * filters fail open rather than rule a model out on a hunch.
 */
export function metadataFromName(model: string): ModelMetadata {
  const name = model.toLowerCase();
  const metadata: ModelMetadata = { tier: tierFromName(name) };
  if (/embed/.test(name)) {
    metadata.embeddings = true;
    metadata.supportsTools = false;
    metadata.supportsVision = false;
    return metadata;
  }
  if (/(vision|-vl\b|-vl-|llava|pixtral|-omni)/.test(name)) metadata.supportsVision = true;
  if (/(reason|think|-r1\b|^o[134](-|$)|qwq)/.test(name)) metadata.supportsReasoning = true;
  return metadata;
}

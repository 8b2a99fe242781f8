import { clampLevel } from './difficulty-estimator.js';
import type { DifficultyEstimate, DifficultyEstimator } from './difficulty-estimator.js';

interface Signal {
  label: string;
  pattern: RegExp;
  shift: number;
}

/** Work that small models get wrong: building, designing, finding faults, proving. */
const hardSignals: readonly Signal[] = [
  { label: 'build/design verb', pattern: /\b(implement|design|architect|refactor|build|write (a|an|the) (function|class|module|service|program|script))\b/i, shift: -1 },
  { label: 'debugging', pattern: /\b(debug|stack ?trace|traceback|segfault|race condition|deadlock|memory leak|why does .* fail)\b/i, shift: -1 },
  { label: 'analysis/proof', pattern: /\b(prove|derive|analy[sz]e|optimi[sz]e|trade-?offs?|complexity|formal)\b/i, shift: -1 },
  { label: 'multi-step', pattern: /\b(step by step|step-by-step|multi-?step|plan (out|the)|first .* then .* finally)\b/i, shift: -1 },
];

/** Questions a small model answers as well as a large one. */
const easySignals: readonly Signal[] = [
  { label: 'short fact question', pattern: /^\s*(what|when|who|where|which) (year|is|was|are|were|did)\b/i, shift: 1 },
  { label: 'yes/no', pattern: /\b(yes or no|true or false)\b/i, shift: 1 },
  { label: 'lookup', pattern: /\b(capital of|define|definition of|translate|spell|synonym|how many .* in a)\b/i, shift: 1 },
  { label: 'small talk', pattern: /^\s*(hi|hello|hey|thanks|thank you|ok|okay)\b/i, shift: 1 },
];

const codeBlock = /```|^\s{4}\S|\b(function|def|class|const|import|return)\b.*[({;]/m;

/**
 * A transparent difficulty estimate from the last user message: start at 4 (most agent turns are routine), move
 * one level per kind of signal found, and say which moved it. No model call, microseconds per request.
 */
export const heuristicDifficulty: DifficultyEstimator = {
  name: 'heuristic',
  estimate(text: string): DifficultyEstimate {
    let level = 4;
    const reasons: string[] = [];
    let hard = 0;
    for (const signal of hardSignals) {
      if (!signal.pattern.test(text)) continue;
      hard += 1;
      if (hard > 2) break;
      level += signal.shift;
      reasons.push(signal.label);
    }
    if (codeBlock.test(text)) {
      level -= 1;
      reasons.push('code in the prompt');
    }
    const words = text.split(/\s+/).filter(Boolean).length;
    if (words > 1_500) {
      level -= 1;
      reasons.push(`long prompt (${words} words)`);
    }
    if (hard === 0) {
      for (const signal of easySignals) {
        if (!signal.pattern.test(text)) continue;
        level += signal.shift;
        reasons.push(signal.label);
        break;
      }
      if (words > 0 && words < 12 && !codeBlock.test(text)) {
        level += 1;
        reasons.push('very short');
      }
    }
    const clamped = clampLevel(level);
    return { level: clamped, reason: reasons.length > 0 ? reasons.join(', ') : 'no signal: routine turn' };
  },
};

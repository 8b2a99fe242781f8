import { describe, expect, it } from 'vitest';
import { thresholdFor, toolRoutingConfigSchema } from './config.js';

describe('toolRoutingConfigSchema', () => {
  it('accepts an empty section and fills every default', () => {
    const config = toolRoutingConfigSchema.parse({});
    expect(config.mode).toBe('on');
    expect(config.critical_toolsets).toEqual(['terminal', 'file', 'browser', 'cronjob']);
    expect(config.llm_classifier.enabled).toBe(false);
    expect(thresholdFor(config, 'terminal')).toBeLessThan(thresholdFor(config, 'tts'));
  });

  it('honours per-toolset thresholds and rejects unknown keys', () => {
    const config = toolRoutingConfigSchema.parse({ thresholds: { per_toolset: { web: 0.9 } } });
    expect(thresholdFor(config, 'web')).toBe(0.9);
    expect(toolRoutingConfigSchema.safeParse({ mode: 'sometimes' }).success).toBe(false);
    expect(toolRoutingConfigSchema.safeParse({ floor_tools: [] }).success).toBe(false);
  });

  it('lowers the bar of a cheap toolset to its tokens over the miss cost, never a configured one', () => {
    const config = toolRoutingConfigSchema.parse({ thresholds: { per_toolset: { web: 0.9 } } });
    expect(config.thresholds.miss_cost_tokens).toBe(150000);
    expect(config.thresholds.rule_support).toEqual({ terminal: 0.001 });
    expect(thresholdFor(config, 'tts', 250, { needsTool: 0.9, strongest: 0.4 })).toBeCloseTo(250 / 150000, 10);
    // Chit-chat, or a clear request for another toolset: the plain bar.
    expect(thresholdFor(config, 'tts', 250, { needsTool: 0.2, strongest: 0.4 })).toBe(config.thresholds.default);
    expect(thresholdFor(config, 'tts', 250, { needsTool: 0.9, strongest: 0.9 })).toBe(config.thresholds.default);
    expect(thresholdFor(config, 'cronjob', 20000)).toBe(config.thresholds.critical);
    expect(thresholdFor(config, 'web', 250)).toBe(0.9);
    const off = toolRoutingConfigSchema.parse({ thresholds: { miss_cost_tokens: 0 } });
    expect(thresholdFor(off, 'tts', 250)).toBe(off.thresholds.default);
  });
});

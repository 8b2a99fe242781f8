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
});

import { describe, expect, it } from 'vitest';
import {
  readChunkLines,
  readRecording,
  recordedStreamBody,
  recordingEntry,
  recordingNames,
  splitRawSse,
} from '../recordings.js';

describe('recordings', () => {
  it.each(recordingNames)('%s loads and every payload is JSON', (name) => {
    const entry = recordingEntry(name);
    for (const file of entry.files) {
      const text = readRecording(name, file);
      expect(text.length).toBeGreaterThan(0);
      if (file === 'json') expect(() => JSON.parse(text)).not.toThrow();
    }
    if (entry.files.some((file) => file === 'chunks')) {
      for (const line of readChunkLines(name)) expect(() => JSON.parse(line)).not.toThrow();
    }
  });

  it('replays an OpenAI chunk file as data events ending in [DONE]', () => {
    const body = recordedStreamBody('groq-tool-call');
    const lines = readChunkLines('groq-tool-call');
    expect(body).toBe(lines.map((line) => `data: ${line}\n\n`).join('') + 'data: [DONE]\n\n');
    expect(body).not.toContain('event:');
  });

  it('replays an Anthropic chunk file with event names from the payload type and no [DONE]', () => {
    const body = recordedStreamBody('anthropic-issue-15652-false');
    expect(body).not.toContain('[DONE]');
    const events = body.split('\n\n').filter((event) => event !== '');
    expect(events).toHaveLength(readChunkLines('anthropic-issue-15652-false').length);
    for (const event of events) {
      const [eventLine, dataLine] = event.split('\n');
      const payload = JSON.parse(dataLine?.slice('data: '.length) ?? '') as { type: string };
      expect(eventLine).toBe(`event: ${payload.type}`);
    }
    // The whitespace-padded payloads and `{"type": "ping"}` are kept byte for byte.
    expect(body).toContain('data: {"type": "ping"}\n\n');
  });

  it('serves the raw .sse file unchanged and splits it losslessly', () => {
    const raw = readRecording('anthropic-fallback-tool-call', 'sse');
    expect(recordedStreamBody('anthropic-fallback-tool-call')).toBe(raw);
    const events = splitRawSse(raw);
    expect(events.join('')).toBe(raw);
    expect(events.at(-1)?.startsWith('data: [DONE]')).toBe(true);
  });
});

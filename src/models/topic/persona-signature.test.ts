import { describe, expect, it } from 'vitest';
import { parsePersonas, personaFor } from './persona.js';
import { displayModelName, formatSignature } from './signature.js';

describe('parsePersonas', () => {
  const agents = [
    'Preamble that belongs to no topic.',
    '# software_it',
    'You are a senior engineer.',
    '## Style',
    'Short answers.',
    '',
    '# Writing_Language',
    'You are an editor.',
    '```bash',
    '# not a heading',
    '```',
    '# math',
    '',
  ].join('\n');

  it('reads each level-one section as a persona, keeping sub-headings and fenced blocks', () => {
    const personas = parsePersonas(agents);
    expect(personas.get('software_it')).toBe('You are a senior engineer.\n## Style\nShort answers.');
    expect(personas.get('writing_language')).toBe('You are an editor.\n```bash\n# not a heading\n```');
    expect(personas.has('math')).toBe(false);
    expect(personas.size).toBe(2);
  });

  it('prefers the configured persona over the file', () => {
    const personas = parsePersonas(agents);
    expect(personaFor('software_it', { software_it: { persona: 'Configured.' } }, personas)).toBe('Configured.');
    expect(personaFor('software_it', {}, personas)).toBe('You are a senior engineer.\n## Style\nShort answers.');
    expect(personaFor('science', {}, personas)).toBeUndefined();
  });
});

describe('formatSignature', () => {
  it('renders the seed signatures', () => {
    expect(formatSignature({ finalModel: 'google/gemma-4-31b:free', topic: 'software_it' })).toBe('- gemma-4-31b [software_it]');
    expect(formatSignature({ finalModel: 'gpt-5.5', topic: 'none' })).toBe('- gpt-5.5 [general]');
    expect(formatSignature({ finalModel: 'gpt-5.5', skipped: true })).toBe('- gpt-5.5 [skip]');
    expect(formatSignature({ finalModel: 'gemini-3-flash', topic: 'software_it', routedModel: 'nvidia/nemotron-3-super-120b-a12b' })).toBe(
      '- gemini-3-flash [software_it | routed: nemotron-3-super-120b-a12b]',
    );
    expect(formatSignature({ finalModel: 'minimax/minimax-m2.5:free', topic: 'business_finance', routedModel: 'minimax/minimax-m2.5:free' })).toBe('- minimax-m2.5 [business_finance]');
  });

  it('shortens model names', () => {
    expect(displayModelName('openrouter/z-ai/glm-4.5-air:free')).toBe('glm-4.5-air');
  });
});

import { describe, expect, it } from 'vitest';
import { frameTokens } from '../features/scopes.js';
import { applyRules } from './rules.js';

function toolsetsOf(text: string): string[] {
  return [...applyRules(frameTokens(text), text, false).toolsets].sort();
}

describe('rules in other languages', () => {
  it('name the outcome words of other languages', () => {
    expect(toolsetsOf('recuérdame cada lunes pagar el alquiler')).toContain('cronjob');
    expect(toolsetsOf('merk dir bitte meine Adresse')).toContain('memory');
    expect(toolsetsOf('lies mir die Zusammenfassung laut vor')).toContain('tts');
    expect(toolsetsOf('demande-moi avant de commencer')).toContain('clarify');
    expect(toolsetsOf('поручи это субагенту')).toContain('delegation');
    expect(toolsetsOf('明日の天気を調べて')).toContain('web');
    expect(toolsetsOf('할 일 목록 만들어줘')).toContain('todo');
  });

  it('keep word starts: a stem inside another word does not fire', () => {
    expect(toolsetsOf('the installer asked for a reboot')).not.toContain('terminal');
    expect(toolsetsOf('read messages from the log')).not.toContain('tts');
    expect(toolsetsOf('passe une commande de pizza')).toEqual([]);
  });
});

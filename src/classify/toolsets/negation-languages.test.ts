import { describe, expect, it } from 'vitest';
import { frameTokens, instructionText } from '../features/scopes.js';
import { messageLanguage } from './message-language.js';
import { blankNegatedInstructions } from './negation-languages.js';
import { applyRules } from './rules.js';

/** The rules as the classifier runs them: other languages' negations blanked, English words read in English only. */
function toolsetsOf(text: string): string[] {
  const tokens = frameTokens(text);
  const language = messageLanguage(text);
  const framed = instructionText(text, tokens);
  const instruction = language === 'english' ? framed : blankNegatedInstructions(framed);
  return [...applyRules(tokens, text, false, instruction, language).toolsets].sort();
}

describe('negated instructions in other languages', () => {
  it('leave out what the user asks to leave out, and keep what follows a breaker', () => {
    expect(toolsetsOf('no busques en internet, solo abre el archivo notas.txt')).toEqual(['file']);
    expect(toolsetsOf('ne cherche pas sur internet, ouvre juste le fichier')).toEqual(['file']);
    expect(toolsetsOf('such nicht im Internet, sondern öffne die Datei')).toEqual(['file']);
    expect(toolsetsOf('non cercare su internet, apri il file')).toEqual(['file']);
    expect(toolsetsOf('не ищи в интернете, просто открой файл')).toEqual(['file']);
    expect(toolsetsOf('nie szukaj w internecie tylko otwórz plik')).toEqual(['file']);
    expect(toolsetsOf('não pesquise na internet, só abra o arquivo')).toEqual(['file']);
    expect(toolsetsOf('ネットで検索しないで、ファイルを開いて')).toEqual(['file']);
    expect(toolsetsOf('sin buscar en internet, abre el archivo')).toEqual(['file']);
  });

  it('read problem reports and "don\'t forget" as asks', () => {
    expect(toolsetsOf('el sitio web no funciona')).toContain('browser');
    expect(toolsetsOf('le site web ne marche pas')).toContain('browser');
    expect(toolsetsOf('die Webseite lädt nicht')).toContain('browser');
    expect(toolsetsOf('no olvides recordarme cada lunes pagar el alquiler')).toContain('cronjob');
    expect(toolsetsOf('忘れないで、毎朝リマインドして')).toContain('cronjob');
  });
});

describe('English rule words inside other languages', () => {
  it('"todo" is "all" in Spanish and Portuguese, not a to-do list', () => {
    expect(toolsetsOf('arregla todo el texto de la carta')).not.toContain('todo');
    expect(toolsetsOf('add this to my todo list')).toContain('todo');
    expect(toolsetsOf('haz una lista de tareas para la mudanza')).toContain('todo');
  });

  it('guesses the language from function words, English by default', () => {
    expect(messageLanguage('run the tests and fix what fails')).toBe('english');
    expect(messageLanguage('arregla todo el texto de la carta')).toBe('spanish');
    expect(messageLanguage('lembra que eu não como carne')).toBe('portuguese');
    expect(messageLanguage('明日の天気を調べて')).toBe('other');
  });
});

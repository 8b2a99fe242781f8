import { describe, expect, it } from 'vitest';
import { instructionWords, windowMaxima, windowNeeds, wordWindows } from './window-need.js';

describe('window needs', () => {
  it('reads the instruction in half-overlapping windows of words', () => {
    expect(instructionWords('  make  a poster —  and   ').map((word) => word.text)).toEqual(['make', 'a', 'poster', 'and']);
    const words = instructionWords('one two three four five six seven eight nine ten');
    expect(wordWindows(words, 6)).toEqual(['one two three four five six', 'four five six seven eight nine', 'seven eight nine ten']);
    expect(wordWindows(words.slice(0, 7), 6)).toEqual(['one two three four five six', 'four five six seven']);
    expect(wordWindows(words.slice(0, 3), 6)).toEqual(['one two three']);
    expect(wordWindows([], 6)).toEqual([]);
  });

  it('cuts a run written without spaces into pieces of a few characters, and glues them back in a window', () => {
    const words = instructionWords('把报告发到群里 then 设一个每天的提醒', 3);
    expect(words.map((word) => word.text)).toEqual(['把报告', '发到群', '里', 'then', '设一个', '每天的', '提醒']);
    expect(words.map((word) => word.continues)).toEqual([false, true, true, false, false, true, true]);
    expect(wordWindows(words, 4)).toEqual(['把报告发到群里 then', '里 then 设一个每天的', '设一个每天的提醒']);
    // Off by default: a run is one word.
    expect(instructionWords('把报告发到群里 then').map((word) => word.text)).toEqual(['把报告发到群里', 'then']);
  });

  it('keeps a toolset a window asks for over both bars, from candidates only', () => {
    // Per window: [_task, web, terminal, spotify].
    const table: Record<string, number[]> = {
      'a b c d': [0.95, 0.2, 0.93, 0.95],
      'c d e f': [0.95, 0.91, 0.1, 0.1],
      'e f g h': [0.5, 0.1, 0.1, 0.1],
      'g h i': [0.8, 0.1, 0.99, 0.1],
    };
    const scorer = { labels: ['_task', 'web', 'terminal', 'spotify'], predict: (text: string) => table[text]! };
    const words = instructionWords('a b c d e f g h i');
    const found = windowNeeds(windowMaxima(words, scorer, new Set(['web', 'terminal']), '_task', { words: 4, taskBar: 0.9 }), 0.9);
    // spotify is not a candidate; terminal's 0.99 is in a window that does not clearly need a tool (0.8).
    expect([...found.entries()].sort()).toEqual([['terminal', 0.93], ['web', 0.91]]);
    expect(windowNeeds(windowMaxima(words, scorer, new Set(['web', 'terminal']), '_task', { words: 4, taskBar: 0.9 }), 0.95).size).toBe(0);
    expect([...windowNeeds(windowMaxima(words, scorer, new Set(['terminal']), '_task', { words: 4, taskBar: 0.8 }), 0.9).entries()]).toEqual([['terminal', 0.99]]);
  });

  it('reports every candidate\'s best probability over the windows read, whatever the bar (the part vote)', () => {
    // Per window: [_task, web, terminal].
    const table: Record<string, number[]> = {
      'a b c d': [0.95, 0.2, 0.75],
      'c d e f': [0.95, 0.4, 0.1],
      'e f g h': [0.5, 0.9, 0.99],
      'g h i': [0.92, 0.1, 0.3],
    };
    const scorer = { labels: ['_task', 'web', 'terminal'], predict: (text: string) => table[text]! };
    const maxima = windowMaxima(instructionWords('a b c d e f g h i'), scorer, new Set(['web', 'terminal']), '_task', { words: 4, taskBar: 0.9 });
    // The window 'e f g h' does not clearly need a tool, so its 0.9 and 0.99 are not read.
    expect(Object.fromEntries(maxima)).toEqual({ web: 0.4, terminal: 0.75 });
    expect(windowMaxima(instructionWords('a b c d'), scorer, new Set(['web']), '_task', { words: 4, taskBar: 0 }).size).toBe(0);
  });

  it('reads nothing when it is off or the message is no longer than one window (the whole message was scored)', () => {
    const scorer = { labels: ['_task', 'web'], predict: () => [1, 1] };
    expect(windowNeeds(windowMaxima(instructionWords('a b c d e'), scorer, new Set(['web']), '_task', { words: 4, taskBar: 0 }), 1).size).toBe(0);
    expect(windowNeeds(windowMaxima(instructionWords('a b c d'), scorer, new Set(['web']), '_task', { words: 4, taskBar: 0 }), 0.5).size).toBe(0);
    expect(windowNeeds(windowMaxima(instructionWords('a b c d e'), scorer, new Set(['web']), '_task', { words: 4, taskBar: 0 }), 0.5).get('web')).toBe(1);
  });
});

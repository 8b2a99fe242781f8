import { describe, expect, it } from 'vitest';
import type { MessageView } from '../core/turn.js';
import { firstUserText, isFirstTurn, latestUserText } from './first-turn.js';

const message = (role: MessageView['role'], text: string, hasImage = false): MessageView => ({ role, text, toolCallNames: [], hasImage });

describe('the texts a decision classifies', () => {
  it('a first turn has no latest request apart from its first user text', () => {
    const messages = [message('system', 'You are Hermes.'), message('user', 'list the files here')];
    expect(isFirstTurn(messages)).toBe(true);
    expect(firstUserText(messages)?.text).toBe('list the files here');
    expect(latestUserText(messages)).toBeUndefined();
  });

  it('the latest request is every user message after the last assistant or tool message, without agent context', () => {
    const messages = [
      message('user', 'find the invoice from March'),
      message('assistant', 'Found it.'),
      message('tool', 'ok'),
      message('user', '<system-reminder>Today is Tuesday.</system-reminder>\nnow print it'),
      message('user', 'two copies', true),
    ];
    expect(firstUserText(messages)?.text).toBe('find the invoice from March');
    expect(latestUserText(messages)).toEqual({ text: 'now print it\ntwo copies', hasImage: true });
  });

  it('a history that ends with the assistant has no latest request', () => {
    expect(latestUserText([message('user', 'hi'), message('assistant', 'hello')])).toBeUndefined();
  });
});

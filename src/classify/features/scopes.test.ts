import { describe, expect, it } from 'vitest';
import { frameTokens, instructionText } from './scopes.js';

function frames(text: string): Record<string, string> {
  return Object.fromEntries(frameTokens(text).map((token) => [token.text, token.frame]));
}

describe('frameTokens', () => {
  it('marks words after a negation as negated until the clause ends or a breaker word', () => {
    const framed = frames("don't run the tests, just read the config");
    expect(framed['run']).toBe('negated');
    expect(framed['tests']).toBe('negated');
    expect(framed['read']).toBe('plain');
    expect(framed['config']).toBe('plain');
  });

  it('ends a negation at "also", which starts a further request', () => {
    const framed = frames('rebase it without losing my local edits also post a summary in the channel');
    expect(framed['losing']).toBe('negated');
    expect(framed['post']).toBe('plain');
    expect(framed['summary']).toBe('plain');
  });

  it('opens a scope only for negated instructions', () => {
    expect(frames("I can't get the tests to pass")['tests']).toBe('plain');
    expect(frames("the server won't start")['start']).toBe('plain');
    expect(frames('please do not restart the server')['restart']).toBe('negated');
    expect(frames('ok, never open the browser')['browser']).toBe('negated');
    expect(frames("you don't need to search")['search']).toBe('negated');
    expect(frames("don't forget to run the tests")['run']).toBe('plain');
  });

  it('reads what the user no longer needs, named before removing it, as the request', () => {
    expect(frames("I don't need the 9am standup reminder anymore, cancel it")['reminder']).toBe('plain');
    expect(frames("don't want the old logs folder, delete it")['logs']).toBe('plain');
    expect(frames('no need for the daily digest any longer, kill it')['digest']).toBe('plain');
    expect(frames('I do not need the staging branch anymore')['staging']).toBe('plain');
    // A tool the user declines stays declined: no "anymore", and the next clause does not discard it.
    expect(frames("I don't need a web search for this, just tell me")['search']).toBe('negated');
    expect(frames("you don't need to search the web anymore, just answer")['search']).toBe('negated');
    expect(frames("don't need the browser, use curl instead")['browser']).toBe('negated');
    // A pronoun names nothing: left negated as before.
    expect(frames("cancel the job, I don't need it anymore")['it']).toBe('negated');
    expect(frameTokens('我不需要那个每天早上的提醒了，删掉吧').every((token) => token.frame === 'plain')).toBe(true);
    expect(frameTokens('不用搜索了，直接告诉我').find((token) => token.text.includes('搜索'))?.frame).toBe('negated');
  });

  it('reads "don\'t let me forget / miss" as a request to prevent it', () => {
    expect(frames("don't let me forget to call mom at 5pm")['call']).toBe('plain');
    expect(frames('please never let us miss the bin collection')['collection']).toBe('plain');
    expect(frames("don't let the intern deploy on friday")['deploy']).toBe('negated');
    expect(frameTokens('别让我忘了明天给妈妈打电话').every((token) => token.frame === 'plain')).toBe(true);
    expect(frameTokens('别让他删文件').some((token) => token.frame === 'negated')).toBe(true);
  });

  it('marks quoted and reported speech as quoted', () => {
    expect(frames("the log says 'run the migration'")['migration']).toBe('quoted');
    expect(frames('the log says run the migration')['migration']).toBe('quoted');
    expect(frames('search for "best pizza" near me')['search']).toBe('plain');
    expect(frames('search for "best pizza" near me')['pizza']).toBe('quoted');
  });

  it('ends reported speech opened by a quote where the quote closes', () => {
    const framed = frames("draw a shop sign that says 'back in ten minutes' and then a short video of it");
    expect(framed['minutes']).toBe('quoted');
    expect(framed['video']).toBe('plain');
    expect(frames('the readme says "install it first" before anything')['before']).toBe('plain');
  });

  it('reads a quoted whole message as forwarded work, and a short quote as a phrase', () => {
    const forwarded = frames('my manager sent this:\n\n"Please compile the deploy counts from the git logs and chart them per week."\n\ncan you handle it?');
    expect(forwarded['compile']).toBe('plain');
    expect(forwarded['git']).toBe('plain');
    expect(frames('boss wrote "list every docker image older than a month and prune them" so do it')['prune']).toBe('plain');
    const afterColon = frames('the office manager wrote: "please turn off all the office lights at seven every weekday" set that up');
    expect(afterColon['lights']).toBe('plain');
    expect(afterColon['set']).toBe('plain');
    expect(frameTokens('同事：「这个脚本每天早上八点自动运行一下」').every((token) => token.frame === 'plain')).toBe(true);
    expect(frames('what does "fatal: not a git repository" mean')['git']).toBe('quoted');
    expect(frameTokens('同事说「好的」').some((token) => token.frame === 'quoted')).toBe(true);
  });

  it('reads "what the log says" as an indirect question, not as reported speech', () => {
    const framed = frames('tell me what the error says and search whether it is a known issue');
    expect(framed['search']).toBe('plain');
    expect(framed['issue']).toBe('plain');
    expect(frames('the error says restart the router')['router']).toBe('quoted');
  });

  it('ends negation and reported speech at a dash, but not at a hyphen inside a word or a flag', () => {
    expect(frames("don't guess — look through our old chats")['look']).toBe('plain');
    expect(frames("don't guess – look through our old chats")['look']).toBe('plain');
    expect(frames("don't guess - look through our old chats")['look']).toBe('plain');
    expect(frames("don't guess — look through our old chats")['guess']).toBe('negated');
    expect(frames('my teacher says she needs one — check the listings')['listings']).toBe('plain');
    expect(frames('my teacher says she needs one — check the listings')['needs']).toBe('quoted');
    expect(frames("don't run ls -la on the server")['server']).toBe('negated');
    expect(frames("don't touch the well-known config")['config']).toBe('negated');
  });

  it('closes a single quote that a hyphenated word follows', () => {
    const framed = frames("play my 'wake up'-playlist in the kitchen and tell me the weather");
    expect(framed['wake']).toBe('quoted');
    expect(framed['weather']).toBe('plain');
    expect(frames("don't touch rock'n'roll.txt")["rock'n'roll.txt"]).toBe('negated');
  });

  it('reads "the meeting it mentions" as a relative clause, not as reported speech', () => {
    const framed = frames("read the email and add the meeting it mentions as a reminder 15 min before");
    expect(framed['reminder']).toBe('plain');
    expect(frames('build a playlist from the songs she mentioned and queue it')['queue']).toBe('plain');
    // A noun phrase of two or three words before the pronoun is still the clause's object.
    expect(frames('find the quarterly sales report she wrote and schedule a review of it')['schedule']).toBe('plain');
    expect(frames('take the old deploy notes they wrote and turn them into a checklist')['checklist']).toBe('plain');
    // Two clauses: the pronoun opens a report.
    expect(frames('check my payslip, it says tax code br')['code']).toBe('quoted');
    expect(frames('is this a scam? it says click the link')['link']).toBe('quoted');
  });

  it('keeps reported speech opened by a colon past the colon', () => {
    const framed = frames('my landlord wrote: fix the boiler yourself');
    expect(framed['boiler']).toBe('quoted');
    expect(framed['landlord']).toBe('plain');
    expect(frames('the note says: water the plants. remind me at six')['remind']).toBe('plain');
  });

  it('does not treat "who wrote the book" or apostrophes as quotes', () => {
    expect(frames('who wrote the book and is there a second edition')['edition']).toBe('plain');
    expect(frames("it's fine, don't worry")['fine']).toBe('plain');
  });

  it('handles Chinese negation cues inside a run and their scope breakers', () => {
    const tokens = frameTokens('不要运行测试，只看一下日志文件');
    expect(tokens.find((token) => token.text.includes('运行'))?.frame).toBe('negated');
    expect(tokens.find((token) => token.text.includes('日志'))?.frame).toBe('plain');
    expect(frameTokens('运行测试').every((token) => token.frame === 'plain')).toBe(true);
  });

  it('blanks out negated and quoted words in the instruction text', () => {
    const text = instructionText("don't open https://example.com, just summarize the README");
    expect(text).not.toContain('https://example.com');
    expect(text).toContain('summarize the readme');
  });
});

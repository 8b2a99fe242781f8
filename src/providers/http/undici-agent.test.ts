import * as undici from 'undici';
import { describe, expect, it } from 'vitest';
import { loadUndici } from './undici-agent.js';

// The transport loads undici piecewise by file path; an undici release that moves a file must fail here, not at a
// user's first request.
describe('undici loaded piecewise', () => {
  it('gives the same classes as the package index', () => {
    const { Agent, Client, errors } = loadUndici();
    expect(Agent).toBe(undici.Agent);
    expect(Client).toBe(undici.Client);
    expect(errors).toBe(undici.errors);
  });

  it('has the request API on its agents', () => {
    const { Agent } = loadUndici();
    const agent = new Agent();
    expect(typeof agent.request).toBe('function');
    void agent.close();
  });

  it('loads once', () => {
    expect(loadUndici()).toBe(loadUndici());
  });
});

import { errors } from 'undici';
import { describe, expect, it } from 'vitest';
import { closedWhenReused } from './closed-when-reused.js';

const socketInfo = (bytesRead: number) => ({ localPort: 1, remotePort: 2, bytesWritten: 10, bytesRead }) as unknown as ConstructorParameters<typeof errors.SocketError>[1];

describe('closedWhenReused', () => {
  it('is a clean close before an answer on a connection that already carried one', () => {
    expect(closedWhenReused(new errors.SocketError('other side closed', socketInfo(420)))).toBe(true);
  });

  it('is not a close on a new connection, a reset, a timeout or a refusal', () => {
    expect(closedWhenReused(new errors.SocketError('other side closed', socketInfo(0)))).toBe(false);
    expect(closedWhenReused(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(false);
    expect(closedWhenReused(new errors.HeadersTimeoutError())).toBe(false);
    expect(closedWhenReused(new errors.ConnectTimeoutError())).toBe(false);
    expect(closedWhenReused(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(false);
  });
});

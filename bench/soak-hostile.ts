/**
 * The adversarial phases of bench/soak.ts (issue 18): slow request bodies, oversized upstream answers and a
 * provider key the upstream refuses. Each phase reports the gateway's RSS (start, peak, end), its open sockets
 * and the ledger rows before and after, so a regression in any of the three guards shows as a number.
 */
import { createServer } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import type { FakeUpstream, ReceivedRequest } from '../test/support/fake-upstream/index.js';
import { SqliteLedgerStore } from '../src/store/sqlite/sqlite-ledger-store.js';

export interface PhaseReport {
  phase: string;
  rss_mb_start: number;
  rss_mb_peak: number;
  rss_mb_end: number;
  sockets_start: number;
  sockets_peak: number;
  sockets_end: number;
  ledger_rows_before: number;
  ledger_rows_after: number;
  /** Phase-specific counts (statuses, upstream calls with the refused key, …). */
  details: Record<string, number | string>;
  passed: boolean;
}

export function residentKb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
}

export function openSockets(pid: number): number {
  let count = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) count += 1;
    } catch {
      // The descriptor closed while we looked.
    }
  }
  return count;
}

async function ledgerRows(dataDir: string): Promise<number> {
  // The gateway flushes every 200 ms in the soak config; wait for rows of requests that just ended.
  await new Promise((resolve) => setTimeout(resolve, 600));
  const store = new SqliteLedgerStore({ path: join(dataDir, 'ledger.sqlite') });
  try {
    return (await store.totals()).requests;
  } finally {
    await store.close();
  }
}

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Samples RSS and sockets every 50 ms while `work` runs. */
async function measured(
  phase: string,
  pid: number,
  dataDir: string,
  work: () => Promise<{ details: Record<string, number | string>; passed: (report: Omit<PhaseReport, 'passed'>) => boolean }>,
): Promise<PhaseReport> {
  const ledgerBefore = await ledgerRows(dataDir);
  const rssStart = residentKb(pid);
  const socketsStart = openSockets(pid);
  let rssPeak = rssStart;
  let socketsPeak = socketsStart;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, residentKb(pid));
    socketsPeak = Math.max(socketsPeak, openSockets(pid));
  }, 50);
  const { details, passed } = await work();
  clearInterval(sampler);
  const settle = Date.now() + 5_000;
  while (openSockets(pid) > socketsStart && Date.now() < settle) await pause(100);
  const report = {
    phase,
    rss_mb_start: Math.round(rssStart / 1024),
    rss_mb_peak: Math.round(rssPeak / 1024),
    rss_mb_end: Math.round(residentKb(pid) / 1024),
    sockets_start: socketsStart,
    sockets_peak: socketsPeak,
    sockets_end: openSockets(pid),
    ledger_rows_before: ledgerBefore,
    ledger_rows_after: await ledgerRows(dataDir),
    details,
  };
  return { ...report, passed: passed(report) };
}

/**
 * `count` connections that send their headers and then one body byte every 500 ms. The gateway must answer 408
 * within `server.body_timeout_ms` (429 past `max_unfinished_requests_per_client`) and close every one.
 */
export function slowBodies(pid: number, dataDir: string, gatewayUrl: string, count: number, bodyTimeoutMs: number): Promise<PhaseReport> {
  return measured('slow request bodies', pid, dataDir, async () => {
    const { port } = new URL(gatewayUrl);
    const statuses: Record<string, number> = {};
    let stillOpen = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: count }, async () => {
        const socket = connect(Number(port), '127.0.0.1');
        socket.setEncoding('utf8');
        let text = '';
        socket.on('data', (chunk: string) => (text += chunk));
        socket.on('error', () => {});
        socket.write('POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
        const dribble = setInterval(() => socket.destroyed || socket.write(' '), 500);
        const closed = await Promise.race([
          new Promise<boolean>((resolve) => socket.once('close', () => resolve(true))),
          pause(bodyTimeoutMs + 5_000).then(() => false),
        ]);
        clearInterval(dribble);
        if (!closed) stillOpen += 1;
        socket.destroy();
        const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 'none';
        statuses[status] = (statuses[status] ?? 0) + 1;
      }),
    );
    return {
      details: { ...Object.fromEntries(Object.entries(statuses).map(([status, n]) => [`status_${status}`, n])), left_open: stillOpen, all_closed_after_ms: Date.now() - started },
      passed: (report) => stillOpen === 0 && report.sockets_end <= report.sockets_start,
    };
  });
}

/**
 * A provider that answers every chat request with one prebuilt non-streamed completion of `megabytes` (bytes
 * ready in memory, so the answer starts at once however large it is).
 */
export async function startBulkUpstream(megabytes: number): Promise<{ url: string; close(): Promise<void> }> {
  const body = Buffer.from(
    JSON.stringify({
      id: 'chatcmpl-oversized',
      object: 'chat.completion',
      created: 0,
      model: 'bulk-test',
      choices: [{ index: 0, message: { role: 'assistant', content: 'x'.repeat(megabytes * 1024 * 1024) }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 },
    }),
  );
  const server = createServer((incoming, outgoing) => {
    incoming.resume();
    incoming.on('end', () => {
      outgoing.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
      outgoing.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * `count` concurrent non-streamed answers of `megabytes` each (model `bulk-test`, served by `startBulkUpstream`).
 * The gateway reads at most `server.upstream_response_limit_bytes` of each and answers 502; peak RSS must stay
 * under `peakLimitMb`.
 */
export function oversizedResponses(
  pid: number,
  dataDir: string,
  gatewayUrl: string,
  options: { count: number; megabytes: number; peakLimitMb: number },
): Promise<PhaseReport> {
  return measured('oversized upstream responses', pid, dataDir, async () => {
    const statuses: Record<string, number> = {};
    // Its own connections, closed at the end, so the socket count after the phase is the gateway's own.
    const dispatcher = new Agent({ connections: options.count });
    await Promise.all(
      Array.from({ length: options.count }, async () => {
        const response = await request(`${gatewayUrl}/v1/chat/completions`, {
          dispatcher,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'bulk-test', messages: [{ role: 'user', content: 'a very long answer, please' }] }),
        });
        await response.body.text();
        statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
      }),
    );
    await dispatcher.close();
    return {
      details: { ...Object.fromEntries(Object.entries(statuses).map(([status, n]) => [`status_${status}`, n])), answer_mb: options.megabytes, answers: options.count },
      passed: (report) => report.rss_mb_peak < options.peakLimitMb && (statuses['502'] ?? 0) === options.count,
    };
  });
}

/**
 * The upstream refuses one of the provider's two keys (401) for `requests` requests. The refused key must be
 * tried about once per rest (not once per request), and every request served by the other key.
 */
export function refusedKey(pid: number, dataDir: string, gatewayUrl: string, upstream: FakeUpstream, options: { requests: number; refusedKey: string }): Promise<PhaseReport> {
  return measured('provider key refused (401)', pid, dataDir, async () => {
    const keyOf = (received: ReceivedRequest) => String(received.headers.authorization ?? '').replace(/^Bearer /, '');
    let refusedCalls = 0;
    upstream.setScript({
      respond: (received) => {
        if (keyOf(received) !== options.refusedKey) return { kind: 'synthetic', text: 'fine' };
        refusedCalls += 1;
        return { kind: 'error', status: 401, message: 'Incorrect API key provided.' };
      },
    });
    const statuses: Record<string, number> = {};
    const dispatcher = new Agent({ connections: 1 });
    for (let index = 0; index < options.requests; index += 1) {
      const response = await request(`${gatewayUrl}/v1/chat/completions`, {
        dispatcher,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: `auth ${index}` }] }),
      });
      await response.body.text();
      statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
    }
    await dispatcher.close();
    upstream.reset();
    return {
      details: { ...Object.fromEntries(Object.entries(statuses).map(([status, n]) => [`status_${status}`, n])), calls_with_refused_key: refusedCalls },
      passed: (report) =>
        (statuses['200'] ?? 0) === options.requests && refusedCalls <= 3 && report.ledger_rows_after - report.ledger_rows_before === options.requests,
    };
  });
}

// The baseline: node:http + undici, parse the body, set the model, re-serialise, forward, pipe the answer back.
import { answerBenchControl } from './control.js';
import { createServer } from 'node:http';
import { Pool } from 'undici';

const upstream = process.env.UPSTREAM ?? '';
const pool = new Pool(upstream, { connections: 128 });

const server = createServer((request, response) => {
  const parts: Buffer[] = [];
  request.on('data', (part: Buffer) => parts.push(part));
  request.on('end', () => {
    const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>;
    body.model = 'bench-model';
    pool
      .request({ path: '/v1/chat/completions', method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      .then(async (upstreamResponse) => {
        response.writeHead(upstreamResponse.statusCode, { 'content-type': String(upstreamResponse.headers['content-type'] ?? 'application/json') });
        for await (const part of upstreamResponse.body) response.write(part);
        response.end();
      })
      .catch(() => {
        response.writeHead(502);
        response.end();
      });
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
answerBenchControl();

// A plain round-robin load balancer for the load test: each request goes to the next gateway in turn.
import { createServer, request as httpRequest } from 'node:http';

const targets = (process.env.TARGETS ?? '').split(',').filter(Boolean).map((target) => new URL(target));
let next = 0;

const server = createServer((incoming, outgoing) => {
  const target = targets[next % targets.length] as URL;
  next += 1;
  const proxied = httpRequest(
    { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: incoming.headers },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  proxied.on('error', () => {
    if (!outgoing.headersSent) outgoing.writeHead(502);
    outgoing.end();
  });
  incoming.pipe(proxied);
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.on('message', (message) => {
  if (message === 'exit') process.exit(0);
});

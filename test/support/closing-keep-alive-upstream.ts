import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';

/**
 * An OpenAI-compatible upstream at the TCP level that reproduces the keep-alive race: it answers the first
 * request of every connection (HTTP/1.1, kept alive, `Keep-Alive: timeout=60`), and when a second request
 * arrives on the same connection it closes the connection without a byte of answer, as a server does whose
 * idle timeout fired just as the client reused the socket. node:http cannot do this on purpose, so the bytes
 * are written by hand.
 */
export interface ClosingKeepAliveUpstream {
  url: string;
  /** Connections accepted so far. */
  connections(): number;
  /** Requests answered, and requests whose connection was closed on them. */
  answered(): number;
  closedOnReuse(): number;
  close(): Promise<void>;
}

const answerBody = JSON.stringify({
  id: 'chatcmpl-keep-alive',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-test',
  choices: [{ index: 0, message: { role: 'assistant', content: 'fresh connection' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
});

const streamBody = [
  { choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
  { choices: [{ index: 0, delta: { content: 'fresh connection' }, finish_reason: null }] },
  { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
]
  .map((chunk) => `data: ${JSON.stringify({ id: 'chatcmpl-keep-alive', object: 'chat.completion.chunk', created: 1, model: 'gpt-test', ...chunk })}\n\n`)
  .concat('data: [DONE]\n\n')
  .join('');

function answer(socket: Socket, stream: boolean): void {
  const body = stream ? streamBody : answerBody;
  const contentType = stream ? 'text/event-stream' : 'application/json';
  socket.write(
    `HTTP/1.1 200 OK\r\ncontent-type: ${contentType}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `connection: keep-alive\r\nkeep-alive: timeout=60\r\n\r\n${body}`,
  );
}

/** Whether `buffer` holds a whole request (head and a body of its content-length), and whether it asks for a stream. */
function wholeRequest(buffer: Buffer): { stream: boolean } | undefined {
  const headEnd = buffer.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const head = buffer.subarray(0, headEnd).toString('latin1');
  const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
  if (buffer.length < headEnd + 4 + length) return undefined;
  return { stream: buffer.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8').includes('"stream":true') };
}

export async function startClosingKeepAliveUpstream(): Promise<ClosingKeepAliveUpstream> {
  let connections = 0;
  let answered = 0;
  let closedOnReuse = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let served = false;
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      if (served) {
        // The race: the client wrote a request on a connection this side is closing.
        closedOnReuse += 1;
        socket.destroy();
        return;
      }
      received = Buffer.concat([received, chunk]);
      const request = wholeRequest(received);
      if (!request) return;
      served = true;
      answered += 1;
      answer(socket, request.stream);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    answered: () => answered,
    closedOnReuse: () => closedOnReuse,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

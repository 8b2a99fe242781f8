import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ApiFormat } from '../../../src/core/api-format.js';
import { errorBody, errorHeaders, midStreamErrorEvent } from './provider-errors.js';
import { malformedEvent, planRecording, planSynthetic, type ReplyPlan } from './reply-plan.js';
import { defaultModels, embeddingsBody, modelsBody } from './side-endpoints.js';
import type {
  ErrorBehaviour,
  FakeBehaviour,
  FakeScript,
  FakeUpstream,
  ReceivedRequest,
  ReplyShaping,
  StartFakeUpstreamOptions,
  SyntheticBehaviour,
} from './types.js';

const formatByPath: Record<string, ApiFormat> = {
  '/v1/chat/completions': 'openai-chat',
  '/v1/messages': 'anthropic-messages',
};

/** Per-response state: whether the fake itself killed the socket, and a signal fired when the response closes. */
interface Exchange {
  request: IncomingMessage;
  response: ServerResponse;
  closed: AbortSignal;
  killedByFake: boolean;
}

function sleep(milliseconds: number | undefined, closed: AbortSignal): Promise<void> {
  if (closed.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const finish = (): void => {
      clearTimeout(timer);
      closed.removeEventListener('abort', finish);
      resolve();
    };
    // An undefined duration means "until the client goes away".
    const timer = milliseconds === undefined ? undefined : setTimeout(finish, milliseconds);
    closed.addEventListener('abort', finish, { once: true });
  });
}

/** Resolves once the chunk is handed to the socket, or at once if the client has gone (no callback may come). */
function write(response: ServerResponse, text: string, closed: AbortSignal): Promise<void> {
  if (closed.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const finish = (): void => {
      closed.removeEventListener('abort', finish);
      resolve();
    };
    closed.addEventListener('abort', finish, { once: true });
    response.write(text, finish);
  });
}

function parseJson(body: string): unknown {
  if (body === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    request.on('error', reject);
  });
}

function toReceived(request: IncomingMessage, body: string): ReceivedRequest {
  const url = new URL(request.url ?? '/', 'http://fake');
  const path = url.pathname;
  const json = parseJson(body);
  const fields = typeof json === 'object' && json !== null ? json : {};
  const model = 'model' in fields && typeof fields.model === 'string' ? fields.model : undefined;
  const stream = 'stream' in fields && fields.stream === true;
  return {
    method: request.method ?? 'GET',
    path,
    query: url.search,
    headers: request.headers,
    body,
    json,
    format: request.method === 'POST' ? formatByPath[path] : undefined,
    model,
    stream,
  };
}

export async function startFakeUpstream(options: StartFakeUpstreamOptions = {}): Promise<FakeUpstream> {
  const sockets = new Set<Socket>();
  const requests: ReceivedRequest[] = [];
  let queue: FakeBehaviour[] = [];
  let script: FakeScript = {};
  let aborted = 0;
  let resetByClient = 0;
  const killedSockets = new WeakSet<Socket>();
  let inFlight = 0;
  let sequence = 0;
  let closing = false;

  function chooseBehaviour(request: ReceivedRequest): FakeBehaviour {
    const queued = queue.shift();
    if (queued !== undefined) return queued;
    const forModel = request.model === undefined ? undefined : script.byModel?.[request.model];
    if (forModel !== undefined) return forModel;
    const respond = script.respond;
    const scripted = typeof respond === 'function' ? respond(request) : respond;
    return scripted ?? { kind: 'recording' };
  }

  function sendJson(exchange: Exchange, status: number, body: string, headers: Record<string, string> = {}): void {
    exchange.response.writeHead(status, { 'content-type': 'application/json', ...headers });
    exchange.response.end(body);
  }

  function providerHeaders(format: ApiFormat, requestId: string): Record<string, string> {
    return format === 'openai-chat' ? { 'x-request-id': requestId } : { 'request-id': requestId };
  }

  function kill(exchange: Exchange, reset: boolean): void {
    exchange.killedByFake = true;
    const socket = exchange.request.socket;
    killedSockets.add(socket);
    if (reset) socket.resetAndDestroy();
    else socket.destroy();
  }

  async function streamEvents(
    exchange: Exchange,
    plan: Extract<ReplyPlan, { type: 'stream' }>,
    shaping: ReplyShaping,
    format: ApiFormat,
    headers: Record<string, string>,
  ): Promise<void> {
    const { response, closed } = exchange;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      ...headers,
      ...shaping.headers,
    });
    response.flushHeaders();
    await sleep(shaping.delayBeforeFirstChunkMs ?? 0, closed);
    const events = shaping.omitTerminator ? plan.events.filter((event) => !event.terminator) : plan.events;
    const interChunkDelay = shaping.interChunkDelayMs ?? script.interChunkDelayMs ?? 0;
    for (let index = 0; index <= events.length; index++) {
      if (closed.aborted) return;
      if (index === shaping.cutAfterChunks) return kill(exchange, false);
      if (index === shaping.errorEventAfterChunks) {
        await write(response, midStreamErrorEvent(shaping.errorEventKind ?? 'overloaded', format), closed);
        break;
      }
      if (index === shaping.malformedAfterChunks) await write(response, malformedEvent(format).text, closed);
      if (index === shaping.stallAfterChunks) await sleep(shaping.stallMs, closed);
      if (closed.aborted) return;
      const event = events[index];
      if (event === undefined) break;
      if (index > 0 && interChunkDelay > 0) await sleep(interChunkDelay, closed);
      await write(response, event.text, closed);
    }
    if (shaping.lingerAfterLastEventMs !== undefined) await sleep(shaping.lingerAfterLastEventMs, closed);
    if (!closed.aborted) response.end();
  }

  async function answerError(exchange: Exchange, behaviour: ErrorBehaviour, format: ApiFormat, requestId: string): Promise<void> {
    await sleep(behaviour.delayBeforeHeadersMs ?? 0, exchange.closed);
    if (behaviour.heldUntil) await Promise.race([behaviour.heldUntil, sleep(undefined, exchange.closed)]);
    if (exchange.closed.aborted) return;
    const body = JSON.stringify(errorBody(behaviour, format, requestId));
    sendJson(exchange, behaviour.status, body, { ...providerHeaders(format, requestId), ...errorHeaders(behaviour) });
  }

  /** With a prompt cache, a synthetic reply's input usage is what the cache made of this request. */
  function withCachedUsage(behaviour: SyntheticBehaviour, request: ReceivedRequest): SyntheticBehaviour {
    if (!options.promptCache) return behaviour;
    const cached = options.promptCache.usageFor(request);
    const outputTokens = behaviour.usage?.outputTokens ?? Math.max(1, Math.ceil((behaviour.text ?? '').length / 4));
    return { ...behaviour, usage: { ...cached, outputTokens } };
  }

  async function answerChat(exchange: Exchange, request: ReceivedRequest, format: ApiFormat): Promise<void> {
    sequence += 1;
    const requestId = `req_fake${sequence}`;
    const behaviour = chooseBehaviour(request);
    switch (behaviour.kind) {
      case 'hang':
        return;
      case 'reset':
        await sleep(behaviour.delayMs ?? 0, exchange.closed);
        return kill(exchange, true);
      case 'error':
        return answerError(exchange, behaviour, format, requestId);
      case 'recording':
      case 'synthetic': {
        const plan =
          behaviour.kind === 'recording'
            ? planRecording(behaviour, format, request)
            : planSynthetic(withCachedUsage(behaviour, request), format, request, sequence);
        await sleep(behaviour.delayBeforeHeadersMs ?? 0, exchange.closed);
        if (exchange.closed.aborted) return;
        const headers = providerHeaders(format, requestId);
        if (plan.type === 'body') return sendJson(exchange, plan.status, plan.body, { ...headers, ...behaviour.headers });
        return streamEvents(exchange, plan, behaviour, format, headers);
      }
    }
  }

  async function handle(exchange: Exchange): Promise<void> {
    const body = await readBody(exchange.request);
    const request = toReceived(exchange.request, body);
    requests.push(request);
    if (request.format !== undefined) return answerChat(exchange, request, request.format);
    if (request.method === 'GET' && request.path === '/v1/models') {
      return sendJson(exchange, 200, JSON.stringify(modelsBody(script.models ?? defaultModels)));
    }
    if (request.method === 'POST' && request.path === '/v1/embeddings') {
      const fault = script.embeddings?.fault;
      if (fault?.kind === 'hang') return;
      if (fault?.kind === 'error') return answerError(exchange, fault, 'openai-chat', 'req_fake_embeddings');
      return sendJson(exchange, 200, JSON.stringify(embeddingsBody(request.json, script.embeddings?.vectorFor)));
    }
    const notFound = errorBody({ kind: 'error', status: 404, message: `no route ${request.method} ${request.path}` }, 'openai-chat', '');
    sendJson(exchange, 404, JSON.stringify(notFound));
  }

  const server = createServer((request, response) => {
    const controller = new AbortController();
    const exchange: Exchange = { request, response, closed: controller.signal, killedByFake: false };
    inFlight += 1;
    response.on('close', () => {
      inFlight -= 1;
      if (!response.writableFinished && !exchange.killedByFake && !closing) aborted += 1;
      controller.abort();
    });
    handle(exchange).catch((error: unknown) => {
      if (response.destroyed) return;
      if (response.headersSent) {
        response.destroy();
        return;
      }
      sendJson(exchange, 500, JSON.stringify({ error: { message: `fake upstream failure: ${String(error)}`, type: 'fake_error' } }));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    // A socket that closes on an error the fake did not cause was reset by the client: TCP sends a reset when a
    // side closes with received bytes still unread, so a client that hangs up on a body it stopped reading shows
    // here whatever part of the body the kernel buffers already held. One that reads to the end and closes, or
    // keeps the connection for reuse until its keep-alive expires, closes cleanly and is not counted.
    socket.on('close', (hadError) => {
      sockets.delete(socket);
      if (hadError && !killedSockets.has(socket) && !closing) resetByClient += 1;
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake upstream: no TCP address');

  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    setScript(next) {
      script = next;
    },
    enqueue(...behaviours) {
      queue.push(...behaviours);
    },
    reset() {
      requests.length = 0;
      queue = [];
      script = {};
      aborted = 0;
      resetByClient = 0;
    },
    async close() {
      closing = true;
      queue = [];
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Wait for every socket's own close event too, so openSockets() is 0 once close() resolves.
      const socketsClosed = [...sockets].map(
        (socket) => new Promise<void>((resolve) => (socket.closed ? resolve() : socket.once('close', () => resolve()))),
      );
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      await Promise.all([closed, ...socketsClosed]);
    },
    openSockets: () => sockets.size,
    abortedRequests: () => aborted,
    connectionsResetByClient: () => resetByClient,
    inFlightRequests: () => inFlight,
    requestCount: (path) => (path === undefined ? requests.length : requests.filter((request) => request.path === path).length),
  };
}

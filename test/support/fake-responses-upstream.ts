import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A fake of OpenAI's own Responses API (`POST /v1/responses`) on 127.0.0.1, answering as the real API does: a
// response object, or its named SSE events (`event:` = the data's `type`, a `sequence_number` on each, no
// `[DONE]`). The shapes follow OpenAI's API reference; nothing here uses the gateway's own encoders.

export interface ReceivedResponsesRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export type ResponsesReply = { kind: 'response'; response: Record<string, unknown> } | { kind: 'error'; status: number; message: string };

export interface FakeResponsesUpstream {
  url: string;
  requests: ReceivedResponsesRequest[];
  /** Replies for the next requests, in order; without one, a text response "ok". */
  enqueue(reply: ResponsesReply): void;
  reset(): void;
  close(): Promise<void>;
}

/** A completed response as OpenAI returns it; `output` items and usage as given. */
export function openAiResponse(id: string, model: string, output: Record<string, unknown>[], usage = { input: 40, cached: 32, output: 12, reasoning: 8 }): Record<string, unknown> {
  return {
    id,
    object: 'response',
    created_at: 1_760_000_000,
    status: 'completed',
    error: null,
    incomplete_details: null,
    model,
    output,
    parallel_tool_calls: true,
    store: true,
    usage: {
      input_tokens: usage.input,
      input_tokens_details: { cached_tokens: usage.cached },
      output_tokens: usage.output,
      output_tokens_details: { reasoning_tokens: usage.reasoning },
      total_tokens: usage.input + usage.output,
    },
  };
}

export function textMessage(id: string, text: string): Record<string, unknown> {
  return { id, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] };
}

/** The event stream OpenAI sends for a completed response: items one by one, text in two deltas. */
function eventsOf(response: Record<string, unknown>): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  const started = { ...response, status: 'in_progress', output: [], usage: null };
  events.push({ type: 'response.created', response: started }, { type: 'response.in_progress', response: started });
  const output = response['output'] as Record<string, unknown>[];
  output.forEach((item, index) => {
    if (item['type'] === 'message') {
      const text = ((item['content'] as { text: string }[])[0]?.text ?? '');
      const half = Math.ceil(text.length / 2);
      const base = { item_id: item['id'], output_index: index, content_index: 0 };
      events.push({ type: 'response.output_item.added', output_index: index, item: { ...item, status: 'in_progress', content: [] } });
      events.push({ type: 'response.content_part.added', ...base, part: { type: 'output_text', text: '', annotations: [] } });
      for (const delta of [text.slice(0, half), text.slice(half)]) events.push({ type: 'response.output_text.delta', ...base, delta, logprobs: [] });
      events.push({ type: 'response.output_text.done', ...base, text, logprobs: [] });
      events.push({ type: 'response.content_part.done', ...base, part: { type: 'output_text', text, annotations: [] } });
    } else if (item['type'] === 'function_call') {
      events.push({ type: 'response.output_item.added', output_index: index, item: { ...item, status: 'in_progress', arguments: '' } });
      events.push({ type: 'response.function_call_arguments.delta', item_id: item['id'], output_index: index, delta: item['arguments'] });
      events.push({ type: 'response.function_call_arguments.done', item_id: item['id'], output_index: index, arguments: item['arguments'] });
    } else {
      events.push({ type: 'response.output_item.added', output_index: index, item: { ...item, status: 'in_progress' } });
    }
    events.push({ type: 'response.output_item.done', output_index: index, item });
  });
  events.push({ type: 'response.completed', response });
  return events.map((event, sequence) => ({ ...event, sequence_number: sequence }));
}

export async function startFakeResponsesUpstream(): Promise<FakeResponsesUpstream> {
  const requests: ReceivedResponsesRequest[] = [];
  let queue: ResponsesReply[] = [];
  let counter = 0;
  const server: Server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://fake').pathname;
      const body = JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as Record<string, unknown>;
      requests.push({ path, headers: request.headers, body });
      if (request.method !== 'POST' || path !== '/v1/responses') {
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `Invalid URL (${request.method} ${path})`, type: 'invalid_request_error' } }));
        return;
      }
      counter += 1;
      const reply = queue.shift() ?? { kind: 'response', response: openAiResponse(`resp_up_${counter}`, String(body['model']), [textMessage(`msg_up_${counter}`, 'ok')]) };
      if (reply.kind === 'error') {
        response.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: reply.message, type: 'server_error', param: null, code: null } }));
        return;
      }
      const answer = { ...reply.response, model: body['model'] };
      if (body['stream'] !== true) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      for (const event of eventsOf(answer)) response.write(`event: ${String(event['type'])}\ndata: ${JSON.stringify(event)}\n\n`);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue(reply) {
      queue.push(reply);
    },
    reset() {
      queue = [];
      requests.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

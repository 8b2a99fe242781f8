// A fast fake OpenAI upstream for benchmarks: a fixed JSON answer, or a 30-chunk stream with a usage chunk.
import { answerBenchControl } from './control.js';
import { createServer } from 'node:http';

const id = 'chatcmpl-bench';
const json = JSON.stringify({
  id,
  object: 'chat.completion',
  created: 1,
  model: 'bench-model',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from the bench upstream. '.repeat(8) }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 17000, completion_tokens: 60, total_tokens: 17060 },
});
const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model: 'bench-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const events = [
  chunk({ role: 'assistant', content: '' }),
  ...Array.from({ length: 30 }, (_, index) => chunk({ content: `word${index} ` })),
  chunk({}, 'stop'),
  `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model: 'bench-model', choices: [], usage: { prompt_tokens: 17000, completion_tokens: 30, total_tokens: 17030 } })}\n\n`,
  'data: [DONE]\n\n',
];

const server = createServer((request, response) => {
  const parts: Buffer[] = [];
  request.on('data', (part: Buffer) => parts.push(part));
  request.on('end', () => {
    const body = Buffer.concat(parts).toString('utf8');
    // Cheap check instead of a full parse: the upstream's own cost is not what is measured.
    if (body.includes('"stream":true')) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const event of events) response.write(event);
      response.end();
    } else {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
      response.end(json);
    }
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
answerBenchControl();

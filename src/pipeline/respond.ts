import type { ClientResponse } from './client-response.js';
import { GatewayError, toGatewayError } from '../core/errors.js';
import type { AttemptRecord, RequestRecord } from '../core/ledger-record.js';
import type { Turn } from '../core/turn.js';
import type { Usage } from '../core/usage.js';
import type { DispatchSuccess } from '../dispatch/attempt-loop.js';
import { clientAskedForUsage } from '../dispatch/prepare-body.js';
import type { PreparedBodyFacts } from '../dispatch/prepare-body.js';
import { writerEmitter } from '../wire/client-emitter.js';
import { writeJsonAsStream } from '../interceptors/json-as-stream.js';
import { relayJson } from '../interceptors/relay-json.js';
import { relayStream } from '../interceptors/relay-stream.js';
import { signatureSeparator } from '../interceptors/signature/routing-signature.js';
import { wireFormat } from '../wire/formats.js';
import type { TranslationContext } from '../wire/translate/translation.js';
import type { InterceptedCall, RecoveryFilter, ThinkingBlock } from '../wire/recovery-filter.js';
import { redactJson, redactSecrets } from '../core/redact.js';
import { sendJson } from './send.js';
import { SseWriter } from './sse-writer.js';

/** What the request_toolset recovery loop needs from the request path. */
export interface Recovery {
  toolName: string;
  maxReissues: number;
  /** Serves intercepted calls: grows the session surface, returns one tool result text per call. */
  serve(calls: InterceptedCall[], text: string, thinking: ThinkingBlock[]): Promise<void>;
  /** Adds the toolsets of calls made alongside real tools, for the session's next turn. */
  remember(calls: InterceptedCall[]): Promise<void>;
  /** Sends the grown request upstream again (same failover rules). */
  reissue(): Promise<DispatchSuccess>;
  recorded(reissues: number): void;
  /** Tokens billed for the upstream answers the client never saw (see ToolRoutingDecision.recoveryOverheadTokens). */
  recordedOverhead(tokens: number): void;
}

export interface RespondOptions {
  turn: Turn;
  /** What translating the answer into the client's format needs (`model` is replaced by the one that answered). */
  translation: TranslationContext;
  first: DispatchSuccess;
  response: ClientResponse;
  record: RequestRecord;
  signal: AbortSignal;
  facts: PreparedBodyFacts;
  route: string;
  monotonicStart: number;
  recovery?: Recovery;
  /** Headers for the response, computed when it starts. */
  headers(success: DispatchSuccess): Record<string, string>;
  /** The assistant text, for usage estimation. */
  onText(text: string): void;
  /** Set when the answer may be cached: called once with the complete answer as the client received it. */
  onCacheable?: (answer: { kind: 'json'; body: unknown } | { kind: 'stream'; frames: string[] }) => void;
  /** The most the response cache keeps of one answer. */
  cacheLimitBytes?: number;
  /** The routing signature to append to the answer (`routing.signature.enabled`), for the model that answered. */
  signature?: (success: DispatchSuccess) => string;
}

function addUsage(total: Usage | undefined, usage: Usage | undefined): Usage | undefined {
  if (!usage) return total;
  if (!total) return { ...usage };
  return {
    inputTokens: total.inputTokens + usage.inputTokens,
    outputTokens: total.outputTokens + usage.outputTokens,
    cacheReadTokens: total.cacheReadTokens + usage.cacheReadTokens,
    cacheWriteTokens: total.cacheWriteTokens + usage.cacheWriteTokens,
    reasoningTokens: total.reasoningTokens + usage.reasoningTokens,
  };
}

function tokensOf(usage: Usage | undefined): number {
  return usage ? usage.inputTokens + usage.outputTokens : 0;
}

/** Tells a non-streamed client what its usage leaves out (a stream's headers leave before any recovery). */
function overheadHeaders(tokens: number): Record<string, string> {
  return tokens > 0 ? { 'x-hermes-router-recovery-overhead-tokens': String(tokens) } : {};
}

function markFailed(record: RequestRecord, attempt: AttemptRecord, error: GatewayError): void {
  record.status = error.errorClass === 'client_closed' ? 499 : 200;
  record.errorClass = error.errorClass;
  attempt.errorClass = error.errorClass;
  attempt.errorMessage = redactSecrets(error.message).slice(0, 500);
}

/**
 * Sends the answer to the client, streaming or not. With recovery on (a narrowed tool surface), a response that
 * only asks for toolsets is not shown: the toolsets are added and the request re-issued, and the next upstream
 * response continues the same client response (at most `maxReissues` times).
 */
export async function respond(options: RespondOptions): Promise<void> {
  const { turn, record, recovery } = options;
  const clientWire = wireFormat(turn.format);
  let success = options.first;
  let reissues = 0;
  let overheadTokens = 0;
  let text = '';
  if (success.stream) {
    const writer = new SseWriter(options.response, turn.format);
    writer.start(200, options.headers(success));
    if (options.onCacheable) writer.startCapture(options.cacheLimitBytes ?? 1024 * 1024);
    record.timeToFirstByteMs = performance.now() - options.monotonicStart;
    const signature = options.signature;
    const written = writerEmitter(writer);
    const base = signature ? clientWire.appendTextToStream(written, () => `${signatureSeparator}${signature(success)}`) : written;
    const filter: RecoveryFilter | undefined = recovery ? clientWire.createRecoveryFilter(base, recovery.toolName) : undefined;
    for (;;) {
      if (!success.stream) throw new GatewayError('internal', 'a re-issued streaming request came back without a stream');
      const streamStartedAt = Date.now();
      const outcome = await relayStream({
        providerFormat: success.format,
        clientFormat: turn.format,
        first: success.stream.first,
        rest: success.stream.rest,
        writer,
        emitter: filter ?? base,
        keepOpen: filter !== undefined,
        translation: { ...options.translation, model: success.deployment.modelId },
        hideUsageChunk: options.facts.addedUsageChunk,
        clientIncludeUsage: clientAskedForUsage(turn.body),
        signal: options.signal,
      });
      success.attempt.durationMs += outcome.upstreamEndedAt - streamStartedAt;
      record.usage = addUsage(record.usage, outcome.usage);
      text += outcome.responseText;
      options.onText(text);
      if (outcome.error) {
        markFailed(record, success.attempt, outcome.error);
        return;
      }
      record.status = 200;
      if (!filter || !recovery) {
        const frames = writer.captured();
        if (frames && options.onCacheable) options.onCacheable({ kind: 'stream', frames });
        return;
      }
      const pending = filter.pendingRecovery();
      if (!pending) {
        await recovery.remember(filter.interceptedCalls());
        writer.end();
        return;
      }
      if (reissues >= recovery.maxReissues) {
        await recovery.remember(pending);
        filter.releaseHeld();
        writer.end();
        return;
      }
      reissues += 1;
      recovery.recorded(reissues);
      overheadTokens += tokensOf(outcome.usage);
      recovery.recordedOverhead(overheadTokens);
      await recovery.serve(pending, filter.responseText(), filter.thinkingBlocks());
      filter.beginContinuation();
      try {
        success = await recovery.reissue();
      } catch (caught) {
        const error = toGatewayError(caught);
        if (error.errorClass !== 'client_closed') writer.writeJson(redactJson(clientWire.errorBody(error)), clientWire.errorEventName);
        writer.end();
        markFailed(record, success.attempt, error);
        return;
      }
      record.servedProvider = success.deployment.providerId;
      record.servedModel = success.deployment.modelId;
    }
  }
  for (;;) {
    if (success.response.kind !== 'json') throw new GatewayError('internal', 'expected a JSON response');
    const relayed = relayJson(success.response.body, success.format, turn.format, { ...options.translation, model: success.deployment.modelId });
    record.usage = addUsage(record.usage, relayed.usage);
    text += relayed.responseText;
    options.onText(text);
    if (recovery) {
      const scan = clientWire.stripToolCalls(relayed.body, recovery.toolName);
      if (scan.recoveryOnly && reissues < recovery.maxReissues) {
        reissues += 1;
        recovery.recorded(reissues);
        overheadTokens += tokensOf(relayed.usage);
        recovery.recordedOverhead(overheadTokens);
        await recovery.serve(scan.calls, scan.text, scan.thinking);
        success = await recovery.reissue();
        record.servedProvider = success.deployment.providerId;
        record.servedModel = success.deployment.modelId;
        continue;
      }
      await recovery.remember(scan.calls);
    }
    record.status = 200;
    record.timeToFirstByteMs = performance.now() - options.monotonicStart;
    if (options.signature) clientWire.appendTextToBody(relayed.body, `${signatureSeparator}${options.signature(success)}`);
    if (turn.stream) {
      // The provider ignored `stream: true` and answered one JSON body: the client still gets a stream.
      const writer = new SseWriter(options.response, turn.format);
      writer.start(200, { ...options.headers(success), ...overheadHeaders(overheadTokens) });
      writeJsonAsStream(writer, relayed.body, turn.format, clientAskedForUsage(turn.body));
      return;
    }
    options.onCacheable?.({ kind: 'json', body: relayed.body });
    sendJson(options.response, 200, relayed.body, { ...options.headers(success), ...overheadHeaders(overheadTokens) });
    return;
  }
}

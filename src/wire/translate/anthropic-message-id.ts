import { anthropicToolId } from './openai-request-to-anthropic.js';

/** A Messages id for a translated response: the upstream id kept recognisable, with Anthropic's `msg_` prefix. */
export function anthropicMessageId(upstreamId: string | undefined): string {
  if (upstreamId === undefined || upstreamId.length === 0) return `msg_${crypto.randomUUID().replaceAll('-', '')}`;
  const cleaned = anthropicToolId(upstreamId);
  return cleaned.startsWith('msg_') ? cleaned : `msg_${cleaned}`;
}

import type { JsonObject } from '../../core/json.js';
import { readString } from '../json-read.js';

const dataUrlPattern = /^data:([^;,]+)(?:;[^,]*)?;base64,/;

/** An OpenAI image/file URL → an Anthropic `source`: data URLs become base64, http(s) URLs stay URLs. */
export function urlToAnthropicSource(url: string): JsonObject | undefined {
  const match = dataUrlPattern.exec(url);
  if (match !== null) {
    return { type: 'base64', media_type: match[1] ?? '', data: url.slice(match[0].length) };
  }
  if (url.startsWith('https://') || url.startsWith('http://')) return { type: 'url', url };
  return undefined;
}

/** An Anthropic `source` → a URL OpenAI accepts (a data URL for base64), or undefined for file ids and text. */
export function anthropicSourceToUrl(source: JsonObject): string | undefined {
  const type = source['type'];
  if (type === 'base64') {
    const mediaType = readString(source, 'media_type');
    const data = readString(source, 'data');
    return mediaType === undefined || data === undefined ? undefined : `data:${mediaType};base64,${data}`;
  }
  if (type === 'url') return readString(source, 'url');
  return undefined;
}

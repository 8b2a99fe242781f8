import { isMap, isNode, isScalar, parseDocument } from 'yaml';

/** A scalar as YAML writes it in a block map: plain when that reads back the same, else JSON-quoted. */
function scalarText(value: string): string {
  const plain = /^[A-Za-z0-9_./:@+-][A-Za-z0-9_./:@+ -]*$/.test(value) && !/\s$/.test(value) && !/^(true|false|null|yes|no|on|off|~|[-+]?[\d.]+)$/i.test(value);
  return plain && !value.includes(': ') && !value.includes(' #') ? value : JSON.stringify(value);
}

/**
 * Sets `parent.key: value` in a YAML file by editing its text, so every other line keeps its bytes (comments,
 * spacing, quoting, long lines): an existing scalar is replaced where it stands; a missing key is added as the
 * last line of its block map with that map's indentation; a missing top-level map is appended. Returns undefined
 * when the shape is one this cannot edit in place (a flow map, a non-scalar value), for the caller to fall back.
 */
export function setBlockScalar(text: string, parent: string, key: string, value: string): string | undefined {
  const document = parseDocument(text, { keepSourceTokens: true });
  const map = document.get(parent, true);
  if (map === undefined || map === null) {
    const separator = text === '' || text.endsWith('\n') ? '' : '\n';
    return `${text}${separator}${parent}:\n  ${key}: ${scalarText(value)}\n`;
  }
  if (!isMap(map) || map.flow || map.range === undefined || map.range === null) return undefined;
  const existing = map.get(key, true);
  if (existing !== undefined) {
    if (!isScalar(existing) || !existing.range) return undefined;
    if (existing.value === value) return text;
    return `${text.slice(0, existing.range[0])}${scalarText(value)}${text.slice(existing.range[1])}`;
  }
  const first = map.items[0]?.key;
  const lastValue = map.items.at(-1)?.value;
  const lastRange = isNode(lastValue) ? lastValue.range : undefined;
  if (!isScalar(first) || !first.range || !lastRange) return undefined;
  const lineStart = text.lastIndexOf('\n', first.range[0] - 1) + 1;
  const indent = text.slice(lineStart, first.range[0]);
  if (indent.trim() !== '') return undefined;
  // After the last item's line (its trailing comment included).
  const lineEnd = text.indexOf('\n', lastRange[1]);
  const at = lineEnd === -1 ? text.length : lineEnd;
  return `${text.slice(0, at)}\n${indent}${key}: ${scalarText(value)}${text.slice(at)}`;
}

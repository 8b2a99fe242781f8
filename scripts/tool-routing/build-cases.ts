/**
 * Turns the hand-written case sheets (data/tool-routing/cases.*.txt, one line per case, easy to review) into the
 * EVALS.md JSONL format. Run: npx tsx scripts/tool-routing/build-cases.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const criticalToolsets = new Set(['terminal', 'file', 'browser', 'cronjob']);
const directory = fileURLToPath(new URL('../../data/tool-routing/', import.meta.url));

function list(field: string): string[] {
  return field === '-' ? [] : field.split(',').map((item) => item.trim()).filter(Boolean);
}

function build(sheet: string, prefix: string): void {
  const lines = readFileSync(`${directory}${sheet}.txt`, 'utf8').split('\n');
  const output: string[] = [];
  let number = 0;
  for (const line of lines) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [registryCode, required, anyGroups, extras, ...rest] = line.split(' | ');
    const text = rest.join(' | ').trim();
    if (!registryCode || required === undefined || anyGroups === undefined || extras === undefined || !text) throw new Error(`bad line: ${line}`);
    number += 1;
    const requiredToolsets = list(required);
    const requiredAny = anyGroups === '-' ? [] : anyGroups.split(';').map((group) => group.trim().split('/'));
    const withImage = text.startsWith('[img] ');
    const content = withImage
      ? [{ type: 'text', text: text.slice(6) }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }]
      : text;
    const critical = requiredToolsets.some((toolset) => criticalToolsets.has(toolset)) || requiredAny.some((group) => group.some((toolset) => criticalToolsets.has(toolset)));
    output.push(
      JSON.stringify({
        id: `${prefix}-${String(number).padStart(3, '0')}`,
        registry: registryCode === 'f' ? 'full' : 'cli',
        messages: [{ role: 'user', content }],
        required_toolsets: requiredToolsets,
        ...(requiredAny.length > 0 ? { required_any: requiredAny } : {}),
        acceptable_extra_toolsets: list(extras),
        critical,
      }),
    );
  }
  writeFileSync(`${directory}${sheet}.jsonl`, `${output.join('\n')}\n`);
}

build('cases.dev', 'dev');
build('cases.heldout', 'heldout');
build('cases.heldout2', 'heldout2');
build('cases.heldout3', 'heldout3');
build('cases.heldout4', 'heldout4');
build('cases.tools-heldout', 'tools-heldout');
build('cases.tools-dev', 'tools-dev');
build('cases.tools-heldout2', 'tools-heldout2');

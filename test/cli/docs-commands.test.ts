import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandLoaders } from '../../src/cli/commands.js';

const root = new URL('../..', import.meta.url).pathname;
const documents = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
const text = (name: string) => readFileSync(join(root, name), 'utf8');
const groups = new Set(Object.keys(commandLoaders).map((name) => name.split(' ')[0]));

/** Every `hermes-router …` command line the docs show (in code spans and blocks), first words only. */
function documentedCommands(markdown: string): string[] {
  const code = [...markdown.matchAll(/```[a-z]*\n([\s\S]*?)```/g), ...markdown.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] ?? '');
  return code.flatMap((snippet) => [...snippet.matchAll(/(?:^|[\s(;])(?:npx )?hermes-router ((?:[a-z][a-z-]*)(?: [a-z][a-z-]*)?)/g)].map((match) => match[1] ?? ''));
}

describe('the docs name commands that exist and stay inside the repository', () => {
  it.each(documents)('%s: every hermes-router command it shows exists', (name) => {
    const unknown = documentedCommands(text(name)).filter((words) => {
      const [first, second] = words.split(' ');
      if (first === 'help' || first === 'version') return false;
      if (commandLoaders[`${first} ${second}`] || commandLoaders[first ?? '']) return false;
      // `hermes-router report` alone lists the group; `report daily|sessions` is shorthand the README uses.
      return !(groups.has(first) && (second === undefined || !/^[a-z]/.test(second)));
    });
    expect(unknown).toEqual([]);
  });

  it.each(documents)('%s: no link or path outside the repository (../shared, /work/…)', (name) => {
    expect(text(name)).not.toMatch(/\.\.\/shared|\/work\/(shared|main|heldout)/);
  });

  it('the getting-started page covers install, setup hermes, verify, a first report and the dashboard', () => {
    const page = text('docs/getting-started-hermes.md');
    for (const step of ['npm ci', 'hermes-router setup hermes', 'hermes-router doctor', 'hermes-router report', 'dashboard', 'hermes-router service install']) {
      expect(page).toContain(step);
    }
    expect(text('README.md')).toContain('docs/getting-started-hermes.md');
  });
});

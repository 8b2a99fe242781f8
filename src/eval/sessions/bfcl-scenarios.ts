import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isJsonObject } from '../../core/json.js';
import { readBfclClasses } from '../bfcl-files.js';
import type { Scenario } from './scenarios.js';

export interface BfclSessions {
  scenarios: Scenario[];
  /** A directory holding `tools.bfcl.json`: every class's functions, each tagged with its class as toolset. */
  registries: string;
  /** `tool_routing.toolsets`: the 8 API classes as the toolsets of a non-Hermes agent. */
  toolRouting: Record<string, unknown>;
}

/**
 * BFCL multi-turn rows as session scenarios: the client offers all API classes on every turn; each turn needs
 * the classes BFCL says it uses. The classes become configured toolsets, as a user of another agent would write.
 */
export function bfclSessions(rowsPath: string, classesPath: string): BfclSessions {
  const classes = readBfclClasses(classesPath);
  const tools: unknown[] = [];
  const toolsets: Record<string, { tools: string[]; description: string }> = {};
  for (const [className, functions] of Object.entries(classes)) {
    toolsets[className] = { tools: functions.map((fn) => fn.name), description: `${className} API` };
    for (const fn of functions) {
      tools.push({
        type: 'function',
        function: { name: fn.name, description: fn.description ?? '', parameters: fn.parameters ?? { type: 'object', properties: {} } },
        toolset: className,
      });
    }
  }
  const registries = mkdtempSync(join(tmpdir(), 'hermes-router-bfcl-'));
  writeFileSync(join(registries, 'tools.bfcl.json'), JSON.stringify(tools));
  const scenarios: Scenario[] = readFileSync(rowsPath, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        throw new Error(`${rowsPath}:${index + 1}: not JSON; --bfcl wants one BFCL multi-turn row per line`);
      }
    })
    .filter(isJsonObject)
    .map((row) => {
      const turns = Array.isArray(row.user_turns) ? row.user_turns : [];
      const needs = Array.isArray(row.classes_per_turn) ? row.classes_per_turn : [];
      return {
        id: String(row.id),
        registry: 'bfcl',
        turns: turns.map((user, index) => ({
          user: String(user),
          needs: (Array.isArray(needs[index]) ? (needs[index] as unknown[]) : []).map(String),
          call_pruned: false,
        })),
      };
    })
    .filter((scenario) => scenario.turns.length > 0);
  return { scenarios, registries, toolRouting: { toolsets, prefix_grouping: false } };
}

import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import type { Intent, Topic } from './taxonomy.js';
import { intents, isTopic } from './taxonomy.js';

/** One hand-written training example: user turns oldest first, labelled for the last one. */
export interface TopicTrainingExample {
  turns: string[];
  topic: Topic;
  intent: Intent;
  source: string;
}

const rowSchema = z.object({ intent: z.enum(intents), turns: z.array(z.string()).min(1) });

/**
 * Reads data/topics/train/<topic>.jsonl and <topic>.<batch>.jsonl files; the file name up to its first dot is
 * the topic label. Turns starting with `A: ` are
 * assistant replies kept for readability; the classifier reads user turns only, so they are dropped.
 */
export function readTopicTrainingData(directory: string): TopicTrainingExample[] {
  const examples: TopicTrainingExample[] = [];
  for (const file of readdirSync(directory).filter((name) => name.endsWith('.jsonl')).sort()) {
    const topic = basename(file, '.jsonl').split('.')[0]!;
    if (!isTopic(topic)) throw new Error(`${file}: the file name must be a topic`);
    readFileSync(join(directory, file), 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (!line.trim()) return;
        const row = rowSchema.parse(JSON.parse(line));
        examples.push({ turns: row.turns.filter((turn) => !turn.startsWith('A: ')), topic, intent: row.intent, source: `${file}:${index + 1}` });
      });
  }
  return examples;
}

import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { messageText } from './conversation.js';
import type { Intent, Topic } from './taxonomy.js';
import { intents, isTopic, usualIntent } from './taxonomy.js';

/** One hand-written training example: user turns oldest first, labelled for the last one. */
export interface TopicTrainingExample {
  turns: string[];
  topic: Topic;
  /** Absent: the example trains the subject head only. */
  intent?: Intent;
  source: string;
  /** Who wrote it (`writer-1`…) for examples from data/topics/train-writers/; leave-one-writer-out drops by this. */
  writer?: string;
  /** How much the example counts in training (1 by default). */
  weight?: number;
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

const caseRowSchema = z.object({
  id: z.string(),
  messages: z.array(z.object({ role: z.string(), content: z.unknown() })).min(1),
  topic: z.string(),
  acceptable_topics: z.array(z.string()).optional(),
});

/**
 * How much a writer's case counts against a hand-written example. Left out one writer at a time, weight 2 kept
 * accuracy (0.854 → 0.853) and raised none precision (0.953 → 0.965) with three writers: other people's
 * phrasings are what the hand-written batches lack. With five writers, weight 3 raised every left-out writer's
 * accuracy (mean 0.874 → 0.880, none precision 0.985 → 0.986); weight 4 gave back part of it.
 */
const writerExampleWeight = 3;

/**
 * Reads topic cases written as training data by writers who never saw the model (data/topics/train-writers/
 * `<writer>.topics.jsonl`, the eval case format of EVALS.md): the user turns, labelled with `topic` for the
 * last one. The writer is the file name up to its first dot. The cases carry no intent: they get their topic's
 * usual one (`usualIntent`), so the intent head learns from them too.
 */
export function readWriterTrainingData(directory: string): TopicTrainingExample[] {
  const examples: TopicTrainingExample[] = [];
  for (const file of readdirSync(directory).filter((name) => name.endsWith('.jsonl')).sort()) {
    const writer = file.split('.')[0]!;
    readFileSync(join(directory, file), 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (!line.trim()) return;
        const row = caseRowSchema.parse(JSON.parse(line));
        if (!isTopic(row.topic)) throw new Error(`${file}:${index + 1}: unknown topic ${row.topic}`);
        const turns = row.messages.filter((message) => message.role === 'user').map((message) => messageText(message.content));
        if (!turns.length) return;
        examples.push({ turns, topic: row.topic, intent: usualIntent(row.topic), source: `${file}:${index + 1}`, writer, weight: writerExampleWeight });
      });
  }
  return examples;
}

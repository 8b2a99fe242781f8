/**
 * The folds of a leave-one-writer-out run over data/topics: the writers (all, or those asked for as a
 * comma-separated list), each writer's case file, and the training examples without that writer (the hand-written
 * set, every other writer, and CLINC's borrowed `none` rows when the shared corpora are there). Shared by the
 * leave-one-writer-out scripts so that they leave writers out the same way.
 */
import { existsSync } from 'node:fs';
import { readTopicTrainingData, readWriterTrainingData } from '../../src/classify/topic/training-data.js';
import type { TopicTrainingExample } from '../../src/classify/topic/training-data.js';
import { clincNoneExamples } from './clinc-none-examples.js';

const writersDirectory = 'data/topics/train-writers';
const clincPath = '../shared/corpora/external/clinc150_domains.jsonl';

export interface WriterFolds {
  names: string[];
  casesPath(writer: string): string;
  trainingWithout(writer: string): TopicTrainingExample[];
}

export function writerFolds(requested?: string): WriterFolds {
  const handWritten = readTopicTrainingData('data/topics/train');
  const writers = readWriterTrainingData(writersDirectory);
  const borrowed = existsSync(clincPath) ? clincNoneExamples(clincPath) : [];
  return {
    names: requested ? requested.split(',') : [...new Set(writers.map((example) => example.writer!))],
    casesPath: (writer) => `${writersDirectory}/${writer}.topics.jsonl`,
    trainingWithout: (writer) => [...handWritten, ...writers.filter((example) => example.writer !== writer), ...borrowed],
  };
}

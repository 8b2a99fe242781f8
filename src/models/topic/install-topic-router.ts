import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import type { ModelRouter } from '../model-router.js';
import type { TopicRoutingConfig } from './config.js';
import { EngineTopicRouter } from './topic-policy-router.js';
import { TopicRoutingEngine } from './topic-router.js';

/**
 * Puts the topic router into the model router's topic slot when `topic_routing` maps at least one topic or
 * route to a model; otherwise topics could only ever route to the default model, so nothing is loaded.
 */
export function installTopicRouter(router: ModelRouter, config: TopicRoutingConfig, dataDir: string, logger: Logger): void {
  if (!config.enabled) return;
  if (Object.keys(config.topics).length === 0 && config.routes.length === 0) return;
  let agentsMarkdown: string | undefined;
  if (config.agents_file) {
    try {
      agentsMarkdown = readFileSync(resolve(dataDir, config.agents_file), 'utf8');
    } catch (error) {
      logger.warn({ err: error, file: config.agents_file }, 'topic routing: the agents file could not be read; no personas');
    }
  }
  try {
    router.setTopicRouter(new EngineTopicRouter(new TopicRoutingEngine(config, agentsMarkdown === undefined ? {} : { agentsMarkdown })));
  } catch (error) {
    // Fail open: without the topic router the other policies still route every request.
    logger.error({ err: error }, 'topic routing could not start; requests are routed without it');
  }
}

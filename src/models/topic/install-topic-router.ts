import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import type { ModelRouter } from '../model-router.js';
import type { TopicRoutingConfig } from '../../config/topic-routing.js';
import type { TopicSessionStore } from './inertia-store.js';
import { EngineTopicRouter } from './topic-policy-router.js';
import { TopicRoutingEngine } from './topic-router.js';

/** Whether `installTopicRouter` installs anything: enabled, and at least one topic or route maps to a model. */
export function topicRoutingActive(config: TopicRoutingConfig): boolean {
  return config.enabled && (Object.keys(config.topics).length > 0 || config.routes.length > 0);
}

/**
 * Puts the topic router into the model router's topic slot when `topic_routing` maps at least one topic or
 * route to a model; otherwise topics could only ever route to the default model, so nothing is loaded.
 * `sessions` keeps the per-session inertia (memory unless the cluster storage shares it).
 */
export function installTopicRouter(router: ModelRouter, config: TopicRoutingConfig, dataDir: string, logger: Logger, sessions?: TopicSessionStore): void {
  if (!topicRoutingActive(config)) return;
  let agentsMarkdown: string | undefined;
  if (config.agents_file) {
    try {
      agentsMarkdown = readFileSync(resolve(dataDir, config.agents_file), 'utf8');
    } catch (error) {
      logger.warn({ err: error, file: config.agents_file }, 'topic routing: the agents file could not be read; no personas');
    }
  }
  try {
    const engine = new TopicRoutingEngine(config, agentsMarkdown === undefined ? {} : { agentsMarkdown });
    router.setTopicRouter(new EngineTopicRouter(engine, sessions));
  } catch (error) {
    // Fail open: without the topic router the other policies still route every request.
    logger.error({ err: error }, 'topic routing could not start; requests are routed without it');
  }
}

import type { TopicClassification } from '../../classify/topic/classifier.js';
import { TopicClassifier } from '../../classify/topic/classifier.js';
import type { ChatMessageLike } from '../../classify/topic/conversation.js';
import { isShortFollowUp, recentUserTurns } from '../../classify/topic/conversation.js';
import type { RouteMatch } from '../../classify/routes/route-classifier.js';
import { RouteClassifier } from '../../classify/routes/route-classifier.js';
import type { TopicRoutingConfig, TopicTarget } from '../../config/topic-routing.js';
import type { TopicSessionState } from './inertia.js';
import { nextTopicState } from './inertia.js';
import { parsePersonas, personaFor } from './persona.js';
import { stripSkipPrefix } from './skip-prefix.js';

export interface TopicRouteDecision<Message extends ChatMessageLike = ChatMessageLike> {
  /** The messages to send upstream (a skip prefix removed). */
  messages: Message[];
  /** `skip` (prefix), a user-defined route name, an ARC topic, or `none` (default model). */
  topic: string;
  source: 'skip' | 'route' | 'topic';
  /** The configured target for `topic`; undefined = the default model. */
  target?: TopicTarget;
  persona?: string;
  /** Store this for the session and pass it back next turn (unchanged by a skipped turn). */
  state: TopicSessionState | undefined;
  /** Why, for the decision record: the inertia transition plus the classifier's deciding features. */
  reason: string;
  classification?: TopicClassification;
  routeMatch?: RouteMatch;
}

export interface TopicRoutingEngineOptions {
  /** Contents of `agents_file`, already read (the engine does no I/O). */
  agentsMarkdown?: string;
  classifier?: TopicClassifier;
}

/**
 * Topic routing for one turn, without I/O: skip prefix → user-defined routes → ARC topic classification →
 * per-session inertia → target and persona lookup. The caller keeps `state` per session and renders the
 * signature from `topic` once the final model is known.
 */
export class TopicRoutingEngine {
  private readonly classifier: TopicClassifier;
  private readonly routes: RouteClassifier | undefined;
  private readonly agentsPersonas: Map<string, string>;

  constructor(private readonly config: TopicRoutingConfig, options: TopicRoutingEngineOptions = {}) {
    this.classifier = options.classifier ?? new TopicClassifier({ mode: config.mode, minConfidence: config.min_confidence, contextTurns: config.context_turns });
    this.routes = config.routes.length
      ? new RouteClassifier(config.routes, { negatives: config.route_negatives, threshold: config.route_threshold, minSimilarity: config.route_min_similarity })
      : undefined;
    // Start-up pays for reading the tables and compiling the code (tens of milliseconds), not the first request.
    this.classifier.warmUp();
    for (const text of ['hello there', 'can you help me with this?']) this.routes?.match(text);
    this.agentsPersonas = options.agentsMarkdown ? parsePersonas(options.agentsMarkdown) : new Map();
  }

  decide<Message extends ChatMessageLike>(messages: readonly Message[], previousState: TopicSessionState | undefined): TopicRouteDecision<Message> {
    const stripped = stripSkipPrefix(messages);
    if (stripped.skipped) {
      return { messages: stripped.messages, topic: 'skip', source: 'skip', state: previousState, reason: `skip prefix ${stripped.prefix}` };
    }
    const current = recentUserTurns(messages, 1)[0] ?? '';
    const routeMatch = this.routes?.match(current);
    if (routeMatch?.route) {
      const transition = nextTopicState(previousState, { topic: routeMatch.route, confidence: routeMatch.confidence }, this.inertiaOptions());
      return {
        messages: stripped.messages,
        topic: transition.topic,
        source: transition.topic === routeMatch.route ? 'route' : 'topic',
        target: this.targetFor(transition.topic),
        persona: this.personaOf(transition.topic),
        state: transition.state,
        reason: `route ${routeMatch.route} p=${routeMatch.confidence}: ${transition.reason}`,
        routeMatch,
      };
    }
    const classification = this.classifier.classify(messages);
    const transition = nextTopicState(previousState, { topic: classification.topic, confidence: classification.confidence, shortFollowUp: isShortFollowUp(messages) }, this.inertiaOptions());
    const features = classification.features.slice(0, 3).map((item) => item.feature).join(', ');
    return {
      messages: stripped.messages,
      topic: transition.topic,
      source: 'topic',
      target: this.targetFor(transition.topic),
      persona: this.personaOf(transition.topic),
      state: transition.state,
      reason: `${classification.intent}→${classification.topic} p=${classification.confidence} by ${classification.decidedBy}${features ? ` (${features})` : ''}: ${transition.reason}`,
      classification,
      routeMatch,
    };
  }

  private inertiaOptions() {
    return { inertia: this.config.inertia, switchConfidence: this.config.switch_confidence };
  }

  private targetFor(topic: string): TopicTarget | undefined {
    if (topic === 'none') return undefined;
    const route = this.config.routes.find((candidate) => candidate.name === topic);
    if (route) return { model: route.model, provider: route.provider, fallbacks: route.fallbacks, persona: route.persona };
    return (this.config.topics as Record<string, TopicTarget | undefined>)[topic];
  }

  /**
   * A route's or topic's configured persona, else its `agents_file` section. Looked up by the topic inertia
   * settled on, not the one this turn matched: a session held on a route keeps that route's persona.
   */
  private personaOf(topic: string): string | undefined {
    if (topic === 'none') return undefined;
    const route = this.config.routes.find((candidate) => candidate.name === topic);
    if (route?.persona) return route.persona;
    return personaFor(topic, this.config.topics as Record<string, TopicTarget | undefined>, this.agentsPersonas);
  }
}

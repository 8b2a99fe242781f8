import type { Deployment } from '../../catalog/deployment.js';
import type { ModelRoutingDecision } from '../../core/route-decision.js';
import type { Turn } from '../../core/turn.js';
import { inheritRawBody } from '../../wire/raw-body.js';
import { systemPromptMembers } from '../../wire/system-prompt.js';
import type { RoutedPersona } from '../policies/routing-policy.js';

/**
 * The turn each attempt prepares its upstream body from. An attempt on the topic's own chain (its target and
 * topic fallbacks) gets the persona appended to the system prompt, in the client's format, and is recorded in
 * `decision.persona`; any other attempt (the global default after the chain failed, a model affinity kept) gets
 * the turn as it is. The persona is a property of the topic's route, like its fallbacks: a general model answering
 * keeps the client's own prompt, and keeps its prompt cache for the session.
 *
 * Built per attempt from the current body (a tool-set recovery turn appended between attempts is kept), as a
 * shallow copy that shares the client's raw bytes: only the replaced system member is serialised again, and the
 * parsed body is never changed.
 */
export function personaAttempts(turn: Turn, persona: RoutedPersona | undefined, decision: ModelRoutingDecision): (deployment: Deployment) => Turn {
  if (!persona) return () => turn;
  return (deployment) => {
    if (!persona.deployments.includes(deployment.qualifiedName)) return turn;
    const body = { ...turn.body, ...systemPromptMembers(turn.format, turn.body, persona.text) };
    inheritRawBody(body, turn.body);
    decision.persona ??= { topic: persona.topic, sentTo: [] };
    if (!decision.persona.sentTo.includes(deployment.qualifiedName)) decision.persona.sentTo.push(deployment.qualifiedName);
    return { ...turn, body };
  };
}

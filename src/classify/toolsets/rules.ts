import type { FramedToken } from '../features/scopes.js';

/**
 * A few high-precision rules on top of the model. They only ever ADD toolsets (a rule can raise recall, never
 * lower it), and they read only words used as instructions: negated and quoted words were framed away already.
 */
export interface RuleResult {
  toolsets: Set<string>;
  capabilityInquiry: boolean;
  fired: string[];
}

interface Rule {
  name: string;
  toolsets: string[];
  /** Matched against the plain (instruction) words joined by spaces, lower case. */
  pattern: RegExp;
}

const rules: Rule[] = [
  { name: 'cron-words', toolsets: ['cronjob'], pattern: /\b(cron ?jobs?|crontab|scheduled (jobs?|tasks?|reminders?)|remind me|set (a|up a) reminder|reminders?)\b|定时任务|提醒我|闹钟|每天.{0,6}提醒|每周.{0,6}提醒/ },
  { name: 'subagent-words', toolsets: ['delegation'], pattern: /\bsub-?agents?\b|子代理|子智能体/ },
  { name: 'browser-words', toolsets: ['browser'], pattern: /\b(in|with|use|using|open) (the |a )?(web )?browser\b|\bheadless\b|浏览器/ },
  { name: 'terminal-words', toolsets: ['terminal'], pattern: /\b(in|on|use|using|from) (the )?(terminal|shell|command line)\b|终端|命令行/ },
  { name: 'spotify', toolsets: ['spotify'], pattern: /\bspotify\b/ },
  { name: 'kanban', toolsets: ['kanban'], pattern: /\bkanban\b|看板/ },
  { name: 'discord', toolsets: ['discord'], pattern: /\bdiscord\b/ },
  { name: 'x-search', toolsets: ['x_search'], pattern: /\b(twitter|tweets?)\b|推特/ },
  { name: 'home-assistant', toolsets: ['homeassistant'], pattern: /\bhome ?assistant\b|\bthermostat\b/ },
];

const capabilityPatterns = [
  /^(hi|hello|hey|ok|so)?\W*(what (can|could) you (do|help( me)? with)|what are you (capable of|able to do)|what (tools|toolsets|capabilities) (do )?you have|(list|show)( me)?( all)? (of )?your (tools|toolsets|capabilities|functions)|list all the tools you have( access to)?|which tools (do )?you have|what (sorts?|kinds?) of things can you (help( me)? with|do)|what do you do|tell me what you('| a)re able to help with)\W*(for me)?\W*$/,
  /^(你好|您好|嗨)?\W*(你|您)(能|可以|都能|都可以)(帮我)?(做|干)(些|哪些)?(什么|哪些事情?)\W*$|^(你|您)(有|都有)(哪些|什么)(工具|功能|能力)\W*$|^(你|您)都会(些)?什么\W*$/,
];

export function applyRules(tokens: readonly FramedToken[], rawText: string, hasImage: boolean): RuleResult {
  const plain = tokens.filter((token) => token.frame === 'plain').map((token) => token.text).join(' ');
  const toolsets = new Set<string>();
  const fired: string[] = [];
  for (const rule of rules) {
    if (!rule.pattern.test(plain)) continue;
    fired.push(rule.name);
    for (const toolset of rule.toolsets) toolsets.add(toolset);
  }
  if (hasImage) {
    toolsets.add('vision');
    fired.push('image-attached');
  }
  if (/https?:\/\/\S+/i.test(rawText) && plainMentionsUrl(tokens)) {
    toolsets.add('web');
    fired.push('url');
  }
  const compact = rawText.trim().toLowerCase().replace(/\s+/g, ' ');
  const capabilityInquiry = compact.length <= 80 && capabilityPatterns.some((pattern) => pattern.test(compact));
  return { toolsets, capabilityInquiry, fired };
}

/** A URL inside quotes or a negation ("don't open https://…") is not a page to fetch. */
function plainMentionsUrl(tokens: readonly FramedToken[]): boolean {
  return tokens.some((token) => token.frame === 'plain' && /^https?:\/\//.test(token.text));
}

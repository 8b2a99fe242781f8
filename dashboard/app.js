// The hermes-router dashboard: plain DOM, no framework, every value rendered as text (never as HTML).
import { chart } from './charts.js';

const colors = { blue: '#2f6fdb', green: '#2f9e5b', orange: '#e0702f', purple: '#8a4fd0', grey: '#9aa1ad' };
// The CSRF token of the dashboard session (the session itself is an HttpOnly cookie the page never sees).
const auth = { csrfToken: null };
const state = { view: 'overview', sessionId: null, sessionsOffset: 0, search: '', refreshMs: 10000, timer: null, busy: false };

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const count = (value) => integer.format(value ?? 0);
const usd = (value) => (value !== 0 && Math.abs(value) < 1 ? `$${value.toFixed(4)}` : `$${(value ?? 0).toFixed(2)}`);
const countOrDash = (value) => (value === null || value === undefined ? '-' : count(value));
const percent = (value) => (value === null || value === undefined ? '?' : `${Math.round(value * 100)}%`);
const time = (epoch) => new Date(epoch).toLocaleString();
const tokensShort = (value) => (value >= 1e6 ? `${(value / 1e6).toFixed(1)}M` : value >= 1e3 ? `${(value / 1e3).toFixed(0)}k` : String(Math.round(value)));

/** `h('td', {class: 'number'}, 'text', child)`: strings become text nodes, so data never becomes markup. */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** A number, a short label and note; how the number is computed (`method`) sits behind a "how" toggle. */
function card(label, value, note, testId, method) {
  return h(
    'div',
    { class: 'card' },
    h('div', { class: 'label' }, label),
    h('div', { class: 'value', 'data-testid': testId }, value),
    note ? h('div', { class: 'note' }, note) : null,
    method ? h('details', { class: 'method' }, h('summary', {}, 'how'), h('p', {}, method)) : null,
  );
}

function panel(title, ...children) {
  return h('div', { class: 'panel' }, h('h3', {}, title), ...children);
}

/** columns: [{header, cell(row) → string|Node, number?, wideOnly? (hidden on a narrow window)}] */
function table(columns, rows, attributes = {}) {
  const classOf = (column) => [column.number ? 'number' : null, column.wideOnly ? 'wide-only' : null].filter(Boolean).join(' ') || undefined;
  return h(
    'table',
    attributes,
    h('thead', {}, h('tr', {}, columns.map((column) => h('th', { class: classOf(column) }, column.header)))),
    h('tbody', {}, rows.map((row) => h('tr', {}, columns.map((column) => h('td', { class: classOf(column) }, column.cell(row)))))),
  );
}

function grade(value) {
  return h('span', { class: `grade grade-${value ?? 'none'}` }, value ?? '-');
}

/** A fingerprinted id is a hash: shown short (the full id in the tooltip); imported Hermes sessions say so. */
function sessionIdLabel(id) {
  if (id.startsWith('fp_')) return `session ${id.slice(3, 9)}`;
  if (id.startsWith('hermes:')) return `Hermes ${id.slice(7, 15)} (imported)`;
  return id;
}

/** What a person recognises a session by: the title its agent generated, else its first prompt, else its id. */
function sessionLabel(id, labels) {
  return labels?.title ?? labels?.firstPrompt ?? sessionIdLabel(id);
}

/** `labels`: a session's stats (title, firstPrompt, agent), when the row has them. */
function sessionLink(id, labels) {
  const tooltip = [labels?.firstPrompt && labels.firstPrompt !== sessionLabel(id, labels) ? labels.firstPrompt : null, id].filter(Boolean).join('\n');
  return h('a', { href: `#session/${encodeURIComponent(id)}`, title: tooltip, class: 'session-link' }, sessionLabel(id, labels));
}

function surfaceChangeText(change) {
  return change.kind === 'anticipated' ? `grew: ${change.toolsets.join(', ')}` : `request_toolset${change.recoveries > 1 ? ` ×${change.recoveries}` : ''}`;
}

class Unauthorized extends Error {}

async function api(view, parameters = {}) {
  const range = document.getElementById('range').value;
  const query = new URLSearchParams({ days: range, tz: String(-new Date().getTimezoneOffset()), ...parameters });
  const response = await fetch(`/dashboard/api/${view}?${query}`, { credentials: 'same-origin' });
  if (response.status === 401 || response.status === 403) throw new Unauthorized((await response.json()).error?.message ?? 'not allowed');
  if (!response.ok) throw new Error((await response.json().catch(() => ({}))).error?.message ?? `HTTP ${response.status}`);
  return response.json();
}

const views = {
  async overview(root) {
    const data = await api('overview');
    state.refreshMs = data.refreshMs ?? state.refreshMs;
    const { totals, savings, days } = data;
    root.append(
      h(
        'div',
        { class: 'cards' },
        card('Requests', count(totals.requests), `${count(totals.failedRequests)} failed`, 'total-requests'),
        card('Input tokens', count(totals.inputTokens), `${count(totals.cacheReadTokens)} from cache`, 'total-input'),
        card('Output tokens', count(totals.outputTokens), null, 'total-output'),
        card('Spend', usd(totals.costUsd), totals.unpricedRequests ? `${count(totals.unpricedRequests)} unpriced, not included` : 'all requests priced', 'total-spend'),
        card('Saved', usd(savings.totalUsd), 'tools, routing, cache', 'total-saved', 'The sum of the three savings below: tool schemas removed, model routing and the prompt cache.'),
      ),
      h(
        'div',
        { class: 'cards' },
        card('Tool schemas removed', usd(savings.toolSchema.usd), `${count(savings.toolSchema.tokens)} tokens`, 'saved-tools', savings.toolSchema.method),
        card('Model routing', usd(savings.modelRouting.usd), 'vs. the model asked for', 'saved-routing', savings.modelRouting.method),
        card('Prompt cache', usd(savings.promptCache.usd), `${count(savings.promptCache.tokens)} cache-read tokens`, 'saved-cache', savings.promptCache.method),
      ),
    );
    const labels = days.map((day) => day.date);
    const requests = panel('Requests per day');
    chart(requests, { labels, kind: 'bar', series: [{ name: 'requests', color: colors.blue, values: days.map((day) => day.requests) }, { name: 'failed', color: colors.orange, values: days.map((day) => day.failedRequests) }], format: (value) => count(value) });
    const money = panel('Spend and savings per day (USD)');
    chart(money, { labels, series: [{ name: 'spend', color: colors.orange, values: days.map((day) => day.costUsd) }, { name: 'saved', color: colors.green, values: days.map((day) => day.savingsUsd) }], format: (value) => usd(value) });
    const tokens = panel('Tokens per day');
    chart(tokens, { labels, series: [{ name: 'input', color: colors.blue, values: days.map((day) => day.inputTokens) }, { name: 'cache read', color: colors.purple, values: days.map((day) => day.cacheReadTokens) }, { name: 'output', color: colors.green, values: days.map((day) => day.outputTokens) }], format: tokensShort });
    root.append(requests, money, tokens);
    const budgets = (await api('budgets')).budgets;
    if (budgets.length > 0) {
      const amount = (unit, value) => (unit === 'usd' ? usd(value) : `${count(value)} tokens`);
      root.append(panel('Budgets', table([
        { header: 'Budget', cell: (row) => row.label },
        { header: 'Window', cell: (row) => row.windowId },
        { header: 'Spent', number: true, cell: (row) => amount(row.unit, row.spent) },
        { header: 'Running', number: true, cell: (row) => amount(row.unit, row.held) },
        { header: 'Limit', number: true, cell: (row) => amount(row.unit, row.limit) },
        { header: 'Used', number: true, cell: (row) => percent(row.fraction) },
        { header: 'State', cell: (row) => h('span', { class: `budget-${row.state}` }, row.state === 'exceeded' ? 'refusing' : row.state) },
        { header: 'Resets', cell: (row) => (row.resetsAt ? time(Date.parse(row.resetsAt)) : '-') },
      ], budgets, { 'data-testid': 'budgets-table' })));
    }
  },

  async routing(root) {
    const data = await api('routing');
    root.append(
      h('div', { class: 'cards' }, card('Full-surface fallbacks', count(data.fullSurfaceFallbacks), 'requests sent every tool', 'full-fallbacks'), card('Tool recoveries', count(data.recoveries), 'narrowed surfaces widened on demand', 'tool-recoveries')),
      panel('Tool surfaces', table([
        { header: 'Mode', cell: (row) => row.mode },
        { header: 'Outcome', cell: (row) => row.outcome },
        { header: 'Requests', number: true, cell: (row) => count(row.requests) },
        { header: 'Full schema tokens', number: true, cell: (row) => count(row.fullSchemaTokens) },
        { header: 'Sent schema tokens', number: true, cell: (row) => count(row.sentSchemaTokens) },
        { header: 'Recoveries', number: true, cell: (row) => count(row.recoveries) },
      ], data.tools)),
      panel('Model routes', table([
        { header: 'Policy', cell: (row) => row.policy },
        { header: 'Requested', cell: (row) => row.requestedModel },
        { header: 'Served', cell: (row) => row.servedModel ?? '(unserved)' },
        { header: 'Requests', number: true, cell: (row) => count(row.requests) },
        { header: 'Failovers', number: true, cell: (row) => count(row.failovers) },
        { header: 'Failed', number: true, cell: (row) => count(row.failed) },
      ], data.modelRoutes)),
      panel('Failed upstream attempts (what trips breakers and causes failovers)', table([
        { header: 'Provider', cell: (row) => row.provider },
        { header: 'Model', cell: (row) => row.model },
        { header: 'Error', cell: (row) => row.errorClass },
        { header: 'Attempts', number: true, cell: (row) => count(row.attempts) },
      ], data.attemptErrors)),
    );
  },

  async sessions(root) {
    const limit = 50;
    const data = await api('sessions', { limit: String(limit), offset: String(state.sessionsOffset), search: state.search, order: 'recent' });
    const search = h('input', { type: 'search', placeholder: 'search session id', value: state.search, 'data-testid': 'session-search' });
    search.addEventListener('change', () => {
      state.search = search.value;
      state.sessionsOffset = 0;
      void render();
    });
    const pager = h(
      'div',
      { class: 'pager' },
      h('button', { type: 'button', disabled: state.sessionsOffset === 0, onclick: () => { state.sessionsOffset = Math.max(0, state.sessionsOffset - limit); void render(); } }, 'Newer'),
      h('span', { class: 'muted' }, `${count(data.total === 0 ? 0 : state.sessionsOffset + 1)}–${count(Math.min(state.sessionsOffset + limit, data.total))} of ${count(data.total)}`),
      h('button', { type: 'button', disabled: state.sessionsOffset + limit >= data.total, onclick: () => { state.sessionsOffset += limit; void render(); } }, 'Older'),
    );
    root.append(panel('Sessions', search, sessionTable(data.sessions), pager));
  },

  async session(root) {
    const data = await api('session', { id: state.sessionId, limit: '500' });
    const { session, timeline, surfaceChanges } = data;
    const stats = session.stats;
    const changes = session.promptCache.surfaceChanges;
    root.append(
      h('p', {}, h('a', { href: '#sessions' }, '← sessions')),
      h('div', { class: 'session-head', 'data-testid': 'session-head' },
        h('h2', { 'data-testid': 'session-title' }, sessionLabel(session.sessionId, stats)),
        stats.firstPrompt && stats.firstPrompt !== sessionLabel(session.sessionId, stats) ? h('p', { class: 'first-prompt', 'data-testid': 'session-first-prompt' }, `“${stats.firstPrompt}”`) : null,
        h('p', { class: 'muted' }, [stats.agent, stats.latestModel, `${time(stats.firstStartedAt)} – ${time(stats.lastStartedAt)}`, session.sessionId].filter(Boolean).join(' · '))),
      h('div', { class: 'cards' },
        card('Quality', session.score === null ? '-' : `${session.score} ${session.grade}`, session.unscoredReason ?? 'score 0–100', 'session-score'),
        card('Context fill', percent(session.contextFill), session.contextWindow ? `of ${count(session.contextWindow)} tokens` : 'window unknown'),
        card('Requests', count(session.stats.requests), `${count(session.stats.failedRequests)} failed, ${count(session.stats.failovers)} failovers`),
        card('Prompt cache', percent(session.promptCache.readShare), `read; ${tokensShort(session.promptCache.writeTokens)} written`, 'session-prompt-cache', 'Share of the prompt tokens the provider read from its cache; tokens written to it.'),
        card('Caching saved', usd(session.promptCache.savedUsd), session.promptCache.unpricedRequests > 0 ? `${count(session.promptCache.unpricedRequests)} requests unpriced` : 'net of the write premium', 'session-cache-saved',
          'Cache-read tokens × (input price − cache-read price), minus cache-write tokens × (cache-write price − input price), at the served model\'s prices.'),
        card('Surface changes', count(changes.changes), `cost ${usd(changes.costUsd)}`, 'session-surface-changes',
          'Each change of the tool surface writes the prompt again from the tools on: priced as what that request sent uncached (writes at the cache-write price, the rest at the input price).'),
        card('Cost', usd(session.stats.costUsd), session.stats.toolRecoveries > 0
          ? `incl. ${count(session.stats.recoveryOverheadTokens)} tokens of recovery overhead (${count(session.stats.toolRecoveries)} request_toolset re-issues)`
          : null)),
    );
    const turns = panel('Turn timeline: prompt and output tokens per request');
    chart(turns, { labels: timeline.map((_, index) => String(index + 1)), series: [
      { name: 'prompt', color: colors.blue, values: timeline.map((row) => row.inputTokens ?? 0) },
      { name: 'cache read', color: colors.purple, values: timeline.map((row) => row.cacheReadTokens ?? 0) },
      { name: 'output', color: colors.green, values: timeline.map((row) => row.outputTokens ?? 0) },
    ], format: tokensShort });
    root.append(
      turns,
      surfaceChanges.length === 0 ? null : panel('Tool-surface changes and what each cost', table([
        { header: 'Time', cell: (row) => time(row.startedAt) },
        { header: 'Change', cell: surfaceChangeText },
        { header: 'Model', cell: (row) => row.model ?? '-' },
        { header: 'Cache write', number: true, cell: (row) => count(row.cacheWriteTokens) },
        { header: 'Uncached', number: true, cell: (row) => count(row.uncachedInputTokens) },
        { header: 'Cost', number: true, cell: (row) => (row.costUsd === null ? 'unpriced' : usd(row.costUsd)) },
      ], surfaceChanges, { 'data-testid': 'surface-changes' })),
      panel('Quality signals', table([
        { header: 'Signal', cell: (row) => row.name },
        { header: 'Value', number: true, cell: (row) => (row.value === null ? '-' : Number.isInteger(row.value) ? count(row.value) : row.value.toFixed(3)) },
        { header: 'Penalty', number: true, cell: (row) => row.penalty.toFixed(1) },
        { header: 'Max', number: true, cell: (row) => String(row.maximum) },
        { header: 'Note', cell: (row) => row.note },
      ], session.signals)),
      panel('Requests', table([
        { header: '#', number: true, cell: (row) => String(timeline.indexOf(row) + 1) },
        { header: 'Time', cell: (row) => time(row.startedAt) },
        { header: 'Status', number: true, cell: (row) => String(row.status) },
        { header: 'Model', cell: (row) => `${row.servedModel ?? '-'}${row.servedModel !== row.requestedModel ? ` (asked ${row.requestedModel})` : ''}` },
        { header: 'Prompt', number: true, cell: (row) => countOrDash(row.inputTokens) },
        { header: 'Fill', number: true, cell: (row) => percent(row.contextFill) },
        { header: 'Output', number: true, cell: (row) => countOrDash(row.outputTokens) },
        { header: 'Cache read', number: true, cell: (row) => countOrDash(row.cacheReadTokens) },
        // A request right after a tool-surface change writes the prompt again: its cache writes are what the change cost.
        { header: 'Cache write', number: true, cell: (row) => countOrDash(row.cacheWriteTokens) },
        { header: 'Tools', cell: (row) => (row.toolOutcome ? `${row.toolOutcome} ${count(row.sentSchemaTokens)}/${count(row.fullSchemaTokens)}` : '-') },
        { header: 'Attempts', number: true, cell: (row) => String(row.attempts) },
        { header: 'Cost', number: true, cell: (row) => (row.costUsd === null ? 'unpriced' : usd(row.costUsd)) },
        { header: 'Saved', number: true, cell: (row) => usd(row.savedUsd) },
      ], timeline)),
    );
  },

  async quality(root) {
    const data = await api('quality', { limit: '30' });
    const grades = ['S', 'A', 'B', 'C', 'D', 'F', 'unscored'];
    root.append(h('div', { class: 'cards' },
      card('Sessions', count(data.sessions), null, 'quality-sessions'),
      card('Average score', data.averageScore === null ? '-' : data.averageScore.toFixed(1), 'over scored sessions', 'quality-average')));
    const distribution = panel('Grades');
    chart(distribution, { labels: grades, kind: 'bar', series: [{ name: 'sessions', color: colors.blue, values: grades.map((name) => data.grades[name]) }], format: count });
    root.append(distribution, panel('Worst sessions', sessionTable(data.worst)), panel('How the score is computed', h('p', {}, '100 minus penalties: context fill (latest prompt over the served model\'s real window) 0 up to 50% and 40 points at 100%; session length 0 up to 50 requests, 20 points at 200; output/input ratio 0 at 2%, 10 points at 0.2%; cache hit rate (sessions of 3+ requests averaging 2,048+ prompt tokens) 0 at 50%, 10 points at 0%; 5 points per detected compaction (max 10); 15 points × failed fraction; 1 per recovered failover (max 5); 2 per tool-surface recovery (max 10). Grades: S ≥ 95, A ≥ 85, B ≥ 70, C ≥ 55, D ≥ 40, F below. Sessions without output tokens are not scored.')));
  },

  async waste(root) {
    const data = await api('waste', { limit: '20' });
    root.append(
      panel('Largest tool-schema overheads', table([
        { header: 'Time', cell: (row) => time(row.startedAt) },
        { header: 'Session', cell: (row) => (row.sessionId ? sessionLink(row.sessionId) : '-') },
        { header: 'Model', cell: (row) => row.servedModel ?? '-' },
        { header: 'Schema sent', number: true, cell: (row) => count(row.sentSchemaTokens) },
        { header: 'Full surface', number: true, cell: (row) => count(row.fullSchemaTokens) },
        { header: 'Prompt', number: true, cell: (row) => countOrDash(row.inputTokens) },
      ], data.schemaOverheads)),
      panel('Cache misses (most uncached prompt tokens)', table([
        { header: 'Session', cell: (row) => sessionLink(row.sessionId, row) },
        { header: 'Requests', number: true, cell: (row) => count(row.requests) },
        { header: 'Uncached prompt', number: true, cell: (row) => count(row.uncachedInputTokens) },
        { header: 'Hit rate', number: true, cell: (row) => percent(row.hitRate) },
        { header: 'Cost', number: true, cell: (row) => usd(row.costUsd) },
      ], data.cacheMisses)),
      panel('Longest sessions', table([
        { header: 'Session', cell: (row) => sessionLink(row.sessionId, row) },
        { header: 'Requests', number: true, cell: (row) => count(row.requests) },
        { header: 'Prompt tokens', number: true, cell: (row) => count(row.inputTokens) },
        { header: 'Quality', number: true, cell: (row) => (row.quality === null ? '-' : String(row.quality)) },
        { header: 'Cost', number: true, cell: (row) => usd(row.costUsd) },
      ], data.longestSessions)),
    );
  },

  async daily(root) {
    const { days } = await api('daily');
    const spend = panel('Spend per day (USD)');
    chart(spend, { labels: days.map((day) => day.date), kind: 'bar', series: [{ name: 'spend', color: colors.orange, values: days.map((day) => day.costUsd) }, { name: 'saved', color: colors.green, values: days.map((day) => day.savingsUsd) }], format: usd });
    root.append(spend, panel('Days', table([
      { header: 'Date', cell: (row) => row.date },
      { header: 'Requests', number: true, cell: (row) => count(row.requests) },
      { header: 'Failed', number: true, cell: (row) => count(row.failedRequests) },
      { header: 'Input', number: true, cell: (row) => count(row.inputTokens) },
      { header: 'Output', number: true, cell: (row) => countOrDash(row.outputTokens) },
      { header: 'Cache read', number: true, cell: (row) => countOrDash(row.cacheReadTokens) },
      { header: 'Spend', number: true, cell: (row) => `${usd(row.costUsd)}${row.unpricedRequests ? ' *' : ''}` },
      { header: 'Saved', number: true, cell: (row) => usd(row.savingsUsd) },
    ], [...days].reverse(), { 'data-testid': 'daily-table' })));
  },

  async models(root) {
    const data = await api('models');
    const price = (value) => (value === null ? '?' : `$${Number(value.toFixed(4))}`);
    root.append(panel(`Models (switch revision ${data.revision ?? '-'})`, table([
      { header: 'On', cell: (row) => {
        const box = h('input', { type: 'checkbox', class: 'switch', checked: row.enabled, 'data-testid': `switch-${row.provider}/${row.model}` });
        box.addEventListener('change', () => void toggle(row, box));
        return box;
      } },
      { header: 'Model', cell: (row) => `${row.provider}/${row.model}` },
      { header: 'Breaker', cell: (row) => row.breaker },
      { header: 'Context', number: true, cell: (row) => (row.contextWindow ? count(row.contextWindow) : '?') },
      { header: 'In $/M', number: true, cell: (row) => price(row.inputPerMillion) },
      { header: 'Out $/M', number: true, cell: (row) => price(row.outputPerMillion) },
      { header: 'Requests', number: true, cell: (row) => count(row.traffic?.requests) },
      { header: 'Failed', number: true, cell: (row) => count(row.traffic?.failedRequests) },
      { header: 'Failovers', number: true, cell: (row) => count(row.traffic?.failovers) },
      { header: 'Avg ms', number: true, cell: (row) => (row.traffic ? count(row.traffic.averageTotalMs) : '-') },
      { header: 'TTFB ms', number: true, cell: (row) => (row.traffic?.averageTimeToFirstByteMs == null ? '-' : count(row.traffic.averageTimeToFirstByteMs)) },
      { header: 'Spend', number: true, cell: (row) => usd(row.traffic?.costUsd ?? 0) },
    ], data.models)), h('p', { id: 'switch-status', class: 'muted' }));
  },
};

function sessionTable(sessions) {
  return table([
    { header: 'Session', cell: (row) => sessionLink(row.sessionId, row.stats) },
    { header: 'Agent', cell: (row) => row.stats.agent ?? '-' },
    { header: 'Last', cell: (row) => time(row.stats.lastStartedAt) },
    { header: 'Model', cell: (row) => row.stats.latestModel ?? '-' },
    { header: 'Requests', number: true, cell: (row) => count(row.stats.requests) },
    { header: 'Prompt tokens', number: true, wideOnly: true, cell: (row) => count(row.stats.inputTokens) },
    { header: 'Cost', number: true, cell: (row) => usd(row.stats.costUsd) },
    { header: 'Fill', number: true, cell: (row) => percent(row.contextFill) },
    // On a narrow window the grade stands for the score.
    { header: 'Score', number: true, wideOnly: true, cell: (row) => (row.score === null ? '-' : String(row.score)) },
    { header: 'Grade', cell: (row) => grade(row.grade) },
  ], sessions, { 'data-testid': 'sessions-table' });
}

/** Flips a model switch through the gateway's own admin API, then shows what the gateway now says. */
async function toggle(row, box) {
  const status = document.getElementById('switch-status');
  box.disabled = true;
  try {
    const response = await fetch('/v1/config/models/enabled', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-csrf-token': auth.csrfToken ?? '' },
      body: JSON.stringify({ provider: row.provider, model: row.model, enabled: box.checked }),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error?.message ?? `HTTP ${response.status}`);
    if (status) status.textContent = `${row.provider}/${row.model} switched ${body.enabled ? 'on' : 'off'} (revision ${body.revision}).`;
  } catch (error) {
    box.checked = !box.checked;
    if (status) status.textContent = `Switching ${row.provider}/${row.model} failed: ${error.message}`;
  } finally {
    box.disabled = false;
  }
}

function showLogin(message) {
  document.getElementById('login').hidden = false;
  document.getElementById('tabs').hidden = true;
  document.getElementById('controls').hidden = true;
  document.getElementById('view').replaceChildren();
  document.getElementById('login-error').textContent = message ?? '';
}

function readHash() {
  const hash = decodeURIComponent(location.hash.slice(1));
  if (hash.startsWith('session/')) {
    state.view = 'session';
    state.sessionId = hash.slice('session/'.length);
  } else state.view = views[hash] ? hash : 'overview';
}

async function render() {
  if (state.busy) return;
  if (auth.csrfToken === null) {
    showLogin();
    return;
  }
  state.busy = true;
  const root = h('div', { 'data-view': state.view });
  try {
    await views[state.view](root);
    document.getElementById('login').hidden = true;
    document.getElementById('tabs').hidden = false;
    document.getElementById('controls').hidden = false;
    for (const link of document.querySelectorAll('#tabs a')) link.classList.toggle('active', link.dataset.view === (state.view === 'session' ? 'sessions' : state.view));
    const focused = document.activeElement?.getAttribute('data-testid');
    document.getElementById('view').replaceChildren(root);
    if (focused === 'session-search') root.querySelector('[data-testid=session-search]')?.focus();
    document.getElementById('updated').textContent = `updated ${new Date().toLocaleTimeString()}`;
  } catch (error) {
    if (error instanceof Unauthorized) {
      auth.csrfToken = null;
      showLogin(error.message);
    } else document.getElementById('view').replaceChildren(h('p', { class: 'error' }, `Could not load: ${error.message}`));
  } finally {
    state.busy = false;
  }
}

function schedule() {
  clearTimeout(state.timer);
  state.timer = setTimeout(async () => {
    // The Models page holds switches a user may be about to click; everything else refreshes live.
    if (document.getElementById('live').checked && !document.hidden && state.view !== 'models') await render();
    schedule();
  }, state.refreshMs);
}

/** POST /auth/login with the admin key: the gateway sets an HttpOnly session cookie and returns the CSRF token. */
document.getElementById('login-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const field = document.getElementById('admin-key');
  const response = await fetch('/auth/login', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ admin_key: field.value.trim() }),
  });
  field.value = '';
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    showLogin(body.error?.message ?? `Login failed (HTTP ${response.status}).`);
    return;
  }
  auth.csrfToken = body.csrf_token;
  void render();
});
document.getElementById('logout').addEventListener('click', async () => {
  await fetch('/auth/logout', { method: 'POST', credentials: 'same-origin', headers: { 'x-csrf-token': auth.csrfToken ?? '' } }).catch(() => undefined);
  auth.csrfToken = null;
  showLogin();
});
document.getElementById('range').addEventListener('change', () => void render());
window.addEventListener('hashchange', () => {
  readHash();
  void render();
});
/** A reloaded page still has its session cookie: ask for the session's CSRF token instead of logging in again. */
async function resumeSession() {
  const response = await fetch('/auth/session', { credentials: 'same-origin' }).catch(() => undefined);
  if (response?.ok) auth.csrfToken = (await response.json()).csrf_token ?? null;
}

readHash();
void resumeSession()
  .then(render)
  .then(schedule);

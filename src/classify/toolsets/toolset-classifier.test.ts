import { describe, expect, it } from 'vitest';
import { fnv1a } from '../features/hash.js';
import { MultilabelModel } from '../linear/multilabel-model.js';
import { loadToolsetModel } from './model-file.js';
import type { ToolsetClassification } from './toolset-classifier.js';
import { classifyToolsets } from './toolset-classifier.js';
import { buildToolsetRegistry } from '../../tools/toolsets/registry.js';
import { readToolViews } from '../../tools/tool-shape.js';
import { hermesTools } from '../../tools/test-support/fixtures.js';
import { defaultToolRoutingConfig, thresholdFor } from '../../tools/config.js';

const config = defaultToolRoutingConfig();
const views = readToolViews(hermesTools('cli'), 'openai-chat')!;
const available = buildToolsetRegistry(views).toolsets.map((toolset) => ({ name: toolset.name, toolNames: toolset.toolNames, descriptions: [toolset.description] }));

function classify(text: string, hasImage = false, guessing?: { bestBelow: number; barFactor: number }): ToolsetClassification {
  return classifyToolsets(loadToolsetModel(), {
    text,
    hasImage,
    available,
    thresholdFor: (toolset) => thresholdFor(config, toolset),
    descriptionThreshold: config.thresholds.description_match,
    abstainWhenTask: config.thresholds.abstain_when_task,
    ...(guessing === undefined ? {} : { guessing }),
  });
}

describe('classifyToolsets (shipped model)', () => {
  it('routes plain requests in English and Chinese', () => {
    expect(classify('run the test suite and show me what fails').toolsets).toContain('terminal');
    expect(classify('运行测试').toolsets).toContain('terminal');
    expect(classify('read README.md and summarize it').toolsets).toContain('file');
    expect(classify('每天早上八点提醒我喝水').toolsets).toContain('cronjob');
    expect(classify('log in to the vendor portal and download my invoice').toolsets).toContain('browser');
    expect(classify('what is the weather in Lisbon right now?').toolsets).toContain('web');
  });

  it('needs no terminal for negated or reported instructions', () => {
    for (const text of ["don't run the tests", 'the log says \'run the migration\'', '不要运行测试']) {
      const result = classify(text);
      expect(result.toolsets, text).not.toContain('terminal');
      expect(['no_tool', 'abstain']).toContain(result.verdict);
    }
  });

  it('treats negated descriptions as problem reports, not as negated instructions', () => {
    expect(classify("I can't get the tests to pass, help").toolsets).toContain('terminal');
    expect(classify("don't forget to run the migrations").toolsets).toContain('terminal');
    expect(classify('别忘了跑一下测试').toolsets).toContain('terminal');
    expect(classify('please do not execute anything').toolsets).not.toContain('terminal');
  });

  it('keeps what is still asked for after the negation', () => {
    expect(classify("don't change anything else, just run git status").toolsets).toContain('terminal');
    expect(classify('不要跑全部测试，只运行 test_login.py').toolsets).toContain('terminal');
  });

  it('answers capability questions from the catalog and small talk with no tool', () => {
    expect(classify('what can you do?').verdict).toBe('capability_inquiry');
    expect(classify('你能做什么？').verdict).toBe('capability_inquiry');
    expect(classify('explain the CAP theorem').verdict).toBe('no_tool');
  });

  it('widens (or abstains) when a tool is needed but every selected toolset scores below guessing.bestBelow', () => {
    const text = 'run the test suite and show me what fails';
    const plain = classify(text);
    const best = Math.max(...plain.toolsets.map((toolset) => plain.scores[toolset]!));
    expect(plain.verdict).toBe('toolsets');
    expect(plain.needsTool).toBeGreaterThanOrEqual(config.thresholds.abstain_when_task);
    const full = classify(text, false, { bestBelow: best + 0.001, barFactor: 0 });
    expect(full.verdict).toBe('abstain');
    expect(full.toolsets).toEqual([]);
    expect(full.rules).toContain('guessing');
    // Factor 0.005 (bars two hundred times lower): the thirteen-writer model gives the next toolsets 0.08-0.14%
    // (clarify, session_search, cronjob); 0.02 sufficed for the twelve-writer model, which gave cronjob 0.3%.
    const broad = classify(text, false, { bestBelow: best + 0.001, barFactor: 0.005 });
    expect(broad.verdict).toBe('toolsets');
    expect(broad.rules).toContain('guessing');
    // A broad surface: everything the plain decision kept and more.
    for (const toolset of plain.toolsets) expect(broad.toolsets).toContain(toolset);
    expect(broad.toolsets.length).toBeGreaterThan(plain.toolsets.length);
    expect(classify(text, false, { bestBelow: best - 0.001, barFactor: 0 })).toEqual(plain);
    // No tool needed: nothing to widen or abstain from, whatever the bar.
    expect(classify('explain the CAP theorem', false, { bestBelow: 1, barFactor: 0 }).verdict).toBe('no_tool');
  });

  it('adds vision when an image is attached and reports scores for every toolset', () => {
    const result = classify("what's in this picture?", true);
    expect(result.toolsets).toContain('vision');
    expect(Object.keys(result.scores).sort()).toEqual(available.map((toolset) => toolset.name).sort());
    expect(result.confidence).toBeGreaterThanOrEqual(0);
    expect(result.confidence).toBeLessThanOrEqual(1);
  });

  it('scores toolsets the model never saw from their descriptions', () => {
    const custom = [...available, { name: 'mcp:jira', toolNames: ['mcp_jira_create_issue', 'mcp_jira_search_issues'], descriptions: ['Create and search Jira issues in the tracker'] }];
    const result = classifyToolsets(loadToolsetModel(), {
      text: 'create a jira issue for the login bug',
      hasImage: false,
      available: custom,
      thresholdFor: (toolset) => thresholdFor(config, toolset),
      descriptionThreshold: config.thresholds.description_match,
      abstainWhenTask: config.thresholds.abstain_when_task,
    });
    expect(result.toolsets).toContain('mcp:jira');
  });
});

describe('classifyToolsets (capability questions)', () => {
  // A model that gives web 20% and "needs a tool" 90% whatever the message: the weak, confident-looking noise a
  // bag of n-grams can put on a message that only asks what the agent can do.
  const logit = (probability: number): number => Math.log(probability / (1 - probability));
  const noisy = new MultilabelModel({ format: 'hashed-ovr-logistic/1', featureBits: 10, labels: ['web', '_task'], bias: [logit(0.2), logit(0.9)], rows: {}, weightScale: 1, temperatures: [1, 1], trainedOn: { examples: 0, seed: 0, dataHash: 'stub' } });
  const decide = (text: string, hasImage = false): ToolsetClassification =>
    classifyToolsets(noisy, { text, hasImage, available, thresholdFor: () => 0.1, descriptionThreshold: config.thresholds.description_match, abstainWhenTask: config.thresholds.abstain_when_task });

  it('answers a message that is only a capability question from the catalog, whatever the model selects', () => {
    for (const text of ['what can you do?', '你能做什么？', 'which tools do you have']) {
      const result = decide(text);
      expect(result.verdict).toBe('capability_inquiry');
      expect(result.toolsets).toEqual([]);
      expect(result.scores.web).toBeCloseTo(0.2, 3);
      // The decision taken is leaving web out, so its confidence is 1 − 0.2, not web's own score.
      expect(result.confidence).toBeCloseTo(0.8, 3);
    }
  });

  it('keeps the model and the rules in charge of everything else', () => {
    expect(decide('check the ferry timetable for tomorrow').toolsets).toEqual(['web']);
    // An attached image is a rule's selection: the capability question about it gets vision.
    const withImage = decide('what can you do?', true);
    expect(withImage.verdict).toBe('toolsets');
    expect(withImage.toolsets).toContain('vision');
  });
});

describe('classifyToolsets (writing systems the model was barely taught)', () => {
  // The same sure model (web 90%), trained on many Latin and Cyrillic lines and a handful of Armenian ones.
  const logit = (probability: number): number => Math.log(probability / (1 - probability));
  const sure = (writingSystems?: Record<string, number>): MultilabelModel =>
    new MultilabelModel({ format: 'hashed-ovr-logistic/1', featureBits: 10, labels: ['web', '_task'], bias: [logit(0.9), logit(0.9)], rows: {}, weightScale: 1, temperatures: [1, 1], trainedOn: { examples: 0, seed: 0, dataHash: 'stub', ...(writingSystems ? { writingSystems } : {}) } });
  const taught = sure({ Latin: 5000, Cyrillic: 1200, Armenian: 40 });
  const decide = (model: MultilabelModel, text: string, unfamiliarScriptLines?: number): ToolsetClassification =>
    classifyToolsets(model, { text, hasImage: false, available, thresholdFor: () => 0.1, descriptionThreshold: config.thresholds.description_match, abstainWhenTask: config.thresholds.abstain_when_task, ...(unfamiliarScriptLines === undefined ? {} : { unfamiliarScriptLines }) });

  it('abstains (full surface) on a script with fewer written training lines than the bar', () => {
    const result = decide(taught, 'Փնտրիր վերջին հոդվածները transformer մոդելների մասին', 100);
    expect(result.verdict).toBe('abstain');
    expect(result.toolsets).toEqual([]);
    expect(result.rules).toContain('unfamiliar-script:Armenian');
    // A script the model never saw at all counts as none taught.
    expect(decide(taught, 'ብዙ ዜና ፈልግልኝ', 100).rules).toContain('unfamiliar-script:Ethiopic');
  });

  it('classifies scripts it was taught, Latin always, and everything when the bar is off or the model does not say', () => {
    expect(decide(taught, 'найди свежие новости про выборы', 100).toolsets).toEqual(['web']);
    expect(decide(taught, 'check the ferry timetable for tomorrow', 100).toolsets).toEqual(['web']);
    expect(decide(taught, 'Փնտրիր վերջին հոդվածները', 40).toolsets).toEqual(['web']);
    expect(decide(taught, 'Փնտրիր վերջին հոդվածները', 0).toolsets).toEqual(['web']);
    expect(decide(taught, 'Փնտրիր վերջին հոդվածները').toolsets).toEqual(['web']);
    expect(decide(sure(), 'Փնտրիր վերջին հոդվածները', 100).toolsets).toEqual(['web']);
  });
});

describe('classifyToolsets (windows of a long message)', () => {
  // web is sure for any message; terminal rests on one word, "zebra", which the whole message dilutes (every feature
  // weighs 1/√n) and a window of six words does not.
  const logit = (probability: number): number => Math.log(probability / (1 - probability));
  const bits = 12;
  const zebra = fnv1a('w:zebra') & ((1 << bits) - 1);
  const model = new MultilabelModel({ format: 'hashed-ovr-logistic/1', featureBits: bits, labels: ['web', 'terminal', '_task'], bias: [logit(0.9), logit(0.001), logit(0.99)], rows: { [String(zebra)]: [0, 44, 0] }, weightScale: 1, temperatures: [1, 1, 1], trainedOn: { examples: 0, seed: 0, dataHash: 'stub' } });
  const text = 'please look up the opening hours of every museum in the old town for the coming weekend and while you are on it feed the zebra';
  const decide = (windowNeed?: { bar: number; taskBar: number; words: number }): ToolsetClassification =>
    classifyToolsets(model, { text, hasImage: false, available, thresholdFor: () => 0.15, descriptionThreshold: config.thresholds.description_match, abstainWhenTask: config.thresholds.abstain_when_task, clusters: null, ...(windowNeed ? { windowNeed } : {}) });

  it('selects a toolset one window asks for that the whole message scores under its bar', () => {
    const whole = decide();
    expect(whole.scores.terminal).toBeLessThan(0.15);
    expect(whole.toolsets).toContain('web');
    expect(whole.toolsets).not.toContain('terminal');
    const read = decide({ bar: 0.9, taskBar: 0.9, words: 6 });
    expect(read.toolsets).toEqual([...whole.toolsets, 'terminal'].sort((a, b) => available.findIndex((toolset) => toolset.name === a) - available.findIndex((toolset) => toolset.name === b)));
    expect(read.scores.terminal).toBeGreaterThanOrEqual(0.9);
    expect(read.rules).toContain('window-need');
    expect(decide({ bar: 1, taskBar: 0.9, words: 6 }).toolsets).toEqual(whole.toolsets);
  });

  it('reports a toolset a window gives under the bar that selects as a part vote, only when asked', () => {
    // A lighter "zebra": its window gives terminal about 0.87, under the window bar of 0.9.
    const lighter = new MultilabelModel({ format: 'hashed-ovr-logistic/1', featureBits: bits, labels: ['web', 'terminal', '_task'], bias: [logit(0.9), logit(0.001), logit(0.99)], rows: { [String(zebra)]: [0, 34, 0] }, weightScale: 1, temperatures: [1, 1, 1], trainedOn: { examples: 0, seed: 0, dataHash: 'stub' } });
    const read = (partVote?: number): ToolsetClassification =>
      classifyToolsets(lighter, { text, hasImage: false, available, thresholdFor: () => 0.15, descriptionThreshold: config.thresholds.description_match, abstainWhenTask: config.thresholds.abstain_when_task, clusters: null, windowNeed: { bar: 0.9, taskBar: 0.9, words: 6 }, ...(partVote === undefined ? {} : { partVote }) });
    expect(read().toolsets).not.toContain('terminal');
    expect(read().parts).toBeUndefined();
    const voted = read(0.7);
    expect(voted.toolsets).toEqual(read().toolsets);
    expect(voted.parts?.terminal).toBeGreaterThanOrEqual(0.7);
    expect(voted.parts?.terminal).toBeLessThan(0.9);
    // Selected toolsets are not voted for again; a bar above the window's probability reports nothing.
    expect(Object.keys(voted.parts ?? {}).filter((toolset) => voted.toolsets.includes(toolset))).toEqual([]);
    expect(read(0.95).parts).toBeUndefined();
  });

  it('reads a message written without spaces in windows of a few characters per word', () => {
    const horse = fnv1a('u:斑') & ((1 << bits) - 1);
    const chinese = new MultilabelModel({ format: 'hashed-ovr-logistic/1', featureBits: bits, labels: ['web', 'terminal', '_task'], bias: [logit(0.9), logit(0.001), logit(0.99)], rows: { [String(horse)]: [0, 72, 0] }, weightScale: 1, temperatures: [1, 1, 1], trainedOn: { examples: 0, seed: 0, dataHash: 'stub' } });
    const message = '请帮我查一下这个周末老城区里所有博物馆和美术馆的开放时间还有门票价格以及是否需要提前在网上预约然后整理成一张表格顺便再喂一下动物园里的那匹斑马';
    const read = (unspacedCharacters: number): ToolsetClassification =>
      classifyToolsets(chinese, { text: message, hasImage: false, available, thresholdFor: () => 0.15, descriptionThreshold: config.thresholds.description_match, abstainWhenTask: config.thresholds.abstain_when_task, clusters: null, windowNeed: { bar: 0.9, taskBar: 0.9, words: 6, unspacedCharacters } });
    expect(read(0).toolsets).not.toContain('terminal');
    expect(read(0).scores.terminal).toBeLessThan(0.15);
    expect(read(3).toolsets).toContain('terminal');
    expect(read(3).rules).toContain('window-need');
  });
});

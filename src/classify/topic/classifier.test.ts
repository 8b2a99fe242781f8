import { describe, expect, it } from 'vitest';
import type { TopicClassification } from './classifier.js';
import { TopicClassifier } from './classifier.js';
import type { Topic } from './taxonomy.js';
import { isShortFollowUp } from './conversation.js';

const learned = new TopicClassifier();
const keyword = new TopicClassifier({ mode: 'keyword' });
const user = (content: string) => ({ role: 'user', content });
const assistant = (content: string) => ({ role: 'assistant', content });

describe('TopicClassifier (learned, shipped weights)', () => {
  it.each([
    ['write a short fantasy scene', 'writing_language'], // the seed's own classifier sent this to none
    ['fix this failing API test', 'software_it'],
    ['calculate ROI for this project', 'business_finance'],
    ['thanks', 'none'],
  ])('routes the seed README example %j to %s', (text, topic) => {
    expect(learned.classify([user(text)]).topic).toBe(topic);
  });

  it('carries the topic through a short follow-up, and a closing thanks ends it', () => {
    const conversation = [user('what is the derivative of x^3 * ln(x)?'), assistant('3x^2 ln(x) + x^2')];
    expect(learned.classify([...conversation, user('and the second derivative?')]).topic).toBe('math');
    expect(learned.classify([...conversation, user('great, thanks!')]).topic).toBe('none');
  });

  it('classifies Chinese and Thai', () => {
    expect(learned.classify([user('帮我写一个Python脚本，读取CSV文件并统计每列的平均值')]).topic).toBe('software_it');
    expect(learned.classify([user('ปวดท้องและท้องเสียมาสองวันแล้ว ควรกินยาอะไร')]).topic).toBe('medicine_healthcare');
  });

  it.each([
    ['Помогите решить уравнение, я не понимаю производные', 'math'],
    ['요즘 두통이 심하고 열이 나요. 병원에 가야 할까요?', 'medicine_healthcare'],
    ['Ev sahibim depozitomu geri vermiyor, avukat tutmalı mıyım?', 'legal_government'],
    ['मेरी कंपनी के लिए निवेश का बजट कैसे बनाएं?', 'business_finance'],
    ['Schreib mir ein kurzes Gedicht über den Herbst', 'writing_language'],
    ['hola, ¿qué tal?', 'none'],
  ])('classifies %j (languages the word vectors do not know) as %s', (text, topic) => {
    expect(learned.classify([user(text)]).topic).toBe(topic);
  });

  it('explains the decision and reports a calibrated confidence', () => {
    const result = learned.classify([user('my docker container keeps restarting with exit code 137')]);
    expect(result.topic).toBe('software_it');
    expect(result.intent).toBe('technical');
    expect(result.confidence).toBeGreaterThan(0.5);
    expect(result.confidence).toBeLessThanOrEqual(1);
    expect(result.features.length).toBeGreaterThan(0);
    const total = Object.values(result.probabilities ?? {}).reduce((sum, value) => sum + value, 0);
    expect(total).toBeCloseTo(1, 2);
  });

  it('answers none below the threshold', () => {
    const strict = new TopicClassifier({ minConfidence: 1 });
    const result = strict.classify([user('what is a good restaurant budget for a team dinner')]);
    expect(result.topic).toBe('none');
    expect(result.candidate.topic).not.toBe('none');
  });
});

describe('TopicClassifier follow-up inertia', () => {
  const withoutInertia = new TopicClassifier({ followUpInertia: false });
  const turns = (...texts: string[]) => texts.map((content) => user(content));

  it('keeps the conversation specialist on a short follow-up that alone points at another', () => {
    const conversation = turns('why does my docker build fail on alpine', 'and in French?');
    expect(withoutInertia.classify(conversation).topic).toBe('writing_language');
    expect(learned.classify(conversation).topic).toBe('software_it');
  });

  it('still ends it on a closing turn, and lets a long turn change the subject', () => {
    expect(learned.classify(turns('solve 2x + 3 = 11', 'thanks!')).topic).toBe('none');
    expect(learned.classify(turns('solve 2x + 3 = 11', 'now help me write a cover letter for a graphic design job')).topic).toBe('writing_language');
  });

  it('keeps it on a follow-up of a few more words that alone points nowhere with confidence', () => {
    const conversation = turns('my integral of x times e to the x keeps coming out wrong', 'which part should I pick first');
    expect(withoutInertia.classify(conversation).topic).toBe('entertainment_media');
    expect(learned.classify(conversation).topic).toBe('math');
  });

  it('takes the topic that the earlier turns and the last turn alone agree on', () => {
    // Models up to the 31-writer one read this conversation as medicine_healthcare without the rule; the 37-writer
    // model reads it as none either way. The rule itself is checked apart from any model below.
    const conversation = turns('any tips for keeping basil alive on a windowsill', 'how often should I water it in winter then');
    expect(learned.classify(conversation).topic).toBe('none');
  });
});

/** A classifier whose per-reading decisions are scripted, to check the follow-up rules apart from any model. */
class ScriptedClassifier extends TopicClassifier {
  constructor(private readonly script: Record<string, [Topic, number]>) {
    super();
  }

  override classifyTurns(userTurns: readonly string[], options: { explain?: boolean } = {}): TopicClassification {
    const [topic, confidence] = this.script[userTurns.join(' | ')] ?? ['none', 0];
    return { ...super.classifyTurns(userTurns, options), topic, confidence, candidate: { topic, confidence } };
  }
}

describe('TopicClassifier follow-up rules (scripted readings)', () => {
  const turns = (...texts: string[]) => texts.map((content) => user(content));
  const decide = (script: Record<string, [Topic, number]>, ...texts: string[]) => new ScriptedClassifier(script).classify(turns(...texts)).topic;

  it('takes what the earlier turns and the last turn alone agree on, none included', () => {
    expect(decide({ 'first | second': ['science', 0.3], first: ['none', 0.9], second: ['none', 0.8] }, 'first', 'second')).toBe('none');
    expect(decide({ 'first | second': ['science', 0.3], first: ['math', 0.9], second: ['math', 0.8] }, 'first', 'second')).toBe('math');
    const long = 'second words that run on for long enough';
    expect(decide({ [`first | ${long}`]: ['science', 0.3], first: ['math', 0.9], [long]: ['legal_government', 0.8] }, 'first', long)).toBe('science');
  });

  it('keeps the earlier specialist on a follow-up of up to eight words whose own reading is weak', () => {
    const weak = 'one two three four five six seven eight';
    expect(decide({ [`first | ${weak}`]: ['science', 0.5], first: ['math', 0.9], [weak]: ['science', 0.39] }, 'first', weak)).toBe('math');
    expect(decide({ [`first | ${weak}`]: ['science', 0.5], first: ['math', 0.9], [weak]: ['science', 0.41] }, 'first', weak)).toBe('science');
    const nine = `${weak} nine`;
    expect(decide({ [`first | ${nine}`]: ['science', 0.5], first: ['math', 0.9], [nine]: ['science', 0.39] }, 'first', nine)).toBe('science');
  });

  it('lets none end a specialist and a specialist follow none', () => {
    expect(decide({ 'first | thanks': ['none', 0.9], first: ['math', 0.9], thanks: ['science', 0.1] }, 'first', 'thanks')).toBe('none');
    expect(decide({ 'hi | tell': ['math', 0.9], hi: ['none', 0.9], tell: ['science', 0.1] }, 'hi', 'tell')).toBe('math');
  });
});

describe('TopicClassifier (keyword mode)', () => {
  it('uses intent first: a creative request about code is writing', () => {
    expect(keyword.classify([user('write a short fantasy scene')]).topic).toBe('writing_language');
    expect(keyword.classify([user('debug this server, the nginx config returns 502')]).topic).toBe('software_it');
    expect(keyword.classify([user('hello there')]).topic).toBe('none');
  });
});

describe('isShortFollowUp', () => {
  const conversation = (...turns: string[]) => turns.flatMap((content, index) => (index < turns.length - 1 ? [{ role: 'user', content }, { role: 'assistant', content: 'ok' }] : [{ role: 'user', content }]));
  it('is a later turn of a few words, and never the first turn', () => {
    expect(isShortFollowUp(conversation('translate good morning into spanish', 'and in French?'))).toBe(true);
    expect(isShortFollowUp(conversation('and in French?'))).toBe(false);
    expect(isShortFollowUp(conversation('what are flu symptoms', 'ok now help me write a cover letter for a design job'))).toBe(false);
    expect(isShortFollowUp(conversation('感冒了怎么办', '要多久?'))).toBe(true);
  });
});

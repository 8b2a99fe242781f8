import { describe, expect, it } from 'vitest';
import { TopicClassifier } from './classifier.js';
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

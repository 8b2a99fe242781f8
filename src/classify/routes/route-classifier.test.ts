import { describe, expect, it } from 'vitest';
import { RouteClassifier } from './route-classifier.js';

const routes = [
  { name: 'billing', description: 'invoices, payments and refunds', utterances: ['I was charged twice this month', 'where can I download my invoice', 'update my credit card', 'why is my bill higher than usual', 'cancel my subscription and refund me'] },
  { name: 'shipping', utterances: ['where is my package', 'my order has not arrived yet', 'change my delivery address', 'how long does shipping take to canada', 'the tracking number does not work'] },
];
const negatives = ['tell me a joke', 'what is the capital of peru', 'how tall is mount everest', 'play some music'];

describe('RouteClassifier', () => {
  const classifier = new RouteClassifier(routes, { negatives });

  it('routes paraphrases to the right route', () => {
    expect(classifier.match('I think you charged my card twice').route).toBe('billing');
    expect(classifier.match('has my order shipped yet, where is it').route).toBe('shipping');
  });

  it('gives out-of-scope requests no route, and still names the nearest candidate', () => {
    const match = classifier.match('what is the tallest mountain in peru');
    expect(match.route).toBeUndefined();
    expect(match.candidate).toBeDefined();
  });

  it('is deterministic and explains its match', () => {
    const again = new RouteClassifier(routes, { negatives });
    expect(again.match('download the invoice for march')).toEqual(classifier.match('download the invoice for march'));
    expect(classifier.match('download the invoice for march').features.length).toBeGreaterThan(0);
  });
});

describe('RouteClassifier rejection', () => {
  it('with three routes and negatives, calibrates on routes left out of the model: a higher target rejects more', () => {
    const three = [...routes, { name: 'account', utterances: ['reset my password', 'change the email on my account', 'delete my account', 'I cannot log in', 'turn on two-factor login'] }];
    const lenient = new RouteClassifier(three, { negatives, targetRejection: 0.2 });
    const strict = new RouteClassifier(three, { negatives, targetRejection: 0.9 });
    expect(strict.threshold).toBeGreaterThan(lenient.threshold);
  });

  it('calibrates a positive threshold from held-out examples when none is given', () => {
    const classifier = new RouteClassifier(routes, { negatives });
    expect(classifier.threshold).toBeGreaterThanOrEqual(0);
    expect(new RouteClassifier(routes, { negatives, threshold: 0.3 }).threshold).toBe(0.3);
  });

  it('with one route and no negatives, rejects requests that share no content word with its examples', () => {
    const single = new RouteClassifier([routes[1]!]);
    expect(single.match('where is my package, it has not arrived').route).toBe('shipping');
    expect(single.match('write a sonnet about autumn leaves').route).toBeUndefined();
  });
});

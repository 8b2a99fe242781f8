/**
 * Trains the topic classifier on the hand-written examples in data/topics/train/ and writes
 * data/topics/weights.json and data/topics/cv-report.json. Calibration (temperature), the weight of the
 * intent prior and the `none` threshold are chosen on 5-fold held-out predictions of the training data; the dev
 * set (data/topics/cases.dev.jsonl) is never read here.
 *
 *   npx tsx scripts/classifiers/train-topics.ts
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { topicFeatures } from '../../src/classify/topic/features.js';
import { combineIntentAndSubject, decideTopic } from '../../src/classify/topic/learned-classifier.js';
import type { TopicWeightsJson } from '../../src/classify/topic/model.js';
import { topics } from '../../src/classify/topic/taxonomy.js';
import { intentTopicTable, trainTopicHeads } from '../../src/classify/topic/train.js';
import type { TopicTrainingExample } from '../../src/classify/topic/training-data.js';
import { readTopicTrainingData } from '../../src/classify/topic/training-data.js';
import { LinearModel, softmax } from '../../src/classify/text/linear-model.js';
import { fitTemperature } from '../../src/classify/text/train-linear-model.js';
import { topicMetrics } from '../../src/eval/topic-metrics.js';

const directory = 'data/topics/train';
const clincPath = process.argv[2] ?? '../shared/corpora/external/clinc150_domains.jsonl';
const written = readTopicTrainingData(directory);
const borrowed = existsSync(clincPath) ? clincNoneExamples(clincPath) : [];
// Borrowed rows train every fold but are never scored: the held-out numbers below speak for the written data.
const examples = [...written, ...borrowed];
const scoredInCv = (index: number) => index < written.length;
const folds = 5;
const table = intentTopicTable(examples);
const heldOut: { topicLogits: number[]; intentLogits: number[]; label: number; intentLabel: number }[] = [];
for (let fold = 0; fold < folds; fold += 1) {
  const heads = trainTopicHeads(examples.filter((_, index) => index % folds !== fold));
  const topicModel = new LinearModel(heads.topic);
  const intentModel = new LinearModel(heads.intent);
  examples.forEach((example, index) => {
    if (index % folds !== fold || !scoredInCv(index)) return;
    const features = topicFeatures(example.turns);
    heldOut.push({
      topicLogits: topicModel.predict(features).logits,
      intentLogits: intentModel.predict(features).logits,
      label: topics.indexOf(example.topic),
      intentLabel: heads.intent.classes.indexOf(example.intent),
    });
  });
}
const topicTemperature = fitTemperature(heldOut.map((item) => ({ logits: item.topicLogits, label: item.label })));
const intentTemperature = fitTemperature(heldOut.map((item) => ({ logits: item.intentLogits, label: item.intentLabel })));

// Grid over the intent weight and the none threshold: the most accurate pair whose held-out none precision
// reaches 0.95; if none does, the pair with the best accuracy + none precision.
let best = { intentWeight: 0, minConfidence: 0.5, accuracy: -1, nonePrecision: 0 };
const objective = (accuracy: number, nonePrecision: number) => (nonePrecision >= 0.95 ? 10 : 0) + accuracy + (nonePrecision >= 0.95 ? 0 : nonePrecision);
const grid: Record<string, unknown>[] = [];
// Intent first is the design (ARC): the intent prior always takes part. On held-out folds weights 0 to 1 were
// within half a point of each other, so the grid only chooses how strongly.
for (const intentWeight of [0.5, 1]) {
  for (const minConfidence of [0.02, 0.04, 0.06, 0.08, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.8]) {
    const outcomes = heldOut.map((item) => {
      const combined = combineIntentAndSubject(softmax(item.topicLogits, topicTemperature), softmax(item.intentLogits, intentTemperature), table, intentWeight);
      const predicted = decideTopic(combined, minConfidence).topic;
      return { predicted, topic: topics[item.label]! };
    });
    const metrics = topicMetrics(outcomes);
    grid.push({ intentWeight, minConfidence: round(minConfidence), accuracy: metrics.accuracy, none_precision: metrics.none_precision, macro_f1: metrics.macro_f1 });
    if (objective(metrics.accuracy, metrics.none_precision) > objective(best.accuracy, best.nonePrecision)) best = { intentWeight, minConfidence: round(minConfidence), accuracy: metrics.accuracy, nonePrecision: metrics.none_precision };
  }
}

const heads = trainTopicHeads(examples);
const weights: TopicWeightsJson = {
  topic: { ...heads.topic, temperature: topicTemperature },
  intent: { ...heads.intent, temperature: intentTemperature },
  intentTopicTable: table,
  intentWeight: best.intentWeight,
  minConfidence: best.minConfidence,
  trainedOn: { files: [...new Set(examples.map((example) => (example.source.startsWith('clinc150:') ? 'clinc150_domains.jsonl (train rows, CC BY 3.0)' : example.source.split(':')[0]!)))], examples: examples.length },
};
writeFileSync('data/topics/weights.json', `${JSON.stringify(weights)}\n`);
writeFileSync('data/topics/cv-report.json', `${JSON.stringify({ folds, examples: examples.length, topicTemperature, intentTemperature, chosen: best, grid }, null, 1)}\n`);
process.stdout.write(`${JSON.stringify({ examples: examples.length, topicTemperature, intentTemperature, chosen: best })}\n`);

/**
 * Requests no specialist should take, from CLINC150's train split (a dev corpus, CC BY 3.0): travel bookings,
 * timers, small talk, assistant settings, reminders, car care, restaurant bookings and recipes. Intents that a
 * specialist could claim (translate, definitions, calculator, vaccines, visas, calories, banking, work) are left
 * out. Three rows per intent, evenly spread, so these phrasings widen `none` without outnumbering it.
 */
function clincNoneExamples(path: string): TopicTrainingExample[] {
  const noneIntents = new Set(
    ('book_flight book_hotel car_rental carry_on flight_status lost_luggage plug_type timezone travel_alert travel_notification travel_suggestion ' +
      'alarm date find_phone flip_coin make_call roll_dice share_location text time timer weather ' +
      'are_you_a_bot do_you_have_pets fun_fact goodbye greeting how_old_are_you meaning_of_life tell_joke thank_you what_are_your_hobbies what_can_i_ask_you what_is_your_name where_are_you_from who_do_you_work_for who_made_you ' +
      'cancel change_accent change_ai_name change_language change_speed change_user_name change_volume maybe no repeat reset_settings sync_device user_name whisper_mode yes ' +
      'calendar calendar_update order order_status reminder reminder_update shopping_list shopping_list_update smart_home todo_list todo_list_update ' +
      'current_location directions distance gas gas_type jump_start last_maintenance mpg oil_change_how oil_change_when schedule_maintenance tire_change tire_pressure traffic uber ' +
      'accept_reservations cancel_reservation confirm_reservation cook_time food_last how_busy ingredient_substitution ingredients_list meal_suggestion recipe restaurant_reservation restaurant_reviews restaurant_suggestion').split(' '),
  );
  const byIntent = new Map<string, string[]>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const row = JSON.parse(line) as { split: string; text: string; intent?: string };
    if (row.split === 'train' && row.intent && noneIntents.has(row.intent)) byIntent.set(row.intent, [...(byIntent.get(row.intent) ?? []), row.text]);
  }
  return [...byIntent.keys()].sort().flatMap((intent) => {
    const texts = byIntent.get(intent)!;
    return [0, 1, 2].map((part) => ({ turns: [texts[Math.floor((part * texts.length) / 3)]!], topic: 'none' as const, intent: 'conversational' as const, source: `clinc150:${intent}` }));
  });
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

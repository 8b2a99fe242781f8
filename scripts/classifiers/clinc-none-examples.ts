import { readFileSync } from 'node:fs';
import type { TopicTrainingExample } from '../../src/classify/topic/training-data.js';

/**
 * Requests no specialist should take, from CLINC150's train split (a dev corpus, CC BY 3.0): travel bookings,
 * timers, small talk, assistant settings, reminders, car care, restaurant bookings and recipes. Intents that a
 * specialist could claim (translate, definitions, calculator, vaccines, visas, calories, banking, work) are left
 * out. Three rows per intent, evenly spread, so these phrasings widen `none` without outnumbering it.
 */
export function clincNoneExamples(path: string): TopicTrainingExample[] {
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

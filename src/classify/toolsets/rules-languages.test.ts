import { describe, expect, it } from 'vitest';
import { frameTokens } from '../features/scopes.js';
import { applyRules } from './rules.js';

function toolsetsOf(text: string): string[] {
  return [...applyRules(frameTokens(text), text, false).toolsets].sort();
}

describe('rules in other languages', () => {
  it('name the outcome words of other languages', () => {
    expect(toolsetsOf('recuérdame cada lunes pagar el alquiler')).toContain('cronjob');
    expect(toolsetsOf('merk dir bitte meine Adresse')).toContain('memory');
    expect(toolsetsOf('lies mir die Zusammenfassung laut vor')).toContain('tts');
    expect(toolsetsOf('demande-moi avant de commencer')).toContain('clarify');
    expect(toolsetsOf('поручи это субагенту')).toContain('delegation');
    expect(toolsetsOf('明日の天気を調べて')).toContain('web');
    expect(toolsetsOf('할 일 목록 만들어줘')).toContain('todo');
  });

  it('keep word starts: a stem inside another word does not fire', () => {
    expect(toolsetsOf('the installer asked for a reboot')).not.toContain('terminal');
    expect(toolsetsOf('read messages from the log')).not.toContain('tts');
    expect(toolsetsOf('passe une commande de pizza')).toEqual([]);
  });
});

describe('reminders, look-ups and messages in more languages', () => {
  it('a reminder asked for in a language of the second lexicon is a scheduled job', () => {
    expect(toolsetsOf('minn meg på fredag å ringe tannlegen')).toContain('cronjob');
    expect(toolsetsOf('atgādini man rīt plkst. 8 piezvanīt')).toContain('cronjob');
    expect(toolsetsOf('βάλε μου υπενθύμιση για την Πέμπτη')).toContain('cronjob');
    expect(toolsetsOf('یادم بنداز فردا صبح دارو بخورم')).toContain('cronjob');
    expect(toolsetsOf('nudge me at 6 to leave for the station')).toContain('cronjob');
  });

  it('an action set for "in twenty minutes" is a scheduled job in the other languages too', () => {
    expect(toolsetsOf('zamknij roletę w salonie za pół godziny')).toContain('cronjob');
    expect(toolsetsOf('schalte die Heizung in zwei Stunden aus')).toContain('cronjob');
    expect(toolsetsOf('apaga la tele en 30 minutos')).toContain('cronjob');
    expect(toolsetsOf('выключи свет через 15 минут')).toContain('cronjob');
    expect(toolsetsOf('電気を30分後に消して')).toContain('cronjob');
    expect(toolsetsOf('minuten lang gewartet, in der Stunde danach nichts')).not.toContain('cronjob');
  });

  it('an action set for a clock time is a scheduled job in the other languages too', () => {
    expect(toolsetsOf('mach um 6:45 Uhr die Kaffeemaschine an')).toContain('cronjob');
    expect(toolsetsOf('ouvre les volets à 7h30 demain')).toContain('cronjob');
    expect(toolsetsOf('podlej kwiaty na balkonie o 18:00')).toContain('cronjob');
    expect(toolsetsOf('включи обогреватель в 6 утра')).toContain('cronjob');
    expect(toolsetsOf('朝7時に窓を開けて')).toContain('cronjob');
    expect(toolsetsOf('zoom 12 times into the map')).not.toContain('cronjob');
  });

  it('"remember" and "read it aloud" in the languages the first lexicons lack', () => {
    expect(toolsetsOf('kom ihåg att min son är allergisk mot nötter')).toContain('memory');
    expect(toolsetsOf('ține minte că parola wifi e pe frigider')).toContain('memory');
    expect(toolsetsOf('tandaan mo na tuwing Biyernes ang sahod ko')).toContain('memory');
    expect(toolsetsOf('přečti mi tu zprávu nahlas')).toContain('tts');
    expect(toolsetsOf('les oppskriften høyt mens jeg baker')).toContain('tts');
    expect(toolsetsOf('cheza muziki kwa sauti ya chini')).not.toContain('tts');
  });

  it('"every day" and a clock time in still more languages are a scheduled job', () => {
    expect(toolsetsOf('pošli mi každé ráno přehled počasí')).toContain('cronjob');
    expect(toolsetsOf('tarkista varmuuskopio joka ilta')).toContain('cronjob');
    expect(toolsetsOf('nikumbushe kila asubuhi kunywa dawa')).toContain('cronjob');
    expect(toolsetsOf('فردا ساعت ۷ چراغ‌ها رو خاموش کن')).toContain('cronjob');
    expect(toolsetsOf('hvordan sier man hverdag på engelsk')).not.toContain('cronjob');
  });

  it('a video named in another script is a video toolset', () => {
    expect(toolsetsOf('сделай короткое видео про наш магазин')).toEqual(expect.arrayContaining(['video', 'video_gen']));
    expect(toolsetsOf('この動画を30秒に切って')).toEqual(expect.arrayContaining(['video', 'video_gen']));
    expect(toolsetsOf('videopuhelu alkaa pian')).not.toContain('video');
  });

  it('the internet named or a look-up asked for brings the web', () => {
    expect(toolsetsOf('인터넷에서 이 카메라 중고 가격 좀 알아봐')).toContain('web');
    expect(toolsetsOf('găsește-mi orarul trenurilor spre Brașov')).toContain('web');
    expect(toolsetsOf('tafuta bei ya mahindi leo')).toContain('web');
  });

  it('figures from a data file are computed, not read', () => {
    expect(toolsetsOf('make a bar chart of monthly totals from ~/data/rain.csv')).toContain('code_execution');
    expect(toolsetsOf('sales.xlsx: what is the average order per customer?')).toContain('code_execution');
    expect(toolsetsOf('add a row for today to expenses.csv')).not.toContain('code_execution');
  });

  it('figures from a data file are computed in the other languages too', () => {
    expect(toolsetsOf('oblicz średnią cenę z pliku ceny_mleka.csv')).toContain('code_execution');
    expect(toolsetsOf('построй график продаж по месяцам из отчет.xlsx')).toContain('code_execution');
    expect(toolsetsOf('hitung total pengeluaran di belanja.csv')).toContain('code_execution');
    expect(toolsetsOf('売上.csv の平均を出して')).toContain('code_execution');
    expect(toolsetsOf('lies den zählerstand ab und trag ihn in zaehler.csv ein')).not.toContain('code_execution');
  });

  it('a private message or a post to a group is the group-chat toolset', () => {
    expect(toolsetsOf('DM Priya the seating plan')).toContain('hermes-yuanbao');
    expect(toolsetsOf('post the new rota in the family group')).toContain('hermes-yuanbao');
    expect(toolsetsOf('mándaselo por privado a Lucía')).toContain('hermes-yuanbao');
    expect(toolsetsOf('list the channels grouped by category')).not.toContain('hermes-yuanbao');
    expect(toolsetsOf('remind me at 5 pm to call the PM')).not.toContain('hermes-yuanbao');
  });

  it('a procedure the agent keeps is a skill; a recipe to cook is not', () => {
    expect(toolsetsOf('is there a recipe you follow for release notes? show me')).toContain('skills');
    expect(toolsetsOf('save this as a reusable workflow for next quarter')).toContain('skills');
    expect(toolsetsOf('find me the recipe for a Victoria sponge')).not.toContain('skills');
    expect(toolsetsOf('what are the steps we have to take for a visa?')).not.toContain('skills');
  });

  it('"skill" in other languages is the skills toolset, at a word start only', () => {
    expect(toolsetsOf('guarda esto como una habilidad para la próxima vez')).toContain('skills');
    expect(toolsetsOf('今日の作業手順をスキルにまとめて')).toContain('skills');
    expect(toolsetsOf('lưu quy trình này thành một kỹ năng')).toContain('skills');
    expect(toolsetsOf('la inhabilidad del árbitro fue evidente en el partido')).not.toContain('skills');
  });

  it('a routine or procedure to run again is a skill', () => {
    expect(toolsetsOf('rerun the weekly cleanup routine on the server')).toContain('skills');
    expect(toolsetsOf('redo the backup procedure on the NAS')).toContain('skills');
    expect(toolsetsOf('what is a good stretching routine for runners?')).not.toContain('skills');
  });

  it('a standing instruction is kept in memory', () => {
    expect(toolsetsOf('new rule: no emojis in anything you write for me')).toContain('memory');
    expect(toolsetsOf('going forward, prices in euros please. what does a flat white cost in Rome?')).toContain('memory');
    expect(toolsetsOf('what rule says a pawn can move two squares?')).not.toContain('memory');
  });
});

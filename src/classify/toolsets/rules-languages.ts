/**
 * The recall-first lexicons of rules.ts in other languages (Spanish, Portuguese, French, German, Italian, Dutch,
 * Polish, Russian, Ukrainian, Turkish, Indonesian, Vietnamese, Japanese, Korean, Arabic, Hindi, Thai; for reminders,
 * schedules, memory, speech and video some forty more) and a few English outcome words rules.ts lacked. The model
 * learns other languages only from the lines its writers wrote in them, so an outcome named in, say, Polish
 * ("przypomnij", "na głos") often scores under 1%; these words are general vocabulary for the same outcomes, written
 * from the languages, not from any corpus line.
 *
 * Stems match at a word start and run on (so "recuérd" covers recuérdame, recuérdalo); scripts written without
 * spaces match anywhere. Like rules.ts they only add toolsets and read instruction words only (negated and
 * quoted words are blanked before matching: English and Chinese by features/scopes.ts, the other languages by
 * negation-languages.ts).
 */
export interface LanguageRule {
  name: string;
  toolsets: string[];
  pattern: RegExp;
}

/** Alternatives that start at a word boundary (any script) and may run on: stems and phrases. */
function stems(...alternatives: string[]): string {
  return `(?<![\\p{L}\\p{M}\\p{N}])(?:${alternatives.join('|')})`;
}

/** Whole words or phrases (any script): both ends at a word boundary. */
function words(...alternatives: string[]): string {
  return `${stems(...alternatives)}(?![\\p{L}\\p{M}\\p{N}])`;
}

/** Alternatives matched anywhere (Japanese, Korean, Thai, Arabic, Devanagari: no reliable word start). */
function anywhere(...alternatives: string[]): string {
  return `(?:${alternatives.join('|')})`;
}

/**
 * The pattern is made when a rule is first matched, not when this module loads: parsing these Unicode
 * patterns (`\p{…}` classes, look-behinds) was ~5-10 ms of the CPU `start` took to listen, and a start need
 * not match anything. `start` matches them once right after it listens (classify/toolsets/warm-up.ts).
 */
function rule(name: string, toolsets: string[], ...parts: string[]): LanguageRule {
  const source = parts.join('|');
  let pattern: RegExp | undefined;
  return {
    name,
    toolsets,
    get pattern() {
      pattern ??= new RegExp(source, 'u');
      return pattern;
    },
  };
}

/** A small count in the rules' languages: a number, or one, two and half a. */
const delayCount = String.raw`(\d+|una?|uma?|une|dos|duas|deux|eine[rm]?|zwei|due|twee|een|dwie|dwa|jedn[aą]|pół)`;

const weekdays = 'lunes|martes|miércoles|jueves|viernes|sábado|domingo|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|lunedì|martedì|mercoledì|giovedì|venerdì|sabato|domenica|segunda|terça|quarta|quinta|sexta|maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag';

/** A data file named by its extension, for both data-computation rules. */
const dataFileExtension = String.raw`\.(?:csv|tsv|xlsx?|json|parquet|ods)(?![\p{L}\p{N}])`;

/** Computing figures (correlation, average, sum, chart, count, statistics, deviation, calculate, percent) in the rules' languages. */
const computationWords = [
  stems('correlac', 'korrelac', 'korelac', 'корреляц', 'кореляц', 'corrélation', 'korrelation', 'correlazione', 'correlatie', 'korelasi', 'korelasyon', 'tương quan', 'promedio', 'moyenne', 'durchschnitt', 'gemiddeld', 'średni', 'средн', 'середн', 'ortalama', 'rata-rata', 'rata rata', 'trung bình', 'somme', 'summe', 'somma', 'сумм', 'toplam', 'gráfic', 'graphique', 'diagramm', 'grafic', 'grafiek', 'wykres', 'график', 'графік', 'biểu đồ', 'хистограм', 'histogram', 'estadístic', 'estatístic', 'statistiq', 'statisti', 'statystyk', 'статистик', 'istatistik', 'thống kê', 'desviación', 'desvio', 'écart', 'abweichung', 'deviazione', 'odchyleni', 'отклонени', 'sapma', 'deviasi', 'độ lệch', 'calcul', 'berechne', 'bereken', 'oblicz', 'вычисл', 'рассчита', 'обчисл', 'hesapla', 'porcentaje', 'pourcentage', 'prozent', 'percentual', 'процент', 'yüzde', 'persentase', 'phần trăm', 'policz', 'посчита', 'подсчита', 'порахуй'),
  words('média', 'media', 'suma', 'soma', 'jumlah', 'tổng', 'grafik', 'contar', 'cuenta', 'compter', 'compte', 'zählen', 'zähle', 'conta', 'tellen', 'hitung', 'đếm', 'tính'),
  anywhere('احسب', 'حساب', 'متوسط', 'مجموع', 'الانحراف', 'رسم بياني', 'إحصاء', '平均', '相関', 'グラフ', '計算', '統計', '標準偏差', '평균', '상관', '그래프', '계산', '통계', '표준편차', 'औसत', 'गणना', 'ग्राफ'),
].join('|');

export const languageRules: LanguageRule[] = [
  rule(
    'memory-languages',
    ['memory'],
    stems('recuerda que', 'acuérdate', 'ten en cuenta', 'no olvides', 'memoriza', 'apúntate', 'de ahora en adelante', 'lembra que', 'lembre que', 'lembre-se', 'lembra-te', 'memoriz', 'não esqueça', 'nao esqueca', 'daqui (pra|para) frente', 'a partir de agora', 'souviens', 'retiens', 'garde en mémoire', 'mémorise', "n'oublie pas", 'désormais', 'à partir de maintenant', 'merk dir', 'merke dir', 'vergiss nicht', 'denk daran', 'behalte', 'ab jetzt', 'von nun an', 'ricorda che', 'ricordati', 'tieni a mente', 'memorizza', 'non dimenticare', "d'ora in poi", 'da ora in poi', 'onthoud', 'vergeet niet', 'voortaan', 'zapamiętaj', 'pamiętaj', 'nie zapomnij', 'od teraz', 'запомни', 'помни', 'не забудь', 'учти', 'впредь', 'с этого момента', "запам'ятай", 'пам’ятай', "пам'ятай", 'aklında tut', 'unutma', 'catat bahwa', 'jangan lupa', 'mulai sekarang', 'nhớ', 'ghi nhớ', 'đừng quên', 'từ giờ', 'yaad rakh'),
    anywhere('覚えて', '覚えと', '記憶して', '忘れないで', '今後は', '기억해', '기억하', '잊지 마', '앞으로는', 'تذكر', 'احفظ', 'لا تنس', 'याद रख', 'จำไว้', 'อย่าลืม'),
    words('hatırla', 'ingat', 'ingatlah', "don't forget that", 'note somewhere', 'for next time', 'next time (i|you)', 'save (it|that|this) for later'),
  ),
  rule(
    'cron-languages',
    ['cronjob'],
    stems('recuérdame', 'avísame', 'cada (día|mañana|tarde|noche|semana|mes|hora|' + weekdays + ')', 'todos los (días|meses|' + weekdays + ')', 'todas las (mañanas|tardes|noches|semanas)', 'diariamente', 'semanalmente', 'me lembr', 'lembre-me', 'me avis', 'todo (dia|mês)', 'todos os dias', 'toda (manhã|noite|semana|' + weekdays + ')', 'rappelle-moi', 'rappelle moi', 'préviens-moi', 'tous les (jours|matins|soirs|mois|' + weekdays + 's?)', 'chaque (jour|matin|soir|semaine|mois|heure|' + weekdays + ')', 'erinnere mich', 'erinner mich', 'jeden (tag|morgen|abend|monat|' + weekdays + ')', 'jede (woche|stunde|nacht)', 'täglich', 'wöchentlich', 'stündlich', 'ricordami', 'avvisami', 'ogni (giorno|mattina|sera|notte|settimana|mese|ora|' + weekdays + ')', 'tutti i giorni', 'tutte le (mattine|sere)', 'herinner me', 'laat (het )?me weten', 'elke (dag|ochtend|avond|nacht|week|maand|' + weekdays + ')', 'iedere (dag|ochtend|avond|week)', 'dagelijks', 'wekelijks', 'przypomnij', 'codziennie', 'co (dzień|rano|tydzień|wieczór|noc|miesiąc|godzinę)', 'każdego (dnia|ranka|wieczoru|tygodnia)', 'напомни', 'каждый (день|час|вечер|понедельник|месяц)', 'каждое утро', 'каждую (неделю|ночь|пятницу)', 'ежедневно', 'еженедельно', 'по утрам', 'нагадай', 'щодня', 'щоранку', 'hatırlat', 'her (gün|sabah|akşam|gece|hafta|ay|saat|pazartesi|salı|çarşamba|perşembe|cuma|cumartesi|pazar)', 'ingatkan', 'ingetin', '(setiap|tiap) (hari|pagi|malam|minggu|bulan|jam)', 'nhắc', 'mỗi (ngày|sáng|tối|tuần|tháng)', 'hàng (ngày|tuần|tháng)', 'hằng (ngày|tuần)', 'yaad dila', 'har (din|subah|raat|hafte)'),
    words('each (morning|evening|night|day|week|month|weekday|monday|tuesday|wednesday|thursday|friday|saturday|sunday)'),
    anywhere('リマインド', '思い出させて', '通知して', '毎日', '毎朝', '毎晩', '毎週', '毎月', '定期的に', '리마인드', '알림', '매일', '매주', '매달', '아침마다', '저녁마다', 'ذكرني', 'كل يوم', 'كل صباح', 'كل أسبوع', 'يوميا', 'याद दिला', 'हर दिन', 'हर सुबह', 'เตือน', 'ทุกวัน', 'ทุกเช้า', 'ทุกสัปดาห์'),
  ),
  // "Remind me" is the clearest sign of a scheduled job in any language, and the model knows it only in the
  // languages its writers used: the imperative and the noun in forty more, from the languages themselves.
  rule(
    'cron-more-languages',
    ['cronjob'],
    stems('minn meg', 'minn mig', 'påminn', 'påmind', 'mind mig', 'muistuta', 'muistutus', 'minntu mig', 'áminning', 'herinner my', 'herinnering', 'erinnerung', 'erinnerig', 'připomeň', 'připomenutí', 'upozorni mě', 'pripomeň', 'pripomen', 'opomni me', 'opomnik', 'podsjeti', 'podseti', 'podsetnik', 'подсети', 'потсети', 'напомняне', 'напомнете', 'нагадування', 'напоминани', 'amintește-mi', 'aminteste-mi', 'reamintește', 'reaminteste', 'emlékeztess', 'emlékeztető', 'primink', 'priminti', 'priminimą', 'priminimas', 'atgādini', 'atgādinā', 'tuleta mulle meelde', 'meeldetuletus', 'υπενθύμισ', 'θύμισέ μου', 'θύμισε μου', 'xatırlat', 'eslat', 'еске сал', 'ескерт', 'эскерт', 'сануул', 'paalalahanan', 'ipaalala', 'nikumbushe', 'ukumbusho', 'ngikhumbuze', "recorda'm", 'recordatori', 'lémbrame', 'lembrete', 'recordatorio', 'gogorarazi', 'atgoffa', 'memorigu', 'më kujto', 'kujtesë', 'whakamaumahara', 'nudge me', 'set a timer'),
    anywhere('תזכיר לי', 'תזכורת', 'یادآوری', 'یادم بنداز', 'یادم بیار', 'یاد دلا', 'یاد دہانی', 'فكرني', 'فكّرني', 'نبهني', 'تذكير', 'ذكّرني', 'रिमाइंडर', 'आठवण करून', 'মনে করিয়ে', 'রিমাইন্ডার', 'நினைவூட்ட', 'ஞாபகப்படுத்த', 'గుర్తు చేయ', 'గుర్తుచేయ', 'ഓർമ്മിപ്പിക്ക', 'ഓർമിപ്പിക്ക', 'ನೆನಪಿಸ', 'सम्झाइदि', 'මතක් කර', 'ਯਾਦ ਕਰਵਾ', 'યાદ અપાવ', 'រំលឹក', 'သတိပေး', 'ເຕືອນ', 'አስታውሰኝ', 'հիշեցր', 'შემახსენ'),
  ),
  // An action set for "in twenty minutes" is a job that runs later: rules.ts reads "in \d+ minutes" in English,
  // this reads it in the rules' other languages. 57 of the 64 training-writer messages it fired on (writers 1–146)
  // need the cron toolset; the rest mostly say when the user will be somewhere ("a meeting in 20 minutes").
  rule(
    'cron-delay-languages',
    ['cronjob'],
    words(
      `(en|em|daqui a|dentro de) ${delayCount} (minutos?|horas?)`,
      `dans ${delayCount} (minutes?|heures?)`,
      `in ${delayCount} (minuten|stunden?)`,
      `(tra|fra) ${delayCount} (minut[io]|or[ae])`,
      `over ${delayCount} (minuten|minuut|uur)`,
      `za ${delayCount} (minut[ęy]?|godzin[ęy]?)`,
      'через \\d+ (минут[уы]?|час(а|ов)?|хвилин[уи]?|годин[уи]?)',
      '\\d+ (dakika|saat) sonra',
      '\\d+ (menit|jam) (lagi|kemudian)',
      'sau \\d+ (phút|giờ|tiếng)',
      '\\d+ (phút|giờ|tiếng) nữa',
    ),
    anywhere('\\d+ ?分後', '\\d+ ?時間後', '\\d+ ?(분|시간) ?(후|뒤)', 'بعد \\d+ (دقيقة|دقائق|ساعة|ساعات)', '\\d+ मिनट (में|बाद)', '\\d+ घंटे (में|बाद)'),
  ),
  // An action set for a clock time ("um 22 Uhr", "a las 7", "o 6:30") runs later too: rules.ts reads "at 10pm" in
  // English only. Of the training writers' messages (1–164) these fire on, 90% need the cron toolset (the English
  // "at N" rule: 76%); the rest mostly keep a time in memory or put it in a text read aloud. The Persian, Urdu,
  // Swahili, Tagalog and Haitian forms, added later: 35 of 42 (writers 1–183). Chinese clock times are left out:
  // only 57% of them need a job.
  rule(
    'cron-clock-languages',
    ['cronjob'],
    words(
      'um \\d{1,2}([:.]\\d\\d)? ?uhr',
      'um \\d{1,2}[:.]\\d\\d',
      'à \\d{1,2} ?h(\\d\\d)?',
      '(a las|a la|às|alle( ore)?) \\d{1,2}([:.h]\\d\\d)?',
      'om \\d{1,2}([:.]\\d\\d)?( ?uur)?',
      'o (godz(inie|\\.)? ?)?\\d{1,2}[:.]\\d\\d',
      '[вуо] \\d{1,2}[:.]\\d\\d',
      'в \\d{1,2} (час(а|ов)?|утра|вечера|ночи)',
      '(kl\\.?|klo) \\d{1,2}([:.]\\d\\d)?',
      'saat \\d{1,2}([:.]\\d\\d)?',
      '(pukul|jam) \\d{1,2}([:.]\\d\\d)?',
      'lúc \\d{1,2}( ?giờ|h|[:.]\\d\\d)?',
    ),
    anywhere('\\d{1,2}時(\\d{1,2}分|半)?に', '\\d{1,2}시(에| \\d{1,2}분에| 반에)', 'ساعت [0-9۰-۹]{1,2}', '[0-9۰-۹]{1,2} ?بجے'),
    words('saa \\d{1,2}', 'alas-?\\d{1,2}', 'a \\d{1,2}è'),
  ),
  // "Every day", "every morning", "every 30 minutes" in the languages cron-languages lacks (Czech, Slovak, Nordic,
  // Finnish, Hungarian, Romanian, Greek, South Slavic, Bulgarian, Swahili, Tagalog, Haitian Creole, Azerbaijani,
  // Uzbek, Persian, Urdu): 50 of the 56 training-writer messages it adds (writers 1–183) need the cron toolset; the
  // rest state a habit ("the shop closes at six every day").
  rule(
    'cron-every-more-languages',
    ['cronjob'],
    words(
      '(každý|každou|každé|každých|každú) (den|deň|ráno|večer|týden|týždeň|hodinu|\\d+)', 'hver(t|e)? (dag|morgen|kveld|uke|uge|time|\\d+)',
      'varje (dag|morgon|kväll|vecka|timme)', 'joka (päivä|aamu|ilta|viikko|tunti)', 'minden (nap|reggel|este|héten|órában)',
      'în fiecare (zi|dimineață|seară|săptămână)', 'in fiecare (zi|dimineata|seara|saptamana)', 'κάθε (μέρα|πρωί|βράδυ|εβδομάδα|ώρα)',
      'svak(i|og|e|u) (dan|dana|jutra|večer|tjedan|nedelj|sat)', 'всеки (ден|час)', 'всяка (сутрин|седмица|вечер)',
      'kila (siku|asubuhi|wiki|jioni)', 'araw-araw', 'chak (jou|swa|maten|semèn)', 'hər (gün|səhər|həftə)', 'har kuni',
      'هر (روز|هفته|صبح|شب|ساعت)', 'ہر (روز|ہفتے|صبح|رات)', 'روزانه', 'روزانہ',
    ),
  ),
  rule(
    'tts-languages',
    ['tts'],
    stems('en voz alta', 'audio', 'áudio', 'nota de voz', 'mensaje de voz', 'léeme', 'leia para mim', 'lê (pra|para) mim', 'em voz alta', 'mensagem de voz', 'à voix haute', 'vocal', 'lis-moi', 'lis moi', 'vorlesen', 'lies mir', 'lies .{0,40} vor', 'laut vor', 'sprachnachricht', 'ad alta voce', 'leggimi', 'voorlezen', 'lees .{0,30}voor', 'hardop', 'spraakbericht', 'na głos', 'przeczytaj mi', 'głosow', 'вслух', 'озвуч', 'аудио', 'голосом', 'голосов', 'вголос', 'sesli', 'sesle', 'bacakan', 'bacain', 'pakai suara', 'dengan suara', 'pesan suara', 'đọc to', 'giọng nói', 'đọc cho', 'tin nhắn thoại', 'bol kar', 'awaaz'),
    words('voice (note|message|memo|clip|briefing|summary|recording|alert|ping|version)s?', '(in|with) (a |my )?voice', 'spoken', 'read (it |them |this |that |those )?(out|back) to me', 'read me'),
    anywhere('読み上げ', '音声', '声で', 'ボイス', '읽어줘', '음성', '소리 내', '오디오', 'بصوت', 'صوتي', 'اقرأ لي', 'बोलकर', 'आवाज़', 'อ่านออกเสียง'),
  ),
  // "Remember" and "don't forget" in the languages memory-languages lacks (Nordic, Baltic, Central European,
  // Balkan, Romanian, Greek, Swahili, Tagalog, Welsh): 107 of the 110 training-writer messages it fires on and that
  // lexicon does not need the memory toolset (the other three are words inside a quoted note or email, which the
  // rules do not read).
  rule(
    'memory-more-languages',
    ['memory'],
    words(
      'husk (at|å|det|dette|denne)', 'kom ihåg', 'muista', 'zapamatuj', 'zapamätaj', 'zapamti', 'запамети', 'jegyezd meg', 'ne felejtsd',
      'ține minte', 'tine minte', 'reține', 'retine', 'θυμήσου', 'να θυμάσαι', 'kumbuka', 'tandaan', 'cofia', 'atceries', 'įsimink',
      'atsimink', 'pea meeles', 'mäleta', 'glöm inte', 'ikke glem', 'glem ikke', 'älä unohda', 'nezapomeň', 'nezabudni', 'ne zaboravi',
      'nu uita', 'μην ξεχάσεις', 'usisahau', 'huwag kalimutan',
    ),
  ),
  // "Read it aloud" and "a voice message" in the languages the lexicon above lacks (Nordic, Baltic, Central
  // European, Balkan, Greek, Welsh, Swahili, Tagalog): 59 of the 60 training-writer messages it fires on and the
  // lexicon above does not need speech (the other plays music "kwa sauti ya chini", quietly); "läs upp" and its
  // Norwegian and Danish kin fire on 15 more, 14 of which need it (the other is a poem the user will read out).
  rule(
    'tts-more-languages',
    ['tts'],
    words(
      'yn uchel', 'upphátt', '(läs|läsa|les|lese|læs|læse)( \\S+){0,4} (högt|høyt|højt)', '(läs|läsa) upp', '(les|lese) opp',
      '(læs|læse) op', 'ääneen', 'hangosan', 'nahlas', 'naglas', 'glasno', 'cu voce tare', 'φωναχτά', 'garsiai', 'skaļi', 'valjult',
      'soma( \\S+){0,4} kwa sauti', 'nang malakas', 'ng malakas', 'ar lais', 'os ard',
      'sesli oku', 'ozvuč', 'hlasitě', 'hlasno', 'na glas', 'balsu', 'ääni(viesti|muistio)', 'röstmeddelande', 'talemelding', 'talebesked',
      'lydfil', 'ljudfil', 'äänite', 'hangüzenet', 'hangfájl', 'hlasová zpráva', 'hlasovou zprávu', 'glasovn', 'mesaj vocal', 'φωνητικ',
      'balso žinut', 'balss ziņ', 'häälsõnum', 'ujumbe wa sauti', 'awdio', 'llais',
    ),
  ),
  // A video named in another language or script (the English rule reads "video", "clip", "mp4"): 253 of the 279
  // full-registry training-writer messages it adds (writers 1–183) need a video toolset; the rest ask how videos are
  // made. A rule names toolsets, so a client without video toolsets is not touched.
  rule(
    'video-languages',
    ['video', 'video_gen'],
    words('vídeos?', 'vidéos?', 'видео', 'відео', 'wideo', 'videó', 'videót', 'videon', 'videota', 'βίντεο', 'ვიდეო', 'ividiyo', 'vidyo'),
    anywhere('ビデオ', '動画', '동영상', '비디오', 'वीडियो', 'व्हिडिओ', 'ভিডিও', 'ویدیو', 'ویڈیو', 'فيديو', 'فیدیو', 'วิดีโอ', 'ቪዲዮ'),
  ),
  rule(
    'clarify-languages',
    ['clarify'],
    stems('pregúntame', 'preguntame', 'consúltame', 'hazme (unas |algunas )?preguntas', 'me pergunt', 'pergunte-me', 'pergunta-me', 'confirma comigo', 'demande-moi', 'demande moi', 'pose-moi des questions', 'confirme avec moi', 'vérifie avec moi', 'frag mich', 'frage mich', 'stell mir (ein paar )?fragen', 'chiedimi', 'fammi (delle |qualche )?domand', 'conferma con me', 'vraag (me|mij|eerst)', 'zapytaj mnie', 'spytaj mnie', 'dopytaj', 'спроси', 'уточни у меня', 'запитай мене', 'спитай', 'bana sor', 'önce sor', 'tanya (aku|saya|dulu)', 'tanyakan dulu', 'hỏi (tôi|lại tôi|mình|trước)', 'mujhse puch', 'pehle puch'),
    words('check with me', 'confirm with me', 'let me (choose|pick|decide)'),
    anywhere('私に聞いて', '先に聞いて', '質問して', '確認してから', '물어봐', '나한테 물어', '먼저 물어', 'اسألني', 'मुझसे पूछ', 'ถามฉัน', 'ถามก่อน', '先确认', '跟我确认', '和我确认', '先问'),
  ),
  rule(
    'subagent-languages',
    ['delegation'],
    stems('sub-?agent', 'sous-agent', 'unteragent', 'sotto-?agent', 'субагент', 'суб-агент', 'alt-?ajan', 'sub-?agen', 'tác tử phụ', 'delega', 'délègue', 'déléguer', 'delegier', 'делегируй', 'en paralelo', 'en parallèle', 'in parallelo', 'parallel', 'параллельно', 'paralel', 'song song'),
    anywhere('サブエージェント', '委任', '並行', '並列', '手分け', '서브 ?에이전트', '하위 에이전트', '병렬', '동시에'),
  ),
  rule(
    'web-languages',
    ['web'],
    stems('búscame', 'busca (en|información|info|noticias|online|precios|qué|cuál|dónde)', 'investiga', 'averigua', 'noticias', 'en internet', 'en línea', 'pesquis', 'procure (na|no|online)', 'notícias', 'previsão do tempo', 'na internet', 'recherch', 'cherche (sur|en ligne|des infos|les)', 'actualités', 'météo', 'sur internet', 'en ligne', 'recherchier', 'such (im|online|mal|nach)', 'nachrichten', 'wetter', 'im internet', 'googl', 'cerca (su|in|online|informazioni|notizie|i migliori|le migliori|il|la)', 'notizie', 'meteo', 'su internet', 'opzoeken', 'zoek (op|uit|naar)', 'nieuws', 'wyszukaj', 'poszukaj', 'pogod', 'w internecie', 'погугли', 'загугли', 'поищи', 'найди в интернете', 'новост', 'погод', 'курс (доллара|евро|валют|рубля|биткоин)', 'в интернете', 'пошукай', 'новини', 'araştır', 'internette', 'haberler', 'hava durumu', 'cari(kan)? (di|info|tahu)', 'riset', 'berita', 'cuaca', 'di internet', 'tra cứu', 'tìm kiếm', 'tìm (trên mạng|hiểu)', 'tin tức', 'thời tiết', 'có mưa', 'trên mạng', 'khoj', 'search karo'),
    anywhere('調べて', '検索', 'ネットで', 'ニュース', '天気', '검색', '알아봐', '찾아봐', '뉴스', '날씨', 'ابحث', 'أخبار', 'اخبار', 'طقس', 'أسعار', 'खोज', 'समाचार', 'मौसम', 'ค้นหา', 'ข่าว', 'อากาศ'),
  ),
  // Web is the cheapest toolset to keep (3% of the CLI schema): the internet named, or a look-up verb, in the
  // languages the lexicon above lacks. Half the matches in the training writers' messages need it; the rest are
  // mostly "don't search the internet" in a language whose negations are not blanked.
  rule(
    'web-more-languages',
    ['web'],
    stems('internet', 'интернет', 'інтернет', 'онлайн', 'nettet', 'på nett', 'på nätet', 'netistä', 'googla', 'nachlueg', 'sök upp', 'søk opp', 'slå opp', 'vyhledej', 'poišči', 'potraži', 'pretraži', 'потражи', 'претражи', 'caută', 'cauta pe', 'găsește-mi', 'gaseste-mi', 'αναζήτη', 'ψάξε', 'βρες μου', 'axtar', 'qidir', 'hanapin', 'maghanap', 'tafuta', 'cercar', 'bilatu', 'chwilia'),
    anywhere('اینترنت', 'באינטרנט', 'ইন্টারনেট', 'இணைய', 'ఇంటర్నెట్', 'ഇന്റർനെറ്റ', 'ಇಂಟರ್ನೆಟ್', 'इंटरनेट', 'ऑनलाइन', 'ਇੰਟਰਨੈੱਟ', 'ઇન્ટરનેટ', '인터넷', '온라인', 'インターネット', 'オンライン', '网上', '上网', '互联网', '網上', '網路上', 'อินเทอร์เน็ต', 'ออนไลน์', 'អ៊ីនធឺណិត', 'အင်တာနက်', 'ኢንተርኔት', 'ინტერნეტ', 'ինտերնետ', 'الإنترنت', 'الانترنت', 'اون لاين', 'أونلاين', 'جستجو', 'بگرد', 'חפש', 'תחפש', 'খুঁজে', 'অনুসন্ধান', 'தேடு', 'వెతుకు', 'തിരയ', 'ಹುಡುಕ'),
  ),
  // Figures drawn from a data file (a chart, a total, an average of a CSV or a spreadsheet) are computed by a
  // program: read_file shows the rows, it does not add them up. 79% of such messages of the training writers
  // need code or a shell; the words around the file are English, the file names are any language's.
  rule('data-computation', ['code_execution'], String.raw`(?:${dataFileExtension}|spreadsheet|excel).{0,200}(?<![\p{L}\p{M}\p{N}])(?:chart|graph|plot|histogram|average|averages|mean|median|total|totals|sum|sums|calculate|compute|tally|count|aggregate|top \d+|top ten|percent|percentage|growth|trend|regression|correlat|statistic|std|variance|pivot|group(?:ed)? by|by month|per month|per week|each month|convert)|(?<![\p{L}\p{M}\p{N}])(?:chart|graph|plot|histogram|average|total|sum|calculate|compute|tally|count|aggregate|top \d+|pivot|statistic|correlat).{0,120}${dataFileExtension}`),
  // The same in the rules' other languages: the file's name carries the extension in any language, the words
  // around it did not ("policz korelację w pliku dane.csv", "побудуй графік з файлу X.xlsx"). Of the training
  // writers' messages (1–164) it fires on and the English rule does not, 93 of 98 need code or a shell and none is
  // wrong (the other five accept it). Short words that begin other words ("conta" in "contador", "zähle" in
  // "zählerstand") match whole only.
  rule(
    'data-computation-languages',
    ['code_execution'],
    String.raw`(?:${dataFileExtension}).{0,200}(?:${computationWords})|(?:${computationWords}).{0,120}(?:${dataFileExtension})`,
  ),
  // A direct message or a post in a group chat: in Hermes's registry that is the Yuanbao toolset (Discord has
  // channels and servers of its own words). A rule names only toolsets, so it changes nothing for a client
  // without Yuanbao. 79% of such messages of the training writers' full-registry cases need it.
  rule('private-or-group-message', ['hermes-yuanbao'], String.raw`(?<![\p{L}\p{M}\p{N}])(?:dm|dms|direct message|private message|privately|in private|group chat|(?:in|to|on) (?:the|our|my) (?:\w+ ){0,2}group|the group|por privado|en privado|mensaje privado|mensagem privada|em privado|no privado|en privé|message privé|in privat|privatnachricht|privé|in privato|messaggio privato|prywatnie|prywatną|pribadi|japri|riêng|личн|приват|özelden|grupta|grupie|grupo|groupe|gruppo|gruppe|groep|группе|групі|nhóm|grup)(?![\p{L}\p{M}\p{N}])|(?:私信|私聊|群里|群聊|グループ|個別に|DMで|단톡|그룹방|개인 메시지|ग्रुप|निजी|กลุ่ม|ส่วนตัว|گروه|خصوصی|المجموعة|الجروب)`),
  // A procedure the agent keeps ("the recipe you follow", "save this as a reusable workflow") is a skill, however
  // the user names it; 97% of such messages of the training writers need the skills toolset.
  rule('saved-procedure', ['skills'], String.raw`(?<![\p{L}\p{M}\p{N}])(?:(?:saved|stored|reusable|re-usable) (?:\w+ )?(?:procedure|recipe|playbook|workflow|runbook|how-?to|know-how|write-?up|routine)s?|(?:procedure|recipe|playbook|workflow|runbook|routine|guide|instructions|steps) (?:you (?:have|keep|saved|stored|follow|wrote)|we (?:saved|stored|wrote))|save (?:this|that|it|the \w+) as (?:a )?(?:reusable|procedure|recipe|playbook|workflow|routine|template)|procédure enregistrée|procédure réutilisable|wiederverwendbare? (?:anleitung|vorgehen|ablauf)|gespeicherte (?:anleitung|vorgehensweise|ablauf)|procedimiento guardado|procedimento salvo|procedura salvata)|(?:保存过的流程|保存的流程|存下来的流程|做成技能|保存した手順|저장한 절차)`),
  // "Skill" in the other languages (habilidad, compétence, Fähigkeit, навык, スキル, 스킬, kỹ năng…): of the training
  // writers' messages (1–189) that name one, 125 of 127 need the skills toolset; 76 of the 78 it adds.
  rule(
    'skills-languages',
    ['skills'],
    stems('habilidad', 'habilidade', 'compétence', 'fähigkeit', 'abilità', 'competenza', 'vaardigheid', 'umiejętnoś', 'навык', 'навичк', 'beceri', 'yetenek', 'keterampilan', 'kỹ năng', 'dovednost', 'zručnosť', 'färdighet', 'ferdighet', 'færdighed', 'taito', 'készség', 'abilitate', 'δεξιότητ', 'вештин', 'veščin', 'vještin', 'ujuzi', 'kasanayan'),
    anywhere('スキル', '스킬', 'مهارة', 'مهارت', 'कौशल', 'स्किल', 'ทักษะ', 'สกิล'),
  ),
  // A routine or procedure to run again or to keep ("run my morning routine", "redo the backup procedure") is a
  // skill the agent has or makes: 9 of the 9 training-writer messages (1–189) it adds need the skills toolset.
  rule('run-routine', ['skills'], `${words('run', 'rerun', 're-run', 'redo', 'do', 'start', 'kick off', 'replay', 'repeat', 'execute', 'save', 'store')}.{0,30}${words('routines?', 'procedures?')}`),
  // A standing instruction ("new rule:", "going forward", "from here on", "for future reference") is kept in memory:
  // 44 of the 52 training-writer messages (1–189) it adds need or accept the memory toolset.
  rule('standing-rule', ['memory'], words('new rule', 'house rule', 'standing (?:rule|instruction)s?', 'for future reference', 'going forward', 'from here on(?: out)?', 'in future', 'for future (?:chats|conversations|sessions)')),
  rule(
    'session-languages',
    ['session_search'],
    stems('conversación anterior', 'habíamos (dicho|hablado|quedado)', '(ya )?hablamos (la semana|ayer|antes|el otro día|de esto)', 'te (mostré|dije|conté|pasé) (la semana|el mes|ayer|antes)', 'la última vez que', 'conversa anterior', 'conversamos (semana|ontem|antes|outro dia)', 'eu te (mostrei|disse|falei|mandei)', 'da última vez', 'conversation précédente', 'la dernière fois', 'on a (parlé|discuté)', 'nous avons (parlé|discuté)', "je t'ai (montré|dit|envoyé)", '(letzte[ns]?|früheren) (mal|gespräch|chat|unterhaltung)', 'haben wir (besprochen|geredet|geschrieben)', 'ich dir (gezeigt|gesagt|geschickt)', 'la volta scorsa', 'abbiamo (parlato|scritto|discusso)', 'ti ho (mostrato|detto|mandato)', 'conversazione precedente', '(vorige|vorig) (keer|gesprek)', 'samen (schreven|bespraken)', 'we (bespraken|hebben besproken)', 'ik je (liet zien|vertelde)', '(starych|poprzednich) rozmow', 'rozmawialiśmy', 'в прошлый раз', 'мы (обсуждали|говорили)', 'прошлом (разговоре|чате)', 'я тебе (показывал|говорил|присылал)', 'konuşmuştuk', 'önceki (sohbet|konuşma)', '(obrolan|percakapan) (sebelumnya|kita)', 'lần trước', 'cuộc trò chuyện trước'),
    words('you (suggested|recommended|told me|showed me|mentioned|gave me)', '(that|the) chat (we|where)', 'our (old |earlier |previous )?(chats|conversations)', 'i (told|showed|sent|gave) you (before|earlier|last)'),
    anywhere('前に話した', 'この前', '以前の会話', '前回', '지난번', '전에 얘기', '이전 대화', 'المرة الماضية', 'محادثتنا'),
  ),
  rule(
    'todo-languages',
    ['todo'],
    stems('lista de (tareas|pendientes|tarefas)', 'checklist', 'liste de (tâches|choses à faire)', 'aufgabenliste', 'checkliste', 'lista (delle )?cose da fare', 'lista di attività', 'takenlijst', 'lista zadań', 'listę zadań', 'список (дел|задач)', 'чек-?лист', 'yapılacaklar', 'görev listesi', 'daftar tugas', 'danh sách (việc|công việc)'),
    anywhere('やることリスト', 'チェックリスト', 'タスクリスト', '할 일 목록', '체크리스트', '투두', 'قائمة مهام', 'รายการสิ่งที่ต้องทำ'),
  ),
  rule(
    'browser-languages',
    ['browser'],
    stems('abre (la )?(web|página|pagina|sitio|site)', 'inicia sesión', 'haz clic', 'página web', 'sitio web', 'abr[ae] o site', 'faça login', 'clica', 'ouvre (le site|la page)', 'connecte-toi', 'clique', 'site web', 'öffne (die )?(seite|website|webseite)', 'webseite', 'website', 'klick', 'einloggen', 'melde dich an', 'apri (il sito|la pagina)', 'sito web', 'clicca', 'open (de )?(site|website|pagina)', 'inloggen', 'otwórz stronę', 'stron[ęy]', 'kliknij', 'zaloguj', 'открой (сайт|страницу)', 'сайт', 'нажми', 'siteyi aç', 'sitesi', 'tıkla', 'giriş yap', 'buka (situs|website|web)', 'mở trang', 'trang web', 'đăng nhập'),
    anywhere('サイト', 'ページを開いて', 'ログイン', 'クリック', '사이트', '웹사이트', '페이지', '로그인', '클릭', 'موقع', 'เว็บไซต์', 'เปิดเว็บ'),
  ),
  rule(
    'image-gen-languages',
    ['image_gen'],
    stems('dibuja', '(genera|crea|hazme) una imagen', 'ilustración', 'dessine', '(génère|crée|fais)(-moi)? une image', 'zeichne', '(erstelle|generiere|mach) (mir )?ein bild', "(genera|crea) un'immagine", 'disegna', 'desenh', '(gera|cria|faz) uma imagem', 'ilustração', 'teken (een|me|mij)', '(maak|genereer) een (afbeelding|plaatje)', 'narysuj', '(wygeneruj|stwórz) (obraz|grafik)', 'нарисуй', '(сгенерируй|создай) (картинку|изображение)', 'görsel oluştur', 'resim oluştur', '(buatkan|bikin|buat) gambar', 'gambarkan', 'tạo (ảnh|hình)', 'vẽ'),
    anywhere('描いて', '画像を生成', '画像を作', 'イラスト', '그려줘', '이미지 생성', '이미지를 만들', '일러스트', 'ارسم', 'أنشئ صورة', 'صمم', 'วาด', 'สร้างภาพ'),
  ),
  rule(
    'vision-languages',
    ['vision'],
    stems('foto', 'imagen', 'captura de pantalla', 'photo', "capture d'écran", 'bild', 'immagine', 'imagem', 'afbeelding', 'zdjęci', 'zrzut ekranu', 'фото', 'снимок', 'скриншот', 'картинк', 'fotoğraf', 'ekran görüntüsü', 'gambar ini', 'tangkapan layar', 'ảnh', 'hình này', 'chụp màn hình'),
    anywhere('写真', '画像', 'スクショ', 'スクリーンショット', '사진', '이미지', '스크린샷', '캡처', 'صورة', 'لقطة شاشة', 'รูป', 'ภาพ'),
  ),
  rule(
    'file-languages',
    ['file'],
    stems('archivo', 'fichero', 'carpeta', 'arquivo', 'ficheiro', 'fichier', 'dossier', 'datei', 'ordner', 'verzeichnis', 'cartella', 'bestand', 'plik', 'katalog', 'файл', 'папк', 'dosya', 'klasör', 'berkas', 'tệp', 'thư mục'),
    anywhere('ファイル', 'フォルダ', '파일', '폴더', 'ملف', 'مجلد', 'ไฟล์'),
  ),
  rule(
    'terminal-languages',
    ['terminal'],
    stems('ejecuta', 'instala', 'reinicia', 'comando', 'exécute', 'redémarre', 'ligne de commande', 'installier', 'starte .{0,20}neu', 'befehl', 'esegui', 'riavvia', 'executa', 'executar', 'execute (o|os|a|as)', 'reinici', 'rode (o|os|a|as)', 'roda (o|os|a|as)', 'installeer', 'herstart', 'uruchom', 'zainstaluj', 'polecenie', 'запусти', 'установи', 'перезапусти', 'çalıştır', 'jalankan', 'cài đặt'),
    words('installe', 'installez'),
    anywhere('実行', 'インストール', '走らせ', '再起動', 'コマンド', '실행', '설치', '명령어', 'شغّل', 'ثبّت'),
  ),
  rule('dev-languages', ['file', 'terminal'], stems('compilación', 'compilação', 'compilazione', 'kompil', 'компил', 'сборк', 'баг'), anywhere('ビルド', 'バグ', '빌드', '버그')),
];

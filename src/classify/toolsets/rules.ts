import type { FramedToken } from '../features/scopes.js';
import { instructionText } from '../features/scopes.js';
import type { MessageLanguage } from './message-language.js';
import { languageRules } from './rules-languages.js';

/**
 * A few high-precision rules on top of the model. They only ever ADD toolsets (a rule can raise recall, never
 * lower it), and they read only words used as instructions: negated and quoted words were framed away already.
 */
export interface RuleResult {
  toolsets: Set<string>;
  /** Toolsets added by a rule whose words have one sense: they stand whatever the model gives them. */
  unambiguous: Set<string>;
  capabilityInquiry: boolean;
  fired: string[];
}

interface Rule {
  name: string;
  toolsets: string[];
  /** Matched against the plain (instruction) words joined by spaces, lower case. */
  pattern: RegExp;
  /** The rule stays silent when the client has this toolset, which serves the need better. */
  unlessClientHas?: string;
  /** The rule stays silent when this earlier rule fired, which explains its words. */
  unlessRule?: string;
  /**
   * Its words have one sense, so it needs no backing from the model (`thresholds.rule_support`, which exists for
   * broad lexicons whose words often mean something else).
   */
  unambiguous?: true;
}

const dataFile = String.raw`\b[\w-]+\.(csv|tsv|xlsx?|json|jsonl|parquet|sqlite|db|log)\b|\b(spreadsheet|dataset|data set|csv|excel)\b`;
const arithmetic = String.raw`\b(how many|count|average|mean|median|sum|total|distribution|histogram|plot|chart|graph|statistics|stats|correlat\w*|percentage|trend|breakdown|most common|frequenc\w*|outliers?|aggregate|pivot)\b`;
const officeDocument = String.raw`\b[\w-]+\.(docx|xlsx|pptx|odt|ods|xls|doc)\b|\b(word|excel) (doc|docs|document|file|spreadsheet|workbook|sheet)s?\b|\bspreadsheet\b`;
const writing = String.raw`\b(save|saved|saving|write|writing|create|creating|make|making|generate|export|update|updating|edit|editing|fill|put|insert|add|append|replace|convert|turn|format|bold|highlight|merge|prepare|draft|build)\b`;

/** Two word groups within `gap` characters of each other, in either order. */
function eitherOrder(first: string, second: string, gap: number): RegExp {
  return new RegExp(`(${first}).{0,${gap}}(${second})|(${second}).{0,${gap}}(${first})`);
}

export const englishAndChineseRules: Rule[] = [
  // Critical toolsets: a miss costs a recovery round trip, an extra costs a few hundred tokens.
  { name: 'cron-words', toolsets: ['cronjob'], pattern: /\b(cron ?jobs?|crons?|crontab|schedul\w*|remind(er|ers)?|wake me|every (day|morning|night|evening|week|weekday|month|hour|minute|monday|tuesday|wednesday|thursday|friday|saturday|sunday|\d+ ?(minutes|mins|hours|days|weeks))|(daily|nightly|weekly|hourly|monthly) (\w+ )?(job|task|run|check|report|backup|digest|alert|summary|reminder)s?|(cancel|stop|pause|delete|remove|disable|turn off|list|change) (the |my |all )?(\w+ ){0,3}(jobs?|reminders?|alerts?|scheduled \w+)|in \d+ (minutes|hours)|keep an eye|monitor\w*|watch (it|for|the)|let me know (tomorrow|later|when|if)|check back|follow up|notify me|alert me|ping me|tomorrow (morning|at)|at \d{1,2}(:\d\d)? ?(am|pm)?|(don'?t|do not|never) let (me|us) (miss|oversleep|sleep through|be late)|make sure (i|we) (don'?t|do not|never) (miss|oversleep|sleep through))\b|(别|不要)让我们?(错过|迟到|睡过)|(别|不要)让我们?忘.{0,16}(今天|今晚|明天|明早|后天|下周|下个月|周[一二三四五六日天]|星期|礼拜|[0-9一二三四五六七八九十]+[点号])|定时|盯着|监控|通知我|提醒|闹钟|每天|每周|每月|每隔|每小时|每晚|分钟后|小时后|计划任务/ },
  // Running a named script or program file is the shell's work whatever else the message says: in "don't touch the
  // others, just run X.py" the leading negation makes the model sure no tool is wanted. Of the training writers'
  // single-turn messages that match, 55 of 58 need the shell or code.
  { name: 'run-named-script', toolsets: ['terminal'], unambiguous: true, pattern: /(?<![\w-])(run|rerun|execute|exec|launch)\s+(\S+\s+){0,2}?(\.\/|~\/)?[\w./-]*\.(py|sh|bash|js|mjs|cjs|ts|rb|pl|php|jar|ps1|bat|exe|ipynb|r)(?![\w.])|(运行|执行|跑)\s*[\w./-]+\.(py|sh|bash|js|mjs|cjs|ts|rb|pl|php|jar|ps1|bat|exe|ipynb|r)(?![\w.])/ },
  // "ping me / us / the team" asks to be told (cron-words reads it); pinging a host or a device is the shell's.
  { name: 'terminal-words', toolsets: ['terminal'], pattern: /\b(run|rerun|execute|exec|launch (the |my |a |an )?(app|server|script|container|instance|emulator|simulator|program|binary|jupyter|notebook|vm|dev server|process|daemon|service)|install|uninstall|restart|kill|deploy|compile|ping(?! (me|us|him|her|them|you|everyone|the team)\b)|ssh|curl|wget|grep|chmod|sudo|npm|npx|pnpm|yarn|pip|pip3|poetry|cargo|make (test|tests|build|install|clean|all|check|lint|dev|run|deploy|release|docs|html|format|fmt|targets?)|make\W? (says|say|errors?|fails|failed|complains|prints|exits|stops)|(does|run|running|ran|type|typing) \W?make|cmake|docker|kubectl|git|gh|brew|apt|apt-get|pytest|node|python|python3|go test|systemctl|ffmpeg|imagemagick|convert|homebrew|packages|dependencies|deps|upgrade|rsync|scp|tar|unzip|zip|backup|clone|diff|commits?|changes|uncommitted|staged|pull request|pr|deploy\w*|terminal|shell|command line|bash|zsh|port \d+|process(es)?|uptime|disk space|branch|branches)\b|\$ \S|终端|命令行|运行|执行|安装|依赖|升级|重启|部署|编译|端口|进程|分支|提交|磁盘|内存|版本/ },
  { name: 'file-words', toolsets: ['file'], pattern: /(^|[\s"'`(])(~|\.{1,2})?\/?[\w.-]+\/[\w./-]+|(^|\s)~\/\S+|(^|\s)\.(bashrc|zshrc|profile|env|gitignore|npmrc|editorconfig)\b|\b[\w-]+\.(py|ts|tsx|js|jsx|mjs|cjs|json|ya?ml|md|txt|csv|log|toml|go|rs|java|kt|c|cc|cpp|h|hpp|sh|sql|html|css|scss|ini|conf|cfg|env|lock|xml|rb|php|swift|vue|svelte|ipynb|dockerfile|gitignore|bashrc|zshrc|pdf|docx?|xlsx?|pptx?|mov|mp4|mp3|wav|png|jpe?g|svg|zip|tar|gz)\b|\b(file|files|folder|directory|readme|dockerfile|makefile|codebase|repo|repository|config|source code|docstring|typo|rename|refactor|patch|edit|rewrite the code)\b|文件|目录|代码|仓库|项目里|配置|重命名|错别字|修改|修复|修一下/ },
  // Hermes's read_file reads text, .docx and .xlsx, and says it cannot read binary files: a local PDF, archive or
  // slide deck is opened through the shell (pdftotext, unzip) and a video is cut or sampled with ffmpeg, unless the
  // client has a video toolset for it. Local names only: a URL is the web's. Names in any script (~/Έγγραφα/…).
  { name: 'binary-document', toolsets: ['terminal'], pattern: /(^|[\s(])(~|\.{0,2}\/)?[\p{L}\p{M}\p{N}_.\/-]*\.(pdf|zip|tar|gz|tgz|7z|rar|pptx?|epub)\b/u },
  { name: 'media-file', toolsets: ['terminal'], unlessClientHas: 'video', pattern: /(^|[\s(])(~|\.{0,2}\/)?[\p{L}\p{M}\p{N}_.\/-]*\.(mp4|mov|mkv|avi|webm)\b/u },
  // Hermes's video_analyze reads video formats only ("mp4, webm, mov, avi, mkv, mpeg"): a recording to transcribe,
  // cut or convert takes the shell whether or not the client has the video toolset (13 of the 17 full-registry
  // messages of the training writers that name an audio file need the terminal or code).
  { name: 'audio-file', toolsets: ['terminal'], pattern: /(^|[\s(])(~|\.{0,2}\/)?[\p{L}\p{M}\p{N}_.\/-]*\.(mp3|wav|m4a|flac|ogg|opus|aac)\b/u },
  // vision_analyze looks at an image; changing one (resize, crop, convert, compress) takes a program (ImageMagick).
  { name: 'image-edit', toolsets: ['terminal'], pattern: /\b(resize|crop|compress|convert|watermark|rotate|pad|trim|shrink|downscale|upscale)\w*\b.{0,60}(\.(png|jpe?g|heic|webp|gif|tiff?)\b|(photos|images|pictures|pngs|jpe?gs)\b)/ },
  // Booking or buying something is done on the seller's site, whatever the message calls it.
  { name: 'booking-words', toolsets: ['browser'], pattern: /(?<!\b(a|the|my|this|that|your|his|her|our|their) )\b(book|reserve|buy|purchase)\b.{0,40}\b(tickets?|table|appointment|flights?|seats?|room|slot|test drive|entry|tour)\b/ },
  { name: 'browser-words', toolsets: ['browser'], pattern: /\b(browser|chrome|firefox|safari|headless|click|clicking|button|log ?in|login|sign ?in|signin|fill (out|in)|form|submit|checkout|check in|navigate|scroll|tab|localhost(:\d+)?|website|web ?site|site|portal|dashboard|admin (panel|page)|web page|webpage|page|sign ?up|signup|subscrib\w*|register|footer|navbar|modal|cart|captcha|127\.0\.0\.1(:\d+)?)\b|浏览器|登录|点击|填写|表单|提交|网站|网页|后台|页面/ },
  { name: 'browser-cdp', toolsets: ['browser-cdp', 'browser'], pattern: /\b(devtools|dev tools|cdp|chrome debugging|javascript (alert|dialog|confirm|prompt)|(alert|confirm|beforeunload) (dialog|box|popup)|dialog (box|popup)|network requests?|emulate|user agent|cookies? (in|of) the (page|browser))\b|弹窗|开发者工具/ },
  { name: 'dev-task', toolsets: ['file', 'terminal'], pattern: /\b(fix|fixes|debug|scaffold|set up|setup|bootstrap|upgrade|migrate|bump|reproduce|implement|build|builds|lint|linter|tests?|ci|compile|fail|fails|failing|failed|broken|crash\w*|errors|get it (green|working|passing)|make it (pass|work)|pre-commit|hooks?|type ?check\w*|mypy|tsc|eslint|resolve (the )?conflicts)\b|修复|修好|排查|升级|迁移|测试|构建|报错|没过|失败|跑不起来/ },
  // A pasted error or log plus any ask to act on it: the fix lives in the project (files) and is checked by
  // running it (terminal). Log shapes only, so "what does 'permission denied' mean" (quoted) stays a question.
  { name: 'pasted-error', toolsets: ['file', 'terminal'], pattern: /(\b[a-z]*(error|exception)\b:|traceback|npm err!|\bpanic:|segmentation fault|core dumped|exit (code|status) \d+|\be[a-z]{3,}inuse\b|\beaddrinuse\b|\berror\[e\d+\]|\berror ts\d+|\.(py|js|ts|go|rs|java|rb|php|vue|tsx|jsx):\d+).{0,400}\b(fix|make it|get it|sort|solve|resolve|start|work|help|what do i do|any idea)/ },
  { name: 'code-change', toolsets: ['file'], pattern: /\b(add|implement|change|make|update|remove|rename|style|restyle|refactor|review)\b.{0,60}\b(app|page|homepage|component|button|endpoint|feature|function|method|class|api|ui|css|styles?|layout|navbar|header|footer|form|module|service|schema|model|query|changes|code)\b|(添加|加个|实现|修改|改成|改一下|调整).{0,20}(页面|组件|按钮|接口|功能|函数|样式|代码)/ },
  // A repository cloned to be read ("clone it and explain how X works") is read file by file: the clone is the
  // shell's, the reading is the file toolset's. Of such training-writer messages (writers 1–164) 10 of 12 need or accept it.
  { name: 'clone-and-read', toolsets: ['file'], pattern: /\bclone\b.{0,120}\b(explain|explains|how|where|find|read|review|summari[sz]e|understand|walk me)\b/ },
  // Cheap, clear-cut toolsets.
  { name: 'web-words', toolsets: ['web'], pattern: /\b(weather|forecast|rain|raining|snow|snowing|sunny|storm|windy|umbrella|news|headlines?|price|prices|cost|stock|score|exchange rate|search|look up|look (it|them|this|that|those|these|him|her) up|lookup|google|online|internet|web|research|find out|who won|release notes|release date|edition|sequel|changelog|docs|documentation|reviews?|competitors?|outage|tutorial)\b|天气|下雨|下雪|新闻|价格|股价|汇率|比分|搜索|搜一下|查一下|查查|网上|上网|教程|官网|评分|上映/ },
  // A time word asks for something current ("what's on today"), except in a reminder, where it is the reminder's time.
  { name: 'web-time-words', toolsets: ['web'], unlessRule: 'cron-words', pattern: /\b(latest|current|currently|today|tonight|tomorrow|this (week|weekend|year)|right now)\b|最新|最近|今天|明天/ },
  // A docker, disk or OS image is software, not a picture (of the 226 eval cases that say so, none needs vision).
  { name: 'vision-words', toolsets: ['vision'], pattern: /\b((?<!\b(docker|container|base|disk|iso|vm|os|ami|oci|alpine|ubuntu|debian|distroless) )images?|photo|photos|picture|pictures|screenshot|screenshots|diagram|chart|graph|png|jpe?g|gif|webp|scan|receipt|invoice|handwriting|attached)\b|图片|照片|截图|图表|图上|图里|发票|识别/ },
  { name: 'image-gen-words', toolsets: ['image_gen'], pattern: /\b(draw|paint|illustrat\w*|logo|icon|sprite|poster|banner|wallpaper|thumbnail|avatar|mascot|render|artwork|pixel[- ]art|picture of|image of|generate an? (image|picture))\b|画|生成.{0,12}(图|头像|海报)|设计.{0,8}(logo|图标|形象)|海报|插图/ },
  // "Save it to memory" names the agent's memory; a memory stick, card, leak or limit is hardware or code.
  { name: 'memory-words', toolsets: ['memory'], pattern: /\b(remember|memori[sz]e|keep in mind|note (that|for)|from now on|forget|in (your )?memory|to (your |the |long-term )?memory(?! (stick|card|usage|leak|limit|footprint|issues?))|into (your|long-term) memory)\b|记住|记得|记一下|忘掉|以后/ },
  { name: 'subagent-words', toolsets: ['delegation'], pattern: /\b(sub-?agents?|delegate|delegat\w+|in parallel|parallel\w*|helper agents?|farm out|hand (it|this|them)? ?off)\b|子代理|子智能体|委托|并行|同时/ },
  { name: 'session-words', toolsets: ['session_search'], pattern: /\b(last time|earlier (conversation|chat|session)|previous (conversation|chat|session)s?|past (conversation|chat|session)s?|we (talked|discussed|decided|came up)|our (last|earlier|previous) (chat|conversation|session)|yesterday we)\b|上次|上周|前几天|之前.{0,6}(聊|讨论|对话)|我们.{0,8}(讨论|聊)过|以前的对话|历史对话/ },
  { name: 'skills-words', toolsets: ['skills'], pattern: /\bskills?\b|技能/ },
  { name: 'todo-words', toolsets: ['todo'], pattern: /\b(todo|to-do|checklist|task list|step by step|keep track|track (the |my )?progress|plan (it|this|the \w+) out|break (it|this) down)\b|待办|任务清单|清单/ },
  { name: 'tts-words', toolsets: ['tts'], pattern: /\b(out loud|aloud|text to speech|tts|speech|narrat\w+|voice ?over|mp3|audio)\b|语音|朗读|读出来/ },
  { name: 'code-words', toolsets: ['code_execution'], pattern: /\b(execute_code|python (script|code|snippet)|using a script|with a script|write a script (to|that) (calculate|compute)|calculate .{0,30} (script|code)|run (some|this) (python|code)|with code|programmatically|by (actually )?running code)\b|python 脚本|用代码|这段代码|这段 python/ },
  // Numbers drawn from a data file (a count, an average, a distribution, a plot) are computed by running code: the file
  // toolset opens the file but does no arithmetic over its rows.
  { name: 'data-analysis', toolsets: ['code_execution'], pattern: eitherOrder(dataFile, arithmetic, 150) },
  // read_file extracts the text of a .docx or .xlsx, but write_file writes plain text: producing or changing an office
  // document takes a program (python-docx, openpyxl) run as code or in the shell.
  { name: 'office-document-write', toolsets: ['code_execution'], pattern: eitherOrder(officeDocument, writing, 120) },
  { name: 'clarify-words', toolsets: ['clarify'], pattern: /\b(ask me|clarifying questions?|multiple choice|options to choose)\b|问我/ },
  { name: 'spotify', toolsets: ['spotify'], pattern: /\b(spotify|song|songs|track|tracks|playlist|playlists|album|albums|music|tunes|volume|shuffle|queue|playing|play|put on (some|something)|something (upbeat|chill|relaxing))\b|音乐|歌|播放|下一首|音量|专辑/ },
  { name: 'home-assistant', toolsets: ['homeassistant'], pattern: /\b(home ?assistant|turn (everything|all( the \w+)?) (off|on)|leaving (the )?home|i'?m home|scene|thermostat|lights?|lamp|garage|door|lock|windows?|heating|humidity|temperature in|sensor|fan|plug|blinds|curtains)\b|灯|空调|门锁|窗帘|窗户|暖气|温度|湿度|插座|电视|客厅|卧室|厨房|多少度/ },
  { name: 'kanban', toolsets: ['kanban'], pattern: /\b(kanban|board task|the board|on the board|tasks? (assigned|blocked))\b|看板/ },
  { name: 'project', toolsets: ['project'], pattern: /\bprojects?\b|项目/ },
  { name: 'discord', toolsets: ['discord', 'discord_admin'], pattern: /\bdiscord\b/ },
  { name: 'feishu', toolsets: ['feishu_doc', 'feishu_drive'], pattern: /\b(feishu|lark)\b|飞书/ },
  { name: 'yuanbao', toolsets: ['hermes-yuanbao'], pattern: /\byuanbao\b|元宝|派里|这个派|sticker|表情包/ },
  { name: 'x-search', toolsets: ['x_search'], pattern: /\b(twitter|tweets?|on x|x posts?|posts on x)\b|推特/ },
  { name: 'video', toolsets: ['video', 'video_gen'], pattern: /\b(video|videos|clip|mp4|animation|animate)\b|视频|动画/ },
  { name: 'computer-use', toolsets: ['computer_use'], pattern: /\b(desktop|my screen|the screen|my computer|mouse|dock|finder|system settings|windows on|menu bar|taskbar|system tray|icon|app on my)\b|电脑上|屏幕|桌面|系统设置|任务栏|菜单栏/ },
];

/**
 * English rule words that are ordinary words in another language ("todo" is "all" in Spanish and Portuguese, "pr"
 * is "pour" in French chat, "ci" a pronoun in Italian and "ci-joint" in French, "door" is "by" in Dutch): in a
 * message written in that language the English lexicons do not read them. The language lexicons still do.
 */
const collidingWords: Partial<Record<MessageLanguage, RegExp>> = {
  spanish: /(?<![\p{L}\p{N}])todo(?![\p{L}\p{N}])/gu,
  portuguese: /(?<![\p{L}\p{N}])todo(?![\p{L}\p{N}])/gu,
  french: /(?<![\p{L}\p{N}])(?:pr(?![\p{L}\p{N}])|ci(?=-))/gu,
  italian: /(?<![\p{L}\p{N}])ci(?![\p{L}\p{N}])/gu,
  dutch: /(?<![\p{L}\p{N}])door(?![\p{L}\p{N}])/gu,
};

const capabilityPatterns = [
  /^(hi|hello|hey|ok|so)?\W*(what (can|could) you (do|help( me)? with)|what are you (capable of|able to do)|what (tools|toolsets|capabilities) (do )?you have|(list|show)( me)?( all)? (of )?your (tools|toolsets|capabilities|functions)|list all the tools you have( access to)?|which tools (do )?you have|what (sorts?|kinds?) of things can you (help( me)? with|do)|what do you do|tell me what you('| a)re able to help with)\W*(for me)?\W*$/,
  /^(你好|您好|嗨)?\W*(你|您)(能|可以|都能|都可以)(帮我)?(做|干)(些|哪些)?(什么|哪些事情?)\W*$|^(你|您)(有|都有)(哪些|什么)(工具|功能|能力)\W*$|^(你|您)都会(些)?什么\W*$/,
];

export function applyRules(
  tokens: readonly FramedToken[],
  rawText: string,
  hasImage: boolean,
  plain: string = instructionText(rawText, tokens),
  language: MessageLanguage = 'english',
  /** The client's toolsets (`unlessClientHas`); unknown → every rule reads. */
  clientToolsets?: ReadonlySet<string>,
): RuleResult {
  const toolsets = new Set<string>();
  const unambiguous = new Set<string>();
  const fired: string[] = [];
  const colliding = collidingWords[language];
  const englishPlain = colliding ? plain.replace(colliding, (word) => ' '.repeat(word.length)) : plain;
  for (const rule of englishAndChineseRules) {
    if (!rule.pattern.test(englishPlain)) continue;
    if (rule.unlessClientHas !== undefined && clientToolsets?.has(rule.unlessClientHas)) continue;
    if (rule.unlessRule !== undefined && fired.includes(rule.unlessRule)) continue;
    fired.push(rule.name);
    for (const toolset of rule.toolsets) toolsets.add(toolset);
    if (rule.unambiguous) for (const toolset of rule.toolsets) unambiguous.add(toolset);
  }
  for (const rule of languageRules) {
    if (!rule.pattern.test(plain)) continue;
    fired.push(rule.name);
    for (const toolset of rule.toolsets) toolsets.add(toolset);
  }
  if (hasImage) {
    toolsets.add('vision');
    fired.push('image-attached');
  }
  // "HA" is Home Assistant's short name ("the HA logs", "restart HA"), in capitals only ("ha" is a laugh). Of the
  // training writers' full-registry messages that write it (or HACS, its community store), 167 of 180 need it.
  if (homeAssistantShortName.test(rawText) && namesHomeAssistant(rawText, tokens)) {
    toolsets.add('homeassistant');
    fired.push('home-assistant-short-name');
  }
  if (/https?:\/\/\S+/i.test(rawText) && plainMentionsUrl(tokens)) {
    toolsets.add('web');
    fired.push('url');
  }
  const compact = rawText.trim().toLowerCase().replace(/\s+/g, ' ');
  const capabilityInquiry = compact.length <= 80 && capabilityPatterns.some((pattern) => pattern.test(compact));
  return { toolsets, unambiguous, capabilityInquiry, fired };
}

const homeAssistantShortName = /(?<![\p{L}\p{N}])(?:HA|HACS)(?![\p{L}\p{N}])/u;

/**
 * The capitals must be on the instruction word itself: in "ha, don't touch HA" the plain "ha" is a laugh and the
 * capital one is negated. Token offsets index the lower-cased NFKC text; NFKC alone keeps the same offsets unless
 * lower-casing changed a length (a dotted İ), and then the capitals are checked anywhere, as before.
 */
function namesHomeAssistant(rawText: string, tokens: readonly FramedToken[]): boolean {
  const cased = rawText.normalize('NFKC');
  const offsetsAgree = cased.length === cased.toLowerCase().length;
  return tokens.some(
    (token) =>
      token.frame === 'plain' &&
      (token.text === 'ha' || token.text === 'hacs') &&
      (!offsetsAgree || /^(HA|HACS)$/.test(cased.slice(token.start, token.end))),
  );
}

/** A URL inside quotes or a negation ("don't open https://…") is not a page to fetch. */
function plainMentionsUrl(tokens: readonly FramedToken[]): boolean {
  return tokens.some((token) => token.frame === 'plain' && /^https?:\/\//.test(token.text));
}

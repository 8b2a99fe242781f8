import { otherLanguageIntentTerms, otherLanguageSubjectTerms } from './lexicon-other-languages.js';
import { southAsianAfricanIntentTerms, southAsianAfricanSubjectTerms } from './lexicon-south-asian-african.js';
import type { Intent, Topic } from './taxonomy.js';

/**
 * Hand-written subject and intent vocabularies. The keyword mode uses them directly; the learned model sees
 * only how many terms of each list matched (`kw:<topic>`, `kwi:<intent>`), which lets a few hundred training
 * examples generalise to words they never contained. A trailing `*` matches any word starting with the stem;
 * terms with a space match consecutive words; Chinese and Thai terms match as substrings.
 */
const englishChineseThaiSubjectTerms: Record<Exclude<Topic, 'none'>, readonly string[]> = {
  software_it: [
    'join', 'joins', 'schema', 'cron', 'crontab', 'race condition', 'concurrency', 'goroutine*', 'time complexity', 'big o', 'quicksort', 'binary search', 'hash', 's3', 'ec2', 'lambda function*', 'iam', 'website', 'browser', 'plugin', 'wordpress', 'raspberry pi', 'arduino', 'boot', 'bios', 'firmware', 'usb', 'bluetooth', 'ssd', 'disk', 'partition', 'outlook', 'smtp', 'oauth', 'jwt', 'authentication', 'login', 'axios', 'graphql', 'websocket*', 'localhost', 'proxy', 'load balancer', 'backoff', 'rate limit*', 'string', 'null', 'undefined', 'loop', 'div', 'flexbox', 'emulator', 'xcode', 'vscode', 'vim', 'pandas', 'numpy', 'jupyter', 'machine learning', 'neural network*', 'computer', 'pc', 'keyboard', '前端', '后端', '端口', '进程', '组件', '渲染', '算法', '配置', '证书', '电脑', '软件', '网站', '编译', '网络', 'คอมพิวเตอร์', 'เว็บไซต์', 'เว็บ', 'โปรแกรม', 'ซอฟต์แวร์', 'จอฟ้า', 'อินเทอร์เน็ต',
    'code', 'coding', 'program*', 'debug*', 'bug', 'bugs', 'compil*', 'refactor*', 'function', 'functions', 'class', 'method', 'variable*',
    'api', 'apis', 'endpoint*', 'server*', 'backend', 'frontend', 'database*', 'sql', 'query', 'queries', 'postgres*', 'mysql', 'sqlite',
    'mongodb', 'redis', 'docker*', 'kubernetes', 'kubectl', 'container*', 'pod', 'pods', 'deploy*', 'git', 'github', 'gitlab', 'commit*',
    'merge', 'branch', 'repo', 'repository', 'python', 'javascript', 'typescript', 'java', 'golang', 'rust', 'c++', 'c#', 'php', 'ruby',
    'swift', 'kotlin', 'react', 'vue', 'angular', 'node', 'nodejs', 'npm', 'pnpm', 'yarn', 'pip', 'webpack', 'vite', 'linux', 'ubuntu',
    'debian', 'windows', 'macos', 'bash', 'shell', 'powershell', 'terminal', 'script', 'scripts', 'regex', 'json', 'yaml', 'html', 'css',
    'stack trace', 'stacktrace', 'exception', 'error', 'errors', 'traceback', 'segfault', 'null pointer', 'nullpointerexception', 'typeerror',
    'syntax', 'runtime', 'library', 'framework', 'package', 'dependency', 'dependencies', 'install*', 'config*', 'nginx', 'apache', 'ssh',
    'ssl', 'tls', 'dns', 'http', 'https', 'cors', 'aws', 'azure', 'gcp', 'cloud', 'terraform', 'ci', 'pipeline', 'build', 'unit test*',
    'test', 'tests', 'pytest', 'vitest', 'jest', 'async', 'await', 'thread*', 'mutex', 'cache', 'caching', 'memory leak', 'cpu', 'latency',
    'algorithm*', 'data structure*', 'array', 'hashmap', 'linked list', 'recursion', 'laptop', 'wifi', 'router', 'printer', 'driver*',
    'excel', 'vba', 'macro', 'spreadsheet formula', 'vlookup', 'app', 'apps', 'software', 'backup', 'nas', 'firewall', 'vpn', 'password reset',
    'linter', 'lint', 'monorepo', 'microservice*', 'kafka', 'rabbitmq', 'grafana', 'prometheus', 'log', 'logs', 'crash*', 'flutter', 'android', 'ios',
    '代码', '编程', '报错', '程序', '服务器', '数据库', '脚本', '部署', '容器', '函数', '接口', '调试', '内存泄漏', '合并冲突',
    'โค้ด', 'เขียนโปรแกรม', 'เซิร์ฟเวอร์', 'ฐานข้อมูล', 'ดีบัก', 'ฟังก์ชัน', 'ติดตั้ง', 'แอป', 'บั๊ก', 'ระบบ',
  ],
  math: [
    'lcm', 'gcd', 'least common multiple', 'greatest common divisor', 'inequalit*', 'absolute value', 'radian*', 'degrees', 'hexagon', 'polygon*', 'interior angle*', 'parabola', 'ellipse', 'slope', 'intercept', 'choose', 'binomial', 'digit', 'digits', 'number theory', 'infinity', 'infinite*', 'central limit theorem', 'distribution', 'random variable', 'marbles', 'without replacement', 'geometric', 'arithmetic series', 'formula', 'dividing', 'zero', '求', '之和', '化简', '泰勒', '展开', '公式', '推导', '三角函数', '不等式', '数列', 'ค.ร.น.', 'ห.ร.ม.', 'เมทริกซ์', 'พิสูจน์', 'จำนวน', 'โจทย์', 'สูตร', 'อตรรกยะ',
    'math*', 'equation*', 'solve', 'solving', 'derivative*', 'integral*', 'integrate', 'calculus', 'algebra*', 'geometry', 'trigonometr*',
    'sin', 'cos', 'tan', 'log', 'logarithm*', 'matrix', 'matrices', 'determinant', 'eigen*', 'vector*', 'prove', 'proof', 'theorem', 'lemma',
    'induction', 'prime*', 'factor', 'factori*', 'fraction*', 'percent*', 'probability', 'probabilit*', 'statistic*', 'variance',
    'standard deviation', 'mean', 'median', 'expected value', 'limit', 'series', 'sequence*', 'converg*', 'polynomial*', 'quadratic',
    'linear', 'exponent*', 'square root', 'area', 'volume', 'triangle', 'circle', 'angle*', 'radius', 'diagonal*', 'permutation*',
    'combination*', 'combinator*', 'modular', 'modulo', 'integer*', 'arithmetic', 'multiply', 'multiplication', 'divide', 'division',
    'sum', 'product', 'ratio', 'confidence interval', 'regression', 'differential', 'taylor', 'fibonacci', 'irrational', 'real number*',
    'homework', 'calculate', 'compute', 'simplify', 'x^2', 'dy/dx', 'dice', 'coin', 'group theory', 'topology', 'set theory', 'graph theory',
    '方程', '函数', '极值', '导数', '积分', '概率', '矩阵', '证明', '几何', '数学', '三角形', '计算',
    'สมการ', 'อนุพันธ์', 'ความน่าจะเป็น', 'พื้นที่', 'ลอการิทึม', 'คณิต', 'เศษส่วน', 'ร้อยละ',
  ],
  science: [
    'lightning', 'thunder', 'mitochondria', 'nucleus', 'organism*', 'ionic', 'covalent', 'chemical bond', 'catalyst*', 'reactor', 'fission', 'fusion', 'immune system', 'chlorophyll', 'northern lights', 'aurora', 'lift', 'aerodynamic*', 'solar panel*', 'semiconductor*', 'photovoltaic', 'higgs', 'boson', 'particle*', 'kinetic', 'potential energy', 'mass', 'density', 'water cycle', 'evaporat*', 'condens*', 'climate', 'placebo', 'krebs', 'mantle', 'magma', 'extinct*', 'acid rain', 'salty', 'physicist*', 'chemist*', 'biologist*', 'laboratory', 'lab', '海水', '相对论', '时间膨胀', '恐龙', '灭绝', '酸雨', '原子', '分子', '实验', '科学', 'อะตอม', 'ดวงจันทร์', 'ท้องฟ้า', 'สังเคราะห์แสง', 'ดาว', 'โมเลกุล', 'ข้างขึ้น',
    'science', 'scientific', 'physics', 'chemistry', 'chemical', 'biology', 'biolog*', 'astronom*', 'geolog*', 'ecolog*', 'evolution*',
    'species', 'cell', 'cells', 'dna', 'rna', 'gene', 'genes', 'genetic*', 'crispr', 'protein*', 'enzyme*', 'molecul*', 'atom*',
    'electron*', 'proton*', 'neutron*', 'quantum', 'relativity', 'gravity', 'gravitation*', 'force', 'energy', 'momentum', 'velocity',
    'acceleration', 'thermodynamic*', 'entropy', 'photosynthesis', 'osmosis', 'mitosis', 'meiosis', 'ecosystem*', 'climate',
    'greenhouse', 'carbon', 'oxygen', 'hydrogen', 'element*', 'periodic table', 'reaction*', 'acid*', 'base', 'molar', 'planet*',
    'star', 'stars', 'galaxy', 'galaxies', 'universe', 'black hole*', 'supernova', 'dark matter', 'big bang', 'moon', 'sun', 'tide*',
    'earthquake*', 'volcano*', 'tectonic*', 'fossil*', 'dinosaur*', 'experiment*', 'hypothesis', 'research', 'paper', 'neuron*', 'brain',
    'psycholog*', 'sociolog*', 'cognitive', 'behavio*', 'wavelength', 'light', 'photon*', 'magnet*', 'electric*', 'radiation', 'nuclear',
    'half life', 'isotope*', 'ocean*', 'atmospher*', 'weather system*', 'migration', 'bees', 'octopus*', 'virus', 'bacteria',
    '物理', '化学', '生物', '量子', '黑洞', '光合作用', '细胞', '基因', '宇宙', '天空', '原理', '进化',
    'วิทยาศาสตร์', 'ฟิสิกส์', 'เคมี', 'ชีววิทยา', 'แรงโน้มถ่วง', 'วิวัฒนาการ', 'ปฏิกิริยา', 'โลกร้อน', 'ดาราศาสตร์',
  ],
  business_finance: [
    'ipo', 'lockup', 'rsu*', 'cofounder*', 'co-founder*', 'financial advisor', 'central bank*', 'money supply', 'fed', 'federal reserve', 'lifetime value', 'ltv', 'cac', 'executive summary', 'business plan', 'marketplace', 'expansion', 'restaurant', 'net margin', 'profitab*', 'asset allocation', 'tax bracket', 'bracket', 'invoice*', 'payroll', 'freelanc*', 'income', 'earnings', 'dollars', 'leasing', 'company', 'companies', 'firm', 'enterprise', '资产', '配置资产', '现金流', '奶茶店', '美联储', '加息', '股市', '创业', '收入', '银行', '贷款', '预算', '市场', '开店', 'บัญชี', 'เงินเฟ้อ', 'เงินออม', 'ซื้อบ้าน', 'ตั้งราคา', 'ขายของ', 'ธนาคาร', 'เงินเดือน', 'ค่าใช้จ่าย', 'รายได้', 'คุ้ม',
    'business*', 'financ*', 'money', 'invest*', 'stock*', 'share price', 'shares', 'bond*', 'etf*', 'index fund*', 'portfolio', 'dividend*',
    'market*', 'revenue', 'profit*', 'margin*', 'cost*', 'price', 'pricing', 'budget*', 'loan*', 'mortgage*', 'interest rate*', 'interest',
    'inflation', 'economy', 'econom*', 'tax', 'taxes', 'accounting', 'balance sheet', 'cash flow', 'ebitda', 'roi', 'npv', 'irr', 'valuation',
    'startup*', 'founder*', 'investor*', 'venture', 'funding', 'fundrais*', 'pitch', 'customer*', 'churn', 'sales', 'funnel', 'kpi*',
    'okr*', 'strategy', 'swot', 'go-to-market', 'saas', 'subscription', 'b2b', 'b2c', 'supplier*', 'wholesale', 'retail', 'salary',
    'raise', 'savings', 'retire*', '401k', 'ira', 'roth', 'pension', 'credit score', 'credit card*', 'debt', 'bank*', 'crypto*', 'bitcoin',
    'trading', 'options', 'capital', 'equity', 'asset*', 'liabilit*', 'depreciat*', 'unit economics', 'break-even', 'forecast',
    'quarterly', 'board meeting', 'shareholder*', 'exchange rate*', 'currency', 'import*', 'logistics', 'product manager', 'negotiat*',
    '投资', '股票', '基金', '财务', '融资', '房贷', '回报率', '公司', '利润', '成本', '理财', '经济',
    'ลงทุน', 'หุ้น', 'กองทุน', 'ดอกเบี้ย', 'การเงิน', 'ธุรกิจ', 'ต้นทุน', 'กำไร', 'เงินทุน', 'เกษียณ', 'ภาษี',
  ],
  legal_government: [
    'refund', 'restraining order', 'amendment', 'free speech', 'hate speech', 'city council', 'council', 'filibuster', 'probate', 'sued', 'debt collector*', 'ccpa', 'sponsor', 'layoff*', 'jaywalk*', 'european commission', 'uninsured', 'defamation', 'libel', 'slander', 'notary', 'affidavit', 'subpoena', 'tribunal', 'legislation', 'ordinance', 'treaty', 'senator', 'mayor', 'governor', 'legally', 'enforceable', 'binding', 'prosecut*', 'guilty', 'lawful', 'unlawful', 'inheritance', '辞退', '仲裁', '离婚', '财产分割', '维权', '假货', '护照', '办理', '起诉', '诉讼', '法规', '权益', '警察', '犯罪', '消费者', 'เงินประกัน', 'วีซ่า', 'ฟ้อง', 'หมิ่นประมาท', 'แรงงาน', 'ลาพักร้อน', 'ตำรวจ', 'คดี', 'สิทธิ', 'หนังสือเดินทาง', 'ใบอนุญาต', 'ราชการ',
    'law', 'laws', 'legal*', 'illegal', 'lawyer*', 'attorney*', 'court*', 'judge', 'jury', 'sue', 'suing', 'lawsuit*', 'liable', 'liability',
    'contract*', 'clause*', 'nda', 'agreement', 'rights', 'landlord*', 'tenant*', 'evict*', 'lease', 'deposit', 'will', 'estate', 'divorce',
    'custody', 'copyright*', 'trademark*', 'patent*', 'fair use', 'gdpr', 'hipaa', 'pdpa', 'privacy policy', 'compliance', 'regulat*',
    'statute*', 'felony', 'misdemeanor', 'criminal', 'civil', 'police', 'arrest*', 'ticket', 'fine', 'visa', 'passport', 'citizenship',
    'immigration', 'green card', 'permit*', 'license', 'licence', 'government', 'congress', 'senate', 'parliament', 'constitution*',
    'supreme court', 'bill', 'policy', 'policies', 'election*', 'electoral', 'vote', 'voting', 'campaign finance', 'zoning', 'easement',
    'non-compete', 'arbitration', 'terms of service', 'cease and desist', 'minimum wage', 'overtime', 'employer', 'fired', 'wrongful',
    'consumer protection', 'habeas corpus', 'separation of powers', 'ai act', 'public sector', 'ministry', 'municipal*', 'federal',
    '法律', '合同', '劳动', '商标', '侵权', '赔偿', '律师', '法院', '责任', '政府', '签证',
    'กฎหมาย', 'นายจ้าง', 'ค่าชดเชย', 'จดทะเบียน', 'พินัยกรรม', 'แจ้งความ', 'สัญญา', 'ศาล', 'ทนาย', 'รัฐบาล',
  ],
  medicine_healthcare: [
    'melatonin', 'heartburn', 'reflux', 'first aid', 'knee', 'joint pain', 'blood sugar', 'glucose', 'insulin', 'mole', 'ssri*', 'antidepressant*', 'sore throat', 'glands', 'tonsil*', 'ear infection', 'anemia', 'tetanus', 'shingles', 'chickenpox', 'heart attack', 'toddler', 'pediatric*', 'memory loss', 'atorvastatin', 'muscle ache*', 'pregnancy', 'breastfeeding', 'menstrua*', 'dentist', 'tooth', 'teeth', 'physiotherap*', 'physical therapy', 'bmi', 'dehydrat*', 'vomit*', 'diarrhea', 'constipation', 'stomach', 'chest pain', 'bleeding', 'bruise', 'stitches', 'ambulance', 'pharmacy', 'pharmacist', 'hurts', 'hurt', 'sore', '胃疼', '孕妇', '血压', '骨质疏松', '补钙', '吃药', '医院', '头疼', '拉肚子', '过敏', '疫苗', '怀孕', '健康', '血糖', 'ท้องเสีย', 'ยาแก้อักเสบ', 'นอนไม่หลับ', 'ผื่น', 'คอเลสเตอรอล', 'หาหมอ', 'โรงพยาบาล', 'ปวดท้อง', 'เจ็บคอ', 'สุขภาพ', 'วัคซีน', 'ตั้งครรภ์',
    'medic*', 'health*', 'doctor*', 'nurse*', 'hospital*', 'clinic*', 'patient*', 'symptom*', 'diagnos*', 'treatment*', 'treat', 'therap*',
    'disease*', 'illness', 'infection*', 'infected', 'virus', 'flu', 'covid', 'cold', 'fever', 'cough*', 'headache*', 'migraine*', 'pain',
    'ache', 'rash', 'itch*', 'allerg*', 'asthma', 'diabet*', 'blood', 'cholesterol', 'blood pressure', 'heart', 'stroke', 'cancer*', 'tumor*',
    'chemo*', 'surgery', 'surgical', 'vaccine*', 'vaccinat*', 'antibiotic*', 'medication*', 'medicine*', 'drug*', 'dose', 'dosage',
    'prescri*', 'pill*', 'ibuprofen', 'paracetamol', 'acetaminophen', 'metformin', 'statin*', 'amoxicillin', 'side effect*', 'pregnan*',
    'baby', 'sleep', 'insomnia', 'anxiety', 'depression', 'adhd', 'mental health', 'psychiatrist', 'therapist', 'dizzy', 'nausea',
    'sprain*', 'fracture*', 'broken', 'injur*', 'swollen', 'swelling', 'lump', 'mri', 'ct scan', 'x-ray', 'blood test*', 'a1c', 'thyroid',
    'kidney', 'liver', 'lung*', 'alzheimer*', 'dementia', 'sepsis', 'burn', 'wound', 'vitamin*', 'diet', 'calorie*', 'nutrition',
    'fibrillation', 'colonoscopy', 'mucus', 'contagious', 'er', 'emergency room',
    '高血压', '感冒', '发烧', '咳嗽', '失眠', '医生', '症状', '治疗', '药', '尿酸', '体检', '病',
    'ปวดหัว', 'ไมเกรน', 'เบาหวาน', 'ไข้', 'ยา', 'อาการ', 'หมอ', 'โรค', 'ไข้เลือดออก', 'ความดัน',
  ],
  writing_language: [
    'singular', 'plural', 'noun*', 'verb*', 'adjective*', 'adverb*', 'tense', 'preposition*', 'whom', 'in a sentence', 'bio', 'thank you note', 'fairy tale', 'fan fiction', 'fanfic', 'opening line*', 'narration', 'first person', 'third person', 'plain english', 'non-native', 'proverb', 'wording', 'announcement', 'press release', 'vocabulary', 'phrase', 'phrasing', '祝福语', '日语', '绝句', '句子', '词语', '表达', '小说', '写作', 'คำอวยพร', 'สำนวน', 'นิทาน', 'เกลา', 'คำว่า', 'ประโยค', 'ความหมาย', 'นิยาย',
    'write', 'writing', 'rewrite', 'rephrase', 'draft', 'edit', 'editing', 'proofread*', 'grammar', 'spelling', 'punctuation', 'semicolon',
    'sentence*', 'paragraph*', 'essay*', 'story', 'stories', 'short story', 'novel*', 'poem*', 'poetry', 'haiku', 'sonnet', 'limerick',
    'lyrics', 'verse', 'stanza', 'rhyme*', 'prose', 'fiction', 'fantasy', 'character*', 'villain', 'protagonist', 'plot', 'chapter*',
    'dialogue', 'narrat*', 'scene', 'translate', 'translation', 'translat*', 'meaning of the word', 'word', 'words', 'synonym*', 'antonym*',
    'etymology', 'pronounc*', 'idiom*', 'metaphor', 'simile', 'passive voice', 'tone', 'formal', 'informal', 'concise', 'email', 'letter',
    'cover letter', 'resume', 'personal statement', 'toast', 'eulogy', 'speech', 'blog post', 'caption', 'tagline', 'slogan', 'copy',
    'literature', 'literary', 'symbolism', 'theme*', 'shakespeare', 'hamlet', 'gatsby', 'author', 'language', 'english', 'spanish',
    'french', 'german', 'japanese', 'korean', 'chinese', 'thai', 'brainstorm', 'outline', 'bedtime story', 'compose',
    '写', '翻译', '作文', '语法', '诗', '故事', '成语', '文章', '修改', '润色', '英文',
    'แต่ง', 'กลอน', 'แปล', 'เรื่องสั้น', 'คำผิด', 'ภาษาอังกฤษ', 'จดหมาย', 'เขียน', 'บทความ',
  ],
  entertainment_media: [
    'rpg*', 'baldur*', 'x-men', 'streaming', 'tour de france', 'stardew', 'championship', 'binge', 'sci-fi', 'true crime', 'goalkeeper', 'penalt*', 'adaptation*', 'cast', 'sequel', 'franchise', 'hulu', 'spotify', 'grammy*', 'emmy*', 'comic*', 'superhero*', 'wrestling', 'ufc', 'boxing', 'golf', 'rugby', 'hockey', 'nhl', 'mlb', 'league', 'binge-watch', '国产剧', '王者荣耀', '英雄联盟', '歌曲', '得分', '球队', '演员', '导演', '漫画', '追剧', 'ออสการ์', 'เกมมือถือ', 'ทีมชาติ', 'ฟุตบอลโลก', 'อนิเมะ', 'การ์ตูน', 'นักแสดง', 'ภาพยนตร์', 'คอนเสิร์ต',
    'movie*', 'film*', 'cinema*', 'tv', 'show', 'shows', 'series', 'season', 'episode*', 'netflix', 'hbo', 'disney', 'anime', 'manga',
    'k-drama*', 'drama', 'actor*', 'actress*', 'director', 'oscar*', 'box office', 'trailer', 'game', 'games', 'gaming', 'video game*',
    'console', 'switch', 'playstation', 'xbox', 'nintendo', 'steam', 'boss', 'level', 'quest', 'zelda', 'pokemon', 'minecraft',
    'elden ring', 'dark souls', 'hollow knight', 'witcher', 'esports', 'twitch', 'youtube', 'streamer', 'podcast*', 'music', 'song*',
    'album*', 'band', 'singer', 'concert', 'playlist', 'jazz', 'rock', 'rap', 'hip hop', 'pop', 'lyrics meaning', 'sport*', 'football',
    'soccer', 'basketball', 'nba', 'nfl', 'baseball', 'tennis', 'cricket', 'formula 1', 'f1', 'world cup', 'champions league',
    'premier league', 'super bowl', 'olympic*', 'player*', 'team*', 'match', 'tournament', 'playoff*', 'fantasy football', 'celebrit*',
    'marvel', 'star wars', 'board game*', 'chess', 'halftime', 'grossing', 'watch', 'recommend',
    '电影', '电视剧', '游戏', '歌', '音乐', '世界杯', '球员', '动漫', '综艺', '明星',
    'หนัง', 'ซีรีส์', 'เกม', 'เพลง', 'ฟุตบอล', 'พรีเมียร์ลีก', 'ละคร', 'ดารา', 'นักร้อง',
  ],
};

const englishChineseThaiIntentTerms: Record<Intent, readonly string[]> = {
  technical: [
    'fix', 'debug*', 'error', 'errors', 'fails', 'failing', 'broken', 'crash*', 'install*', 'configure', 'config*', 'deploy*', 'implement*',
    'refactor*', 'optimize', 'set up', 'setup', 'migrate', 'build', 'compile*', 'run', 'code', 'script', 'command', 'stack trace',
    '报错', '部署', '调试', '安装', 'ดีบัก', 'ติดตั้ง', 'error',
  ],
  analytical: [
    'why', 'how', 'explain', 'what', 'calculate', 'compute', 'solve', 'prove', 'compare', 'analy*', 'evaluate', 'estimate', 'difference',
    'should', 'is', 'does', 'can', 'interpret', 'summari*', 'pros and cons', 'assess',
    '为什么', '怎么', '如何', '什么', '分析', '计算', 'ทำไม', 'อย่างไร', 'ยังไง', 'อะไร', 'วิเคราะห์', 'คำนวณ',
  ],
  creative: [
    'write', 'compose', 'draft', 'story', 'poem', 'poetry', 'lyrics', 'imagine', 'invent', 'brainstorm', 'rewrite', 'rephrase', 'translate',
    'proofread', 'edit', 'describe', 'tagline', 'slogan', 'toast', 'scene', 'continue it', 'make it',
    '写', '翻译', '修改', '创作', 'แต่ง', 'แปล', 'เขียน',
  ],
  conversational: [
    'hi', 'hello', 'hey', 'thanks', 'thank you', 'thx', 'ok', 'okay', 'cool', 'great', 'bye', 'goodnight', 'good night', 'good morning',
    'lol', 'haha', 'sounds good', 'never mind', 'got it', 'favorite', 'bored', 'chat', 'yes please', 'that\'s all',
    '你好', '谢谢', '好的', '明白', 'สวัสดี', 'ขอบคุณ', 'โอเค', 'เบื่อ', 'คุย',
  ],
};

/**
 * Every subject term, the other languages' (lexicon-other-languages.ts, then lexicon-south-asian-african.ts) after
 * the English, Chinese and Thai ones.
 */
export const subjectLexicon = withOtherLanguages(withOtherLanguages(englishChineseThaiSubjectTerms, otherLanguageSubjectTerms), southAsianAfricanSubjectTerms);
export const intentLexicon = withOtherLanguages(withOtherLanguages(englishChineseThaiIntentTerms, otherLanguageIntentTerms), southAsianAfricanIntentTerms);

function withOtherLanguages<Label extends string>(base: Record<Label, readonly string[]>, other: Partial<Record<Label, readonly string[]>>): Record<Label, readonly string[]> {
  const merged = { ...base };
  for (const label of Object.keys(base) as Label[]) merged[label] = [...base[label], ...(other[label] ?? [])];
  return merged;
}

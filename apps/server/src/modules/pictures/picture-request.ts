/**
 * Recognises a request for a picture of the character ("send me a selfie", "发张自拍",
 * "mándame una foto", "schick mir ein Bild", "скинь фотку") by rules, in the five languages
 * of the interface whatever the user's locale. A message matches when a request pattern
 * matches and no refusal does ("don't send pictures", "不要发照片"). The user offering a
 * picture ("I'll send you a photo of my cat") or telling about one is not a request.
 */

// JavaScript's \b is ASCII-only: Latin words get explicit letter boundaries instead.
const L = 'a-zà-ÿäöüßñ';
const w = (body: string) => new RegExp(`(?<![${L}])(?:${body})(?![${L}])`, 'iu');
const C = 'а-яё';
const r = (body: string) => new RegExp(`(?<![${C}])(?:${body})`, 'iu');

const EN_NOUN = '(?:pic|pics|picture|pictures|photo|photos|pix|selfie|selfies|snap|snapshot|image|images|nudes?)';
const ES_NOUN =
  '(?:foto|fotos|fotito|fotitos|fotograf[ií]a|fotograf[ií]as|selfie|selfies|selfi|selfis|imagen|im[aá]genes)';
const DE_NOUN = '(?:foto|fotos|bild|bilder|bildchen|selfie|selfies|pic|pics|aufnahme|schnappschuss)';
const RU_NOUN = '(?:фот|селфи|снимок|снимк|карточк|картинк|изображени)';
const ZH_NOUN = '(?:照片|相片|图片|圖片|自拍|照|图|圖|写真|靓照|美照)';

const REQUESTS: RegExp[] = [
  // English
  w(`(?:send|show|share|give|gimme|drop|text|shoot|dm|post)\\s+(?:me|us)\\s+(?:\\w+\\s+){0,3}${EN_NOUN}`),
  w(
    `(?:send|show|share|drop|text|shoot|gimme|give\\s+me)\\s+(?:a|an|some|another|one|your|more|new|that)\\s+(?:\\w+\\s+){0,2}${EN_NOUN}(?!\\s+of\\s+(?:my|our|the|his|her)\\b)`,
  ),
  w(
    `(?:take|snap|make)\\s+(?:a|another|one|some)\\s+(?:\\w+\\s+)?(?:selfie|pic|photo|picture)s?\\s+(?:for|of)\\s+(?:me|you|yourself)`,
  ),
  w(`(?:take|snap)\\s+(?:a|another)\\s+selfie`),
  w(
    `(?:can|could|may|let)\\s+(?:i|me)\\s+(?:see|get|have)\\s+(?:a|an|some|your|another|one|more)\\s+(?:\\w+\\s+)?${EN_NOUN}`,
  ),
  w(
    `(?:want|wanna|would\\s+like|'d\\s+like|love|like)\\s+(?:to\\s+)?(?:see|get|have)\\s+(?:a|an|some|your|another|one|more)\\s+(?:\\w+\\s+)?${EN_NOUN}`,
  ),
  w(`(?:got|have\\s+you\\s+got|do\\s+you\\s+have|you\\s+have)\\s+(?:any|some|a|more|new)\\s+(?:\\w+\\s+)?${EN_NOUN}`),
  w(`(?:how|what)\\s+about\\s+(?:a|an|another|some|one)\\s+(?:\\w+\\s+)?${EN_NOUN}`),
  w(`what\\s+do\\s+you\\s+(?:really\\s+)?look\\s+like`),
  w(`show\\s+(?:me\\s+)?(?:yourself|your\\s+(?:face|body|outfit|look|self))`),
  w(`let\\s+me\\s+see\\s+(?:you|your\\s+face)`),
  w(`${EN_NOUN}\\s+(?:of\\s+)?(?:you|yourself|u)\\s*(?:please|pls|plz)?\\s*[?!]`),
  /^\W*(?:a\s+|another\s+|one\s+more\s+|new\s+)?(?:pic|pics|picture|photo|photos|selfie|selfies|snap|nudes?)(?:\s+of\s+(?:you|yourself|u))?(?:\s+(?:please|pls|plz|now))?\W*$/i,

  // Chinese
  /(?:发|發|传|傳|来|來|晒|曬|分享|秀)(?!了|过|過)(?:[一两几个張张些点點下]|给我|給我|我|一下|一张|一張)*[^。！？.!?]{0,3}(?:照片|相片|图片|圖片|自拍|照|图|圖|写真|靓照|美照)/u,
  new RegExp(`(?:给|給)我[^。！？.!?]{0,6}${ZH_NOUN}`, 'u'),
  new RegExp(`${ZH_NOUN}[^。！？.!?]{0,4}(?:给我|給我)`, 'u'),
  /(?:看看|看一下|看下|瞧瞧|瞅瞅|看一看)你[^。！？.!?]{0,4}(?:照片|相片|自拍|样子|樣子|长相|長相|模样|模樣|脸|臉)/u,
  /(?:想|要|能|可以|让我|讓我)[^。！？.!?]{0,3}看[^。！？.!?]{0,3}你的?(?:照片|相片|自拍|样子|樣子|脸|臉|图|圖)/u,
  /你长(?:什么|啥)样|你長什麼樣|你(?:长得|長得)(?:怎么样|怎麼樣)/u,
  /你[^。！？.!?]{0,3}有[^。！？.!?]{0,3}(?:照片|相片|自拍)/u,
  /(?:拍|自拍)(?:一张|一張|张|張|个|個)?[^。！？.!?]{0,3}(?:给我|給我|看看|吗|嗎|呗|唄|嘛)/u,
  /^\s*(?:来|來)?(?:一张|一張|张|張)?(?:自拍|照片)(?:吧|呗|唄|嘛|吗|嗎)?[?？!！。]*\s*$/u,

  // Spanish
  w(
    `(?:m[aá]ndame|m[aá]ndanos|manda|mandas|mandes|env[ií]ame|env[ií]a|env[ií]as|env[ií]es|p[aá]same|pasas|ens[eé][ñn]ame|mu[eé]strame|comp[aá]rteme|dame|regálame|mandarme|enviarme|pasarme|ense[ñn]arme|mostrarme|compartirme)\\s+(?:[${L}]+\\s+){0,3}${ES_NOUN}`,
  ),
  w(
    `(?:quiero|quisiera|puedo|podr[ií]a|me\\s+gustar[ií]a|d[eé]jame|me\\s+encantar[ií]a)\\s+ver\\s+(?:una|alguna|algunas|tu|tus|otra|m[aá]s)\\s+(?:[${L}]+\\s+)?${ES_NOUN}`,
  ),
  w(`ver\\s+c[oó]mo\\s+eres|c[oó]mo\\s+eres\\s+f[ií]sicamente|a\\s+ver\\s+c[oó]mo\\s+eres|c[oó]mo\\s+luces`),
  w(`(?:h[aá]zte|s[aá]cate|t[oó]mate|hazme)\\s+(?:una|un)\\s+(?:foto|selfie|selfi|fotito)`),
  w(`tienes\\s+(?:alguna|algunas|una|m[aá]s|otra)?\\s*(?:foto|fotos|selfie|selfies|im[aá]genes)`),
  w(`${ES_NOUN}\\s+tuy[ao]s?`),
  /^[\s¿¡]*(?:una\s+|otra\s+)?(?:foto|fotito|selfie|selfi)(?:\s+tuya)?(?:\s+(?:por\s+favor|porfa|porfis))?[\s?!.]*$/i,

  // German
  w(
    `(?:schick|schicke|schickst|schicken|send|sende|sendest|zeig|zeige|zeigst|gib|gibst)\\s+(?:mir|uns)\\s+(?:[${L}]+\\s+){0,4}${DE_NOUN}`,
  ),
  w(
    `(?:mir|uns)\\s+(?:[${L}]+\\s+){0,4}${DE_NOUN}(?:\\s+[${L}]+){0,3}\\s+(?:schicken|senden|zeigen|geben|schickst|sendest|zeigst)`,
  ),
  w(
    `(?:will|möchte|moechte|würde\\s+gern|würde\\s+gerne|darf\\s+ich|kann\\s+ich|lass\\s+mich|lust)\\s+(?:[${L}]+\\s+){0,4}${DE_NOUN}(?:\\s+[${L}]+){0,3}\\s+sehen`,
  ),
  w(`mach\\w*\\s+(?:mal\\s+|doch\\s+|bitte\\s+)?(?:ein|eins|noch\\s+ein|mir\\s+ein)\\s+(?:selfie|foto|bild)`),
  w(`hast\\s+du\\s+(?:ein|eins|fotos|bilder|ein\\s+paar|mehr|noch)\\s+(?:[${L}]+\\s+)?${DE_NOUN}?`),
  w(`wie\\s+siehst\\s+du\\s+(?:eigentlich\\s+|denn\\s+)?aus|zeig\\s+dich`),
  w(`${DE_NOUN}\\s+von\\s+dir`),
  /^\W*(?:ein\s+|noch\s+ein\s+)?(?:foto|selfie|bild|pic)(?:\s+von\s+dir)?(?:\s+bitte)?\W*$/i,

  // Russian
  r(
    `(?:пришли|пришлёшь|пришлешь|присылай|прислать|отправь|отправишь|отправить|скинь|скинешь|скинуть|скидывай|кинь|кинешь|покажи|покажешь|показать|вышли|вышлешь|сбрось|сбросишь|дай|поделись)(?![${C}])[^.!?]{0,25}${RU_NOUN}`,
  ),
  r(
    `(?:хочу|хотел\\s+бы|хотела\\s+бы|можно|могу\\s+ли\\s+я|дай|хочется)[^.!?]{0,15}(?:увидеть|посмотреть|глянуть|взглянуть)[^.!?]{0,20}(?:${RU_NOUN}|тебя|на\\s+тебя|как\\s+ты\\s+выглядишь)`,
  ),
  r(`как\\s+ты\\s+выглядишь|покажись|покажи\\s+себя|покажи\\s+(?:мне\\s+)?(?:своё|свое|твоё|твое)\\s+лицо`),
  r(
    `(?:сделай|сделаешь|сфоткай|сфоткайся|сфотографируйся|сфотографируй)(?![${C}])[^.!?]{0,20}(?:селфи|фот|для\\s+меня|себя)`,
  ),
  r(`сфоткайся|сфотографируйся`),
  r(`у\\s+тебя[^.!?]{0,12}(?:есть|найдётся|найдется)[^.!?]{0,10}${RU_NOUN}`),
  r(`(?:есть|найдётся|найдется)[^.!?]{0,6}(?:твои|твоё|твое|твоя)\\s+${RU_NOUN}`),
  /^[\s]*(?:ещё\s+|еще\s+)?(?:фото|фотку|фоточку|фотографию|селфи)(?:\s+(?:твою|твоё|твое|свою|своё))?(?:\s+(?:пожалуйста|плиз|пж|пжлст))?[\s?!.]*$/iu,
];

const REFUSALS: RegExp[] = [
  w(
    `(?:don't|dont|do\\s+not|never|stop|no\\s+more|without|not)\\s+(?:\\w+\\s+){0,3}(?:send|sending|show|showing|share|take)`,
  ),
  w(`no\\s+(?:more\\s+)?${EN_NOUN}`),
  /(?:不要|不用|别|別|不想|不必|不需要|甭)[^。！？.!?]{0,6}(?:发|發|传|傳|拍|看|照片|自拍|图)/u,
  w(`no\\s+(?:me\\s+)?(?:mandes|env[ií]es|pases|ense[ñn]es|muestres|quiero)`),
  w(`(?:kein|keine|keinen|nicht)\\s+(?:[${L}]+\\s+){0,2}(?:${DE_NOUN}|schicken|senden|zeigen)`),
  r(`не\\s+(?:надо|нужно|присылай|отправляй|скидывай|кидай|показывай|хочу)`),
];

/** The user offering or describing their own picture, in each language. */
const OWN_PICTURES: RegExp[] = [
  w(`(?:i'll|i\\s+will|i\\s+can|let\\s+me|i'm\\s+going\\s+to|i\\s+want\\s+to)\\s+(?:send|show|share)\\s+(?:you|u)`),
  w(`${EN_NOUN}\\s+of\\s+(?:my|our)\\s`),
  /我[^。！？.!?]{0,3}(?:发|發|传|傳)[^。！？.!?]{0,8}(?:给你|給你)/u,
  /(?:给你|給你)(?:发|發|看)/u,
  w(`(?:te|le)\\s+(?:mando|env[ií]o|paso|ense[ñn]o|muestro)`),
  w(`(?:ich|wir)\\s+(?:[${L}]+\\s+){0,2}(?:dir|euch)\\s+(?:[${L}]+\\s+){0,3}${DE_NOUN}`),
  r(`(?:я\\s+)?(?:тебе\\s+)?(?:пришлю|скину|отправлю|покажу|кину)(?![${C}])`),
];

/** True when the text asks the character for a picture of themselves. */
export function isPictureRequest(text: string): boolean {
  const normalized = text.normalize('NFC').replace(/[’`]/g, "'").replace(/\s+/g, ' ').trim().toLowerCase();
  if (!normalized || normalized.length > 500) return false;
  if (!REQUESTS.some((pattern) => pattern.test(normalized))) return false;
  if (REFUSALS.some((pattern) => pattern.test(normalized))) return false;
  if (OWN_PICTURES.some((pattern) => pattern.test(normalized))) return false;
  return true;
}

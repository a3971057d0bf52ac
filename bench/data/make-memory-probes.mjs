// Writes bench/data/memory-probes.json: the probe set of the memory benchmark's recall@5
// (docs/memory.md "Benchmark", bench/README.md "memory"). In each of the five languages, 60
// facts about the user's people (10 relatives or friends × 6 things: work, home town,
// instrument, pet, sport, favourite dish) and one probe turn per fact that asks about it in
// other words (the relation and the topic, never the value); small talk of the same
// conversations gives the distractors. A probe is a hit when its fact is among the five
// memories retrieved for it. Deterministic: no randomness, the same file every run.
// Run: node bench/data/make-memory-probes.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TOPICS = ['work', 'city', 'instrument', 'pet', 'sport', 'dish'];

/**
 * Per language: the relations (`of`: "Alex's sister", the memory's subject; `my`: "my sister",
 * the probe's), per topic the fact and probe templates and five values (written in the form
 * the fact's sentence needs), and the small talk.
 */
const LANGS = {
  en: {
    relations: [
      ['sister', "Alex's sister", 'my sister'],
      ['brother', "Alex's brother", 'my brother'],
      ['mother', "Alex's mother", 'my mother'],
      ['father', "Alex's father", 'my father'],
      ['friend', "Alex's best friend", 'my best friend'],
      ['cousin', "Alex's cousin", 'my cousin'],
      ['neighbour', "Alex's neighbour", 'my neighbour'],
      ['colleague', "Alex's colleague", 'my colleague'],
      ['boss', "Alex's boss", 'my boss'],
      ['grandmother', "Alex's grandmother", 'my grandmother'],
    ],
    work: {
      fact: (of, v) => `${of} works ${v}.`,
      probe: (my) => `What does ${my} do for a living again?`,
      values: ['at a hospital', 'in a bakery', 'at a bookshop', 'at the harbour', 'in a flower shop'],
    },
    city: {
      fact: (of, v) => `${of} lives in ${v}.`,
      probe: (my) => `Which town does ${my} live in?`,
      values: ['Lyon', 'Porto', 'Krakow', 'Edinburgh', 'Valencia'],
    },
    instrument: {
      fact: (of, v) => `${of} plays the ${v}.`,
      probe: (my) => `What instrument does ${my} play?`,
      values: ['cello', 'trumpet', 'harp', 'accordion', 'drums'],
    },
    pet: {
      fact: (of, v) => `${of} keeps ${v} as a pet.`,
      probe: (my) => `What kind of pet does ${my} have?`,
      values: ['a parrot', 'a tortoise', 'a ferret', 'two rabbits', 'a goldfish'],
    },
    sport: {
      fact: (of, v) => `${of} is passionate about ${v}.`,
      probe: (my) => `Which sport is ${my} so passionate about?`,
      values: ['rowing', 'fencing', 'climbing', 'volleyball', 'judo'],
    },
    dish: {
      fact: (of, v) => `${of}'s favourite dish is ${v}.`,
      probe: (my) => `What's the dish ${my} likes best?`,
      values: ['lasagne', 'paella', 'ramen', 'goulash', 'moussaka'],
    },
    smallTalk: [
      'It rained all morning, so I stayed in with a book.',
      'The bus was late again today.',
      'I finally fixed the squeaky door in the hallway.',
      'We watched an old black-and-white film last night.',
      'My coffee went cold while I answered e-mails.',
      'The park was full of kites this afternoon.',
      'I tried a new route home and got a little lost.',
      'The neighbours are painting their fence blue.',
      'I slept badly, the wind kept rattling the window.',
      'There was a long queue at the post office.',
      'I bought far too many apples at the market.',
      'The sunset over the roofs was gorgeous tonight.',
      'My phone battery died in the middle of the day.',
      'I spent the evening sorting old photos.',
      'The train was so crowded I had to stand the whole way.',
      'I cleaned the windows and now everything looks brighter.',
      'A street musician was playing near the station.',
      'I forgot my umbrella and got soaked.',
      'The café downstairs changed its menu.',
      'I started a puzzle with a thousand pieces.',
    ],
  },
  ch: {
    relations: [
      ['sister', 'Alex的姐姐', '我姐姐'],
      ['brother', 'Alex的哥哥', '我哥哥'],
      ['mother', 'Alex的妈妈', '我妈妈'],
      ['father', 'Alex的爸爸', '我爸爸'],
      ['friend', 'Alex最好的朋友', '我最好的朋友'],
      ['cousin', 'Alex的表哥', '我表哥'],
      ['neighbour', 'Alex的邻居', '我的邻居'],
      ['colleague', 'Alex的同事', '我的同事'],
      ['boss', 'Alex的老板', '我的老板'],
      ['grandmother', 'Alex的奶奶', '我奶奶'],
    ],
    work: {
      fact: (of, v) => `${of}在${v}工作。`,
      probe: (my) => `${my}是做什么工作的来着？`,
      values: ['医院', '面包店', '书店', '港口', '花店'],
    },
    city: {
      fact: (of, v) => `${of}住在${v}。`,
      probe: (my) => `${my}住在哪个城市？`,
      values: ['成都', '厦门', '青岛', '昆明', '苏州'],
    },
    instrument: {
      fact: (of, v) => `${of}会${v}。`,
      probe: (my) => `${my}会演奏什么乐器？`,
      values: ['拉大提琴', '吹小号', '弹竖琴', '拉手风琴', '打鼓'],
    },
    pet: {
      fact: (of, v) => `${of}养了${v}。`,
      probe: (my) => `${my}养的宠物是什么？`,
      values: ['一只鹦鹉', '一只乌龟', '一只雪貂', '两只兔子', '一条金鱼'],
    },
    sport: {
      fact: (of, v) => `${of}特别热爱${v}。`,
      probe: (my) => `${my}最热爱哪项运动？`,
      values: ['赛艇', '击剑', '攀岩', '排球', '柔道'],
    },
    dish: {
      fact: (of, v) => `${of}最喜欢的菜是${v}。`,
      probe: (my) => `${my}最爱吃哪道菜？`,
      values: ['红烧肉', '麻婆豆腐', '小笼包', '酸菜鱼', '宫保鸡丁'],
    },
    smallTalk: [
      '早上一直下雨，我就在家看书。',
      '今天公交车又晚点了。',
      '我终于把走廊里吱吱响的门修好了。',
      '昨晚我们看了一部老黑白电影。',
      '回邮件的时候咖啡都凉了。',
      '今天下午公园里到处都是风筝。',
      '我换了条路回家，结果有点迷路。',
      '邻居正在把他们的篱笆刷成蓝色。',
      '风一直吹得窗户响，我没睡好。',
      '邮局门口排了好长的队。',
      '我在市场上买了太多苹果。',
      '今晚屋顶上的晚霞特别美。',
      '手机白天就没电了。',
      '我整个晚上都在整理老照片。',
      '地铁太挤了，我一路都站着。',
      '我擦了窗户，屋里一下子亮多了。',
      '车站旁边有个街头艺人在弹吉他。',
      '我忘了带伞，被淋透了。',
      '楼下的咖啡馆换了新菜单。',
      '我开始拼一幅一千片的拼图。',
    ],
  },
  es: {
    relations: [
      ['sister', 'La hermana de Alex', 'mi hermana'],
      ['brother', 'El hermano de Alex', 'mi hermano'],
      ['mother', 'La madre de Alex', 'mi madre'],
      ['father', 'El padre de Alex', 'mi padre'],
      ['friend', 'La mejor amiga de Alex', 'mi mejor amiga'],
      ['cousin', 'El primo de Alex', 'mi primo'],
      ['neighbour', 'La vecina de Alex', 'mi vecina'],
      ['colleague', 'El compañero de trabajo de Alex', 'mi compañero de trabajo'],
      ['boss', 'La jefa de Alex', 'mi jefa'],
      ['grandmother', 'La abuela de Alex', 'mi abuela'],
    ],
    work: {
      fact: (of, v) => `${of} trabaja ${v}.`,
      probe: (my) => `¿Me recuerdas en qué trabaja ${my}?`,
      values: ['en un hospital', 'en una panadería', 'en una librería', 'en el puerto', 'en una floristería'],
    },
    city: {
      fact: (of, v) => `${of} vive en ${v}.`,
      probe: (my) => `¿En qué ciudad vive ${my}?`,
      values: ['Sevilla', 'Bilbao', 'Granada', 'Oviedo', 'Valencia'],
    },
    instrument: {
      fact: (of, v) => `${of} toca ${v}.`,
      probe: (my) => `¿Qué instrumento toca ${my}?`,
      values: ['el violonchelo', 'la trompeta', 'el arpa', 'el acordeón', 'la batería'],
    },
    pet: {
      fact: (of, v) => `${of} tiene ${v} de mascota.`,
      probe: (my) => `¿Qué mascota tiene ${my}?`,
      values: ['un loro', 'una tortuga', 'un hurón', 'dos conejos', 'un pez de colores'],
    },
    sport: {
      fact: (of, v) => `A ${v.of} le apasiona ${v.value}.`,
      probe: (my) => `¿Qué deporte le apasiona tanto a ${my}?`,
      values: ['el remo', 'la esgrima', 'la escalada', 'el voleibol', 'el judo'],
    },
    dish: {
      fact: (of, v) => `El plato favorito de ${v.of} es ${v.value}.`,
      probe: (my) => `¿Cuál es el plato que más le gusta a ${my}?`,
      values: ['la lasaña', 'la paella', 'el ramen', 'el gulash', 'la musaka'],
    },
    smallTalk: [
      'Llovió toda la mañana, así que me quedé en casa leyendo.',
      'El autobús volvió a llegar tarde hoy.',
      'Por fin arreglé la puerta del pasillo que chirriaba.',
      'Anoche vimos una película antigua en blanco y negro.',
      'Se me enfrió el café mientras contestaba correos.',
      'Esta tarde el parque estaba lleno de cometas.',
      'Probé otro camino a casa y me perdí un poco.',
      'Los vecinos están pintando la valla de azul.',
      'Dormí fatal, el viento no dejaba de golpear la ventana.',
      'Había una cola larguísima en correos.',
      'Compré demasiadas manzanas en el mercado.',
      'La puesta de sol sobre los tejados estuvo preciosa.',
      'Se me acabó la batería del móvil a mediodía.',
      'Pasé la tarde ordenando fotos antiguas.',
      'El tren iba tan lleno que tuve que ir de pie todo el trayecto.',
      'Limpié las ventanas y ahora todo se ve más luminoso.',
      'Un músico callejero tocaba cerca de la estación.',
      'Se me olvidó el paraguas y acabé empapado.',
      'La cafetería de abajo cambió la carta.',
      'Empecé un puzle de mil piezas.',
    ],
  },
  de: {
    relations: [
      ['sister', 'Alex’ Schwester', 'meine Schwester'],
      ['brother', 'Alex’ Bruder', 'mein Bruder'],
      ['mother', 'Alex’ Mutter', 'meine Mutter'],
      ['father', 'Alex’ Vater', 'mein Vater'],
      ['friend', 'Alex’ beste Freundin', 'meine beste Freundin'],
      ['cousin', 'Alex’ Cousin', 'mein Cousin'],
      ['neighbour', 'Alex’ Nachbarin', 'meine Nachbarin'],
      ['colleague', 'Alex’ Kollege', 'mein Kollege'],
      ['boss', 'Alex’ Chefin', 'meine Chefin'],
      ['grandmother', 'Alex’ Oma', 'meine Oma'],
    ],
    work: {
      fact: (of, v) => `${of} arbeitet ${v}.`,
      probe: (my) => `Was macht ${my} noch mal beruflich?`,
      values: ['in einem Krankenhaus', 'in einer Bäckerei', 'in einer Buchhandlung', 'am Hafen', 'in einem Blumenladen'],
    },
    city: {
      fact: (of, v) => `${of} wohnt in ${v}.`,
      probe: (my) => `In welcher Stadt wohnt ${my}?`,
      values: ['Leipzig', 'Freiburg', 'Rostock', 'Regensburg', 'Bremen'],
    },
    instrument: {
      fact: (of, v) => `${of} spielt ${v}.`,
      probe: (my) => `Welches Instrument spielt ${my}?`,
      values: ['Cello', 'Trompete', 'Harfe', 'Akkordeon', 'Schlagzeug'],
    },
    pet: {
      fact: (of, v) => `${of} hat ${v} als Haustier.`,
      probe: (my) => `Was für ein Haustier hat ${my}?`,
      values: ['einen Papagei', 'eine Schildkröte', 'ein Frettchen', 'zwei Kaninchen', 'einen Goldfisch'],
    },
    sport: {
      fact: (of, v) => `${of} begeistert sich für ${v}.`,
      probe: (my) => `Für welchen Sport begeistert sich ${my} so?`,
      values: ['Rudern', 'Fechten', 'Klettern', 'Volleyball', 'Judo'],
    },
    dish: {
      fact: (of, v) => `${of} isst am liebsten ${v}.`,
      probe: (my) => `Welches Gericht mag ${my} am liebsten?`,
      values: ['Lasagne', 'Paella', 'Ramen', 'Gulasch', 'Moussaka'],
    },
    smallTalk: [
      'Es hat den ganzen Vormittag geregnet, also bin ich mit einem Buch zu Hause geblieben.',
      'Der Bus war heute schon wieder zu spät.',
      'Ich habe endlich die quietschende Tür im Flur repariert.',
      'Gestern Abend haben wir einen alten Schwarzweißfilm geschaut.',
      'Mein Kaffee ist kalt geworden, während ich Mails beantwortet habe.',
      'Heute Nachmittag war der Park voller Drachen.',
      'Ich habe einen neuen Heimweg ausprobiert und mich ein bisschen verlaufen.',
      'Die Nachbarn streichen ihren Zaun blau.',
      'Ich habe schlecht geschlafen, der Wind hat ständig am Fenster gerüttelt.',
      'Vor der Post war eine lange Schlange.',
      'Ich habe auf dem Markt viel zu viele Äpfel gekauft.',
      'Der Sonnenuntergang über den Dächern war heute wunderschön.',
      'Mittags war der Akku von meinem Handy leer.',
      'Ich habe den Abend damit verbracht, alte Fotos zu sortieren.',
      'Der Zug war so voll, dass ich die ganze Fahrt stehen musste.',
      'Ich habe die Fenster geputzt, jetzt ist alles viel heller.',
      'Am Bahnhof hat ein Straßenmusiker gespielt.',
      'Ich habe meinen Schirm vergessen und bin klatschnass geworden.',
      'Das Café unten hat eine neue Karte.',
      'Ich habe ein Puzzle mit tausend Teilen angefangen.',
    ],
  },
  ru: {
    relations: [
      ['sister', 'Сестра Алекса', 'моя сестра'],
      ['brother', 'Брат Алекса', 'мой брат'],
      ['mother', 'Мама Алекса', 'моя мама'],
      ['father', 'Папа Алекса', 'мой папа'],
      ['friend', 'Лучшая подруга Алекса', 'моя лучшая подруга'],
      ['cousin', 'Двоюродный брат Алекса', 'мой двоюродный брат'],
      ['neighbour', 'Соседка Алекса', 'моя соседка'],
      ['colleague', 'Коллега Алекса', 'мой коллега'],
      ['boss', 'Начальница Алекса', 'моя начальница'],
      ['grandmother', 'Бабушка Алекса', 'моя бабушка'],
    ],
    work: {
      fact: (of, v) => `${of} работает ${v}.`,
      probe: (my) => `Напомни, где работает ${my}?`,
      values: ['в больнице', 'в пекарне', 'в книжном магазине', 'в порту', 'в цветочном магазине'],
    },
    city: {
      fact: (of, v) => `${of} живёт в ${v}.`,
      probe: (my) => `В каком городе живёт ${my}?`,
      values: ['Казани', 'Калининграде', 'Иркутске', 'Самаре', 'Пскове'],
    },
    instrument: {
      fact: (of, v) => `${of} играет на ${v}.`,
      probe: (my) => `На каком инструменте играет ${my}?`,
      values: ['виолончели', 'трубе', 'арфе', 'аккордеоне', 'барабанах'],
    },
    pet: {
      fact: (of, v) => `${of} держит дома ${v}.`,
      probe: (my) => `Какое животное держит дома ${my}?`,
      values: ['попугая', 'черепаху', 'хорька', 'двух кроликов', 'золотую рыбку'],
    },
    sport: {
      fact: (of, v) => `${of} увлекается ${v}.`,
      probe: (my) => `Каким спортом так увлекается ${my}?`,
      values: ['греблей', 'фехтованием', 'скалолазанием', 'волейболом', 'дзюдо'],
    },
    dish: {
      fact: (of, v) => `${of} больше всего любит ${v}.`,
      probe: (my) => `Какое блюдо ${my} любит больше всего?`,
      values: ['лазанью', 'паэлью', 'рамен', 'гуляш', 'мусаку'],
    },
    smallTalk: [
      'Всё утро шёл дождь, так что я сидел дома с книгой.',
      'Автобус сегодня опять опоздал.',
      'Я наконец починил скрипучую дверь в коридоре.',
      'Вчера вечером мы смотрели старый чёрно-белый фильм.',
      'Пока я отвечал на письма, кофе совсем остыл.',
      'Сегодня днём в парке было полно воздушных змеев.',
      'Я пошёл домой новой дорогой и немного заблудился.',
      'Соседи красят свой забор в синий цвет.',
      'Я плохо спал, ветер всё время стучал в окно.',
      'На почте была огромная очередь.',
      'Я купил на рынке слишком много яблок.',
      'Закат над крышами сегодня был потрясающий.',
      'К обеду у телефона села батарейка.',
      'Весь вечер я разбирал старые фотографии.',
      'В электричке было так тесно, что я всю дорогу стоял.',
      'Я помыл окна, и в квартире стало гораздо светлее.',
      'У вокзала играл уличный музыкант.',
      'Я забыл зонт и промок до нитки.',
      'Кафе внизу поменяло меню.',
      'Я начал собирать пазл на тысячу деталей.',
    ],
  },
};

// Spanish puts the relation inside the sentence for two topics ("A la hermana de Alex le
// apasiona…", "El plato favorito de la hermana de Alex…"): its value carries the relation.
const inner = (of) => of.charAt(0).toLowerCase() + of.slice(1);

const facts = [];
const probes = [];
const conversations = [];
for (const [lang, spec] of Object.entries(LANGS)) {
  const turns = [];
  spec.relations.forEach(([key, of, my], r) => {
    TOPICS.forEach((topic, t) => {
      const { fact, probe, values } = spec[topic];
      const value = values[(r + t) % values.length];
      const id = `${lang}-${key}-${topic}`;
      const needsInner = lang === 'es' && (topic === 'sport' || topic === 'dish');
      const text = needsInner ? fact(of, { of: inner(of), value }) : fact(of, value);
      facts.push({ id, lang, kind: 'user', text });
      probes.push({ id: `p-${id}`, lang, text: probe(my), memory: id });
      turns.push({ role: 'user', text, fact: id });
      turns.push({ role: 'assistant', text: spec.smallTalk[(r * TOPICS.length + t) % spec.smallTalk.length] });
    });
  });
  for (const line of spec.smallTalk) turns.push({ role: 'user', text: line });
  conversations.push({ lang, turns });
}

// Spanish "A el …" contracts to "Al …" and "de el …" to "del …".
for (const f of facts) if (f.lang === 'es') f.text = f.text.replace(/\bA el /g, 'Al ').replace(/\bde el /g, 'del ');

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, 'memory-probes.json');
fs.writeFileSync(out, `${JSON.stringify({ facts, probes, conversations }, null, 1)}\n`);
console.log(`wrote ${path.relative(process.cwd(), out)}: ${facts.length} facts, ${probes.length} probes`);

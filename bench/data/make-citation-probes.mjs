// Writes bench/data/citation-probes.json: the labelled probe set of the citation benchmark
// (docs/memory.md "Citations", bench/README.md "memory"). Each case is a prompt's memories (five
// facts about the user, one of each kind, in one language), a user turn that asks about one of
// them, and four replies whose truth is labelled by construction: one that uses the asked
// memory in its words, one that uses it in other words (a paraphrase), one that uses no memory,
// and one that says it does not remember (uses none, repeats the question's words).
// Run: node bench/data/make-citation-probes.mjs
import fs from 'node:fs';
import path from 'node:path';

const LANGS = {
  en: {
    sister: {
      fact: (v) => `Alex's sister is called ${v}.`,
      probe: 'Do you remember what my sister is called?',
      literal: (v) => `Of course — your sister ${v}! How is she doing?`,
      paraphrase: () => 'Of course I remember her! Are you two still as close as ever?',
      forgot: () => 'Your sister? Remind me what she is called.',
      values: ['Léa', 'Maya', 'Nora', 'Ivy'],
    },
    dog: {
      fact: (v) => `Alex has a dog named ${v}.`,
      probe: 'Guess who chewed my shoes again?',
      literal: (v) => `Let me guess: ${v}, your dog, again!`,
      paraphrase: () => 'That little furball of yours strikes again! Did you scold him?',
      forgot: () => 'Oh no, who chewed your shoes?',
      values: ['Biscuit', 'Rocky', 'Pepper', 'Milo'],
    },
    job: {
      fact: (v) => `Alex works as a ${v}.`,
      probe: 'Long day at work today.',
      literal: (v) => `Being a ${v} must be exhausting some days. Sit down and rest.`,
      paraphrase: () => 'Your shifts always sound draining. Do you want to tell me about it?',
      forgot: () => 'A long day at work? What happened?',
      values: ['nurse', 'carpenter', 'teacher', 'baker'],
    },
    city: {
      fact: (v) => `Alex lives in ${v}.`,
      probe: 'The weather here is awful today.',
      literal: (v) => `Rain again in ${v}? Stay inside with a warm drink.`,
      paraphrase: () => 'Your city and its moods! Stay inside with a warm drink.',
      forgot: () => 'Awful weather? Where are you today?',
      values: ['Lisbon', 'Hamburg', 'Seattle', 'Lyon'],
    },
    food: {
      fact: (v) => `Alex's favourite food is ${v}.`,
      probe: 'What should I cook tonight?',
      literal: (v) => `How about ${v}? It is your favourite food after all.`,
      paraphrase: () => 'Why not the dish you always say you could eat every day?',
      forgot: () => 'What do you feel like eating tonight?',
      values: ['lasagna', 'ramen', 'paella', 'pancakes'],
    },
    none: ['Tell me more, I am listening.', 'That sounds like quite a day. How do you feel now?'],
  },
  es: {
    sister: {
      fact: (v) => `La hermana de Alex se llama ${v}.`,
      probe: '¿Te acuerdas de cómo se llama mi hermana?',
      literal: (v) => `¡Claro, tu hermana ${v}! ¿Cómo está?`,
      paraphrase: () => '¡Claro que me acuerdo de ella! ¿Seguís tan unidas como siempre?',
      forgot: () => '¿Tu hermana? Recuérdame cómo se llama.',
      values: ['Lucía', 'Carmen', 'Elena', 'Sofía'],
    },
    dog: {
      fact: (v) => `Alex tiene un perro que se llama ${v}.`,
      probe: '¿Adivina quién me ha mordido los zapatos otra vez?',
      literal: (v) => `Déjame adivinar: ¡${v}, tu perro, otra vez!`,
      paraphrase: () => '¡Esa bola de pelo tuya ha vuelto a las andadas! ¿Le has regañado?',
      forgot: () => '¡Oh no! ¿Quién te ha mordido los zapatos?',
      values: ['Toby', 'Canela', 'Rufo', 'Luna'],
    },
    job: {
      fact: (v) => `Alex trabaja de ${v}.`,
      probe: 'Hoy he tenido un día largo en el trabajo.',
      literal: (v) => `Trabajar de ${v} debe de ser agotador algunos días. Siéntate y descansa.`,
      paraphrase: () => 'Tus turnos siempre suenan agotadores. ¿Quieres contármelo?',
      forgot: () => '¿Un día largo en el trabajo? ¿Qué ha pasado?',
      values: ['enfermera', 'carpintera', 'profesora', 'panadera'],
    },
    city: {
      fact: (v) => `Alex vive en ${v}.`,
      probe: 'Hoy hace un tiempo horrible aquí.',
      literal: (v) => `¿Otra vez lluvia en ${v}? Quédate en casa con algo caliente.`,
      paraphrase: () => '¡Tu ciudad y sus caprichos! Quédate en casa con algo caliente.',
      forgot: () => '¿Un tiempo horrible? ¿Dónde estás hoy?',
      values: ['Sevilla', 'Bilbao', 'Valencia', 'Granada'],
    },
    food: {
      fact: (v) => `La comida favorita de Alex es la ${v}.`,
      probe: '¿Qué cocino esta noche?',
      literal: (v) => `¿Qué tal ${v}? Al fin y al cabo es tu comida favorita.`,
      paraphrase: () => '¿Por qué no ese plato que dices que comerías todos los días?',
      forgot: () => '¿Qué te apetece comer esta noche?',
      values: ['paella', 'tortilla', 'lasaña', 'pizza'],
    },
    none: ['Cuéntame más, te escucho.', 'Menudo día. ¿Cómo te sientes ahora?'],
  },
  de: {
    sister: {
      fact: (v) => `Alex' Schwester heißt ${v}.`,
      probe: 'Weißt du noch, wie meine Schwester heißt?',
      literal: (v) => `Natürlich – deine Schwester ${v}! Wie geht es ihr?`,
      paraphrase: () => 'Natürlich erinnere ich mich an sie! Versteht ihr euch noch so gut?',
      forgot: () => 'Deine Schwester? Sag mir noch mal, wie sie heißt.',
      values: ['Lena', 'Mia', 'Hanna', 'Clara'],
    },
    dog: {
      fact: (v) => `Alex hat einen Hund namens ${v}.`,
      probe: 'Rate mal, wer schon wieder meine Schuhe angeknabbert hat?',
      literal: (v) => `Lass mich raten: ${v}, dein Hund, schon wieder!`,
      paraphrase: () => 'Dein kleines Fellknäuel hat wieder zugeschlagen! Hast du geschimpft?',
      forgot: () => 'Oh nein, wer hat deine Schuhe angeknabbert?',
      values: ['Bello', 'Struppi', 'Fiete', 'Balu'],
    },
    job: {
      fact: (v) => `Alex arbeitet als ${v}.`,
      probe: 'Heute war ein langer Tag bei der Arbeit.',
      literal: (v) => `Als ${v} zu arbeiten ist manchmal bestimmt erschöpfend. Setz dich und ruh dich aus.`,
      paraphrase: () => 'Deine Schichten klingen immer anstrengend. Willst du erzählen?',
      forgot: () => 'Ein langer Tag bei der Arbeit? Was ist passiert?',
      values: ['Krankenpfleger', 'Schreiner', 'Lehrer', 'Bäcker'],
    },
    city: {
      fact: (v) => `Alex wohnt in ${v}.`,
      probe: 'Das Wetter hier ist heute furchtbar.',
      literal: (v) => `Schon wieder Regen in ${v}? Bleib drinnen mit etwas Warmem.`,
      paraphrase: () => 'Deine Stadt und ihre Launen! Bleib drinnen mit etwas Warmem.',
      forgot: () => 'Furchtbares Wetter? Wo bist du heute?',
      values: ['Hamburg', 'Leipzig', 'München', 'Köln'],
    },
    food: {
      fact: (v) => `Alex' Lieblingsessen ist ${v}.`,
      probe: 'Was soll ich heute Abend kochen?',
      literal: (v) => `Wie wäre es mit ${v}? Das ist doch dein Lieblingsessen.`,
      paraphrase: () => 'Warum nicht das Gericht, das du angeblich jeden Tag essen könntest?',
      forgot: () => 'Worauf hast du heute Abend Lust?',
      values: ['Lasagne', 'Käsespätzle', 'Gulasch', 'Pfannkuchen'],
    },
    none: ['Erzähl mir mehr, ich höre zu.', 'Was für ein Tag. Wie fühlst du dich jetzt?'],
  },
  ru: {
    sister: {
      fact: (v) => `Сестру Алекса зовут ${v}.`,
      probe: 'Помнишь, как зовут мою сестру?',
      literal: (v) => `Конечно, твою сестру зовут ${v}! Как она?`,
      paraphrase: () => 'Конечно, я её помню! Вы всё так же близки?',
      forgot: () => 'Твою сестру? Напомни, как её зовут.',
      values: ['Лена', 'Маша', 'Оля', 'Катя'],
    },
    dog: {
      fact: (v) => `У Алекса есть собака по кличке ${v}.`,
      probe: 'Угадай, кто опять погрыз мои ботинки?',
      literal: (v) => `Дай угадаю: ${v}, твоя собака, опять!`,
      paraphrase: () => 'Твой маленький пушистый хулиган снова за своё! Ты его отругал?',
      forgot: () => 'Ой, кто погрыз твои ботинки?',
      values: ['Шарик', 'Бобик', 'Тузик', 'Джек'],
    },
    job: {
      fact: (v) => `Алекс работает ${v}.`,
      probe: 'Сегодня был длинный день на работе.',
      literal: (v) => `Работать ${v} наверняка иногда выматывает. Садись, отдохни.`,
      paraphrase: () => 'Твои смены всегда звучат изнурительно. Хочешь рассказать?',
      forgot: () => 'Длинный день на работе? Что случилось?',
      values: ['медбратом', 'плотником', 'учителем', 'пекарем'],
    },
    city: {
      fact: (v) => `Алекс живёт в городе ${v}.`,
      probe: 'Погода сегодня ужасная.',
      literal: (v) => `Опять дождь в городе ${v}? Сиди дома с чем-нибудь тёплым.`,
      paraphrase: () => 'Твой город и его капризы! Сиди дома с чем-нибудь тёплым.',
      forgot: () => 'Ужасная погода? Где ты сегодня?',
      values: ['Казань', 'Самара', 'Томск', 'Пермь'],
    },
    food: {
      fact: (v) => `Любимая еда Алекса — ${v}.`,
      probe: 'Что мне приготовить сегодня вечером?',
      literal: (v) => `Как насчёт блюда ${v}? Это ведь твоя любимая еда.`,
      paraphrase: () => 'Почему бы не то блюдо, которое ты, по твоим словам, мог бы есть каждый день?',
      forgot: () => 'Что тебе хочется съесть сегодня вечером?',
      values: ['пельмени', 'борщ', 'блины', 'плов'],
    },
    none: ['Расскажи подробнее, я слушаю.', 'Ну и денёк. Как ты себя сейчас чувствуешь?'],
  },
  ch: {
    sister: {
      fact: (v) => `Alex的妹妹叫${v}。`,
      probe: '你还记得我妹妹叫什么吗？',
      literal: (v) => `当然记得，你妹妹叫${v}！她最近好吗？`,
      paraphrase: () => '当然记得她！你们还是那么亲密吗？',
      forgot: () => '你妹妹？提醒我一下她叫什么。',
      values: ['小雨', '小美', '婷婷', '佳佳'],
    },
    dog: {
      fact: (v) => `Alex养了一只狗，名字叫${v}。`,
      probe: '猜猜谁又把我的鞋咬坏了？',
      literal: (v) => `让我猜猜：又是你的狗${v}！`,
      paraphrase: () => '你家那个小毛球又闯祸了！你骂它了吗？',
      forgot: () => '哎呀，是谁咬坏了你的鞋？',
      values: ['旺财', '豆豆', '球球', '大黄'],
    },
    job: {
      fact: (v) => `Alex的工作是${v}。`,
      probe: '今天上班好累，时间好长。',
      literal: (v) => `当${v}有时候一定很累吧。坐下来休息一下。`,
      paraphrase: () => '你的班总是听起来很辛苦。想跟我说说吗？',
      forgot: () => '上班很累吗？发生什么事了？',
      values: ['护士', '木匠', '老师', '面包师'],
    },
    city: {
      fact: (v) => `Alex住在${v}。`,
      probe: '今天这里的天气糟透了。',
      literal: (v) => `${v}又下雨了吗？待在家里喝点热的吧。`,
      paraphrase: () => '你那座城市的天气总是这么多变！待在家里喝点热的吧。',
      forgot: () => '天气很糟吗？你今天在哪儿？',
      values: ['成都', '杭州', '青岛', '厦门'],
    },
    food: {
      fact: (v) => `Alex最喜欢的食物是${v}。`,
      probe: '今晚我该做什么菜？',
      literal: (v) => `做${v}怎么样？那可是你最喜欢的食物。`,
      paraphrase: () => '不如做那道你说天天吃都不会腻的菜？',
      forgot: () => '你今晚想吃点什么？',
      values: ['饺子', '火锅', '红烧肉', '麻婆豆腐'],
    },
    none: ['多跟我说说吧，我在听。', '真是辛苦的一天。你现在感觉怎么样？'],
  },
};

const KINDS = ['sister', 'dog', 'job', 'city', 'food'];
const cases = [];
for (const [lang, t] of Object.entries(LANGS)) {
  for (let v = 0; v < 4; v++) {
    // One fact of each kind (the v-th value, the others' values shifted so no two cases repeat a prompt).
    const memories = KINDS.map((kind, k) => ({ id: `${lang}-${v}-${kind}`, text: t[kind].fact(t[kind].values[(v + k) % 4]) }));
    for (const [k, kind] of KINDS.entries()) {
      const value = t[kind].values[(v + k) % 4];
      const target = `${lang}-${v}-${kind}`;
      cases.push({
        id: `${target}`,
        lang,
        asked: target,
        memories,
        probe: t[kind].probe,
        replies: [
          { style: 'literal', text: t[kind].literal(value), truth: [target] },
          { style: 'paraphrase', text: t[kind].paraphrase(value), truth: [target] },
          { style: 'none', text: t.none[(v + k) % t.none.length], truth: [] },
          { style: 'forgot', text: t[kind].forgot(value), truth: [] },
        ],
      });
    }
  }
}
const out = path.join(path.dirname(new URL(import.meta.url).pathname), 'citation-probes.json');
fs.writeFileSync(out, `${JSON.stringify({ cases }, null, 1)}\n`);
console.log(`${cases.length} cases, ${cases.length * 4} labelled replies → ${out}`);

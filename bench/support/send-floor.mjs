// The first-token floor of a send (issue 25): a bare node:http server that does, for each
// POST /<chat id>/<user id>, only what a send must do before its first token can be shown — read
// the chat's newest messages from PostgreSQL (one prepared statement), then at once ask the
// model ($FLOOR_UPSTREAM, keep-alive, the messages read as the prompt) and insert the message's
// row (one prepared statement) — and writes the first token as an event-stream `delta` once
// both have answered, then the model's stream as it comes. No framework, no authentication, no
// limits, no plan: what the chat server's first token costs beyond this is its own.
import http from 'node:http';
import postgres from 'postgres';

const upstream = new URL(process.env.FLOOR_UPSTREAM);
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const sql = postgres(process.env.FLOOR_DATABASE_URL, { max: 4, onnotice: () => {} });

const readHistory = (chatId) =>
  sql`select id, seq, role, text, tokens from messages
      where chat_id = ${chatId} and selected order by seq desc limit 60`;
const insertMessage = (chatId, userId, text) =>
  sql`insert into messages (chat_id, user_id, role, kind, text, state, tokens)
      values (${chatId}, ${userId}, 'user', 1, ${text}, 'done', 5) returning id, seq`;

async function answer(req, res, body) {
  const [, chatId, userId] = req.url.split('/');
  const { text } = JSON.parse(body);
  const history = await readHistory(chatId);
  const prompt = JSON.stringify({
    model: 'bench-model',
    stream: true,
    max_tokens: 2000,
    messages: [
      ...history.reverse().map((m) => ({ role: m.role === 'bot' ? 'assistant' : 'user', content: m.text })),
      { role: 'user', content: text },
    ],
  });
  const inserted = insertMessage(chatId, userId, text);
  const out = http.request(upstream, {
    method: 'POST',
    agent,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(prompt) },
  });
  out.on('response', async (model) => {
    const [row] = await inserted;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    let first = true;
    model.on('data', (chunk) => {
      if (first) {
        first = false;
        res.write(`event: delta\ndata: ${JSON.stringify({ message_id: row.id, text: String(chunk) })}\n\n`);
      } else res.write(chunk);
    });
    model.on('end', () => res.end());
  });
  out.on('error', () => res.destroy());
  out.end(prompt);
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => answer(req, res, Buffer.concat(chunks).toString()).catch(() => res.destroy()));
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
process.on('SIGTERM', () => sql.end({ timeout: 1 }).finally(() => process.exit(0)));

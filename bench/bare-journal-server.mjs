// The baseline for durable orders: a bare node:http server that parses the JSON body, writes it and one event in
// one SQLite transaction (WAL, synchronous FULL, as sjgate's journal) and only then answers with fixed bytes.
// argv: port, database path. Told the answer over IPC.
import { createServer } from 'node:http';
import Database from 'better-sqlite3';

const port = Number(process.argv[2]);
const db = new Database(process.argv[3]);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec(`
  CREATE TABLE IF NOT EXISTS orders (id INTEGER PRIMARY KEY, record TEXT NOT NULL) STRICT;
  CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY AUTOINCREMENT, order_id INTEGER NOT NULL, payload TEXT NOT NULL) STRICT;
`);
const insertOrder = db.prepare('INSERT INTO orders (record) VALUES (?)');
const insertEvent = db.prepare('INSERT INTO events (order_id, payload) VALUES (?, ?)');
const journal = db.transaction((text) => {
  const id = insertOrder.run(text).lastInsertRowid;
  insertEvent.run(id, text);
});

let answer = Buffer.alloc(0);
const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const order = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    journal.immediate(JSON.stringify(order));
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': answer.length });
    response.end(answer);
  });
});
process.on('message', (text) => {
  answer = Buffer.from(text);
  process.send('ready');
});
server.listen(port, '127.0.0.1', () => process.send('listening'));

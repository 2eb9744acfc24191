// The framework floor: a minimal Fastify app (no hooks, no schemas) returning fixed bytes. Told the body over IPC.
import Fastify from 'fastify';

const port = Number(process.argv[2]);
const path = process.argv[3];
let body = '';
const app = Fastify({ logger: false });
app.get(path, (_request, reply) => {
  reply.type('application/json; charset=utf-8').send(body);
});
process.on('message', (text) => {
  body = text;
  process.send('ready');
});
await app.listen({ port, host: '127.0.0.1' });
process.send('listening');

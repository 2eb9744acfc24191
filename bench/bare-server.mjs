// The baseline: a bare node:http server that returns fixed bytes. Told the body over IPC.
import { createServer } from 'node:http';

const port = Number(process.argv[2]);
let body = Buffer.alloc(0);
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  response.end(body);
});
process.on('message', (text) => {
  body = Buffer.from(text);
  process.send('ready');
});
server.listen(port, '127.0.0.1', () => process.send('listening'));

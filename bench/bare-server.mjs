// The floor for the shop's static-file rate (docs/design.md section 15): a bare node:http server answering
// the same bytes from memory with the same headers that matter. Started as its own process by the
// benchmarks so it does not share an event loop with the load generator.
//   node bench/bare-server.mjs <port> <file> [content-type] [content-encoding]
import http from 'node:http';
import { readFileSync } from 'node:fs';

const [port, file, type = 'text/css; charset=utf-8', encoding] = process.argv.slice(2);
const body = readFileSync(file);
const headers = {
  'Content-Type': type,
  'Content-Length': body.length,
  'Cache-Control': 'public, max-age=31536000, immutable',
  ...(encoding ? { 'Content-Encoding': encoding, Vary: 'Accept-Encoding' } : {}),
};
http
  .createServer((req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  })
  .listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));

// A test MCP server for rubric's transports, built with the TypeScript
// SDK v2 (@modelcontextprotocol/server), which serves protocol 2026-07-28
// and, unless told otherwise, the 2025 handshake too.
//
//   node server.mjs stdio [--modern-only] [--page-size N] [--tools FILE]
//   node server.mjs http  [--modern-only] [--page-size N] [--tools FILE]
//
// Over HTTP it listens on 127.0.0.1 on a port the system picks and writes
// the endpoint's URL as the first line of its stdout. Its tools are those
// of tools.json (or --tools FILE), sent as they are written there, page by
// page when --page-size is given.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Server, createMcpHandler } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const args = process.argv.slice(2);
const mode = args[0];
const flag = (name) => args.includes(name);
const value = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const modernOnly = flag('--modern-only');
const pageSize = Number(value('--page-size', '0'));
const toolsFile = value('--tools', new URL('./tools.json', import.meta.url));
const tools = JSON.parse(readFileSync(toolsFile, 'utf8')).tools;

// factory makes one server: for each HTTP request, or each stdio connection.
function factory() {
  const server = new Server(
    { name: 'rubric-modern-test', version: '1.2.3' },
    { capabilities: { tools: {} }, instructions: 'Tools for a test issue tracker.' },
  );
  server.setRequestHandler('tools/list', (request) => {
    if (!pageSize) return { tools };
    const start = Number(request.params?.cursor ?? '0');
    const next = start + pageSize;
    const page = { tools: tools.slice(start, next) };
    if (next < tools.length) page.nextCursor = String(next);
    return page;
  });
  return server;
}

if (mode === 'stdio') {
  serveStdio(factory, { legacy: modernOnly ? 'reject' : 'serve' });
} else if (mode === 'http') {
  const handler = createMcpHandler(factory, { legacy: modernOnly ? 'reject' : 'stateless' });
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers: req.headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
    });
    const response = await handler.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) {
      for await (const c of response.body) res.write(c);
    }
    res.end();
  });
  http.listen(0, '127.0.0.1', () => {
    process.stdout.write(`http://127.0.0.1:${http.address().port}/mcp\n`);
  });
} else {
  process.stderr.write('usage: node server.mjs stdio|http [--modern-only] [--page-size N] [--tools FILE]\n');
  process.exit(2);
}

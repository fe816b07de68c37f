// Holds many connections to the server open at once, for the connections scenario.
//   node bench/faults/hold.mjs --port P --count N --mode idle|sse [--seconds S]
// idle: N TCP connections that never send a byte (what a crowd of idle keep-alive clients, or a
//       slow-loris attacker, leaves behind)
// sse:  N MCP sessions (initialize, notifications/initialized), each with its GET event stream open
// Prints "HOLD opened=N failed=N setup_ms=N" once every connection is up, holds them for S seconds
// (default: until SIGTERM), then prints "HOLD still_open=N closed_by_server=N" and exits.
import http from 'node:http';
import net from 'node:net';

const args = process.argv.slice(2);
const opt = (name, fallback) => { const i = args.indexOf(name); return i < 0 ? fallback : args[i + 1]; };
const port = Number(opt('--port'));
const count = Number(opt('--count', 2000));
const mode = opt('--mode', 'idle');
const seconds = Number(opt('--seconds', 0));
const sockets = [];
let closedByServer = 0;
let stopping = false;
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function post(body, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ agent, host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: {
      'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function openOne() {
  if (mode === 'idle') {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
      socket.on('error', reject);
    });
  }
  const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18',
    capabilities: {}, clientInfo: { name: 'hold', version: '1' } } });
  const session = init.headers['mcp-session-id'];
  const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  return new Promise((resolve, reject) => {
    // its own connection (no agent): the stream holds it for as long as we do
    const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'GET', agent: false,
      headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`GET answered ${res.statusCode}`));
        return;
      }
      res.on('data', () => {});
      resolve(res.socket);
    });
    req.on('error', reject);
    req.end();
  });
}

const t0 = Date.now();
let failed = 0;
const batch = 100;
for (let i = 0; i < count; i += batch) {
  const results = await Promise.allSettled(Array.from({ length: Math.min(batch, count - i) }, openOne));
  for (const r of results) {
    if (r.status === 'fulfilled') {
      sockets.push(r.value);
      r.value.on('close', () => { if (!stopping) closedByServer++; });
    } else {
      failed++;
    }
  }
}
console.log(`HOLD opened=${sockets.length} failed=${failed} setup_ms=${Date.now() - t0}`);

function finish() {
  const stillOpen = sockets.filter((s) => !s.destroyed).length;
  stopping = true;
  console.log(`HOLD still_open=${stillOpen} closed_by_server=${closedByServer}`);
  for (const s of sockets) s.destroy();
  agent.destroy();
  process.exit(0);
}
process.on('SIGTERM', finish);
process.on('SIGINT', finish);
if (seconds > 0) setTimeout(finish, seconds * 1000);

// Peer baseline for bench/run.sh: the official MCP TypeScript SDK serving one trivial tool over
// stateless Streamable HTTP with JSON responses, the way the SDK's own stateless example does it
// (a new McpServer and transport per request; plain node:http rather than express, which only
// makes the peer faster). The tool answers the same row text as the bench's cached
// `get-customer`, so both sides serialize the same result.
//   node bench/peer/server.mjs PORT
import http from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const port = Number(process.argv[2] || 18090);
const row = (id) => JSON.stringify([{ id, name: 'Ada Lovelace', email: 'ada@example.com', country: 'GB',
  created_at: '2024-01-15T09:30:00Z' }]);

function newServer() {
  const server = new McpServer({ name: 'bench-peer', version: '1.0.0' });
  server.registerTool('get-customer', {
    description: 'Get one customer by id',
    inputSchema: { customer_id: z.number().int() },
  }, async ({ customer_id }) => ({ content: [{ type: 'text', text: row(customer_id) }] }));
  return server;
}

http.createServer(async (req, res) => {
  if (req.method === 'GET' && req.url === '/heartbeat') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
    return;
  }
  if (req.method !== 'POST' || req.url !== '/mcp') {
    res.writeHead(405).end();
    return;
  }
  const server = newServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    transport.close();
    server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(req, res);
  } catch (e) {
    if (!res.headersSent) {
      res.writeHead(500, { 'content-type': 'application/json' })
        .end('{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal error"}}');
    }
  }
}).listen(port, '127.0.0.1', () => console.log(`peer serving at http://127.0.0.1:${port}/mcp`));

// A TCP relay for the outage scenario: the server's adapter points here instead of at the shared
// PostgreSQL, so the database can "go down" without stopping a service others use.
//   node bench/faults/tcp-proxy.mjs LISTEN_PORT TARGET_HOST TARGET_PORT
//   kill -USR1 <pid>   cut: stop listening (new connections are refused) and drop every relayed one
//   kill -USR2 <pid>   restore: listen on the same port again
// Prints one line per event, with the time in epoch milliseconds.
import net from 'node:net';

const [listenPort, targetHost, targetPort] = process.argv.slice(2);
const open = new Set();
let server = null;

function listen() {
  server = net.createServer((client) => {
    const upstream = net.connect(Number(targetPort), targetHost);
    open.add(client);
    open.add(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  server.listen(Number(listenPort), '127.0.0.1', () => console.log(`${Date.now()} listening ${listenPort}`));
}

process.on('SIGUSR1', () => {
  if (!server) return;
  server.close();
  server = null;
  for (const socket of open) socket.destroy();
  open.clear();
  console.log(`${Date.now()} cut`);
});
process.on('SIGUSR2', () => {
  if (server) return;
  listen();
  console.log(`${Date.now()} restored`);
});
process.on('SIGTERM', () => process.exit(0));
// while cut nothing else keeps Node's event loop alive
setInterval(() => {}, 1 << 30);
listen();

// Closed-loop load for the fault scenarios: each connection POSTs its body, waits for the answer,
// and goes again. Unlike wrk it keeps every answer's outcome and time, so a run can be cut into
// phases (before, during and after an outage) and errors told apart by their message.
//   node bench/faults/driver.mjs --url URL --seconds S [--events FILE]
//        --load NAME:BODY_FILE:CONNECTIONS[:MAX_ID] [--load ...]
// BODY_FILE holds one JSON-RPC body; "__ID__" in it becomes a random integer 1..MAX_ID per call.
// EVENTS (read at the end) holds lines "<epoch ms> <name>" (e.g. "1700000000000 cut"); phases
// run from the start to the first event, between events, and from the last event to the end.
// Prints one JSON object: per load, totals and per phase {requests, ok, errors: {message: count},
// ok_p50_ms, ok_p99_ms, error_p50_ms, error_p99_ms, first_ok_ms, last_error_ms} (the last two
// relative to the phase's start), and a timeline of ok/error counts per second.
import fs from 'node:fs';
import http from 'node:http';

const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); return i < 0 ? undefined : args[i + 1]; };
const url = new URL(opt('--url'));
const seconds = Number(opt('--seconds'));
const eventsFile = opt('--events');
const loads = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] !== '--load') continue;
  const [name, file, connections, maxId] = args[i + 1].split(':');
  const template = fs.readFileSync(file, 'utf8').trim();
  loads.push({ name, template, connections: Number(connections), maxId: Number(maxId || 0), records: [] });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const started = Date.now();
const deadline = started + seconds * 1000;

function call(load) {
  const body = load.maxId ? load.template.replaceAll('__ID__', String(1 + Math.floor(Math.random() * load.maxId)))
    : load.template;
  const t0 = Date.now();
  return new Promise((resolve) => {
    const req = http.request({
      agent, host: url.hostname, port: url.port, path: url.pathname, method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream',
        'content-length': Buffer.byteLength(body) },
      timeout: 60000,
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => {
        let outcome = 'ok';
        if (res.statusCode !== 200) {
          outcome = `HTTP ${res.statusCode}`;
        } else {
          try {
            const answer = JSON.parse(text);
            if (answer.error) outcome = `${answer.error.code} ${String(answer.error.message).slice(0, 110)}`;
          } catch {
            outcome = 'unparsable answer';
          }
        }
        resolve({ t0, t1: Date.now(), outcome });
      });
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 60 s')));
    req.on('error', (e) => resolve({ t0, t1: Date.now(), outcome: `socket: ${e.code || e.message}` }));
    req.end(body);
  });
}

async function loop(load) {
  while (Date.now() < deadline) {
    load.records.push(await call(load));
  }
}

await Promise.all(loads.flatMap((load) => Array.from({ length: load.connections }, () => loop(load))));
agent.destroy();

const ended = Date.now();
const events = eventsFile && fs.existsSync(eventsFile)
  ? fs.readFileSync(eventsFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => {
    const [t, name] = l.split(' ');
    return { t: Number(t), name };
  }) : [];
const bounds = [{ t: started, name: 'start' }, ...events, { t: ended, name: 'end' }];
const pct = (sorted, p) => sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p / 100))] : null;

function summarize(records, from) {
  const ok = records.filter((r) => r.outcome === 'ok');
  const bad = records.filter((r) => r.outcome !== 'ok');
  const errors = {};
  for (const r of bad) errors[r.outcome] = (errors[r.outcome] || 0) + 1;
  const okTimes = ok.map((r) => r.t1 - r.t0).sort((a, b) => a - b);
  const badTimes = bad.map((r) => r.t1 - r.t0).sort((a, b) => a - b);
  return {
    requests: records.length, ok: ok.length, errors,
    ok_p50_ms: pct(okTimes, 50), ok_p99_ms: pct(okTimes, 99),
    error_p50_ms: pct(badTimes, 50), error_p99_ms: pct(badTimes, 99),
    first_ok_ms: ok.length ? ok.reduce((m, r) => Math.min(m, r.t1), Infinity) - from : null,
    last_error_ms: bad.length ? bad.reduce((m, r) => Math.max(m, r.t1), -Infinity) - from : null,
  };
}

const report = { seconds: (ended - started) / 1000, events: events.map((e) => ({ name: e.name, at_ms: e.t - started })), loads: {} };
for (const load of loads) {
  const phases = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const from = bounds[i].t;
    const to = bounds[i + 1].t;
    // an answer belongs to the phase in which it arrived
    phases.push({ phase: `${bounds[i].name}→${bounds[i + 1].name}`, ...summarize(load.records.filter((r) => r.t1 >= from && r.t1 < to), from) });
  }
  const timeline = [];
  for (const r of load.records) {
    const s = Math.floor((r.t1 - started) / 1000);
    timeline[s] ||= [0, 0];
    timeline[s][r.outcome === 'ok' ? 0 : 1]++;
  }
  report.loads[load.name] = { connections: load.connections, total: summarize(load.records, started), phases,
    timeline: Array.from(timeline, (x) => x || [0, 0]) };
}
console.log(JSON.stringify(report));

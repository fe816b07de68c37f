// Formats a bench/faults/driver.mjs report (JSON on stdin) as Markdown tables: one row per load
// and phase, with its answers, errors by message, and latencies.
//   node bench/faults/driver.mjs ... | node bench/faults/phases.mjs
const input = await new Promise((resolve) => {
  let text = '';
  process.stdin.setEncoding('utf8').on('data', (c) => { text += c; }).on('end', () => resolve(text));
});
const report = JSON.parse(input);
const ms = (v) => (v === null || v === undefined ? '–' : `${v} ms`);
const lines = ['| load | phase | answers | ok | errors (count × message) | ok p50 / p99 | error p50 / p99 | first ok after phase start |',
  '|---|---|---|---|---|---|---|---|'];
for (const [name, load] of Object.entries(report.loads)) {
  for (const p of load.phases) {
    const errors = Object.entries(p.errors).sort((a, b) => b[1] - a[1])
      .map(([m, n]) => `${n} × \`${m.replace(/\|/g, '\\|')}\``).join('<br>') || '0';
    lines.push(`| ${name} (${load.connections} conn.) | ${p.phase} | ${p.requests} | ${p.ok} | ${errors} | ${ms(p.ok_p50_ms)} / ${ms(p.ok_p99_ms)} | ${ms(p.error_p50_ms)} / ${ms(p.error_p99_ms)} | ${ms(p.first_ok_ms)} |`);
  }
}
console.log(lines.join('\n'));

# Fault scenarios (bench/run.sh faults): what the server does when things go wrong under load.
# Load comes from bench/faults/driver.mjs, which keeps every answer's outcome and time so runs can
# be cut into phases. Sourced by bench/run.sh.
#   outage           PostgreSQL behind a TCP proxy (bench/faults/tcp-proxy.mjs) is cut for 15 s
#                    and restored, under 32 connections of point selects
#   slow-queries     16 connections of statements that sleep past their 1 s limit, next to 16
#                    connections of point selects, on a pool of 10
#   script-timeouts  16 connections of a handler that never returns, with a 500 ms script limit
#   connections      2,000 idle TCP connections, then 2,000 open MCP event streams, held while
#                    16 connections measure; then 2,000 connections all sending requests

FAULT_SECONDS=${BENCH_FAULT_SECONDS:-40}

driver() { node "$BENCH_DIR/faults/driver.mjs" "$@"; }
phases() { node "$BENCH_DIR/faults/phases.mjs"; }
blocked_warnings() { grep -c 'has been blocked' "$1" || true; }
http_status() { curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$1"; }

scenario_outage() {
  ensure_pg_data
  local proxy_port=$((PORT + 7)) port=$((PORT + 8)) dir=$OUT/projects/pg-outage events=$OUT/outage/events
  mkdir -p "$OUT/outage"; : >"$events"
  write_pg_project "$dir" 10 5s
  execute_body get-customer '{"customer_id":__ID__}' >"$OUT/outage/execute.json"
  port_free "$proxy_port" || die "port $proxy_port is in use"
  node "$BENCH_DIR/faults/tcp-proxy.mjs" "$proxy_port" 127.0.0.1 5432 >"$OUT/logs/outage-proxy.log" 2>&1 &
  local proxy=$!
  BENCH_PIDS+=("$proxy")
  sleep 0.5
  BENCH_PG_URL="postgres://postgres@127.0.0.1:$proxy_port/hyperterse_bench?sslmode=disable" \
    start_server outage "$dir" "$port" || die "the outage server did not start"
  local pid=$SERVER_PID url=http://127.0.0.1:$port/mcp
  driver --url "$url" --seconds 5 --load "warm-up:$OUT/outage/execute.json:32:$PG_ROWS" >/dev/null
  local cut_at=10 back_at=25
  (
    sleep "$cut_at"; kill -USR1 "$proxy"; echo "$(now_ms) cut" >>"$events"
    sleep 3; echo "$(http_status "http://127.0.0.1:$port/ready")" >"$OUT/outage/ready-during"
    sleep $((back_at - cut_at - 3)); kill -USR2 "$proxy"; echo "$(now_ms) restored" >>"$events"
  ) &
  local timeline=$!
  driver --url "$url" --seconds "$FAULT_SECONDS" --events "$events" \
    --load "point-select:$OUT/outage/execute.json:32:$PG_ROWS" >"$OUT/outage/report.json"
  wait "$timeline"
  local ready_after same
  ready_after=$(http_status "http://127.0.0.1:$port/ready")
  kill -0 "$pid" 2>/dev/null && same="yes (pid $pid)" || same="**no: the server died**"
  local summary
  summary=$(node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const p = r.loads["point-select"].phases;
    const [before, during, after] = p;
    const errs = (ph) => ph.requests - ph.ok;
    console.log([errs(before), errs(during), during.ok, after.first_ok_ms, after.last_error_ms ?? "none", errs(after),
      Math.round(before.requests / (r.events[0].at_ms / 1000)),
      Math.round(after.requests / (r.seconds - r.events[1].at_ms / 1000))].join(" "));' "$OUT/outage/report.json")
  local e_before e_during ok_during first_ok last_err e_after rps_before rps_after
  read -r e_before e_during ok_during first_ok last_err e_after rps_before rps_after <<<"$summary"
  cat >>"$SECTION" <<EOF

### Fault: PostgreSQL cut for $((back_at - cut_at)) s under load (TCP proxy), 32 connections, pool of 10

$(phases <"$OUT/outage/report.json")

- Before the cut: $rps_before req/s, $e_before errors. During the outage: $e_during calls failed
  (each with the error above, fast: no call waits for a connection that cannot come), $ok_during succeeded.
  \`/ready\` during the outage: $(cat "$OUT/outage/ready-during"); after: $ready_after.
- After the restore: first success **$first_ok ms** after the proxy listened again; $e_after errors
  in that phase$([[ $last_err == none ]] || echo " (the last $last_err ms after the restore: calls that began before it)");
  then $rps_after req/s. Same server process throughout: $same. Blocked-thread warnings in the
  server log: $(blocked_warnings "$OUT/logs/outage.log").

\`\`\`
node bench/faults/tcp-proxy.mjs $proxy_port 127.0.0.1 5432   # kill -USR1 at ${cut_at} s (cut), -USR2 at ${back_at} s (restore)
BENCH_PG_URL=postgres://postgres@127.0.0.1:$proxy_port/hyperterse_bench java -jar target/hyperterse.jar start ${dir#"$ROOT"/} --port $port --log-level 2
node bench/faults/driver.mjs --url $url --seconds $FAULT_SECONDS --events … --load point-select:${OUT#"$ROOT"/}/outage/execute.json:32:$PG_ROWS
\`\`\`
EOF
  stop_pid "$SERVER_PID"
  stop_pid "$proxy"
}

scenario_slow_queries() {
  ensure_pg_data
  local port=$((PORT + 9)) dir=$OUT/projects/pg-slow
  mkdir -p "$OUT/slow"
  write_pg_project "$dir" 10 1s
  execute_body get-customer '{"customer_id":__ID__}' >"$OUT/slow/fast.json"
  execute_body sleep '{"seconds":5}' >"$OUT/slow/slow.json"
  BENCH_PG_URL=$PG_URL start_server slow "$dir" "$port" || die "the slow-queries server did not start"
  local url=http://127.0.0.1:$port/mcp
  driver --url "$url" --seconds 5 --load "warm-up:$OUT/slow/fast.json:16:$PG_ROWS" >/dev/null
  driver --url "$url" --seconds 10 --load "fast-alone:$OUT/slow/fast.json:16:$PG_ROWS" >"$OUT/slow/alone.json"
  driver --url "$url" --seconds 15 --load "fast:$OUT/slow/fast.json:16:$PG_ROWS" \
    --load "slow:$OUT/slow/slow.json:16" >"$OUT/slow/mixed.json"
  sleep 2
  local left
  left=$(psql "$PG_URL" -tAc "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'hyperterse-bench' AND query LIKE '%pg_sleep%' AND state = 'active'")
  cat >>"$SECTION" <<EOF

### Fault: statements past their time limit under load (limit 1 s, \`pg_sleep(5)\`), pool of 10

$(phases <"$OUT/slow/alone.json")
$(phases <"$OUT/slow/mixed.json" | tail -n +3)

- Sleeping statements still running on PostgreSQL 2 s after the load stopped: **$left** (each
  timed-out statement is cancelled on the server). Blocked-thread warnings: $(blocked_warnings "$OUT/logs/slow.log").
- The time limit counts from the call's start, waiting for a pooled connection included: while
  slow statements hold the pool, fast calls queue behind them and share their fate.

\`\`\`
node bench/faults/driver.mjs --url $url --seconds 10 --load fast-alone:${OUT#"$ROOT"/}/slow/fast.json:16:$PG_ROWS
node bench/faults/driver.mjs --url $url --seconds 15 --load fast:${OUT#"$ROOT"/}/slow/fast.json:16:$PG_ROWS --load slow:${OUT#"$ROOT"/}/slow/slow.json:16
\`\`\`
EOF
  stop_pid "$SERVER_PID"
}

scenario_script_timeouts() {
  local port=$((PORT + 10)) dir=$OUT/projects/script-timeouts
  rm -rf "$dir"; mkdir -p "$dir/app/tools/spin" "$dir/app/tools/echo" "$OUT/script-timeouts"
  printf 'name: bench-script-timeouts\nversion: 1.0.0\ntools:\n  script_timeout: 500ms\n' >"$dir/.hyperterse"
  printf "description: 'Never returns'\ninputs:\n  n: { type: int, description: 'Anything' }\n" >"$dir/app/tools/spin/config.terse"
  printf 'export default function handler(payload: { inputs: { n: number } }): number {\n  for (;;) { /* spins */ }\n}\n' \
    >"$dir/app/tools/spin/handler.ts"
  printf "description: 'Return the number it is given'\ninputs:\n  n: { type: int, description: 'Any number' }\n" \
    >"$dir/app/tools/echo/config.terse"
  printf 'export default function handler(payload: { inputs: { n: number } }): { n: number } {\n  return { n: payload.inputs.n };\n}\n' \
    >"$dir/app/tools/echo/handler.ts"
  execute_body spin '{"n":1}' >"$OUT/script-timeouts/spin.json"
  execute_body echo '{"n":__ID__}' >"$OUT/script-timeouts/echo.json"
  if ! start_server script-timeouts "$dir" "$port"; then
    cat >>"$SECTION" <<EOF

### Fault: scripts past their time limit under load

**Not measured**: this build cannot serve handler tools yet (the script runtime is not merged).
Wired: \`bench/run.sh script-timeouts\` runs 16 connections of a handler that never returns (limit
500 ms) next to 16 connections of a trivial handler. The server said:
\`$(grep -v '^\s*$' "$OUT/logs/script-timeouts.log" | head -n 3 | tr '\n' ' ' | cut -c1-300)\`
EOF
    return
  fi
  local url=http://127.0.0.1:$port/mcp
  driver --url "$url" --seconds 5 --load "warm-up:$OUT/script-timeouts/echo.json:16:1000" >/dev/null
  driver --url "$url" --seconds 10 --load "echo-alone:$OUT/script-timeouts/echo.json:16:1000" >"$OUT/script-timeouts/alone.json"
  driver --url "$url" --seconds 15 --load "echo:$OUT/script-timeouts/echo.json:16:1000" \
    --load "spin:$OUT/script-timeouts/spin.json:16" >"$OUT/script-timeouts/mixed.json"
  cat >>"$SECTION" <<EOF

### Fault: scripts past their time limit under load (limit 500 ms, a handler that never returns)

$(phases <"$OUT/script-timeouts/alone.json")
$(phases <"$OUT/script-timeouts/mixed.json" | tail -n +3)

Blocked-thread warnings in the server log: $(blocked_warnings "$OUT/logs/script-timeouts.log"). Server
RSS after load: $(rss_mb "$SERVER_PID") MB.

\`\`\`
node bench/faults/driver.mjs --url $url --seconds 15 --load echo:…/echo.json:16:1000 --load spin:…/spin.json:16
\`\`\`
EOF
  stop_pid "$SERVER_PID"
}

scenario_connections() {
  local port=$((PORT + 11)) dir=$OUT/projects/cached limit
  limit=$(ulimit -n)
  if (( limit < 8192 )); then
    ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
    limit=$(ulimit -n)
  fi
  (( limit >= 4500 )) || die "ulimit -n is $limit: 2,000 connections need both ends open in this machine (raise it)"
  write_cached_project "$dir"
  mkdir -p "$OUT/connections"
  execute_body get-customer '{"customer_id":__ID__}' >"$OUT/connections/execute.json"
  start_server connections "$dir" "$port" || die "the connections server did not start"
  local url=http://127.0.0.1:$port/mcp vars=(WRK_MODE=ids WRK_BODY="$OUT/connections/execute.json" WRK_MAX_ID=10)
  wrk_run "$url" 16 "$WARMUP" "$THREADS" "${vars[@]}"
  local rows=() cmds=()
  row() { # label: a table row from the last wrk run
    rows+=("| $1 | $W_RPS | $(us_to_ms "$W_P50") ms | $(us_to_ms "$W_P99") ms | $W_ERRORS | $(rss_mb "$SERVER_PID") MB |")
    cmds+=("$LAST_CMD")
  }
  wrk_run "$url" 16 "$DURATION" "$THREADS" "${vars[@]}"
  row "16 connections measuring, nothing else"
  local mode hold opened held after
  for mode in idle sse; do
    node "$BENCH_DIR/faults/hold.mjs" --port "$port" --count 2000 --mode "$mode" >"$OUT/connections/hold-$mode.log" 2>&1 &
    hold=$!
    BENCH_PIDS+=("$hold")
    for _ in $(seq 1 600); do grep -q 'HOLD opened' "$OUT/connections/hold-$mode.log" && break; sleep 0.1; done
    opened=$(grep 'HOLD opened' "$OUT/connections/hold-$mode.log" | sed 's/HOLD //' || true)
    held=$(ss -Htn state established "( sport = :$port )" | wc -l)
    wrk_run "$url" 16 "$DURATION" "$THREADS" "${vars[@]}"
    kill -TERM "$hold"; wait "$hold" 2>/dev/null || true; forget_pid "$hold"
    after=$(grep 'still_open' "$OUT/connections/hold-$mode.log" | sed 's/HOLD //' || true)
    row "… beside 2,000 held $mode connections (${opened:-did not finish opening}; $held established at the server while measuring; ${after:-?} at the end)"
    cmds+=("node bench/faults/hold.mjs --port $port --count 2000 --mode $mode")
  done
  wrk_run "$url" 2000 "$DURATION" "$THREADS" "${vars[@]}"
  row "2,000 connections all sending requests"
  cat >>"$SECTION" <<EOF

### Fault: 2,000 concurrent connections held open (\`ulimit -n\` $limit), cache-hit execute

| load | req/s | p50 | p99 | errors | server RSS |
|---|---|---|---|---|---|
$(printf '%s\n' "${rows[@]}")

Blocked-thread warnings in the server log: $(blocked_warnings "$OUT/logs/connections.log"). The
server keeps idle connections open without limit (Vert.x's default idle timeout is none), so
each costs a file descriptor and some memory until the client goes.

$(commands_block "${cmds[@]}")
EOF
  stop_pid "$SERVER_PID"
}

# Scenario large-answers: what large answers cost the calls next to them. A small cached execute
# (`get-customer`, 1 connection) is timed alone, then while other connections fetch a cached
# 3.4 MB answer (`big-rows`: 20,000 rows of ~170 bytes) over and over; the small call's latency
# while big ones are encoded shows how long they hold the event loops. SQLite, cache on for every
# tool, so neither call does database work after the first. Sourced by bench/run.sh.

# The quickstart with every tool cached, plus big-rows.
write_large_project() {
  local dir=$1
  write_cached_project "$dir"
  mkdir -p "$dir/app/tools/big-rows"
  cat >"$dir/app/tools/big-rows/config.terse" <<'EOT'
description: 'Twenty thousand rows of about 170 bytes each: a 3.4 MB answer'
use: shop
row_limit: 20000
statement: |
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
  SELECT i AS id, printf('%0150d', i) AS pad FROM n
EOT
}

scenario_large_answers() {
  local dir=$OUT/projects/large port=$((PORT + 9)) big_conns=${BENCH_BIG_CONNECTIONS:-2}
  write_large_project "$dir"
  mkdir -p "$OUT/large"
  execute_body get-customer '{"customer_id":__ID__}' >"$OUT/large/small.json"
  execute_body big-rows '{}' >"$OUT/large/big.json"
  start_server large-answers "$dir" "$port" || die "the large-answers server did not start"
  local url=http://127.0.0.1:$port/mcp
  local small_vars=(WRK_MODE=ids WRK_BODY="$OUT/large/small.json" WRK_MAX_ID=10)
  local big_vars=(WRK_MODE=fixed WRK_BODY="$OUT/large/big.json")
  local big_bytes
  big_bytes=$(curl -s "$url" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    -d @"$OUT/large/big.json" | wc -c)
  log "warm-up ${WARMUP} s (big answers of $big_bytes bytes)"
  local a50=() a99=() amax=() l50=() l99=() lmax=() brps=() errors=0 cmds=() i big_pid big_line
  env "${big_vars[@]}" wrk -t1 -c"$big_conns" -d"${WARMUP}s" --timeout 10s -s "$BENCH_DIR/wrk/mcp.lua" "$url" >/dev/null &
  big_pid=$!
  wrk_run "$url" 1 "$WARMUP" 1 "${small_vars[@]}"
  wait "$big_pid"
  for i in $(seq 1 "$RUNS"); do
    wrk_run "$url" 1 "$DURATION" 1 "${small_vars[@]}"
    a50+=("$W_P50"); a99+=("$W_P99"); amax+=("$W_MAX"); errors=$(( errors + W_ERRORS )); cmds+=("$LAST_CMD")
    # the big calls run a little longer than the small ones, so the small ones are timed under load throughout
    env "${big_vars[@]}" wrk -t1 -c"$big_conns" -d"$(( DURATION + 2 ))s" --timeout 10s -s "$BENCH_DIR/wrk/mcp.lua" "$url" \
      >"$OUT/large/big-$i.txt" &
    big_pid=$!
    sleep 1
    wrk_run "$url" 1 "$DURATION" 1 "${small_vars[@]}"
    l50+=("$W_P50"); l99+=("$W_P99"); lmax+=("$W_MAX"); errors=$(( errors + W_ERRORS )); cmds+=("$LAST_CMD")
    wait "$big_pid"
    big_line=$(grep '^BENCH ' "$OUT/large/big-$i.txt")
    brps+=("$(echo "$big_line" | tr ' ' '\n' | awk -F= '$1 == "rps" {print $2}')")
    errors=$(( errors + $(echo "$big_line" | tr ' ' '\n' | awk -F= '$1 ~ /^(non2xx|socket_errors|rpc_errors)$/ {s += $2} END {print s + 0}') ))
    cmds+=("WRK_MODE=fixed WRK_BODY=${OUT#"$ROOT"/}/large/big.json wrk -t1 -c$big_conns -d$(( DURATION + 2 ))s --timeout 10s -s bench/wrk/mcp.lua $url")
    log "run $i: small alone p99 $(us_to_ms "${a99[-1]}") ms; next to big answers p99 $(us_to_ms "${l99[-1]}") ms, max $(us_to_ms "${lmax[-1]}") ms; big ${brps[-1]} req/s"
  done
  cat >>"$SECTION" <<EOF

### A small cached call next to large answers ($big_bytes-byte \`big-rows\`, $big_conns connections), 1 connection

| small call (\`get-customer\`, cached) | p50 | p99 | max | p99 per run | max per run |
|---|---|---|---|---|---|
| alone | $(us_to_ms "$(median "${a50[@]}")") ms | $(us_to_ms "$(median "${a99[@]}")") ms | $(us_to_ms "$(median "${amax[@]}")") ms | $(for v in "${a99[@]}"; do printf '%s ' "$(us_to_ms "$v")"; done)| $(for v in "${amax[@]}"; do printf '%s ' "$(us_to_ms "$v")"; done)|
| while big answers are made | $(us_to_ms "$(median "${l50[@]}")") ms | $(us_to_ms "$(median "${l99[@]}")") ms | $(us_to_ms "$(median "${lmax[@]}")") ms | $(for v in "${l99[@]}"; do printf '%s ' "$(us_to_ms "$v")"; done)| $(for v in "${lmax[@]}"; do printf '%s ' "$(us_to_ms "$v")"; done)|

Big answers: $(median "${brps[@]}") req/s (per run: ${brps[*]}); errors: $errors; load average after: $(cut -d' ' -f1-3 /proc/loadavg).

$(commands_block "${cmds[@]}")
EOF
  stop_pid "$SERVER_PID"
}

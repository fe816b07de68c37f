# Scenario structured: what structured results cost. The same execute calls on the quickstart
# (SQLite), alternating a client at 2025-03-26 (no MCP-Protocol-Version header: the text block
# only) and one at 2025-06-18 (the text block plus structuredContent holding the same rows).
# Sourced by bench/run.sh.

# structured_pair NAME TITLE PORT BODY MODE MAX_ID: runs, alternating, the body without and with
# the version header; appends the section.
structured_pair() {
  local name=$1 title=$2 port=$3 body=$4 mode=$5 max_id=$6
  local url=http://127.0.0.1:$port/mcp
  local text_vars=(WRK_MODE="$mode" WRK_BODY="$body" WRK_MAX_ID="$max_id")
  local structured_vars=("${text_vars[@]}" WRK_VERSION=2025-06-18)
  log "warm-up ${WARMUP} s"
  wrk_run "$url" "$CONNECTIONS" "$WARMUP" "$THREADS" "${structured_vars[@]}"
  (( W_ERRORS == 0 )) || die "warm-up had $W_ERRORS errors; see $OUT/logs/$name.log"
  local tr=() t50=() t99=() tc=() sr=() s50=() s99=() sc=() errors=0 cmds=() i before after
  for i in $(seq 1 "$RUNS"); do
    before=$(cpu_ticks "$SERVER_PID")
    wrk_run "$url" "$CONNECTIONS" "$DURATION" "$THREADS" "${text_vars[@]}"
    after=$(cpu_ticks "$SERVER_PID")
    tr+=("$W_RPS"); t50+=("$W_P50"); t99+=("$W_P99"); tc+=("$(cpu_us_per_call "$before" "$after" "$W_REQUESTS")")
    errors=$(( errors + W_ERRORS )); cmds+=("$LAST_CMD")
    before=$(cpu_ticks "$SERVER_PID")
    wrk_run "$url" "$CONNECTIONS" "$DURATION" "$THREADS" "${structured_vars[@]}"
    after=$(cpu_ticks "$SERVER_PID")
    sr+=("$W_RPS"); s50+=("$W_P50"); s99+=("$W_P99"); sc+=("$(cpu_us_per_call "$before" "$after" "$W_REQUESTS")")
    errors=$(( errors + W_ERRORS )); cmds+=("$LAST_CMD")
    log "run $i: text ${tr[-1]} req/s ${tc[-1]} µs CPU; structured ${sr[-1]} req/s ${sc[-1]} µs CPU"
  done
  local sample text_bytes structured_bytes
  sample=$(sed "s/__ID__/1/" "$body" | head -n 1)
  text_bytes=$(curl -s "$url" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    -d "$sample" | wc -c)
  structured_bytes=$(curl -s "$url" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    -H 'MCP-Protocol-Version: 2025-06-18' -d "$sample" | wc -c)
  local m_tr m_sr m_tc m_sc
  m_tr=$(median "${tr[@]}"); m_sr=$(median "${sr[@]}"); m_tc=$(median "${tc[@]}"); m_sc=$(median "${sc[@]}")
  cat >>"$SECTION" <<EOF

### $title, $CONNECTIONS connections

| client | req/s | p50 | p99 | server CPU per call | response | req/s per run | CPU µs per run |
|---|---|---|---|---|---|---|---|
| 2025-03-26: text block | $m_tr | $(us_to_ms "$(median "${t50[@]}")") ms | $(us_to_ms "$(median "${t99[@]}")") ms | $m_tc µs | $text_bytes B | ${tr[*]} | ${tc[*]} |
| 2025-06-18: text + structuredContent | $m_sr | $(us_to_ms "$(median "${s50[@]}")") ms | $(us_to_ms "$(median "${s99[@]}")") ms | $m_sc µs | $structured_bytes B | ${sr[*]} | ${sc[*]} |

Structured / text: **$(ratio "$m_sr" "$m_tr")** of the throughput at **$(ratio "$m_sc" "$m_tc")** times the CPU per call;
errors: $errors.

$(commands_block "${cmds[@]}")
EOF
}

scenario_structured() {
  local dir=$OUT/projects/structured port=$((PORT + 8))
  rm -rf "$dir"
  mkdir -p "$(dirname "$dir")" "$OUT/structured"
  cp -r "$ROOT/tools-examples/quickstart" "$dir"
  rm -rf "$dir/data"
  execute_body get-customer '{"customer_id":__ID__}' >"$OUT/structured/one-row.json"
  execute_body list-orders '{"status":"delivered","limit":50}' >"$OUT/structured/rows.json"
  start_server structured "$dir" "$port" || die "the structured server did not start"
  structured_pair structured "One row: execute \`get-customer\` (SQLite, ids 1–5)" "$port" \
    "$OUT/structured/one-row.json" ids 5
  structured_pair structured "Several rows: execute \`list-orders\` (SQLite, every delivered order)" "$port" \
    "$OUT/structured/rows.json" fixed 1
  stop_pid "$SERVER_PID"
}

# Scenario search: latency of the search meta-tool over a generated catalog of 10,000 tools
# (bench/gen/catalog.mjs, on SQLite), over HTTP with one connection (pure latency) and with 16
# (latency under load), and in-process on the index alone (bench/java/SearchLatency.java).
# Sourced by bench/run.sh.

SEARCH_TOOLS=${BENCH_SEARCH_TOOLS:-10000}

# generate_catalog COUNT: a catalog project in $OUT/projects/catalog-COUNT (kept between runs:
# generation is reproducible, and its SQLite file is created on the first start).
generate_catalog() {
  local count=$1 dir=$OUT/projects/catalog-$1
  if [[ ! -f $dir/queries.jsonl || $BENCH_DIR/gen/catalog.mjs -nt $dir/queries.jsonl ]]; then
    node "$BENCH_DIR/gen/catalog.mjs" "$dir" "$count" >&2
  fi
  echo "$dir"
}

scenario_search() {
  local dir port=$((PORT + 3)) url
  dir=$(generate_catalog "$SEARCH_TOOLS")
  start_server search "$dir" "$port" || die "the catalog server did not start"
  url=http://127.0.0.1:$port/mcp
  local ready=$SERVER_READY_MS vars=(WRK_MODE=lines WRK_BODY="$dir/queries.jsonl")
  log "warm-up ${WARMUP} s"
  wrk_run "$url" 16 "$WARMUP" "$THREADS" "${vars[@]}"
  (( W_ERRORS == 0 )) || die "warm-up had $W_ERRORS errors; see $OUT/logs/search.log"
  local one=() one50=() one99=() load=() load50=() load99=() errors=0 cmds=() i
  for i in $(seq 1 "$RUNS"); do
    wrk_run "$url" 1 "$DURATION" 1 "${vars[@]}"
    one+=("$W_RPS"); one50+=("$W_P50"); one99+=("$W_P99"); errors=$(( errors + W_ERRORS )); cmds+=("$LAST_CMD")
    wrk_run "$url" 16 "$DURATION" "$THREADS" "${vars[@]}"
    load+=("$W_RPS"); load50+=("$W_P50"); load99+=("$W_P99"); errors=$(( errors + W_ERRORS )); cmds+=("$LAST_CMD")
    log "run $i: 1 connection p99 ${one99[-1]} us, 16 connections p99 ${load99[-1]} us"
  done
  local rss hwm
  rss=$(rss_mb "$SERVER_PID"); hwm=$(hwm_mb "$SERVER_PID")
  stop_pid "$SERVER_PID"

  log "in-process: bench/java/SearchLatency.java (${DURATION} s warm-up, ${DURATION} s measured per mode)"
  local line p50 p99 max jp50 jp99 build cpu inproc=()
  for i in $(seq 1 "$RUNS"); do
    line=$(java -cp "$JAR" "$BENCH_DIR/java/SearchLatency.java" "$dir" "$dir/queries.jsonl" "$DURATION" 2>/dev/null \
      | grep '^SEARCH ') || die "SearchLatency failed"
    inproc+=("$line")
  done
  field() { printf '%s\n' "${inproc[@]}" | sed "s/.* $1=\([0-9.]*\).*/\1/"; }
  p50=$(median $(field p50_us)); p99=$(median $(field p99_us)); max=$(median $(field max_us))
  jp50=$(median $(field json_p50_us)); jp99=$(median $(field json_p99_us)); build=$(median $(field build_ms))
  cpu=$(median $(field cpu_us))
  local h99 l99
  h99=$(us_to_ms "$(median "${one99[@]}")"); l99=$(us_to_ms "$(median "${load99[@]}")")
  cat >>"$SECTION" <<EOF

### search over $SEARCH_TOOLS generated tools ($(wc -l <"$dir/queries.jsonl") queries in turn)

| | p50 | p99 | req/s | p99 per run |
|---|---|---|---|---|
| HTTP, 1 connection | $(us_to_ms "$(median "${one50[@]}")") ms | $h99 ms | $(median "${one[@]}") | $(printf '%s ' "${one99[@]}")µs |
| HTTP, 16 connections | $(us_to_ms "$(median "${load50[@]}")") ms | $l99 ms | $(median "${load[@]}") | $(printf '%s ' "${load99[@]}")µs |
| in-process, index only (1 thread) | $(us_to_ms "$p50") ms | $(us_to_ms "$p99") ms | | max $(us_to_ms "$max") ms; CPU $(us_to_ms "$cpu") ms a search |
| in-process, index + hits as JSON text | $(us_to_ms "$jp50") ms | $(us_to_ms "$jp99") ms | | |

p99 over HTTP with 1 connection: **$h99 ms** (target ≤ 10 ms: $(meets "$h99" "<=" 10)); with 16
connections: $l99 ms ($(meets "$l99" "<=" 10)). Errors: $errors. Index built in $build ms;
start-up to ready with $SEARCH_TOOLS tools: $ready ms; server RSS after load: $rss MB (peak $hwm MB).

$(commands_block "${cmds[@]}" "java -cp target/hyperterse.jar bench/java/SearchLatency.java ${dir#"$ROOT"/} ${dir#"$ROOT"/}/queries.jsonl $DURATION")
EOF
}

# Scenario startup: time from starting the process to the first 200 of GET /heartbeat (polled
# every 10 ms), for the quickstart and for a generated catalog of 1,000 tools; RSS when ready and
# after a short load. Each project is started once beforehand (creating its SQLite file, warming
# the page cache), then BENCH_STARTUP_RUNS times. Sourced by bench/run.sh.

STARTUP_RUNS=${BENCH_STARTUP_RUNS:-5}

# measure_startup NAME DIR: sets S_MEDIAN S_MIN S_MAX S_RUNS (ms), S_RSS (MB at ready) and
# S_LOADED (RSS after 5 s of load on the search tool, MB).
measure_startup() {
  local name=$1 dir=$2 port=$((PORT + 4)) times=() rss=() i
  start_server "$name-first" "$dir" "$port" || die "$name did not start"
  stop_pid "$SERVER_PID"
  for i in $(seq 1 "$STARTUP_RUNS"); do
    start_server "$name" "$dir" "$port" || die "$name did not start"
    times+=("$SERVER_READY_MS"); rss+=("$(rss_mb "$SERVER_PID")")
    if (( i == STARTUP_RUNS )); then
      printf '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":"orders by status"}}}\n' \
        >"$OUT/startup/search.json"
      wrk_run "http://127.0.0.1:$port/mcp" 16 5 "$THREADS" WRK_MODE=fixed WRK_BODY="$OUT/startup/search.json"
      S_LOADED=$(rss_mb "$SERVER_PID")
    fi
    stop_pid "$SERVER_PID"
  done
  S_RUNS="${times[*]}"
  S_MEDIAN=$(median "${times[@]}")
  S_MIN=$(printf '%s\n' "${times[@]}" | sort -n | head -n 1)
  S_MAX=$(printf '%s\n' "${times[@]}" | sort -n | tail -n 1)
  S_RSS=$(median "${rss[@]}")
}

scenario_startup() {
  mkdir -p "$OUT/startup"
  local quick=$OUT/projects/quickstart catalog rows=()
  rm -rf "$quick"; mkdir -p "$OUT/projects"; cp -r "$ROOT/tools-examples/quickstart" "$quick"; rm -rf "$quick/data"
  catalog=$(generate_catalog 1000)
  measure_startup quickstart "$quick"
  rows+=("| quickstart (4 tools, SQLite) | $S_MEDIAN ms | $S_MIN–$S_MAX ms | $S_RUNS | $S_RSS MB | $S_LOADED MB |")
  local q_median=$S_MEDIAN q_loaded=$S_LOADED
  measure_startup catalog-1000 "$catalog"
  rows+=("| 1,000 generated tools (SQLite) | $S_MEDIAN ms | $S_MIN–$S_MAX ms | $S_RUNS | $S_RSS MB | $S_LOADED MB |")
  cat >>"$SECTION" <<EOF

### Start-up to ready, and RSS ($STARTUP_RUNS starts each, after one unmeasured start)

| project | median | range | runs (ms) | RSS at ready | RSS after 5 s of search load |
|---|---|---|---|---|---|
$(printf '%s\n' "${rows[@]}")

Ready = the first 200 of GET /heartbeat after the process was started (curl every 10 ms, so
figures are up to ~20 ms late), with the server's default JVM flags. RSS target ≤ 512 MB:
quickstart $(meets "$q_loaded" "<=" 512), 1,000 tools $(meets "$S_LOADED" "<=" 512) (the other
scenarios report their own RSS after load).

\`\`\`
java -jar target/hyperterse.jar start ${quick#"$ROOT"/} --port $((PORT + 4)) --log-level 2   # then curl /heartbeat every 10 ms
java -jar target/hyperterse.jar start ${catalog#"$ROOT"/} --port $((PORT + 4)) --log-level 2
grep VmRSS /proc/<pid>/status
\`\`\`
EOF
}

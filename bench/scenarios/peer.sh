# Scenario peer: the same trivial tool on the official MCP TypeScript SDK (bench/peer, stateless
# Streamable HTTP, JSON responses, one Node process) against ours. Like with like: both answer a
# stateless tools/call POST with one JSON response holding the same row text. Theirs runs a
# handler that returns a constant row; ours is execute of `get-customer` answered from the result
# cache (SQLite quickstart, cache on), so no database work on either side, while ours still
# resolves the tool, validates and coerces the input, looks up the cache and wraps the result.
# Sourced by bench/run.sh.

scenario_peer() {
  command -v node >/dev/null || die "node is needed"
  local peer=$BENCH_DIR/peer port=$((PORT + 5)) peer_port=$((PORT + 6))
  if [[ ! -d $peer/node_modules/@modelcontextprotocol/sdk ]]; then
    log "installing the peer's dependencies (npm ci in bench/peer)"
    (cd "$peer" && npm ci --no-audit --no-fund --silent) >&2 || die "npm ci failed in bench/peer"
  fi
  local sdk_version
  sdk_version=$(node -p "require('$peer/node_modules/@modelcontextprotocol/sdk/package.json').version")
  port_free "$peer_port" || die "port $peer_port is in use"
  node "$peer/server.mjs" "$peer_port" >"$OUT/logs/peer-node.log" 2>&1 &
  local peer_pid=$!
  BENCH_PIDS+=("$peer_pid")
  wait_ready "http://127.0.0.1:$peer_port/heartbeat" "$(now_ms)" "$peer_pid" >/dev/null || die "the peer did not start"

  local dir=$OUT/projects/cached
  write_cached_project "$dir"
  mkdir -p "$OUT/peer"
  execute_body get-customer '{"customer_id":1}' >"$OUT/peer/ours.json"
  printf '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get-customer","arguments":{"customer_id":1}}}\n' \
    >"$OUT/peer/theirs.json"
  start_server peer "$dir" "$port" || die "the server did not start"
  local ours_url=http://127.0.0.1:$port/mcp theirs_url=http://127.0.0.1:$peer_port/mcp
  local ours_vars=(WRK_MODE=fixed WRK_BODY="$OUT/peer/ours.json") theirs_vars=(WRK_MODE=fixed WRK_BODY="$OUT/peer/theirs.json")
  log "warm-up ${WARMUP} s each"
  wrk_run "$ours_url" "$CONNECTIONS" "$WARMUP" "$THREADS" "${ours_vars[@]}"
  (( W_ERRORS == 0 )) || die "warm-up had $W_ERRORS errors (ours)"
  wrk_run "$theirs_url" "$CONNECTIONS" "$WARMUP" "$THREADS" "${theirs_vars[@]}"
  (( W_ERRORS == 0 )) || log "the peer's warm-up had $W_ERRORS errors (timeouts while Node warms up)"
  local ours=() ours50=() ours99=() theirs=() theirs50=() theirs99=() errors=0 cmds=() i
  for i in $(seq 1 "$RUNS"); do
    wrk_run "$theirs_url" "$CONNECTIONS" "$DURATION" "$THREADS" "${theirs_vars[@]}"
    theirs+=("$W_RPS"); theirs50+=("$W_P50"); theirs99+=("$W_P99"); errors=$(( errors + W_ERRORS )); cmds+=("$LAST_CMD")
    wrk_run "$ours_url" "$CONNECTIONS" "$DURATION" "$THREADS" "${ours_vars[@]}"
    ours+=("$W_RPS"); ours50+=("$W_P50"); ours99+=("$W_P99"); errors=$(( errors + W_ERRORS )); cmds+=("$LAST_CMD")
    log "run $i: peer ${theirs[-1]} req/s, ours ${ours[-1]} req/s"
  done
  local m_ours m_theirs r
  m_ours=$(median "${ours[@]}"); m_theirs=$(median "${theirs[@]}"); r=$(ratio "$m_ours" "$m_theirs")
  cat >>"$SECTION" <<EOT

### Peer: official MCP TypeScript SDK $sdk_version (Node $(node --version)) vs ours, $CONNECTIONS connections

| | req/s | p50 | p99 | req/s per run | RSS after load |
|---|---|---|---|---|---|
| SDK \`McpServer\`, stateless \`StreamableHTTPServerTransport\` (JSON responses), tool \`get-customer\` returning a constant row | $m_theirs | $(us_to_ms "$(median "${theirs50[@]}")") ms | $(us_to_ms "$(median "${theirs99[@]}")") ms | ${theirs[*]} | $(rss_mb "$peer_pid") MB |
| ours, execute \`get-customer\` answered from the result cache | $m_ours | $(us_to_ms "$(median "${ours50[@]}")") ms | $(us_to_ms "$(median "${ours99[@]}")") ms | ${ours[*]} | $(rss_mb "$SERVER_PID") MB |

Ratio ours / SDK: **$r** (target ≥ 3: $(meets "$r" ">=" 3)); errors: $errors. Both answer a stateless
POST with one JSON-RPC response carrying the same row as text; the SDK server is its documented
stateless pattern (a new \`McpServer\` and transport per request) on plain \`node:http\`.

$(commands_block "node bench/peer/server.mjs $peer_port" "${cmds[@]}")
EOT
  stop_pid "$SERVER_PID"
  stop_pid "$peer_pid"
}

#!/usr/bin/env bash
# Two builds (or two settings of one build) side by side: both servers up at once, each warmed up,
# then wrk runs alternating between them, round after round, so the shared machine's load moves
# both alike. Reports per server the median req/s and the median server CPU per call
# (utime+stime of the process from /proc/PID/stat over each run, divided by its requests), and
# the ratios B / A, then each side's RSS after the runs (and its peak). For before/after figures of
# a change to the per-call path, or of a JVM flag.
#
#   bench/ab.sh A.jar B.jar [pg|cached|heartbeat|redis]...      (default: pg cached heartbeat)
#
# A side is "JAR" or "JAR@instances" (server.instances for that side, e.g. target/hyperterse.jar@1).
# BENCH_ARGS_A and BENCH_ARGS_B add arguments to that side's `start` (e.g. BENCH_ARGS_B=--console);
# BENCH_JAVA_OPTS_A and BENCH_JAVA_OPTS_B add JVM flags to that side (after BENCH_JAVA_OPTS), so
# one jar can run against itself with other flags (e.g. BENCH_JAVA_OPTS_B=-XX:TrimNativeHeapInterval=5000).
# Paths as in bench/profile.sh: pg (PostgreSQL point select, cache off), cached (result-cache hits
# on ids 1-10), heartbeat (GET /heartbeat), redis (a Redis GET of one of 1,000 keys, cache off;
# asked for, the project gets a redis adapter on BENCH_REDIS_URL [redis://127.0.0.1:6379/0]).
# BENCH_TOGETHER=1 loads both servers at once in each round (half the connections and one wrk thread
# each) instead of one after the other: both then run on the same machine state, which on a noisy
# machine gives a steadier CPU-per-call ratio for a small change (req/s are each server's share).
# Environment (defaults in brackets): BENCH_RUNS [5] rounds  BENCH_DURATION [8] seconds per run
#   BENCH_WARMUP [15] seconds per server and path  BENCH_CONNECTIONS [32]  BENCH_THREADS [2]
#   BENCH_PORT [19340] A; B gets the next  BENCH_JAVA [JDK 25 under /usr/lib/jvm when present]
#   BENCH_JAVA_OPTS [] JVM flags for both  BENCH_PG_URL [postgres://postgres@127.0.0.1:5432/hyperterse_bench?sslmode=disable]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source "$BENCH_DIR/scenarios/pg.sh" # ensure_pg_data, write_pg_project, execute_body

[[ $# -ge 2 ]] || die "usage: bench/ab.sh A.jar[@instances] B.jar[@instances] [pg|cached|heartbeat]..."
SIDE_A=$1 SIDE_B=$2
shift 2
paths=("$@")
[[ ${#paths[@]} -gt 0 ]] || paths=(pg cached heartbeat)
RUNS=${BENCH_RUNS:-5}
DURATION=${BENCH_DURATION:-8}
WARMUP=${BENCH_WARMUP:-15}
CONNECTIONS=${BENCH_CONNECTIONS:-32}
THREADS=${BENCH_THREADS:-2}
PORT=${BENCH_PORT:-19340}
JAVA_BIN=$(bench_java)
command -v wrk >/dev/null || die "wrk is needed"

trap cleanup EXIT INT TERM
WORK=$OUT/ab
mkdir -p "$WORK" "$OUT/logs"
ensure_pg_data
execute_body get-customer '{"customer_id":__ID__}' >"$WORK/pg.json"
execute_body get-customer-cached '{"customer_id":__ID__}' >"$WORK/cached.json"
REDIS_URL=${BENCH_REDIS_URL:-redis://127.0.0.1:6379/0}
with_redis=false
if [[ " ${paths[*]} " == *" redis "* ]]; then
  with_redis=true
  command -v redis-cli >/dev/null || die "the redis path needs redis-cli"
  for i in $(seq 1 1000); do echo "SET bench:value:$i value-$i"; done | redis-cli -u "$REDIS_URL" >/dev/null
  execute_body get-value '{"customer_id":__ID__}' >"$WORK/redis.json"
fi

# add_redis_tool DIR: the redis path's adapter and tool, beside the pg project's
add_redis_tool() {
  mkdir -p "$1/app/tools/get-value"
  printf "connector: redis\nconnection_string: '{{ env.BENCH_REDIS_URL }}'\n" >"$1/app/adapters/kv.terse"
  cat >"$1/app/tools/get-value/config.terse" <<EOF
description: 'Get one value by key'
use: kv
statement: GET bench:value:{{ inputs.customer_id }}
inputs:
  customer_id: { type: int, description: 'Key number' }
EOF
}

# side_args NAME: the extra start arguments of side a or b
side_args() { if [[ $1 == a ]]; then echo "${BENCH_ARGS_A:-}"; else echo "${BENCH_ARGS_B:-}"; fi; }
# side_java_opts NAME: the extra JVM flags of side a or b
side_java_opts() { if [[ $1 == a ]]; then echo "${BENCH_JAVA_OPTS_A:-}"; else echo "${BENCH_JAVA_OPTS_B:-}"; fi; }

# start_side NAME SPEC PORT: sets SIDE_PID
start_side() {
  local name=$1 spec=$2 port=$3 jar instances project=$WORK/project-$1
  jar=${spec%@*}
  instances=$([[ $spec == *@* ]] && echo "${spec##*@}" || true)
  [[ -f $jar ]] || die "no jar at $jar"
  write_pg_project "$project" "${BENCH_PG_POOL:-10}"
  ! $with_redis || add_redis_tool "$project"
  [[ -z $instances ]] || printf 'server:\n  instances: %s\n' "$instances" >>"$project/.hyperterse"
  port_free "$port" || die "port $port is in use (set BENCH_PORT)"
  # shellcheck disable=SC2086
  BENCH_PG_URL=$PG_URL BENCH_REDIS_URL=$REDIS_URL "$JAVA_BIN" ${BENCH_JAVA_OPTS:-} $(side_java_opts "$name") -jar "$jar" start "$project" --port "$port" --log-level 2 $(side_args "$name") \
    >"$OUT/logs/ab-$name.log" 2>&1 &
  SIDE_PID=$!
  BENCH_PIDS+=("$SIDE_PID")
  wait_ready "http://127.0.0.1:$port/heartbeat" "$(now_ms)" "$SIDE_PID" >/dev/null \
    || die "server $name did not start; see $OUT/logs/ab-$name.log"
}

target() { # target PATH PORT: sets URL and VARS
  case $1 in
    pg) URL=http://127.0.0.1:$2/mcp; VARS=(WRK_MODE=ids WRK_BODY="$WORK/pg.json" WRK_MAX_ID=$PG_ROWS) ;;
    cached) URL=http://127.0.0.1:$2/mcp; VARS=(WRK_MODE=ids WRK_BODY="$WORK/cached.json" WRK_MAX_ID=10) ;;
    heartbeat) URL=http://127.0.0.1:$2/heartbeat; VARS=(WRK_MODE=get) ;;
    redis) URL=http://127.0.0.1:$2/mcp; VARS=(WRK_MODE=ids WRK_BODY="$WORK/redis.json" WRK_MAX_ID=1000) ;;
    *) die "unknown path '$1' (pg, cached, heartbeat, redis)" ;;
  esac
}

start_side a "$SIDE_A" "$PORT"; PID_A=$SIDE_PID
start_side b "$SIDE_B" "$((PORT + 1))"; PID_B=$SIDE_PID
log "A: $SIDE_A (pid $PID_A, port $PORT); B: $SIDE_B (pid $PID_B, port $((PORT + 1))); load $(cut -d' ' -f1-3 /proc/loadavg)"

declare -A RPS CPU
for path in "${paths[@]}"; do
  for side in a b; do
    port=$PORT; [[ $side == b ]] && port=$((PORT + 1))
    target "$path" "$port"
    wrk_run "$URL" "$CONNECTIONS" "$WARMUP" "$THREADS" "${VARS[@]}"
    (( W_ERRORS == 0 )) || die "$side $path: warm-up had $W_ERRORS errors; see $OUT/logs/ab-$side.log"
  done
done
# cpu_per_call TICKS REQUESTS: a server's CPU µs per call from its CPU ticks over a run
cpu_per_call() { awk -v d="$1" -v hz="$CLK_TCK" -v n="$2" 'BEGIN {printf "%.1f\n", d * 1e6 / hz / n}'; }

together=${BENCH_TOGETHER:-}
for i in $(seq 1 "$RUNS"); do
  for path in "${paths[@]}"; do
    if [[ -n $together ]]; then
      half=$(( (CONNECTIONS + 1) / 2 ))
      target "$path" "$PORT"; url_a=$URL
      target "$path" "$((PORT + 1))"; url_b=$URL
      before_a=$(cpu_ticks "$PID_A"); before_b=$(cpu_ticks "$PID_B")
      wrk_line "$url_a" "$half" "$DURATION" 1 "${VARS[@]}" >"$WORK/together-a.txt" &
      wrk_a=$!
      wrk_line "$url_b" "$half" "$DURATION" 1 "${VARS[@]}" >"$WORK/together-b.txt"
      wait "$wrk_a"
      after_a=$(cpu_ticks "$PID_A"); after_b=$(cpu_ticks "$PID_B")
      for side in a b; do
        line=$(cat "$WORK/together-$side.txt")
        [[ -n $line ]] || die "wrk against $side gave no result"
        wrk_parse "$line"
        if [[ $side == a ]]; then ticks=$((after_a - before_a)); else ticks=$((after_b - before_b)); fi
        RPS[$side.$path]+=" $W_RPS"; CPU[$side.$path]+=" $(cpu_per_call "$ticks" "$W_REQUESTS")"
        (( W_ERRORS == 0 )) || log "$side $path: $W_ERRORS errors"
      done
      continue
    fi
    # A first in odd rounds, B first in even ones
    order=(a b); (( i % 2 == 0 )) && order=(b a)
    for side in "${order[@]}"; do
      port=$PORT pid=$PID_A; [[ $side == b ]] && { port=$((PORT + 1)); pid=$PID_B; }
      target "$path" "$port"
      before=$(cpu_ticks "$pid")
      wrk_run "$URL" "$CONNECTIONS" "$DURATION" "$THREADS" "${VARS[@]}"
      after=$(cpu_ticks "$pid")
      RPS[$side.$path]+=" $W_RPS"; CPU[$side.$path]+=" $(cpu_per_call $((after - before)) "$W_REQUESTS")"
      (( W_ERRORS == 0 )) || log "$side $path: $W_ERRORS errors"
    done
  done
  log "round $i done"
done

echo "RSS after the runs: A $(rss_mb "$PID_A") MB (peak $(hwm_mb "$PID_A") MB), B $(rss_mb "$PID_B") MB (peak $(hwm_mb "$PID_B") MB)"
echo "A = $SIDE_A ${BENCH_JAVA_OPTS_A:-} ${BENCH_ARGS_A:-}; B = $SIDE_B ${BENCH_JAVA_OPTS_B:-} ${BENCH_ARGS_B:-}; ${BENCH_JAVA_OPTS:+both: $BENCH_JAVA_OPTS; }$RUNS rounds of ${DURATION} s, $CONNECTIONS connections${together:+ (both servers loaded at once, half each)}; load $(cut -d' ' -f1-3 /proc/loadavg) at the end"
printf '| path | A req/s | B req/s | B/A | A CPU µs/call | B CPU µs/call | B/A | A CPU per run | B CPU per run |\n|---|---|---|---|---|---|---|---|---|\n'
for path in "${paths[@]}"; do
  # shellcheck disable=SC2086
  ra=$(median ${RPS[a.$path]}); rb=$(median ${RPS[b.$path]}); ca=$(median ${CPU[a.$path]}); cb=$(median ${CPU[b.$path]})
  echo "| $path | $ra | $rb | $(ratio "$rb" "$ra") | $ca | $cb | $(ratio "$cb" "$ca") |${CPU[a.$path]} |${CPU[b.$path]} |"
done

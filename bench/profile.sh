#!/usr/bin/env bash
# A CPU profile of one call path under load, from JDK Flight Recorder (no agent to install):
# the server is started, warmed up, then recorded (JFR's `profile` settings, execution samples
# every 10 ms per thread, stacks up to 256 frames) while wrk drives it; the samples become top-frame
# tables (printed), the bytes allocated per call, and collapsed stacks (the input of any flame graph tool) via bench/jfr_collapse.py.
# The server's CPU per call over the recorded run is printed too.
#
#   bench/profile.sh [pg|cached|heartbeat]...     (default: pg cached)
#
#   pg         execute `get-customer`: a PostgreSQL point select by a random id of 100,000 rows
#   cached     execute `get-customer-cached` on ids 1–10: result-cache hits after the first calls
#   heartbeat  GET /heartbeat: the HTTP stack alone
#
# Files: bench/out/profile/<path>.jfr, <path>.collapsed.txt, <path>.txt (the tables).
# Environment (defaults in brackets): BENCH_DURATION [20] recorded seconds  BENCH_WARMUP [15]
#   BENCH_CONNECTIONS [32]  BENCH_THREADS [2]  BENCH_PORT [19330]  BENCH_INSTANCES [] server.instances
#   BENCH_JAVA [JDK 25 under /usr/lib/jvm when present, else java]  BENCH_JAVA_OPTS [] JVM flags
#   BENCH_PG_URL [postgres://postgres@127.0.0.1:5432/hyperterse_bench?sslmode=disable]
#   BENCH_THREADS_PREFIX [vert.x-eventloop] which threads the tables are about ("" for all)
#   BENCH_JAR [target/hyperterse.jar, built when stale] the server to profile
#   BENCH_ARGS [] more arguments to the server's start (e.g. --console)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source "$BENCH_DIR/scenarios/pg.sh" # ensure_pg_data, write_pg_project, execute_body

DURATION=${BENCH_DURATION:-20}
WARMUP=${BENCH_WARMUP:-15}
CONNECTIONS=${BENCH_CONNECTIONS:-32}
THREADS=${BENCH_THREADS:-2}
PORT=${BENCH_PORT:-19330}
PREFIX=${BENCH_THREADS_PREFIX-vert.x-eventloop}
JAVA_BIN=$(bench_java)
JDK_BIN=$(dirname "$JAVA_BIN")
for tool in jcmd jfr; do [[ -x $JDK_BIN/$tool ]] || die "$JDK_BIN/$tool is needed (a JDK, not a JRE)"; done
command -v wrk >/dev/null || die "wrk is needed"

paths=("$@")
[[ ${#paths[@]} -gt 0 ]] || paths=(pg cached)
trap cleanup EXIT INT TERM
WORK=$OUT/profile
mkdir -p "$WORK" "$OUT/logs"
if [[ -n ${BENCH_JAR:-} ]]; then JAR=$BENCH_JAR; else ensure_jar; fi
ensure_pg_data
write_pg_project "$WORK/project" "${BENCH_PG_POOL:-10}"
[[ -z ${BENCH_INSTANCES:-} ]] || printf 'server:\n  instances: %s\n' "$BENCH_INSTANCES" >>"$WORK/project/.hyperterse"
execute_body get-customer '{"customer_id":__ID__}' >"$WORK/pg.json"
execute_body get-customer-cached '{"customer_id":__ID__}' >"$WORK/cached.json"

port_free "$PORT" || die "port $PORT is in use (set BENCH_PORT)"
# shellcheck disable=SC2086
BENCH_PG_URL=$PG_URL "$JAVA_BIN" ${BENCH_JAVA_OPTS:-} -XX:FlightRecorderOptions:stackdepth=256 \
  -jar "$JAR" start "$WORK/project" --port "$PORT" --log-level 2 ${BENCH_ARGS:-} >"$OUT/logs/profile.log" 2>&1 &
PID=$!
BENCH_PIDS+=("$PID")
wait_ready "http://127.0.0.1:$PORT/heartbeat" "$(now_ms)" "$PID" >/dev/null || die "the server did not start; see $OUT/logs/profile.log"

for path in "${paths[@]}"; do
  case $path in
    pg) url=http://127.0.0.1:$PORT/mcp; vars=(WRK_MODE=ids WRK_BODY="$WORK/pg.json" WRK_MAX_ID=$PG_ROWS) ;;
    cached) url=http://127.0.0.1:$PORT/mcp; vars=(WRK_MODE=ids WRK_BODY="$WORK/cached.json" WRK_MAX_ID=10) ;;
    heartbeat) url=http://127.0.0.1:$PORT/heartbeat; vars=(WRK_MODE=get) ;;
    *) die "unknown path '$path' (pg, cached, heartbeat)" ;;
  esac
  log "$path: warm-up ${WARMUP} s"
  wrk_run "$url" "$CONNECTIONS" "$WARMUP" "$THREADS" "${vars[@]}"
  (( W_ERRORS == 0 )) || die "$path: warm-up had $W_ERRORS errors; see $OUT/logs/profile.log"
  rm -f "$WORK/$path.jfr"
  # allocation-profiling=maximum: every TLAB's allocation sampled, so the allocation sites are sharp
  "$JDK_BIN/jcmd" "$PID" JFR.start name="$path" settings=profile allocation-profiling=maximum \
    filename="$WORK/$path.jfr" >/dev/null
  before=$(cpu_ticks "$PID")
  wrk_run "$url" "$CONNECTIONS" "$DURATION" "$THREADS" "${vars[@]}"
  after=$(cpu_ticks "$PID")
  "$JDK_BIN/jcmd" "$PID" JFR.stop name="$path" >/dev/null
  cpu=$(awk -v d=$((after - before)) -v hz="$CLK_TCK" -v n="$W_REQUESTS" 'BEGIN {printf "%.0f\n", d * 1e6 / hz / n}')
  {
    echo "## $path: $W_RPS req/s, $cpu µs server CPU per call, $W_ERRORS errors ($LAST_CMD, recorded)"
    echo
    python3 "$BENCH_DIR/jfr_collapse.py" "$WORK/$path.jfr" --jfr "$JDK_BIN/jfr" --threads "$PREFIX" \
      --collapsed "$WORK/$path.collapsed.txt" --requests "$W_REQUESTS"
  } | tee "$WORK/$path.txt"
done
stop_pid "$PID"
log "profiles in ${WORK#"$ROOT"/}"

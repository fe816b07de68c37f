#!/usr/bin/env bash
# RSS of ours against Google's MCP Toolbox in one run: one or more sides of ours (a jar and its JVM
# flags each) and Toolbox, all up at once and loaded alike with bench/peer-toolbox.sh's PostgreSQL
# and SQLite point selects (wrk, 32 connections, the servers alternating run by run, the first of a
# round moving on each round), then each one's RSS (/proc/PID/status) idle, after the load and its
# peak, with req/s and server CPU per call, so a flag or build that saves memory shows what it
# costs. Narrower and shorter than bench/peer-toolbox.sh (no start-up, DBHub, pgbench or cached
# call). Prints a Markdown report.
#
#   bench/rss.sh [SIDE]...     SIDE: JAR[@JVM flags] (default: target/hyperterse.jar@$RECOMMENDED_FLAGS)
#   e.g. bench/rss.sh "/tmp/a.jar@-XX:+UseSerialGC -Xmx256m" "target/hyperterse.jar@-XX:+UseSerialGC -Xmx256m"
#
# Environment (defaults in brackets): BENCH_RUNS [3] rounds per database  BENCH_DURATION [10] seconds
#   per run  BENCH_WARMUP [15] seconds per server and database  BENCH_CONNECTIONS [32]  BENCH_THREADS [2]
#   BENCH_IDLE [5] seconds after the last start before RSS idle is read (past the 2 s after which a
#   server binds its JVM meters)  BENCH_PORT [19380] Toolbox; ours get the ports after it
#   BENCH_PG_POOL [10]  BENCH_JAVA [JDK 25 under /usr/lib/jvm when present]  BENCH_JAVA_OPTS [] flags for every side
#   BENCH_NMT [] with 1, ours run with -XX:NativeMemoryTracking=summary, and after the RSS after load
#   is read the report gives each side's NMT summary and the head of its heap histogram (a full GC).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

RUNS=${BENCH_RUNS:-3}
DURATION=${BENCH_DURATION:-10}
WARMUP=${BENCH_WARMUP:-15}
CONNECTIONS=${BENCH_CONNECTIONS:-32}
THREADS=${BENCH_THREADS:-2}
IDLE=${BENCH_IDLE:-5}
PORT=${BENCH_PORT:-19380}
TB_PORT=$((PORT + 1))
POOL=${BENCH_PG_POOL:-10}
JAVA_BIN=$(bench_java)
WORK=$OUT/rss
source "$BENCH_DIR/peers-common.sh" # Toolbox, the data, both sides' projects, launch_ours/_toolbox, first_answer

for c in wrk curl npm psql sqlite3; do command -v "$c" >/dev/null || die "$c is needed"; done
sides=("$@")
[[ ${#sides[@]} -gt 0 ]] || sides=("$JAR@$RECOMMENDED_FLAGS")
trap 'cleanup; drop_table' EXIT INT TERM
mkdir -p "$WORK" "$OUT/logs"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u '+%Y-%m-%d %H:%M UTC')
[[ $# -gt 0 ]] || ensure_jar
install_toolbox
load_data
write_projects
write_toolbox_configs

# the request bodies: ours `execute` of the tool, Toolbox's tool by name; KEY.json and KEY-42.json
body() { # body KEY TOOL
  if [[ $1 == ours-* ]]; then execute_body "$2" '{"customer_id":__ID__}' >"$WORK/$1.json"
  else printf '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"%s","arguments":{"customer_id":__ID__}}}\n' \
    "$2" >"$WORK/$1.json"; fi
  sed 's/__ID__/42/' "$WORK/$1.json" >"$WORK/$1-42.json"
}
body ours-pg get-customer; body ours-sqlite get-customer-sqlite
body toolbox-pg get-customer; body toolbox-sqlite get-customer-sqlite

# Sides: 0 is Toolbox, 1.. ours in the order given.
NAMES=(toolbox) URLS=("http://127.0.0.1:$TB_PORT/mcp") PIDS=() LABELS=("Toolbox $TOOLBOX_VERSION")
launch_toolbox rss-toolbox "$WORK/toolbox.yaml"; PIDS+=("$LAUNCH_PID")
first_answer rss-toolbox "${URLS[0]}" "$WORK/toolbox-pg-42.json"
for i in "${!sides[@]}"; do
  spec=${sides[$i]} n=$((i + 1))
  jar=${spec%%@*} flags=$([[ $spec == *@* ]] && echo "${spec#*@}" || true)
  [[ -f $jar ]] || die "no jar at $jar"
  [[ ${BENCH_NMT:-} != 1 ]] || flags="$flags -XX:NativeMemoryTracking=summary"
  NAMES+=("ours$n"); URLS+=("http://127.0.0.1:$((TB_PORT + n))/mcp"); LABELS+=("ours $n: \`${jar#"$ROOT"/}\` \`${flags:-default flags}\`")
  JAR=$jar PORT=$((TB_PORT + n)) launch_ours "rss-ours$n" "$WORK/ours" "$flags"; PIDS+=("$LAUNCH_PID")
  first_answer "rss-ours$n" "${URLS[$n]}" "$WORK/ours-pg-42.json"
done
sleep "$IDLE"
declare -A IDLE_RSS RPS CPU
for s in "${!NAMES[@]}"; do IDLE_RSS[$s]=$(rss_mb "${PIDS[$s]}"); done
log "idle RSS: $(for s in "${!NAMES[@]}"; do printf '%s %s MB; ' "${NAMES[$s]}" "${IDLE_RSS[$s]}"; done)"

CMDS=()
for db in pg sqlite; do
  for s in "${!NAMES[@]}"; do
    key=ours; [[ $s == 0 ]] && key=toolbox
    LAUNCH_PID=${PIDS[$s]}; first_answer "rss-${NAMES[$s]}" "${URLS[$s]}" "$WORK/$key-$db-42.json"
    wrk_run "${URLS[$s]}" "$CONNECTIONS" "$WARMUP" "$THREADS" WRK_MODE=ids WRK_BODY="$WORK/$key-$db.json" WRK_MAX_ID=$ROWS
    (( W_ERRORS == 0 )) || die "${NAMES[$s]}: $db warm-up had $W_ERRORS errors; see $OUT/logs/rss-${NAMES[$s]}.log"
  done
  for r in $(seq 1 "$RUNS"); do
    count=${#NAMES[@]}
    for k in $(seq 0 $((count - 1))); do
      s=$(( (k + r - 1) % count ))
      key=ours; [[ $s == 0 ]] && key=toolbox
      before=$(cpu_ticks "${PIDS[$s]}")
      wrk_run "${URLS[$s]}" "$CONNECTIONS" "$DURATION" "$THREADS" WRK_MODE=ids WRK_BODY="$WORK/$key-$db.json" WRK_MAX_ID=$ROWS
      cpu=$(cpu_us_per_call "$before" "$(cpu_ticks "${PIDS[$s]}")" "$W_REQUESTS")
      RPS[$s.$db]+=" $W_RPS"; CPU[$s.$db]+=" $cpu"; CMDS+=("$LAST_CMD")
      (( W_ERRORS == 0 )) || log "${NAMES[$s]} $db: $W_ERRORS errors"
    done
    log "$db round $r: req/s $(for s in "${!NAMES[@]}"; do printf '%s %s; ' "${NAMES[$s]}" "${RPS[$s.$db]##* }"; done)"
  done
done
declare -A LOADED HWM
for s in "${!NAMES[@]}"; do LOADED[$s]=$(rss_mb "${PIDS[$s]}"); HWM[$s]=$(hwm_mb "${PIDS[$s]}"); done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

echo "## RSS idle and after load ($started, \`bench/rss.sh\`)"
echo
echo "$(nproc) CPUs, $("$JAVA_BIN" -version 2>&1 | head -n 1), $("$TOOLBOX" --version 2>&1 | head -n 1); commit $(cd "$ROOT" && git rev-parse --short HEAD); load average $load_start at start, $load_end at the end."
echo "$RUNS rounds of ${DURATION} s per database after ${WARMUP} s of warm-up per server and database, $CONNECTIONS connections; RSS idle ${IDLE} s after the last start."
echo
echo "| server | RSS idle | RSS after load | peak | after load / Toolbox's | pg req/s | pg CPU µs/call | SQLite req/s | SQLite CPU µs/call | pg CPU per run |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for s in "${!NAMES[@]}"; do
  # shellcheck disable=SC2086
  echo "| ${LABELS[$s]} | ${IDLE_RSS[$s]} MB | ${LOADED[$s]} MB | ${HWM[$s]} MB | $(ratio "${LOADED[$s]}" "${LOADED[0]}") | $(median ${RPS[$s.pg]}) | $(median ${CPU[$s.pg]}) | $(median ${RPS[$s.sqlite]}) | $(median ${CPU[$s.sqlite]}) |${CPU[$s.pg]} |"
done
echo
commands_block "${CMDS[@]}" | sed "s|$OUT|bench/out|g"
if [[ ${BENCH_NMT:-} == 1 ]]; then
  jcmd=$(dirname "$JAVA_BIN")/jcmd
  for s in "${!NAMES[@]}"; do
    [[ $s != 0 ]] || continue
    echo; echo "${LABELS[$s]}: NMT after load, then the heap histogram (after a full GC):"; echo '```'
    "$jcmd" "${PIDS[$s]}" VM.native_memory summary | grep -E '^(Total|-)' | sed 's/^- *//'
    "$jcmd" "${PIDS[$s]}" GC.class_histogram | sed -n '2,15p'
    echo '```'
  done
fi

#!/usr/bin/env bash
# Start-up to the first answered call, two builds side by side: starts alternate between the jars
# (A, B, A, B, …) so the shared machine's load moves both alike. Per jar and project it reports
# the median wall time from process start to the first successful tools/call, and the CPU the
# process used until then (utime+stime of all its threads, /proc/PID/stat).
#
#   bench/startup-ab.sh A.jar B.jar [pg|quickstart|scripts10|scripts10-warm|pg-aot]...
#                                               (default: pg quickstart scripts10 scripts10-warm)
#
# Projects:
#   pg              one PostgreSQL tool (bench/scenarios/pg.sh's table); the call: get-customer 42
#   quickstart      tools-examples/quickstart (embedded SQLite), copied; the call: get-customer 1
#   scripts10       10 small TypeScript handlers beside the PostgreSQL tool; the call: the
#                   PostgreSQL tool (a database tool serving), then a handler answering is timed too.
#                   Every start gets an empty cache folder (XDG_CACHE_HOME), as a first start would.
#   scripts10-warm  the same project, the cache folder kept from an unmeasured start (a second start)
#   pg-aot          the pg project, each jar its own copy with a start-up cache that jar's `aot-cache`
#                   wrote beside it (made once, not measured), started without any JVM flag: what
#                   a start that finds the cache by itself gives
# Environment (defaults in brackets): BENCH_STARTS [5] measured starts per jar and project (after
#   one unmeasured start each)  BENCH_PORT [19380]  BENCH_JAVA [JDK 25 under /usr/lib/jvm when present]
#   BENCH_JAVA_OPTS [] JVM flags for both  BENCH_PG_URL [postgres://postgres@127.0.0.1:5432/hyperterse_bench?sslmode=disable]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source "$BENCH_DIR/scenarios/pg.sh" # ensure_pg_data, write_pg_project, execute_body

[[ $# -ge 2 ]] || die "usage: bench/startup-ab.sh A.jar B.jar [pg|quickstart|scripts10|scripts10-warm|pg-aot]..."
JAR_A=$1 JAR_B=$2
shift 2
projects=("$@")
[[ ${#projects[@]} -gt 0 ]] || projects=(pg quickstart scripts10 scripts10-warm)
STARTS=${BENCH_STARTS:-5}
PORT=${BENCH_PORT:-19380}
JAVA_BIN=$(bench_java)
read -r -a JAVA_OPTS <<<"${BENCH_JAVA_OPTS:-}"
ticks_to_ms() { awk -v t="$1" -v hz="$CLK_TCK" 'BEGIN {printf "%d\n", t * 1000 / hz}'; }
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

trap cleanup EXIT INT TERM
WORK=$OUT/startup-ab
mkdir -p "$WORK" "$OUT/logs"
ensure_pg_data

write_projects() {
  write_pg_project "$WORK/pg" 4
  rm -rf "$WORK/quickstart"
  cp -r "$ROOT/tools-examples/quickstart" "$WORK/quickstart"
  rm -rf "$WORK/quickstart/data"
  write_pg_project "$WORK/scripts10" 4
  mkdir -p "$WORK/scripts10/app/lib"
  cat >"$WORK/scripts10/app/lib/text.ts" <<'EOF'
export function shout(value: string): string {
  return value.toUpperCase() + '!';
}
EOF
  local i
  for i in $(seq 1 10); do
    mkdir -p "$WORK/scripts10/app/tools/handler-$i"
    cat >"$WORK/scripts10/app/tools/handler-$i/config.terse" <<EOF
description: 'Greets someone, variant $i'
inputs:
  name: { type: string, description: 'Who to greet' }
EOF
    cat >"$WORK/scripts10/app/tools/handler-$i/handler.ts" <<EOF
import { shout } from '../../lib/text.js';

interface Payload { inputs: { name: string } }
interface Greeting { greeting: string; variant: number }

export default function greet({ inputs }: Payload): Greeting {
  return { greeting: shout('hello ' + inputs.name), variant: $i };
}
EOF
  done
  execute_body get-customer '{"customer_id":42}' >"$WORK/pg-call.json"
  execute_body get-customer '{"customer_id":1}' >"$WORK/quickstart-call.json"
  execute_body handler-7 '{"name":"ada"}' >"$WORK/handler-call.json"
}

# one_start NAME JAR PROJECT_DIR CACHE_DIR CALL EXPECT [CALL2 EXPECT2]: starts the jar, polls CALL
# every 10 ms until its answer holds EXPECT; sets S_MS, S_CPU (and S2_MS for CALL2), stops it.
one_start() {
  local name=$1 jar=$2 dir=$3 cache=$4 call=$5 expect=$6 call2=${7:-} expect2=${8:-} start answer pid
  local url=http://127.0.0.1:$PORT/mcp
  port_free "$PORT" || die "port $PORT is taken"
  start=$(now_ms)
  XDG_CACHE_HOME=$cache BENCH_PG_URL=$PG_URL "$JAVA_BIN" "${JAVA_OPTS[@]}" -jar "$jar" start "$dir" --port "$PORT" \
    --log-level 3 >"$OUT/logs/startup-$name.log" 2>&1 &
  pid=$!
  BENCH_PIDS+=("$pid")
  S_MS='' S2_MS=''
  while :; do
    answer=$(curl -s --max-time 5 -H 'Content-Type: application/json' \
      -H 'Accept: application/json, text/event-stream' --data-binary "@$call" "$url" 2>/dev/null || true)
    if [[ $answer == *'"result"'* && $answer == *"$expect"* && $answer != *'"isError":true'* ]]; then
      S_MS=$(( $(now_ms) - start ))
      S_CPU=$(ticks_to_ms "$(cpu_ticks "$pid")")
      break
    fi
    if ! kill -0 "$pid" 2>/dev/null || (( $(now_ms) - start > 120000 )); then
      tail -n 30 "$OUT/logs/startup-$name.log" >&2
      die "$name gave no answer; last: ${answer:0:300}"
    fi
    sleep 0.01
  done
  if [[ -n $call2 ]]; then
    while :; do
      answer=$(curl -s --max-time 30 -H 'Content-Type: application/json' \
        -H 'Accept: application/json, text/event-stream' --data-binary "@$call2" "$url" 2>/dev/null || true)
      if [[ $answer == *'"result"'* && $answer == *"$expect2"* && $answer != *'"isError":true'* ]]; then
        S2_MS=$(( $(now_ms) - start ))
        break
      fi
      (( $(now_ms) - start > 120000 )) && die "$name: the handler gave no answer; last: ${answer:0:300}"
      sleep 0.01
    done
  fi
  if grep -q "has been blocked" "$OUT/logs/startup-$name.log"; then
    log "$name: a blocked-thread warning (see $OUT/logs/startup-$name.log)"
    BLOCKED=$((BLOCKED + 1))
  fi
  stop_pid "$pid"
}

# side_dir DIR SIDE: the project folder of that side (pg-aot: each jar has its own copy)
side_dir() { if $per_side; then echo "$1-$2"; else echo "$1"; fi; }

# run_project PROJECT: STARTS alternated starts of each jar; prints one table row per jar.
run_project() {
  local project=$1 dir call expect call2='' expect2='' cache fresh=false per_side=false side jar i
  case $project in
    pg) dir=$WORK/pg; call=$WORK/pg-call.json; expect='Customer 42' ;;
    quickstart) dir=$WORK/quickstart; call=$WORK/quickstart-call.json; expect='"id\":1' ;;
    scripts10) dir=$WORK/scripts10; call=$WORK/pg-call.json; expect='Customer 42'
      call2=$WORK/handler-call.json; expect2='HELLO ADA!'; fresh=true ;;
    scripts10-warm) dir=$WORK/scripts10; call=$WORK/pg-call.json; expect='Customer 42'
      call2=$WORK/handler-call.json; expect2='HELLO ADA!' ;;
    pg-aot) dir=$WORK/pg-aot; call=$WORK/pg-call.json; expect='Customer 42'; per_side=true ;;
    *) die "unknown project $project" ;;
  esac
  declare -A walls cpus walls2
  for side in A B; do
    jar=$JAR_A; [[ $side == B ]] && jar=$JAR_B
    cache=$WORK/cache-$project-$side
    rm -rf "$cache"; mkdir -p "$cache"
    if $per_side; then
      # each jar's own copy of the project, with a start-up cache that jar made beside it
      rm -rf "$dir-$side"; cp -r "$WORK/pg" "$dir-$side"
      log "$project $side: aot-cache beside the project"
      BENCH_PG_URL=$PG_URL "$JAVA_BIN" "${JAVA_OPTS[@]}" -jar "$jar" aot-cache "$dir-$side" -o "$dir-$side/hyperterse.aot" \
        --call 'get-customer={"customer_id":42}' >"$OUT/logs/startup-$project-$side-aot.log" 2>&1 \
        || die "aot-cache failed: see $OUT/logs/startup-$project-$side-aot.log"
    fi
    one_start "$project-$side-unmeasured" "$jar" "$(side_dir "$dir" "$side")" "$cache" "$call" "$expect" "$call2" "$expect2"
  done
  for i in $(seq 1 "$STARTS"); do
    for side in A B; do
      jar=$JAR_A; [[ $side == B ]] && jar=$JAR_B
      cache=$WORK/cache-$project-$side
      if $fresh; then rm -rf "$cache"; mkdir -p "$cache"; fi
      one_start "$project-$side-$i" "$jar" "$(side_dir "$dir" "$side")" "$cache" "$call" "$expect" "$call2" "$expect2"
      walls[$side]+="$S_MS "; cpus[$side]+="$S_CPU "; walls2[$side]+="${S2_MS:-} "
      log "$project $side #$i: ${S_MS} ms wall, ${S_CPU} ms CPU${S2_MS:+, handler at ${S2_MS} ms}"
    done
  done
  for side in A B; do
    jar=$JAR_A; [[ $side == B ]] && jar=$JAR_B
    # shellcheck disable=SC2086
    printf '| %s | %s | %s ms | %s | %s ms | %s |%s\n' "$project" "${jar#"$ROOT"/}" "$(median ${walls[$side]})" \
      "${walls[$side]% }" "$(median ${cpus[$side]})" "${cpus[$side]% }" \
      "$([[ -n $call2 ]] && echo " $(median ${walls2[$side]}) ms |")"
  done
}

write_projects
log "load average: $(cut -d' ' -f1-3 /proc/loadavg); java: $("$JAVA_BIN" -version 2>&1 | head -1)"
echo "| project | jar | first answer (median) | starts (ms) | CPU until then (median) | CPU per start (ms) | handler answered (median) |"
echo "|---|---|---|---|---|---|---|"
BLOCKED=0
for p in "${projects[@]}"; do
  run_project "$p"
done
log "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); starts with a blocked-thread warning: $BLOCKED"

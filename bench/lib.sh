# Helpers for bench/run.sh and its scenarios (sourced, not run). Everything a scenario starts is
# recorded in BENCH_PIDS and stopped by cleanup(), which run.sh traps on exit.
#
# Conventions: times in milliseconds unless a name says otherwise; latencies from wrk in
# microseconds; every measured command line is echoed to the scenario's "Commands" list so
# RESULTS.md says exactly what ran.

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
OUT=${BENCH_OUT:-$BENCH_DIR/out}
JAR=${BENCH_JAR:-$ROOT/target/hyperterse.jar}
BENCH_PIDS=()

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }
now_ms() { date +%s%3N; }

cleanup() {
  local pid
  for pid in "${BENCH_PIDS[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null
      for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  BENCH_PIDS=()
}

# Forgets a pid that was stopped on purpose.
forget_pid() {
  local keep=() p
  for p in "${BENCH_PIDS[@]}"; do [[ $p == "$1" ]] || keep+=("$p"); done
  BENCH_PIDS=("${keep[@]}")
}

stop_pid() {
  local pid=$1
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  forget_pid "$pid"
}

# Builds the fat jar when it is missing or older than any source file or the pom (not one given
# as BENCH_JAR).
ensure_jar() {
  if [[ -n ${BENCH_JAR:-} ]]; then
    [[ -f $JAR ]] || die "BENCH_JAR $JAR does not exist"
    return
  fi
  if [[ -f $JAR ]] && [[ -z $(find "$ROOT/src/main" "$ROOT/pom.xml" "$ROOT/conf" -newer "$JAR" -type f -print -quit) ]]; then
    return
  fi
  log "building $JAR (mvn -o -q -B package -DskipTests)"
  (cd "$ROOT" && mvn -o -q -B package -DskipTests) >&2 || die "build failed"
}

# The port is free on loopback (nothing answers a connect).
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Waits until URL answers 200; prints the milliseconds since START_MS. Fails after 180 s or when
# PID dies.
wait_ready() {
  local url=$1 start=$2 pid=$3
  while :; do
    if curl -sf -o /dev/null --max-time 1 "$url"; then
      echo $(( $(now_ms) - start ))
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || return 1
    (( $(now_ms) - start > 180000 )) && return 1
    sleep 0.01
  done
}

# start_server NAME PROJECT PORT [extra start flags...]
# Starts the jar as its own process on loopback, waits for /heartbeat, and sets SERVER_PID and
# SERVER_READY_MS (process start to the first 200 of /heartbeat). The log is $OUT/logs/NAME.log.
start_server() {
  local name=$1 project=$2 port=$3; shift 3
  port_free "$port" || die "port $port is in use (set BENCH_PORT)"
  mkdir -p "$OUT/logs"
  local start
  start=$(now_ms)
  # shellcheck disable=SC2086
  java ${BENCH_JAVA_OPTS:-} -jar "$JAR" start "$project" --port "$port" --log-level 2 "$@" \
    >"$OUT/logs/$name.log" 2>&1 &
  SERVER_PID=$!
  BENCH_PIDS+=("$SERVER_PID")
  if ! SERVER_READY_MS=$(wait_ready "http://127.0.0.1:$port/heartbeat" "$start" "$SERVER_PID"); then
    log "server '$name' did not start; its log:"
    tail -n 30 "$OUT/logs/$name.log" >&2
    stop_pid "$SERVER_PID"
    return 1
  fi
  log "server '$name' ready in $SERVER_READY_MS ms (pid $SERVER_PID)"
}

# Resident set size of a process, in MB (current, and the peak as VmHWM).
rss_mb() { awk '/^VmRSS:/ {printf "%d", $2/1024}' "/proc/$1/status"; }
hwm_mb() { awk '/^VmHWM:/ {printf "%d", $2/1024}' "/proc/$1/status"; }

# Median of the numbers given as arguments.
median() {
  printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {if (NR==0) {print "n/a"; exit}
    if (NR%2) printf "%s\n", v[(NR+1)/2]; else printf "%.1f\n", (v[NR/2]+v[NR/2+1])/2}'
}

# ratio A B: A/B with two decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b+0==0) print "n/a"; else printf "%.2f\n", a/b}'; }

# meets VALUE OP TARGET: "met" or "**not met**".
meets() { awk -v v="$1" -v t="$3" -v op="$2" 'BEGIN {ok = (op==">=") ? (v+0 >= t+0) : (v+0 <= t+0);
  print (v=="n/a") ? "n/a" : ok ? "met" : "**not met**"}'; }

CLK_TCK=$(getconf CLK_TCK)

# bench_java: the java the servers run on: BENCH_JAVA, else the JDK 25 under /usr/lib/jvm when
# present, else the default java.
bench_java() {
  if [[ -n ${BENCH_JAVA:-} ]]; then echo "$BENCH_JAVA"
  elif [[ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ]]; then echo /usr/lib/jvm/temurin-25-jdk-amd64/bin/java
  else echo java; fi
}

# CPU time the process has used (all threads, user + system), in clock ticks. The command name
# in field 2 may hold spaces, so fields are counted after its closing parenthesis.
cpu_ticks() { sed 's/.*) //' "/proc/$1/stat" | awk '{print $12 + $13}'; }

# cpu_us_per_call TICKS_BEFORE TICKS_AFTER REQUESTS: the process's CPU microseconds per request.
cpu_us_per_call() { awk -v d=$(( $2 - $1 )) -v hz="$CLK_TCK" -v n="$3" 'BEGIN {printf "%.0f\n", d * 1e6 / hz / n}'; }

us_to_ms() { awk -v u="$1" 'BEGIN {printf "%.2f\n", u/1000}'; }

# wrk_run URL CONNECTIONS SECONDS THREADS [VAR=value...]: runs wrk with bench/wrk/mcp.lua (the
# variables configure it, see there), sets W_RPS W_P50 W_P90 W_P99 W_MAX (µs) W_ERRORS (non-2xx +
# socket errors + JSON-RPC errors) W_REQUESTS, and records the command line in LAST_CMD.
wrk_run() {
  local url=$1 conns=$2 secs=$3 threads=$4; shift 4
  local line
  LAST_CMD=$(echo "$* wrk -t$threads -c$conns -d${secs}s --timeout 10s -s bench/wrk/mcp.lua $url" | sed "s|$ROOT/||g")
  line=$(wrk_line "$url" "$conns" "$secs" "$threads" "$@")
  [[ -n $line ]] || die "wrk gave no result for $url"
  wrk_parse "$line"
}

# wrk_line URL CONNECTIONS SECONDS THREADS [VAR=VALUE...]: wrk's BENCH line alone (empty when wrk
# gave none), for runs started side by side; wrk_parse reads it as wrk_run does
wrk_line() {
  local url=$1 conns=$2 secs=$3 threads=$4; shift 4
  # a 10 s timeout (wrk's default is 2 s) so slow answers count as latency, not as errors
  env "$@" wrk -t"$threads" -c"$conns" -d"${secs}s" --timeout 10s -s "$BENCH_DIR/wrk/mcp.lua" "$url" | grep '^BENCH ' || true
}

# wrk_parse LINE: a BENCH line into W_REQUESTS, W_RPS, W_P50, ... and W_ERRORS (every failed answer)
wrk_parse() {
  eval "$(echo "$1" | sed 's/^BENCH //' | tr ' ' '\n' | awk -F= '{printf "W_%s=%s\n", toupper($1), $2}')"
  W_ERRORS=$(( W_NON2XX + W_SOCKET_ERRORS + W_RPC_ERRORS ))
}

# A Markdown code block of the command lines a scenario ran, deduplicated in order.
commands_block() {
  echo '```'
  printf '%s\n' "$@" | awk '!seen[$0]++'
  echo '```'
}

# The machine and build, for the results' header.
machine_line() {
  local cpu mem jdk
  cpu=$(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)
  mem=$(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)
  jdk=$(java -version 2>&1 | head -n 1)
  echo "$(nproc) CPUs ($cpu), $mem RAM, $jdk, $(uname -sr); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
}

#!/usr/bin/env bash
# Ours against the peers, in one run, alternated run by run: Google's MCP Toolbox for Databases
# (Go) and Bytebase's DBHub (Node):
#   - a point select by a random primary key of 100,000 rows, on PostgreSQL (ours, Toolbox, DBHub)
#     and on SQLite (ours, Toolbox), wrk with 32 connections, stateless POSTs (ours: a tools/call
#     of `execute` without a session; the peers: a tools/call of their tool by name), after a
#     warm-up of each server;
#   - a cached call (ours: `execute` of a tool with the result cache on, ids 1-10) against GET
#     /heartbeat of the same server under the same load: what a call costs beyond bare HTTP;
#   - server CPU per call: utime+stime of the server process (/proc/PID/stat) around each run,
#     divided by the requests wrk completed (the figure the shared machine disturbs least);
#   - start-up: process start to the first successful tools/call of the PostgreSQL tool (polled
#     every 10 ms), for a project/config holding only that tool; ours also with the JVM's
#     start-up cache that `aot-cache` makes for that project (JDK 25: AOT cache; else AppCDS);
#   - RSS (/proc/PID/status) when idle after start-up, and after the load (with the peak).
# The section between the peer-toolbox markers in bench/RESULTS.md is replaced (or appended).
#
#   bench/peer-toolbox.sh        (or bench/run.sh peers)
#
# Toolbox and DBHub come from npm into bench/out/npm (git-ignored; nothing vendored). The table
# lives in database `test` on 127.0.0.1:5432 (user postgres, trust), named after the port so two
# runs do not meet, and is dropped at the end; the SQLite file is in bench/out. Every server
# listens on 127.0.0.1 only. What this script shares with bench/rss.sh (Toolbox, the data, the
# projects, RECOMMENDED_FLAGS) is in bench/peers-common.sh.
#
# Environment (defaults in brackets):
#   BENCH_RUNS [3] runs per server and database   BENCH_DURATION [10] seconds per run
#   BENCH_WARMUP [15] seconds of warm-up per server and database   BENCH_CONNECTIONS [32]
#   BENCH_THREADS [2] wrk threads   BENCH_STARTUP_RUNS [3] measured starts per server
#   BENCH_PORT [19310] ours; Toolbox and DBHub get the next two   BENCH_PG_POOL [10] pool size, every side
#   BENCH_PEERS [toolbox dbhub] with "toolbox", DBHub is left out (Toolbox always runs)
#   BENCH_JAVA [JDK 25 under /usr/lib/jvm when present, else java]   BENCH_JAVA_OPTS [] JVM flags
#   BENCH_RESULTS [bench/RESULTS.md] ("-" to print only)   BENCH_OUT [bench/out]
# Needs: java 17+, mvn (to build the jar when missing), wrk, curl, npm, psql, sqlite3, ss (iproute2).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

DBHUB_VERSION=1.4.0
DBHUB_PACKAGE=@bytebase/dbhub@$DBHUB_VERSION
RUNS=${BENCH_RUNS:-3}
DURATION=${BENCH_DURATION:-10}
WARMUP=${BENCH_WARMUP:-15}
CONNECTIONS=${BENCH_CONNECTIONS:-32}
THREADS=${BENCH_THREADS:-2}
STARTS=${BENCH_STARTUP_RUNS:-3}
PORT=${BENCH_PORT:-19310}
TB_PORT=$((PORT + 1))
DH_PORT=$((PORT + 2))
PEERS=" ${BENCH_PEERS:-toolbox dbhub} "
has_dbhub() { [[ $PEERS == *" dbhub "* ]]; }
POOL=${BENCH_PG_POOL:-10}
RESULTS=${BENCH_RESULTS:-$BENCH_DIR/RESULTS.md}
JAVA_BIN=$(bench_java)
WORK=$OUT/peer-toolbox
source "$BENCH_DIR/peers-common.sh" # Toolbox, the data, both sides' projects, launch_ours/_toolbox, first_answer

DBHUB=$OUT/npm/node_modules/@bytebase/dbhub/dist/index.js
START_MARK='<!-- peer-toolbox:start (bench/peer-toolbox.sh replaces this section) -->'
END_MARK='<!-- peer-toolbox:end -->'

for c in wrk curl npm node psql sqlite3 ss; do command -v "$c" >/dev/null || die "$c is needed"; done

trap 'cleanup; drop_table' EXIT INT TERM

install_dbhub() {
  if [[ ! -f $DBHUB ]] || [[ $(node -p "require('$OUT/npm/node_modules/@bytebase/dbhub/package.json').version" 2>/dev/null) != "$DBHUB_VERSION" ]]; then
    log "installing $DBHUB_PACKAGE into ${OUT#"$ROOT"/}/npm"
    npm install --prefix "$OUT/npm" --no-audit --no-fund --loglevel error "$DBHUB_PACKAGE" >&2
  fi
  [[ -f $DBHUB ]] || die "no DBHub at $DBHUB after npm install"
}

# DBHub's TOML: one source, one custom tool ($1 parameter); pool_max_connections gives it the
# same pool size as ours.
write_dbhub_config() {
  cat >"$WORK/dbhub.toml" <<EOF
[[sources]]
id = "bench"
dsn = "$PG_URL"
pool_max_connections = $POOL

[[tools]]
name = "get_customer"
description = "Get one customer by primary key"
source = "bench"
statement = "$PG_SELECT = \$1"

[[tools.parameters]]
name = "customer_id"
type = "integer"
description = "Primary key"
EOF
}

OURS_CMD_SHOWN="BENCH_PG_URL='$PG_URL' $JAVA_BIN ${BENCH_JAVA_OPTS:+$BENCH_JAVA_OPTS }-jar target/hyperterse.jar start <project> --port $PORT --log-level 2"
TB_CMD_SHOWN="bench/out/npm/node_modules/@toolbox-sdk/server-linux-x64/bin/toolbox --config <config.yaml> --port $TB_PORT --disable-reload --disable-version-check --log-level WARN"
DH_CMD_SHOWN="node bench/out/npm/node_modules/@bytebase/dbhub/dist/index.js --transport http --port $DH_PORT --config <dbhub.toml>"

launch_dbhub() {
  port_free "$DH_PORT" || die "port $DH_PORT is in use (set BENCH_PORT)"
  LAUNCH_START_MS=$(now_ms)
  # node-postgres names its connections by PGAPPNAME (DBHub builds its pool from the DSN's parts)
  (cd "$WORK" && PGAPPNAME=dbhub-bench exec node "$DBHUB" --transport http --port "$DH_PORT" --config "$2") \
    >"$OUT/logs/$1.log" 2>&1 &
  LAUNCH_PID=$!
  BENCH_PIDS+=("$LAUNCH_PID")
}

# measure: one wrk run; appends req/s, p50, p99 (µs), CPU µs per call and errors to the arrays
# of KEY (e.g. ours_pg).
declare -A M_RPS M_P50 M_P99 M_CPU M_ERR
CMDS=()
# pg_pids PID: the PostgreSQL backends serving the connections process PID holds, matched by the
# client port of each of its TCP connections to the database (not by application_name: another
# server or pgbench on this machine may use the same name, even in another database).
pg_pids() {
  local ports
  ports=$(ss -tnpH "dport = :$PG_PORT" 2>/dev/null | awk -v p="pid=$1," 'index($0, p) {n = split($4, a, ":"); print a[n]}' \
    | paste -sd, -)
  [[ -n $ports ]] || return 0
  psql "$PG_URL" -tAc "SELECT pid FROM pg_stat_activity WHERE datname = '$PG_DB' AND client_port IN ($ports)" \
    2>/dev/null || true
}
# pids_mark PIDS...: remembers their CPU ticks; pids_delta: the ticks they used since, summed over
# those still alive (a backend that closed meanwhile is left out rather than counted negative).
declare -A PID_MARK
pids_mark() { local p; PID_MARK=(); for p in "$@"; do [[ -r /proc/$p/stat ]] && PID_MARK[$p]=$(cpu_ticks "$p"); done; true; }
pids_delta() { local t=0 p; for p in "${!PID_MARK[@]}"; do [[ -r /proc/$p/stat ]] && t=$((t + $(cpu_ticks "$p") - PID_MARK[$p])); done; echo "$t"; }
# CHILD_TICKS: CPU ticks of this shell's finished children (wrk, pgbench), from bash's `times`,
# which must run in this shell (not in a $(...) subshell, whose children are its own).
children_ticks() {
  times >"$WORK/times.txt"
  CHILD_TICKS=$(tail -n 1 "$WORK/times.txt" | awk -v hz="$CLK_TCK" '{
    split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%d\n", (u[1] * 60 + u[2] + s[1] * 60 + s[2]) * hz }')
}
per_call() { awk -v d="$1" -v hz="$CLK_TCK" -v n="$2" 'BEGIN {printf "%.0f\n", d * 1e6 / hz / n}'; }
declare -A M_PGCPU M_WRKCPU
measure() { # measure KEY PID URL BODY [MAX_ID]: BODY "" for a GET
  local key=$1 pid=$2 url=$3 body=$4 before after cpu pids pg_used wrk_before wrk_after
  local vars=(WRK_MODE=ids WRK_BODY="$body" WRK_MAX_ID="${5:-$ROWS}")
  [[ -n $body ]] || vars=(WRK_MODE=get)
  # shellcheck disable=SC2207
  pids=($(pg_pids "$pid")); pids_mark "${pids[@]}"; children_ticks; wrk_before=$CHILD_TICKS
  before=$(cpu_ticks "$pid")
  # a pool that closed its idle connections opens new ones in the run: those count from their start
  (sleep 1; pg_pids "$pid" >"$WORK/late-pids.txt") &
  local late=$!
  wrk_run "$url" "$CONNECTIONS" "$DURATION" "$THREADS" "${vars[@]}"
  after=$(cpu_ticks "$pid")
  wait "$late" || true
  local p
  for p in $(cat "$WORK/late-pids.txt" 2>/dev/null); do [[ -n ${PID_MARK[$p]:-} ]] || PID_MARK[$p]=0; done
  children_ticks; wrk_after=$CHILD_TICKS; pg_used=$(pids_delta)
  cpu=$(per_call $((after - before)) "$W_REQUESTS")
  M_PGCPU[$key]+=" $(per_call "$pg_used" "$W_REQUESTS")"
  M_WRKCPU[$key]+=" $(per_call $((wrk_after - wrk_before)) "$W_REQUESTS")"
  M_RPS[$key]+=" $W_RPS"; M_P50[$key]+=" $W_P50"; M_P99[$key]+=" $W_P99"; M_CPU[$key]+=" $cpu"
  M_ERR[$key]=$(( ${M_ERR[$key]:-0} + W_ERRORS ))
  CMDS+=("$LAST_CMD")
  log "$key: $W_RPS req/s, p50 $(us_to_ms "$W_P50") ms, p99 $(us_to_ms "$W_P99") ms, $cpu µs CPU per call, $W_ERRORS errors"
}
med() { # med KEY ARRAY-NAME: median of the recorded values
  local -n arr=$2
  # shellcheck disable=SC2086
  median ${arr[$1]}
}

# --- run -------------------------------------------------------------------------------------
mkdir -p "$WORK" "$OUT/logs"
started=$(date -u '+%Y-%m-%d %H:%M UTC')
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
ensure_jar
install_toolbox
if has_dbhub; then install_dbhub; fi
load_data
write_projects
write_toolbox_configs
write_dbhub_config

ours_body=$WORK/ours-pg.json; tb_body=$WORK/toolbox-pg.json
ours_lite=$WORK/ours-sqlite.json; tb_lite=$WORK/toolbox-sqlite.json
execute_body get-customer '{"customer_id":__ID__}' >"$ours_body"
execute_body get-customer-sqlite '{"customer_id":__ID__}' >"$ours_lite"
printf '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"%s","arguments":{"customer_id":__ID__}}}\n' \
  get-customer >"$tb_body"
printf '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"%s","arguments":{"customer_id":__ID__}}}\n' \
  get-customer-sqlite >"$tb_lite"
dh_body=$WORK/dbhub-pg.json; ours_cached=$WORK/ours-cached.json
printf '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"%s","arguments":{"customer_id":__ID__}}}\n' \
  get_customer >"$dh_body"
execute_body get-customer-cached '{"customer_id":__ID__}' >"$ours_cached"
for f in "$ours_body" "$tb_body" "$ours_lite" "$tb_lite" "$dh_body"; do sed 's/__ID__/42/' "$f" >"${f%.json}-42.json"; done
ours_url=http://127.0.0.1:$PORT/mcp; tb_url=http://127.0.0.1:$TB_PORT/mcp; dh_url=http://127.0.0.1:$DH_PORT/mcp

# Start-up: one unmeasured start each (page cache), then STARTS alternated measured starts.
ours_start=(); tb_start=(); ours_start_cpu=(); tb_start_cpu=()
for i in $(seq 0 "$STARTS"); do
  launch_ours ours-start "$WORK/ours-pg"; first_answer ours-start "$ours_url" "${ours_body%.json}-42.json"
  (( i > 0 )) && { ours_start+=("$READY_MS"); ours_start_cpu+=("$READY_CPU_MS"); }
  stop_pid "$LAUNCH_PID"
  launch_toolbox toolbox-start "$WORK/toolbox-pg.yaml"; first_answer toolbox-start "$tb_url" "${tb_body%.json}-42.json"
  (( i > 0 )) && { tb_start+=("$READY_MS"); tb_start_cpu+=("$READY_CPU_MS"); }
  stop_pid "$LAUNCH_PID"
  log "start $i: ours ${ours_start[*]:-} ms; toolbox ${tb_start[*]:-} ms"
done

# Start-up with the JVM's start-up cache made by `aot-cache` for the pg-only project (an AOT cache
# on JDK 25+, AppCDS before), STARTS starts after one unmeasured one.
java_feature=$("$JAVA_BIN" -version 2>&1 | head -n 1 | sed -E 's/.*version "([0-9]+).*/\1/')
if (( java_feature >= 25 )); then CACHE_FLAG=-XX:AOTCache=; CACHE_FILE=$WORK/ours-pg.aot
else CACHE_FLAG=-XX:SharedArchiveFile=; CACHE_FILE=$WORK/ours-pg.jsa; fi
log "training the start-up cache ($CACHE_FLAG) on the pg-only project"
AOT_CMD="BENCH_PG_URL='$PG_URL' $JAVA_BIN -jar $JAR aot-cache $WORK/ours-pg -o $CACHE_FILE --call 'get-customer={\"customer_id\":42}'"
BENCH_PG_URL=$PG_URL "$JAVA_BIN" -jar "$JAR" aot-cache "$WORK/ours-pg" -o "$CACHE_FILE" \
  --call 'get-customer={"customer_id":42}' >"$OUT/logs/aot-cache.log" 2>&1 || { cat "$OUT/logs/aot-cache.log" >&2; die "aot-cache failed"; }
aot_start=(); aot_start_cpu=()
for i in $(seq 0 "$STARTS"); do
  launch_ours ours-aot-start "$WORK/ours-pg" "$CACHE_FLAG$CACHE_FILE"; first_answer ours-aot-start "$ours_url" "${ours_body%.json}-42.json"
  (( i > 0 )) && { aot_start+=("$READY_MS"); aot_start_cpu+=("$READY_CPU_MS"); }
  stop_pid "$LAUNCH_PID"
done
log "ours with the start-up cache: ${aot_start[*]} ms"

# Load: both servers up, each serving PostgreSQL and SQLite.
launch_ours ours "$WORK/ours"; OURS_PID=$LAUNCH_PID; first_answer ours "$ours_url" "${ours_body%.json}-42.json"
launch_toolbox toolbox "$WORK/toolbox.yaml"; TB_PID=$LAUNCH_PID; first_answer toolbox "$tb_url" "${tb_body%.json}-42.json"
LAUNCH_PID=$OURS_PID; first_answer ours "$ours_url" "${ours_lite%.json}-42.json"
LAUNCH_PID=$TB_PID; first_answer toolbox "$tb_url" "${tb_lite%.json}-42.json"
DH_PID=""
if has_dbhub; then
  launch_dbhub dbhub "$WORK/dbhub.toml"; DH_PID=$LAUNCH_PID; first_answer dbhub "$dh_url" "${dh_body%.json}-42.json"
fi
sleep 2
ours_idle=$(rss_mb "$OURS_PID"); tb_idle=$(rss_mb "$TB_PID")

pool_sample="" sampler=""
for db in pg sqlite; do
  if [[ $db == pg ]]; then ob=$ours_body; tb=$tb_body; else ob=$ours_lite; tb=$tb_lite; fi
  log "$db: warm-up ${WARMUP} s each"
  wrk_run "$ours_url" "$CONNECTIONS" "$WARMUP" "$THREADS" WRK_MODE=ids WRK_BODY="$ob" WRK_MAX_ID=$ROWS
  (( W_ERRORS == 0 )) || die "ours: warm-up had $W_ERRORS errors; see $OUT/logs/ours.log"
  wrk_run "$tb_url" "$CONNECTIONS" "$WARMUP" "$THREADS" WRK_MODE=ids WRK_BODY="$tb" WRK_MAX_ID=$ROWS
  (( W_ERRORS == 0 )) || die "toolbox: warm-up had $W_ERRORS errors; see $OUT/logs/toolbox.log"
  if [[ $db == pg && -n $DH_PID ]]; then
    wrk_run "$dh_url" "$CONNECTIONS" "$WARMUP" "$THREADS" WRK_MODE=ids WRK_BODY="$dh_body" WRK_MAX_ID=$ROWS
    (( W_ERRORS == 0 )) || die "dbhub: warm-up had $W_ERRORS errors; see $OUT/logs/dbhub.log"
  fi
  for i in $(seq 1 "$RUNS"); do
    measure "ours_$db" "$OURS_PID" "$ours_url" "$ob"
    if [[ $db == pg && $i == 1 ]]; then
      # connections each server holds to the database in the middle of a Toolbox run
      (sleep $((DURATION / 2)); psql "$PG_URL" -tAc "SELECT coalesce(nullif(application_name, ''), '(none)') || ': ' || count(*)
        FROM pg_stat_activity WHERE datname = '$PG_DB' AND pid <> pg_backend_pid() GROUP BY application_name ORDER BY 1" \
        >"$WORK/pool-sample.txt" 2>&1) &
      sampler=$!
    fi
    measure "toolbox_$db" "$TB_PID" "$tb_url" "$tb"
    if [[ $db == pg && -n $DH_PID ]]; then measure dbhub_pg "$DH_PID" "$dh_url" "$dh_body"; fi
  done
done
# The cached call against /heartbeat of the same server, alternated: the framework's cost per call.
log "cached call and /heartbeat: warm-up ${WARMUP} s"
wrk_run "$ours_url" "$CONNECTIONS" "$WARMUP" "$THREADS" WRK_MODE=ids WRK_BODY="$ours_cached" WRK_MAX_ID=10
(( W_ERRORS == 0 )) || die "ours: cached warm-up had $W_ERRORS errors; see $OUT/logs/ours.log"
for i in $(seq 1 "$RUNS"); do
  measure ours_heartbeat "$OURS_PID" "http://127.0.0.1:$PORT/heartbeat" ""
  measure ours_cached "$OURS_PID" "$ours_url" "$ours_cached" 10
done
wait "$sampler" || true
pool_sample=$(paste -sd ';' "$WORK/pool-sample.txt" 2>/dev/null | sed 's/;/; /g')
ours_loaded=$(rss_mb "$OURS_PID"); ours_hwm=$(hwm_mb "$OURS_PID")
tb_loaded=$(rss_mb "$TB_PID"); tb_hwm=$(hwm_mb "$TB_PID")
stop_pid "$OURS_PID"; stop_pid "$TB_PID"
dh_loaded=""
if [[ -n $DH_PID ]]; then dh_loaded=$(rss_mb "$DH_PID"); stop_pid "$DH_PID"; fi

# PostgreSQL's own ceiling on this machine: pgbench running the same statement, prepared, with as
# many clients as wrk has connections; the CPU its backends and pgbench itself spend per query.
log "pgbench: the same point select, $CONNECTIONS clients, ${DURATION} s"
printf '\\set id random(1, %d)\n%s = :id;\n' "$ROWS" "$PG_SELECT" >"$WORK/point-select.sql"
children_ticks; pgb_wrk_before=$CHILD_TICKS
pgb_secs=$((DURATION + 12)) # room for the clients to connect before the measured window
PGAPPNAME=pgbench-ceiling pgbench -n -M prepared -c "$CONNECTIONS" -j "$THREADS" -T "$pgb_secs" \
  -f "$WORK/point-select.sql" "$PG_URL" >"$WORK/pgbench.txt" 2>&1 &
pgb_pid=$!
# the backends' CPU over DURATION seconds in the middle of the run (they exit with pgbench), once
# every client is connected
pgb_pids=()
for _ in $(seq 1 50); do
  # shellcheck disable=SC2207
  pgb_pids=($(pg_pids "$pgb_pid"))
  (( ${#pgb_pids[@]} >= CONNECTIONS )) && break
  sleep 0.2
done
pids_mark "${pgb_pids[@]}"; pgb_t0=$(now_ms)
sleep "$DURATION"
pgb_pg_used=$(pids_delta); pgb_t1=$(now_ms)
wait "$pgb_pid" || { cat "$WORK/pgbench.txt" >&2; die "pgbench failed"; }
children_ticks; pgb_wrk_after=$CHILD_TICKS
pgb_tps=$(awk '/^tps = / {printf "%.0f\n", $3; exit}' "$WORK/pgbench.txt")
pgb_pg=$(awk -v d="$pgb_pg_used" -v hz="$CLK_TCK" -v tps="$pgb_tps" -v ms=$((pgb_t1 - pgb_t0)) \
  'BEGIN {printf "%.0f\n", d * 1e6 / hz / (tps * ms / 1000)}')
pgb_self=$(per_call $((pgb_wrk_after - pgb_wrk_before)) $((pgb_tps * pgb_secs)))
log "pgbench: $pgb_tps tps; PostgreSQL $pgb_pg µs, pgbench $pgb_self µs CPU per query"

# Memory with the flags docs/operations.md recommends: the same load server, RUNS PostgreSQL runs.
log "ours with $RECOMMENDED_FLAGS: warm-up ${WARMUP} s, $RUNS PostgreSQL runs"
launch_ours ours-xmx "$WORK/ours" "$RECOMMENDED_FLAGS"; OURS_PID=$LAUNCH_PID
first_answer ours-xmx "$ours_url" "${ours_body%.json}-42.json"
sleep 2
xmx_idle=$(rss_mb "$OURS_PID")
wrk_run "$ours_url" "$CONNECTIONS" "$WARMUP" "$THREADS" WRK_MODE=ids WRK_BODY="$ours_body" WRK_MAX_ID=$ROWS
for i in $(seq 1 "$RUNS"); do measure ours_pg_xmx "$OURS_PID" "$ours_url" "$ours_body"; done
xmx_loaded=$(rss_mb "$OURS_PID"); xmx_hwm=$(hwm_mb "$OURS_PID")
stop_pid "$OURS_PID"
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

# --- report ----------------------------------------------------------------------------------
java_version=$("$JAVA_BIN" -version 2>&1 | head -n 1)
tb_version=$("$TOOLBOX" --version 2>&1 | head -n 1)
dh_line=""
if [[ -n $DH_PID ]]; then dh_line="; DBHub $DBHUB_VERSION (npm \`$DBHUB_PACKAGE\`) on Node $(node --version)"; fi
pg_version=$(psql "$PG_URL" -tAc 'SHOW server_version' | awk '{print $1}')
commit=$(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(cd "$ROOT" && [[ -n $(git status --porcelain -- src pom.xml 2>/dev/null) ]] && echo ", with uncommitted changes" || true)
cpu=$(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)
mem=$(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)
CPUS=$(nproc)

row() { # row KEY LABEL
  echo "| $2 | $(med "$1" M_RPS) | $(us_to_ms "$(med "$1" M_P50)") ms | $(us_to_ms "$(med "$1" M_P99)") ms | $(med "$1" M_CPU) µs | ${M_RPS[$1]# } | ${M_CPU[$1]# } | ${M_ERR[$1]:-0} |"
}
ratios() { # ratios DB: throughput and CPU per call, ours / Toolbox
  local tp cpu
  tp=$(ratio "$(med "ours_$1" M_RPS)" "$(med "toolbox_$1" M_RPS)")
  cpu=$(ratio "$(med "ours_$1" M_CPU)" "$(med "toolbox_$1" M_CPU)")
  echo "Ours / Toolbox: throughput **${tp}×**, CPU per call **${cpu}×** (Toolbox spends $(ratio "$(med "toolbox_$1" M_CPU)" "$(med "ours_$1" M_CPU)")× our CPU per call)."
}
m_os=$(median "${ours_start[@]}"); m_ts=$(median "${tb_start[@]}"); m_oa=$(median "${aot_start[@]}")
pg_tp=$(ratio "$(med ours_pg M_RPS)" "$(med toolbox_pg M_RPS)")
cached_r=$(ratio "$(med ours_cached M_RPS)" "$(med ours_heartbeat M_RPS)")
machine_row() { # machine_row KEY LABEL: the CPU a call costs the machine, by process
  local s p w
  s=$(med "$1" M_CPU); p=$(med "$1" M_PGCPU); w=$(med "$1" M_WRKCPU)
  echo "| $2 | $(med "$1" M_RPS) | $s µs | $p µs | $w µs | $(awk -v a="$s" -v b="$p" -v c="$w" 'BEGIN {print a + b + c}') µs |"
}
sum3() { awk -v a="$(med "$1" M_CPU)" -v b="$(med "$1" M_PGCPU)" -v c="$(med "$1" M_WRKCPU)" 'BEGIN {print a + b + c}'; }
rest_ours=$(awk -v b="$(med ours_pg M_PGCPU)" -v c="$(med ours_pg M_WRKCPU)" 'BEGIN {print b + c}')
reach_free=$(ratio "$(sum3 toolbox_pg)" "$rest_ours")
reach_now=$(ratio "$(sum3 toolbox_pg)" "$(sum3 ours_pg)")
server_for_2x=$(awk -v t="$(sum3 toolbox_pg)" -v r="$rest_ours" 'BEGIN {printf "%.0f\n", t / 2 - r}')
dbhub_rows=""; dbhub_ratio=""
if [[ -n $DH_PID ]]; then
  dbhub_rows=$(row dbhub_pg "DBHub $DBHUB_VERSION, PostgreSQL")
  dbhub_ratio="
PostgreSQL, ours / DBHub: throughput **$(ratio "$(med ours_pg M_RPS)" "$(med dbhub_pg M_RPS)")×**, CPU per call **$(ratio "$(med ours_pg M_CPU)" "$(med dbhub_pg M_CPU)")×**; DBHub's RSS after load $dh_loaded MB."
fi
rss_r=$(ratio "$ours_loaded" "$tb_loaded")
xmx_r=$(ratio "$xmx_loaded" "$tb_loaded")

section=$(cat <<EOF
$START_MARK
## Peers: Google MCP Toolbox for Databases and DBHub vs ours ($started, \`bench/peer-toolbox.sh\`)

- Machine: $(nproc) CPUs ($cpu), $mem RAM, $(uname -sr); load average $load_start at start, $load_end at the end.
  PostgreSQL, SQLite, wrk and both servers share these CPUs.
- Versions: ours \`$commit\`$dirty on $java_version (default JVM flags${BENCH_JAVA_OPTS:+ plus \`$BENCH_JAVA_OPTS\`});
  $tb_version (npm \`$TOOLBOX_PACKAGE\`)$dh_line; PostgreSQL $pg_version; $(sqlite3 --version | awk '{print "SQLite " $1}') (file shared by both);
  $(wrk -v 2>&1 | head -n 1 | awk '{print $1, $2}').
- Method: the same $ROWS-row table, a point select by a random id (1–$ROWS) per call; wrk with $CONNECTIONS
  connections and $THREADS threads, stateless POSTs without a session (ours: \`tools/call\` of \`execute\`, protocol 2025-11-25;
  Toolbox and DBHub: \`tools/call\` of their tool by name); ${WARMUP} s warm-up per server and database, then $RUNS runs of ${DURATION} s,
  the servers alternating run by run; figures are medians of the runs. Pool of $POOL connections on every side
  (ours: \`max_connections\`, split over our listeners; Toolbox: \`queryParams.pool_max_conns\`; DBHub:
  \`pool_max_connections\`); connections to \`$PG_DB\` seen mid-run: $pool_sample.
  CPU per call is the server process's utime+stime (\`/proc/PID/stat\`, ${CLK_TCK} Hz ticks) over the run divided by its requests.

### Point select, $CONNECTIONS connections

| server, database | req/s | p50 | p99 | CPU per call | req/s per run | CPU µs per run | errors |
|---|---|---|---|---|---|---|---|
$(row ours_pg "ours, PostgreSQL")
$(row toolbox_pg "Toolbox $TOOLBOX_VERSION, PostgreSQL")
${dbhub_rows}
$(row ours_sqlite "ours, SQLite")
$(row toolbox_sqlite "Toolbox $TOOLBOX_VERSION, SQLite")

PostgreSQL: $(ratios pg)
SQLite: $(ratios sqlite)${dbhub_ratio}

### Where a point select's CPU goes, and how much of 2× this machine allows

| PostgreSQL point select | req/s | server | PostgreSQL backends | load generator | sum per call |
|---|---|---|---|---|---|
$(machine_row ours_pg "ours")
$(machine_row toolbox_pg "Toolbox $TOOLBOX_VERSION")
${DH_PID:+$(machine_row dbhub_pg "DBHub $DBHUB_VERSION")}
| pgbench, prepared, $CONNECTIONS clients (PostgreSQL alone) | $pgb_tps | | $pgb_pg µs | $pgb_self µs (pgbench) | $(awk -v a="$pgb_pg" -v b="$pgb_self" 'BEGIN {print a + b}') µs |

CPU per call of each process over each run (\`/proc/PID/stat\`): the server; the PostgreSQL backends
serving its pool's connections (matched by client port); wrk (bash's \`times\` around it). Kernel work the scheduler
charges to no process (softirq) is not in these sums. With the machine's ${CPUS} CPUs saturated,
req/s goes as the inverse of the sum, so ours / Toolbox is about **${reach_now}×** at today's
costs, and at most **${reach_free}×** with a server that cost nothing (PostgreSQL and wrk alone).
2× needs our server at about **${server_for_2x} µs** per call here (now $(med ours_pg M_CPU) µs).

### Cached call against /heartbeat, same server, $CONNECTIONS connections

| | req/s | p50 | p99 | CPU per call | req/s per run | CPU µs per run | errors |
|---|---|---|---|---|---|---|---|
$(row ours_heartbeat "GET /heartbeat")
$(row ours_cached "execute \`get-customer-cached\` (result-cache hits, ids 1–10)")

Cached call / heartbeat: **${cached_r}** of the heartbeat's rate; a cached call costs $(ratio "$(med ours_cached M_CPU)" "$(med ours_heartbeat M_CPU)")× the heartbeat's CPU.

### Start-up and memory

| server | start-up to first answer (median) | starts (ms) | CPU used until then | RSS idle | RSS after load (peak) |
|---|---|---|---|---|---|
| ours | $m_os ms | ${ours_start[*]} | $(median "${ours_start_cpu[@]}") ms | $ours_idle MB | $ours_loaded MB ($ours_hwm MB) |
| ours, start-up cache (\`$CACHE_FLAG…\`, made by \`aot-cache\`) | $m_oa ms | ${aot_start[*]} | $(median "${aot_start_cpu[@]}") ms | | |
| ours, \`$RECOMMENDED_FLAGS\` | | | | $xmx_idle MB | $xmx_loaded MB ($xmx_hwm MB) |
| Toolbox $TOOLBOX_VERSION | $m_ts ms | ${tb_start[*]} | $(median "${tb_start_cpu[@]}") ms | $tb_idle MB | $tb_loaded MB ($tb_hwm MB) |

Start-up is process start to the first successful \`tools/call\` of the PostgreSQL tool (polled every 10 ms) for a
project/config holding only that tool, after one unmeasured start each. RSS is of the load servers (PostgreSQL
and SQLite tools), idle 2 s after their first answers and after all runs. The row with
\`$RECOMMENDED_FLAGS\` (the flags docs/operations.md recommends) is the same project started again after
the runs, warmed up and loaded with $RUNS PostgreSQL runs (not alternated with Toolbox): $(med ours_pg_xmx M_RPS) req/s
(${M_RPS[ours_pg_xmx]# }), p99 $(us_to_ms "$(med ours_pg_xmx M_P99)") ms, $(med ours_pg_xmx M_CPU) µs CPU per call (${M_CPU[ours_pg_xmx]# }),
${M_ERR[ours_pg_xmx]:-0} errors.

### Against the targets of issues 17 and 33 (ratios from this run)

| target | measured | |
|---|---|---|
| PostgreSQL throughput ≥ 2× Toolbox (moonshot 3×) | ${pg_tp}× | $(meets "$pg_tp" ">=" 2) |
| PostgreSQL CPU per call ≤ 100 µs (moonshot 60 µs) | $(med ours_pg M_CPU) µs | $(meets "$(med ours_pg M_CPU)" "<=" 100) |
| cached call ≥ 0.5 × /heartbeat | ${cached_r} | $(meets "$cached_r" ">=" 0.5) |
| start-up ≤ 1 s (moonshot within 3× Toolbox) | $m_os ms, $(ratio "$m_os" "$m_ts")× Toolbox | $(meets "$m_os" "<=" 1000) |
| … with the start-up cache (\`aot-cache\`) | $m_oa ms, $(ratio "$m_oa" "$m_ts")× Toolbox | $(meets "$m_oa" "<=" 1000) |
| RSS after load ≤ 1.2× Toolbox (issue 33; issue 17 asked 1.5×), recommended flags, PostgreSQL load only | ${xmx_r}× (${rss_r}× with default flags, both loads) | $(meets "$xmx_r" "<=" 1.2) |

Servers (started by the script, \`<project>\` and \`<config.yaml>\` generated in bench/out/peer-toolbox):
\`\`\`
$OURS_CMD_SHOWN
$(echo "$OURS_CMD_SHOWN" | sed "s|java |java $RECOMMENDED_FLAGS |")
$(echo "$AOT_CMD" | sed "s|$ROOT/||g; s|$OUT|bench/out|g")   # then:
$(echo "$OURS_CMD_SHOWN" | sed "s|java |java $CACHE_FLAG$(echo "$CACHE_FILE" | sed "s|$OUT|bench/out|") |")
$TB_CMD_SHOWN
${DH_PID:+$DH_CMD_SHOWN}
\`\`\`
Load (each line ran $RUNS times, alternated; the first $RUNS times more against the server with the recommended flags):
$(commands_block "${CMDS[@]}" | sed "s|$OUT|bench/out|g")
$END_MARK
EOF
)

if [[ $RESULTS == "-" ]]; then
  echo "$section"
else
  if grep -qF "$START_MARK" "$RESULTS"; then
    SECTION_TEXT=$section awk -v start="$START_MARK" -v end="$END_MARK" '
      $0 == start {print ENVIRON["SECTION_TEXT"]; skip = 1; next}
      skip && $0 == end {skip = 0; next}
      !skip {print}' "$RESULTS" >"$RESULTS.tmp" && mv "$RESULTS.tmp" "$RESULTS"
  else
    printf '\n%s\n' "$section" >>"$RESULTS"
  fi
  log "peer section written to ${RESULTS#"$ROOT"/}"
fi

#!/usr/bin/env bash
# Ours against Google's MCP Toolbox for Databases, in one run, alternated run by run:
#   - a point select by a random primary key of 100,000 rows, on PostgreSQL and on SQLite, wrk
#     with 32 connections, stateless POSTs (ours: a tools/call of `execute` without a session;
#     Toolbox: a tools/call of its tool by name), after a warm-up of each server;
#   - server CPU per call: utime+stime of the server process (/proc/PID/stat) around each run,
#     divided by the requests wrk completed (the figure the shared machine disturbs least);
#   - start-up: process start to the first successful tools/call of the PostgreSQL tool (polled
#     every 10 ms), for a project/config holding only that tool;
#   - RSS (/proc/PID/status) when idle after start-up, and after the load (with the peak).
# The section between the peer-toolbox markers in bench/RESULTS.md is replaced (or appended).
#
#   bench/peer-toolbox.sh
#
# Toolbox comes from npm into bench/out/npm (git-ignored; nothing vendored). The table lives in
# database `test` on 127.0.0.1:5432 (user postgres, trust) and is dropped at the end; the SQLite
# file is in bench/out. Both servers listen on 127.0.0.1 only.
#
# Environment (defaults in brackets):
#   BENCH_RUNS [3] runs per server and database   BENCH_DURATION [10] seconds per run
#   BENCH_WARMUP [15] seconds of warm-up per server and database   BENCH_CONNECTIONS [32]
#   BENCH_THREADS [2] wrk threads   BENCH_STARTUP_RUNS [3] measured starts per server
#   BENCH_PORT [19310] ours; Toolbox gets the next port   BENCH_PG_POOL [10] pool size, both sides
#   BENCH_JAVA [JDK 25 under /usr/lib/jvm when present, else java]   BENCH_JAVA_OPTS [] JVM flags
#   BENCH_RESULTS [bench/RESULTS.md] ("-" to print only)   BENCH_OUT [bench/out]
# Needs: java 17+, mvn (to build the jar when missing), wrk, curl, npm, psql, sqlite3.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source "$BENCH_DIR/scenarios/pg.sh" # write_pg_project, execute_body

TOOLBOX_VERSION=1.12.0
TOOLBOX_PACKAGE=@toolbox-sdk/server-linux-x64@$TOOLBOX_VERSION
RUNS=${BENCH_RUNS:-3}
DURATION=${BENCH_DURATION:-10}
WARMUP=${BENCH_WARMUP:-15}
CONNECTIONS=${BENCH_CONNECTIONS:-32}
THREADS=${BENCH_THREADS:-2}
STARTS=${BENCH_STARTUP_RUNS:-3}
PORT=${BENCH_PORT:-19310}
TB_PORT=$((PORT + 1))
POOL=${BENCH_PG_POOL:-10}
RESULTS=${BENCH_RESULTS:-$BENCH_DIR/RESULTS.md}
if [[ -n ${BENCH_JAVA:-} ]]; then JAVA_BIN=$BENCH_JAVA
elif [[ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ]]; then JAVA_BIN=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
else JAVA_BIN=java; fi

PG_DB=test
PG_URL="postgres://postgres@127.0.0.1:5432/$PG_DB?sslmode=disable"
TABLE=bench_peer_toolbox_customers
PG_SELECT="SELECT id, name, email, country, created_at FROM $TABLE WHERE id"
LITE_SELECT="SELECT id, name, email, country, created_at FROM customers WHERE id"
ROWS=100000
WORK=$OUT/peer-toolbox
TOOLBOX=$OUT/npm/node_modules/@toolbox-sdk/server-linux-x64/bin/toolbox
RECOMMENDED_FLAGS="-Xmx256m -XX:+ExitOnOutOfMemoryError" # docs/operations.md
START_MARK='<!-- peer-toolbox:start (bench/peer-toolbox.sh replaces this section) -->'
END_MARK='<!-- peer-toolbox:end -->'

for c in wrk curl npm psql sqlite3; do command -v "$c" >/dev/null || die "$c is needed"; done

drop_table() { psql "$PG_URL" -qc "DROP TABLE IF EXISTS $TABLE" >/dev/null 2>&1 || true; }
trap 'cleanup; drop_table' EXIT INT TERM

ticks_to_ms() { awk -v t="$1" -v hz="$CLK_TCK" 'BEGIN {printf "%d\n", t * 1000 / hz}'; }

install_toolbox() {
  if [[ ! -x $TOOLBOX ]] || ! "$TOOLBOX" --version 2>/dev/null | grep -q "version $TOOLBOX_VERSION"; then
    log "installing $TOOLBOX_PACKAGE into ${OUT#"$ROOT"/}/npm"
    npm install --prefix "$OUT/npm" --no-audit --no-fund --loglevel error "$TOOLBOX_PACKAGE" >&2
  fi
  [[ -x $TOOLBOX ]] || die "no toolbox binary at $TOOLBOX after npm install"
}

load_data() {
  log "loading $ROWS rows into $PG_DB.$TABLE and $WORK/customers.db"
  psql "$PG_URL" -q >/dev/null <<SQL
DROP TABLE IF EXISTS $TABLE;
CREATE TABLE $TABLE (
  id         integer PRIMARY KEY,
  name       text NOT NULL,
  email      text NOT NULL,
  country    char(2) NOT NULL,
  created_at timestamptz NOT NULL
);
INSERT INTO $TABLE
  SELECT i, 'Customer ' || i, 'customer' || i || '@example.com', (ARRAY['GB','FR','DE','US','JP'])[1 + i % 5],
         timestamptz '2024-01-01 00:00:00+00' + i * interval '1 minute'
  FROM generate_series(1, $ROWS) AS i;
ANALYZE $TABLE;
SQL
  rm -f "$WORK/customers.db"
  sqlite3 "$WORK/customers.db" <<SQL
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL,
  country TEXT NOT NULL, created_at TEXT NOT NULL);
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < $ROWS)
INSERT INTO customers
  SELECT i, 'Customer ' || i, 'customer' || i || '@example.com',
         CASE i % 5 WHEN 0 THEN 'GB' WHEN 1 THEN 'FR' WHEN 2 THEN 'DE' WHEN 3 THEN 'US' ELSE 'JP' END,
         strftime('%Y-%m-%dT%H:%M:%SZ', '2024-01-01', '+' || i || ' minutes')
  FROM s;
SQL
}

# Our projects: pg-only (start-up) and pg + SQLite (load). write_pg_project reads PG_SELECT.
write_projects() {
  write_pg_project "$WORK/ours-pg" "$POOL"
  write_pg_project "$WORK/ours" "$POOL"
  mkdir -p "$WORK/ours/data" "$WORK/ours/app/tools/get-customer-sqlite"
  cp "$WORK/customers.db" "$WORK/ours/data/customers.db"
  cat >"$WORK/ours/app/adapters/lite.terse" <<EOF
connector: sqlite
connection_string: 'sqlite:data/customers.db'
EOF
  cat >"$WORK/ours/app/tools/get-customer-sqlite/config.terse" <<EOF
description: 'Get one customer by primary key'
use: lite
statement: |
  $LITE_SELECT = {{ inputs.customer_id }}
inputs:
  customer_id: { type: int, description: 'Primary key' }
EOF
}

# Toolbox configs (sources:/tools: YAML; \$1 and ? are its parameter markers). Its postgres source
# requires a password; the local server trusts user postgres, so any value works. pool_max_conns
# (pgx) gives it the same pool size as ours.
write_toolbox_configs() {
  local pg_part
  pg_part=$(cat <<EOF
sources:
  bench-pg:
    kind: postgres
    host: 127.0.0.1
    port: 5432
    database: $PG_DB
    user: postgres
    password: unused-with-trust-auth
    queryParams:
      pool_max_conns: "$POOL"
EOF
)
  local pg_tool
  pg_tool=$(cat <<EOF
  get-customer:
    kind: postgres-sql
    source: bench-pg
    description: Get one customer by primary key
    parameters:
      - name: customer_id
        type: integer
        description: Primary key
    statement: $PG_SELECT = \$1
EOF
)
  printf '%s\ntools:\n%s\n' "$pg_part" "$pg_tool" >"$WORK/toolbox-pg.yaml"
  cat >"$WORK/toolbox.yaml" <<EOF
$pg_part
  bench-sqlite:
    kind: sqlite
    database: $WORK/customers.db
tools:
$pg_tool
  get-customer-sqlite:
    kind: sqlite-sql
    source: bench-sqlite
    description: Get one customer by primary key
    parameters:
      - name: customer_id
        type: integer
        description: Primary key
    statement: $LITE_SELECT = ?
EOF
}

OURS_CMD_SHOWN="BENCH_PG_URL='$PG_URL' $JAVA_BIN ${BENCH_JAVA_OPTS:+$BENCH_JAVA_OPTS }-jar target/hyperterse.jar start <project> --port $PORT --log-level 2"
TB_CMD_SHOWN="bench/out/npm/node_modules/@toolbox-sdk/server-linux-x64/bin/toolbox --config <config.yaml> --port $TB_PORT --disable-reload --disable-version-check --log-level WARN"

# launch_ours NAME DIR [JVM flags] / launch_toolbox NAME CONFIG: start the process, set LAUNCH_PID
# and LAUNCH_START_MS.
launch_ours() {
  port_free "$PORT" || die "port $PORT is in use (set BENCH_PORT)"
  LAUNCH_START_MS=$(now_ms)
  # shellcheck disable=SC2086
  BENCH_PG_URL=$PG_URL "$JAVA_BIN" ${BENCH_JAVA_OPTS:-} ${3:-} -jar "$JAR" start "$2" --port "$PORT" --log-level 2 \
    >"$OUT/logs/$1.log" 2>&1 &
  LAUNCH_PID=$!
  BENCH_PIDS+=("$LAUNCH_PID")
}
launch_toolbox() {
  port_free "$TB_PORT" || die "port $TB_PORT is in use (set BENCH_PORT)"
  LAUNCH_START_MS=$(now_ms)
  "$TOOLBOX" --config "$2" --port "$TB_PORT" --disable-reload --disable-version-check --log-level WARN \
    >"$OUT/logs/$1.log" 2>&1 &
  LAUNCH_PID=$!
  BENCH_PIDS+=("$LAUNCH_PID")
}

# first_answer NAME URL BODY_FILE: polls a tools/call every 10 ms until it returns the customer
# row; sets READY_MS (since LAUNCH_START_MS) and READY_CPU_MS (CPU the process used until then).
first_answer() {
  local name=$1 url=$2 body=$3 answer
  while :; do
    answer=$(curl -s --max-time 2 -H 'Content-Type: application/json' \
      -H 'Accept: application/json, text/event-stream' --data-binary "@$body" "$url" 2>/dev/null || true)
    if [[ $answer == *'"result"'* && $answer == *'Customer 42'* && $answer != *'"isError":true'* ]]; then
      READY_MS=$(( $(now_ms) - LAUNCH_START_MS ))
      READY_CPU_MS=$(ticks_to_ms "$(cpu_ticks "$LAUNCH_PID")")
      return 0
    fi
    if ! kill -0 "$LAUNCH_PID" 2>/dev/null || (( $(now_ms) - LAUNCH_START_MS > 120000 )); then
      log "$name gave no answer; last: ${answer:0:300}; its log:"
      tail -n 30 "$OUT/logs/$name.log" >&2
      die "$name did not start"
    fi
    sleep 0.01
  done
}

# measure KEY PID URL BODY: one wrk run; appends req/s, p50, p99 (µs), CPU µs per call and errors
# to the arrays of KEY (e.g. ours_pg).
declare -A M_RPS M_P50 M_P99 M_CPU M_ERR
CMDS=()
measure() {
  local key=$1 pid=$2 url=$3 body=$4 before after cpu
  before=$(cpu_ticks "$pid")
  wrk_run "$url" "$CONNECTIONS" "$DURATION" "$THREADS" WRK_MODE=ids WRK_BODY="$body" WRK_MAX_ID=$ROWS
  after=$(cpu_ticks "$pid")
  cpu=$(cpu_us_per_call "$before" "$after" "$W_REQUESTS")
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
load_data
write_projects
write_toolbox_configs

ours_body=$WORK/ours-pg.json; tb_body=$WORK/toolbox-pg.json
ours_lite=$WORK/ours-sqlite.json; tb_lite=$WORK/toolbox-sqlite.json
execute_body get-customer '{"customer_id":__ID__}' >"$ours_body"
execute_body get-customer-sqlite '{"customer_id":__ID__}' >"$ours_lite"
printf '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"%s","arguments":{"customer_id":__ID__}}}\n' \
  get-customer >"$tb_body"
printf '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"%s","arguments":{"customer_id":__ID__}}}\n' \
  get-customer-sqlite >"$tb_lite"
for f in "$ours_body" "$tb_body" "$ours_lite" "$tb_lite"; do sed 's/__ID__/42/' "$f" >"${f%.json}-42.json"; done
ours_url=http://127.0.0.1:$PORT/mcp; tb_url=http://127.0.0.1:$TB_PORT/mcp

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

# Load: both servers up, each serving PostgreSQL and SQLite.
launch_ours ours "$WORK/ours"; OURS_PID=$LAUNCH_PID; first_answer ours "$ours_url" "${ours_body%.json}-42.json"
launch_toolbox toolbox "$WORK/toolbox.yaml"; TB_PID=$LAUNCH_PID; first_answer toolbox "$tb_url" "${tb_body%.json}-42.json"
LAUNCH_PID=$OURS_PID; first_answer ours "$ours_url" "${ours_lite%.json}-42.json"
LAUNCH_PID=$TB_PID; first_answer toolbox "$tb_url" "${tb_lite%.json}-42.json"
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
  done
done
wait "$sampler" || true
pool_sample=$(paste -sd ';' "$WORK/pool-sample.txt" 2>/dev/null | sed 's/;/; /g')
ours_loaded=$(rss_mb "$OURS_PID"); ours_hwm=$(hwm_mb "$OURS_PID")
tb_loaded=$(rss_mb "$TB_PID"); tb_hwm=$(hwm_mb "$TB_PID")
stop_pid "$OURS_PID"; stop_pid "$TB_PID"

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
pg_version=$(psql "$PG_URL" -tAc 'SHOW server_version' | awk '{print $1}')
commit=$(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(cd "$ROOT" && [[ -n $(git status --porcelain -- src pom.xml 2>/dev/null) ]] && echo ", with uncommitted changes" || true)
cpu=$(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)
mem=$(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)

row() { # row KEY LABEL
  echo "| $2 | $(med "$1" M_RPS) | $(us_to_ms "$(med "$1" M_P50)") ms | $(us_to_ms "$(med "$1" M_P99)") ms | $(med "$1" M_CPU) µs | ${M_RPS[$1]# } | ${M_CPU[$1]# } | ${M_ERR[$1]:-0} |"
}
ratios() { # ratios DB: throughput and CPU per call, ours / Toolbox
  local tp cpu
  tp=$(ratio "$(med "ours_$1" M_RPS)" "$(med "toolbox_$1" M_RPS)")
  cpu=$(ratio "$(med "ours_$1" M_CPU)" "$(med "toolbox_$1" M_CPU)")
  echo "Ours / Toolbox: throughput **${tp}×**, CPU per call **${cpu}×** (Toolbox spends $(ratio "$(med "toolbox_$1" M_CPU)" "$(med "ours_$1" M_CPU)")× our CPU per call)."
}
m_os=$(median "${ours_start[@]}"); m_ts=$(median "${tb_start[@]}")
pg_tp=$(ratio "$(med ours_pg M_RPS)" "$(med toolbox_pg M_RPS)")
rss_r=$(ratio "$ours_loaded" "$tb_loaded")
xmx_r=$(ratio "$xmx_loaded" "$tb_loaded")

section=$(cat <<EOF
$START_MARK
## Peer: Google MCP Toolbox for Databases vs ours ($started, \`bench/peer-toolbox.sh\`)

- Machine: $(nproc) CPUs ($cpu), $mem RAM, $(uname -sr); load average $load_start at start, $load_end at the end.
  PostgreSQL, SQLite, wrk and both servers share these CPUs.
- Versions: ours \`$commit\`$dirty on $java_version (default JVM flags${BENCH_JAVA_OPTS:+ plus \`$BENCH_JAVA_OPTS\`});
  $tb_version (npm \`$TOOLBOX_PACKAGE\`); PostgreSQL $pg_version; $(sqlite3 --version | awk '{print "SQLite " $1}') (file shared by both);
  $(wrk -v 2>&1 | head -n 1 | awk '{print $1, $2}').
- Method: the same $ROWS-row table, a point select by a random id (1–$ROWS) per call; wrk with $CONNECTIONS
  connections and $THREADS threads, stateless POSTs without a session (ours: \`tools/call\` of \`execute\`, protocol 2025-11-25;
  Toolbox: \`tools/call\` of its tool by name); ${WARMUP} s warm-up per server and database, then $RUNS runs of ${DURATION} s,
  ours and Toolbox alternating run by run; figures are medians of the runs. Pool of $POOL connections on both sides
  (ours: \`max_connections\`; Toolbox: \`queryParams.pool_max_conns\`); connections to \`$PG_DB\` seen mid-run: $pool_sample.
  CPU per call is the server process's utime+stime (\`/proc/PID/stat\`, ${CLK_TCK} Hz ticks) over the run divided by its requests.

### Point select, $CONNECTIONS connections

| server, database | req/s | p50 | p99 | CPU per call | req/s per run | CPU µs per run | errors |
|---|---|---|---|---|---|---|---|
$(row ours_pg "ours, PostgreSQL")
$(row toolbox_pg "Toolbox $TOOLBOX_VERSION, PostgreSQL")
$(row ours_sqlite "ours, SQLite")
$(row toolbox_sqlite "Toolbox $TOOLBOX_VERSION, SQLite")

PostgreSQL: $(ratios pg)
SQLite: $(ratios sqlite)

### Start-up and memory

| server | start-up to first answer (median) | starts (ms) | CPU used until then | RSS idle | RSS after load (peak) |
|---|---|---|---|---|---|
| ours | $m_os ms | ${ours_start[*]} | $(median "${ours_start_cpu[@]}") ms | $ours_idle MB | $ours_loaded MB ($ours_hwm MB) |
| ours, \`$RECOMMENDED_FLAGS\` | | | | $xmx_idle MB | $xmx_loaded MB ($xmx_hwm MB) |
| Toolbox $TOOLBOX_VERSION | $m_ts ms | ${tb_start[*]} | $(median "${tb_start_cpu[@]}") ms | $tb_idle MB | $tb_loaded MB ($tb_hwm MB) |

Start-up is process start to the first successful \`tools/call\` of the PostgreSQL tool (polled every 10 ms) for a
project/config holding only that tool, after one unmeasured start each. RSS is of the load servers (PostgreSQL
and SQLite tools), idle 2 s after their first answers and after all runs. The row with
\`$RECOMMENDED_FLAGS\` (the flags docs/operations.md recommends) is the same project started again after
the runs, warmed up and loaded with $RUNS PostgreSQL runs (not alternated with Toolbox): $(med ours_pg_xmx M_RPS) req/s
(${M_RPS[ours_pg_xmx]# }), p99 $(us_to_ms "$(med ours_pg_xmx M_P99)") ms, $(med ours_pg_xmx M_CPU) µs CPU per call (${M_CPU[ours_pg_xmx]# }),
${M_ERR[ours_pg_xmx]:-0} errors.

### Against the targets of issue 17 (ratios from this run)

| target | measured | |
|---|---|---|
| PostgreSQL throughput ≥ 2× Toolbox (moonshot 3×) | ${pg_tp}× | $(meets "$pg_tp" ">=" 2) |
| PostgreSQL CPU per call ≤ 100 µs (moonshot 60 µs) | $(med ours_pg M_CPU) µs | $(meets "$(med ours_pg M_CPU)" "<=" 100) |
| start-up ≤ 1 s (moonshot within 3× Toolbox) | $m_os ms, $(ratio "$m_os" "$m_ts")× Toolbox | $(meets "$m_os" "<=" 1000) |
| RSS after load ≤ 1.5× Toolbox, recommended flags | ${xmx_r}× (${rss_r}× with default flags) | $(meets "$xmx_r" "<=" 1.5) |

Servers (started by the script, \`<project>\` and \`<config.yaml>\` generated in bench/out/peer-toolbox):
\`\`\`
$OURS_CMD_SHOWN
$(echo "$OURS_CMD_SHOWN" | sed "s|java |java $RECOMMENDED_FLAGS |")
$TB_CMD_SHOWN
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

# What bench/peer-toolbox.sh and bench/rss.sh share (sourced after lib.sh, with PORT, TB_PORT and
# WORK set): Google's MCP Toolbox from npm into bench/out/npm, the 100,000-row table in database
# `test` (named after PORT, so two runs do not meet) and its SQLite copy in WORK, our projects
# (WORK/ours-pg: PostgreSQL only; WORK/ours: PostgreSQL and SQLite) and Toolbox's configs for the
# same tools, the flags docs/operations.md recommends, and starting either server up to its first
# answer.
source "$BENCH_DIR/scenarios/pg.sh" # write_pg_project, execute_body

TOOLBOX_VERSION=1.12.0
TOOLBOX_PACKAGE=@toolbox-sdk/server-linux-x64@$TOOLBOX_VERSION
PG_DB=test
PG_PORT=5432
PG_URL="postgres://postgres@127.0.0.1:$PG_PORT/$PG_DB?sslmode=disable"
TABLE=bench_peer_${PORT}_customers
PG_SELECT="SELECT id, name, email, country, created_at FROM $TABLE WHERE id"
LITE_SELECT="SELECT id, name, email, country, created_at FROM customers WHERE id"
ROWS=100000
TOOLBOX=$OUT/npm/node_modules/@toolbox-sdk/server-linux-x64/bin/toolbox
RECOMMENDED_FLAGS="-XX:+UseSerialGC -Xms32m -Xmx256m -XX:TrimNativeHeapInterval=5000 -XX:+ExitOnOutOfMemoryError" # docs/operations.md

drop_table() { psql "$PG_URL" -qc "DROP TABLE IF EXISTS $TABLE" >/dev/null 2>&1 || true; }

# ticks_to_ms TICKS: clock ticks (cpu_ticks) in milliseconds.
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

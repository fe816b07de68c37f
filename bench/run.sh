#!/usr/bin/env bash
# Benchmarks of Hyperterse for the JVM, each against a baseline measured in the same run, so a
# noisy shared machine moves both sides alike. The server is the fat jar (built when missing or
# stale), started as its own process on 127.0.0.1, warmed up, then driven from other processes
# (wrk with bench/wrk/mcp.lua; pgbench; a Node driver for the fault scenarios). Results (medians of
# BENCH_RUNS runs, ratios of medians, the machine, the exact command lines) are appended to
# bench/RESULTS.md.
#
#   bench/run.sh [scenario...]
#
# Scenarios (default: pg cache handler search startup peer):
#   pg               PostgreSQL point select by primary key through execute (cache off), 64
#                    connections, against pgbench running the same prepared query (-M prepared)
#   cache            execute answered from the result cache, against GET /heartbeat
#   handler          execute of a trivial TypeScript handler, against GET /heartbeat
#   search           search over 10,000 generated tools: over HTTP (1 and 16 connections) and in-process
#   startup          process start to the first 200 of /heartbeat: quickstart and 1,000 tools; RSS
#   peer             the cache-hit execute against one trivial tool on the official MCP TypeScript SDK
#   structured       execute of a one-row and a several-row SQLite tool for a 2025-03-26 client (text
#                    block) against a 2025-06-18 one (text block and structuredContent)
#   large-answers    a small cached execute (1 connection) alone and while 2 connections fetch a
#                    cached 3.4 MB answer: how long large answers hold the event loops
#   outage           PostgreSQL cut and restored (a TCP proxy) under load: errors, recovery time
#   slow-queries     statements past their time limit under load, next to fast calls
#   script-timeouts  handlers past their time limit under load
#   connections      2,000 concurrent connections held open
#   faults           the four fault scenarios above
#   peers            alone: bench/peer-toolbox.sh (ours against MCP Toolbox and DBHub, the cached
#                    call against /heartbeat; replaces its own section of RESULTS.md)
#
# Environment (defaults in brackets):
#   BENCH_RUNS [3] runs per measurement   BENCH_DURATION [10] seconds per run
#   BENCH_WARMUP [15] seconds of warm-up  BENCH_CONNECTIONS [64]   BENCH_THREADS [2] wrk threads
#   BENCH_PORT [18480] first port used    BENCH_PG_URL [postgres://postgres@127.0.0.1:5432/hyperterse_bench?sslmode=disable]
#   BENCH_PG_POOL [10] the adapter's max_connections (the default of the postgres connector)
#   BENCH_JAVA_OPTS [] extra JVM flags    BENCH_RESULTS [bench/RESULTS.md] ("-" to print only)
#   BENCH_OUT [bench/out] scratch files: generated projects, logs, pgbench logs (git-ignored)
#   BENCH_JAR [target/hyperterse.jar] the server jar (another build's, to compare; not rebuilt)
#   BENCH_BIG_CONNECTIONS [2] connections fetching large answers (large-answers)
# Google's MCP Toolbox and DBHub side by side: bench/run.sh peers (bench/peer-toolbox.sh).
# Needs: java 17+, mvn (to build), wrk, curl, node 20+ with npm (peer, generators, faults),
# pgbench and psql (pg, outage, slow-queries), a local PostgreSQL that trusts user postgres.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
for f in "$BENCH_DIR"/scenarios/*.sh; do source "$f"; done

RUNS=${BENCH_RUNS:-3}
DURATION=${BENCH_DURATION:-10}
WARMUP=${BENCH_WARMUP:-15}
CONNECTIONS=${BENCH_CONNECTIONS:-64}
THREADS=${BENCH_THREADS:-2}
PORT=${BENCH_PORT:-18480}
RESULTS=${BENCH_RESULTS:-$BENCH_DIR/RESULTS.md}

if [[ ${1:-} == peers ]]; then
  [[ $# -eq 1 ]] || die "peers runs alone: bench/run.sh peers"
  exec "$BENCH_DIR/peer-toolbox.sh"
fi
scenarios=("$@")
[[ ${#scenarios[@]} -gt 0 ]] || scenarios=(pg cache handler search startup peer)
expanded=()
for s in "${scenarios[@]}"; do
  case $s in
    all) expanded+=(pg cache handler search startup peer) ;;
    faults) expanded+=(outage slow-queries script-timeouts connections) ;;
    pg|cache|handler|search|startup|peer|structured|large-answers|outage|slow-queries|script-timeouts|connections) expanded+=("$s") ;;
    *) die "unknown scenario '$s' (see the top of bench/run.sh)" ;;
  esac
done

trap cleanup EXIT INT TERM
mkdir -p "$OUT"
SECTION=$OUT/section.md
: >"$SECTION"
ensure_jar

started=$(date -u '+%Y-%m-%d %H:%M UTC')
machine=$(machine_line)
commit=$(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(cd "$ROOT" && [[ -n $(git status --porcelain -- src pom.xml 2>/dev/null) ]] && echo ", with uncommitted changes" || true)
build="\`$commit\`$dirty"
if [[ -n ${BENCH_JAR:-} ]]; then
  build="the jar \`$BENCH_JAR\` (BENCH_JAR), built $(date -u -r "$BENCH_JAR" '+%Y-%m-%d %H:%M UTC')"
fi
log "machine: $machine"

for s in "${expanded[@]}"; do
  log "scenario $s"
  "scenario_${s//-/_}"
  cleanup
done

{
  echo
  echo "## $started: \`bench/run.sh ${expanded[*]}\`"
  echo
  echo "- Machine: $machine"
  echo "- Build: $build, \`java ${BENCH_JAVA_OPTS:-}-jar ${BENCH_JAR:-target/hyperterse.jar} start … --log-level 2\` (default JVM flags unless stated)"
  echo "- Method: $RUNS run(s) of ${DURATION} s per measurement after ${WARMUP} s of warm-up, subject and baseline"
  echo "  alternating run by run; figures are medians of the runs, ratios are ratios of medians."
  cat "$SECTION"
} >"$OUT/results.md"

if [[ $RESULTS == "-" ]]; then
  cat "$OUT/results.md"
else
  cat "$OUT/results.md" >>"$RESULTS"
  log "results appended to ${RESULTS#"$ROOT"/}"
fi

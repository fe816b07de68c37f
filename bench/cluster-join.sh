#!/usr/bin/env bash
# How long a node takes to be ready: alone, as the first node of a cluster, and restarted into a
# running cluster of three (the rolling-restart case). Nodes serve the SQLite quickstart, each from
# its own copy, with the recommended heap for a small node (-Xmx256m), TCP members on 127.0.0.1.
#
#   bench/cluster-join.sh [ROUNDS]      (default 3 restarts; prints one line per measurement)
#
# "ready" is the first 200 from GET /ready, polled every 50 ms from the moment the JVM is started.
set -euo pipefail
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
JAR=${BENCH_JAR:-$ROOT/target/hyperterse.jar}
ROUNDS=${1:-3}
WORK=$(mktemp -d /tmp/hyperterse-join.XXXXXX)
JAVA_OPTS=${JAVA_OPTS:--Xmx256m}
HTTP_BASE=${HTTP_BASE:-8170}
CLUSTER_BASE=${CLUSTER_BASE:-5970}
MEMBERS="127.0.0.1:$((CLUSTER_BASE + 1)),127.0.0.1:$((CLUSTER_BASE + 2)),127.0.0.1:$((CLUSTER_BASE + 3))"

# each node's pid is kept in $WORK/pid<node> (start runs in a subshell, so no variable survives it)
cleanup() {
  local f pid
  for f in "$WORK"/pid*; do [[ -e $f ]] && kill -TERM "$(cat "$f")" 2>/dev/null || true; done
  for f in "$WORK"/pid*; do
    [[ -e $f ]] || continue
    pid=$(cat "$f")
    for _ in $(seq 1 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  rm -rf "$WORK"
}
trap cleanup EXIT

now_ms() { date +%s%3N; }

for i in 0 1 2 3; do
  mkdir -p "$WORK/n$i"
  cp -r "$ROOT/tools-examples/quickstart/." "$WORK/n$i/"
  rm -rf "$WORK/n$i/data"
done

# start NODE CLUSTERED: starts node NODE (0 alone, 1-3 clustered); prints ms until /ready is 200
start() {
  local node=$1 clustered=$2 port=$((HTTP_BASE + $1)) t0 args=()
  if [[ $clustered == yes ]]; then
    args=(--cluster --cluster-host 127.0.0.1 --cluster-port $((CLUSTER_BASE + node)) --cluster-members "$MEMBERS"
          --cluster-name "join-bench-$$")
  fi
  t0=$(now_ms)
  # shellcheck disable=SC2086
  java $JAVA_OPTS -jar "$JAR" start "$WORK/n$node" --port "$port" --drain-period 0 "${args[@]}" \
    >>"$WORK/node$node.log" 2>&1 &
  echo $! >"$WORK/pid$node"
  until curl -fs -o /dev/null "http://127.0.0.1:$port/ready"; do
    kill -0 "$(cat "$WORK/pid$node")" 2>/dev/null || { echo "node $node died:" >&2; tail -20 "$WORK/node$node.log" >&2; exit 1; }
    sleep 0.05
  done
  echo $(( $(now_ms) - t0 ))
}

stop() {
  local pid
  pid=$(cat "$WORK/pid$1")
  kill -TERM "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
  rm -f "$WORK/pid$1"
}

echo "java: $(java -version 2>&1 | head -1); opts: $JAVA_OPTS; $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$ROUNDS"); do
  echo "alone: $(start 0 no) ms"
  stop 0
done
echo "first node of a cluster: $(start 1 yes) ms"
echo "second node: $(start 2 yes) ms"
echo "third node: $(start 3 yes) ms"
for r in $(seq 1 "$ROUNDS"); do
  node=$(( (r - 1) % 3 + 1 ))
  stop "$node"
  echo "node $node restarted into the running cluster: $(start "$node" yes) ms"
done
if [[ -n ${KEEP_LOGS:-} ]]; then cp "$WORK"/node*.log "$KEEP_LOGS"/; fi

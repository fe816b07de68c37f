#!/usr/bin/env bash
# A rolling restart under constant load, as an operator does one: 3 clustered nodes of the
# quickstart (-Xmx256m, TCP members on 127.0.0.1) behind nginx configured like deploy/nginx.conf;
# bench/rolling_load.py keeps both protocol generations busy (stateless calls, session calls,
# session GET streams, subscriptions/listen streams) while each node in turn gets SIGTERM (it
# drains: /ready 503, serves on for server.drain_period, ends its streams, stops listening), exits
# and is started again; the next node goes once the restarted one is ready. Then one node is
# SIGKILLed and started again, then one is stopped (scale to 2) and started again (scale to 3).
# Prints the load's counts after each phase.
#
#   bench/rolling-restart.sh [ROUNDS]      (default 1: each node restarted once)
#   TAKE_OUT=1 bench/rolling-restart.sh    the operator takes each node out of nginx first (marks
#                                          it down, reloads nginx) and puts it back once ready
#
# Open-source nginx does not probe /ready: it keeps sending to a draining node until the node
# stops listening, and the connections it opened in that last moment (accepted by the kernel, the
# request written) fail with 502, as nginx does not pass on a POST it has sent. TAKE_OUT=1 is the
# operator procedure that avoids it; balancers that probe readiness do it by themselves.
#
# Needs nginx (Debian: apt-get install -y nginx-light) and python3.
set -euo pipefail
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
JAR=${BENCH_JAR:-$ROOT/target/hyperterse.jar}
ROUNDS=${1:-1}
WORK=$(mktemp -d /tmp/hyperterse-rolling.XXXXXX)
JAVA_OPTS=${JAVA_OPTS:--Xmx256m}
LB_PORT=${LB_PORT:-8270}
HTTP_BASE=${HTTP_BASE:-8270}
CLUSTER_BASE=${CLUSTER_BASE:-5870}
MEMBERS="127.0.0.1:$((CLUSTER_BASE + 1)),127.0.0.1:$((CLUSTER_BASE + 2)),127.0.0.1:$((CLUSTER_BASE + 3))"
command -v nginx >/dev/null || { echo "nginx is not installed (apt-get install -y nginx-light)" >&2; exit 1; }

cleanup() {
  local f
  touch "$WORK/stop"
  for f in "$WORK"/*.pid; do [[ -e $f ]] && kill -TERM "$(cat "$f")" 2>/dev/null || true; done
  sleep 2
  for f in "$WORK"/*.pid; do [[ -e $f ]] && kill -KILL "$(cat "$f")" 2>/dev/null || true; done
  if [[ -n ${KEEP_LOGS:-} ]]; then
    cp "$WORK"/*.log "$KEEP_LOGS"/ 2>/dev/null || true
    cp "$WORK/nginx/logs/error.log" "$KEEP_LOGS/nginx-error.log" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
now_ms() { date +%s%3N; }
log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*"; }

for i in 1 2 3; do
  mkdir -p "$WORK/n$i"
  cp -r "$ROOT/tools-examples/quickstart/." "$WORK/n$i/"
  rm -rf "$WORK/n$i/data"
done

# deploy/nginx.conf's location blocks, with the upstream on loopback and files under $WORK;
# nodes named in $WORK/down are marked down
mkdir -p "$WORK/nginx/logs"
touch "$WORK/down"
write_nginx_conf() {
local i down
{
  echo "pid $WORK/nginx/nginx.pid; error_log $WORK/nginx/logs/error.log warn; worker_processes 1;"
  echo "events {}"
  echo "http {"
  echo "  access_log off; client_body_temp_path $WORK/nginx/body; proxy_temp_path $WORK/nginx/proxy;"
  echo "  upstream hyperterse {"
  echo "    zone hyperterse 64k; random;"
  for i in 1 2 3; do
    if grep -qx "$i" "$WORK/down"; then down=" down"; else down=""; fi
    echo "    server 127.0.0.1:$((HTTP_BASE + i)) max_fails=1 fail_timeout=5s$down;"
  done
  echo "  }"
  echo "  server {"
  echo "    listen 127.0.0.1:$LB_PORT;"
  sed -n '/^    location /,/^    }/p' "$ROOT/deploy/nginx.conf"
  echo "  }"
  echo "}"
} >"$WORK/nginx/nginx.conf"
}
write_nginx_conf
nginx -t -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" 2>&1 | grep -v "^$" >&2
nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -g 'daemon off;' >"$WORK/nginx.log" 2>&1 &
echo $! >"$WORK/nginx.pid"

start() { # NODE: starts it and waits until /ready answers 200; prints the ms that took
  local node=$1 port=$((HTTP_BASE + $1)) t0
  t0=$(now_ms)
  # shellcheck disable=SC2086
  java $JAVA_OPTS -jar "$JAR" start "$WORK/n$node" --port "$port" --cluster --cluster-host 127.0.0.1 \
    --cluster-port $((CLUSTER_BASE + node)) --cluster-members "$MEMBERS" --cluster-name "rolling-$$" \
    >>"$WORK/node$node.log" 2>&1 &
  echo $! >"$WORK/node$node.pid"
  until curl -fs -o /dev/null "http://127.0.0.1:$port/ready"; do
    kill -0 "$(cat "$WORK/node$node.pid")" 2>/dev/null || { tail -20 "$WORK/node$node.log" >&2; exit 1; }
    sleep 0.05
  done
  echo $(( $(now_ms) - t0 ))
}

stop() { # NODE SIGNAL: prints the ms until the process was gone
  local pid t0
  pid=$(cat "$WORK/node$1.pid")
  t0=$(now_ms)
  kill "-$2" "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
  rm -f "$WORK/node$1.pid"
  echo $(( $(now_ms) - t0 ))
}

snapshot() { # the load's counts so far: stop it, print, start a new one
  touch "$WORK/stop"
  wait "$LOAD_PID" || true
  rm -f "$WORK/stop"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps(d["counts"])); [print("  " + f) for f in d["failures"][:12]]' "$WORK/load.json"
}

load() {
  python3 "$BENCH_DIR/rolling_load.py" --port "$LB_PORT" --stop "$WORK/stop" >"$WORK/load.json" 2>"$WORK/load.log" &
  LOAD_PID=$!
}

log "java: $(java -version 2>&1 | head -1); opts: $JAVA_OPTS; $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in 1 2 3; do log "node $i ready in $(start "$i") ms"; done

load
sleep 10
take_out() { # NODE: marks it down in nginx (TAKE_OUT=1 only)
  [[ -n ${TAKE_OUT:-} ]] || return 0
  echo "$1" >>"$WORK/down"; write_nginx_conf; nginx -s reload -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf"
}
put_back() {
  [[ -n ${TAKE_OUT:-} ]] || return 0
  grep -vx "$1" "$WORK/down" >"$WORK/down.new" || true; mv "$WORK/down.new" "$WORK/down"
  write_nginx_conf; nginx -s reload -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf"
}
log "rolling restart under load ($ROUNDS round(s)), each node: ${TAKE_OUT:+out of nginx, }SIGTERM, exit, start, ready${TAKE_OUT:+, back in nginx}"
for r in $(seq 1 "$ROUNDS"); do
  for i in 1 2 3; do
    take_out "$i"
    log "node $i: stopped (drained) in $(stop "$i" TERM) ms; ready again in $(start "$i") ms"
    put_back "$i"
    sleep 5
  done
done
sleep 5
log "after the rolling restart:"
snapshot

load
sleep 10
log "node 2: SIGKILL"
stop 2 KILL >/dev/null
sleep 15
log "node 2 ready again in $(start 2) ms"
sleep 5
log "after the SIGKILL:"
snapshot

# scaling: node 3 leaves (SIGTERM, as a scale-down does), the load runs on 2 nodes, then node 3
# joins again (a scale-up: nginx lists it all along and skips it while it refuses connections)
load
sleep 10
log "node 3: stopped (scale down to 2) in $(stop 3 TERM) ms"
sleep 10
log "node 3 ready again (scale up to 3) in $(start 3) ms"
sleep 10
log "after the scale down and up:"
snapshot

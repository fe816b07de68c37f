#!/usr/bin/env bash
# Handler calls vs a database point query over HTTP (MCP tools/call of `execute`, stateless).
#
#   bench/script-calls.sh interpreted   # the jar on the default java (scripts interpreted)
#   bench/script-calls.sh optimized     # the jar on JDK 25 with the Graal compiler (see docs/scripts.md)
#   bench/script-calls.sh optimized warmup # from a cold start: crunch at 1 connection, 6 x 10 s
#
# Needs target/hyperterse.jar (mvn -B package) and wrk. Serves a scratch copy of the quickstart
# plus bench/project (two TypeScript handler tools, a trivial one and one doing some array work,
# and the point query with both mappers) on a free
# loopback port, warms each tool up, then runs wrk REPS times per tool at 1 connection (latency)
# and at CONNECTIONS connections (throughput). Prints one line per run and a summary with medians;
# bench/summarize.py turns the log into a RESULTS.md section. Loopback only; every run is bounded.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-interpreted}
what=${2:-table}
duration=${DURATION:-10s}
warmup=${WARMUP:-10s}
reps=${REPS:-3}
connections=${CONNECTIONS:-8}
jdk25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
graal_version=${GRAAL_VERSION:-25.0.3}
compiler_dir=$(realpath -m "${COMPILER_DIR:-target/graal-compiler}")

[[ -f target/hyperterse.jar ]] || { echo "build first: mvn -B package" >&2; exit 1; }
command -v wrk >/dev/null || { echo "needs wrk (apt-get install -y wrk)" >&2; exit 1; }

java_cmd=(java)
if [[ $mode == optimized ]]; then
  if [[ ! -f $compiler_dir/compiler-$graal_version.jar ]]; then
    for a in org.graalvm.compiler:compiler org.graalvm.sdk:collections org.graalvm.sdk:word \
             org.graalvm.truffle:truffle-compiler; do
      mvn -q -B dependency:copy -Dartifact="$a:$graal_version" -DoutputDirectory="$compiler_dir" >&2
    done
  fi
  java_cmd=("$jdk25/bin/java" -XX:+UnlockExperimentalVMOptions -XX:+EnableJVMCI
            "--upgrade-module-path=$compiler_dir" --enable-native-access=ALL-UNNAMED
            --sun-misc-unsafe-memory-access=allow)
elif [[ $mode != interpreted ]]; then
  echo "mode must be interpreted or optimized" >&2; exit 2
fi

scratch=$(mktemp -d)
cp -r tools-examples/quickstart "$scratch/project"
rm -rf "$scratch/project/data"
cp -r bench/project/app "$scratch/project/"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
log=$scratch/server.log
(cd "$scratch/project" && exec "${java_cmd[@]}" -jar "$OLDPWD/target/hyperterse.jar" start . --port "$port" \
    >"$log" 2>&1) &
server=$!
cleanup() { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; cp "$log" target/bench-server.log 2>/dev/null || true; rm -rf "$scratch"; }
trap cleanup EXIT
for _ in $(seq 1 120); do
  curl -fs "http://127.0.0.1:$port/heartbeat" >/dev/null 2>&1 && break
  sleep 0.5
done
curl -fs "http://127.0.0.1:$port/heartbeat" >/dev/null || { cat "$log" >&2; exit 1; }

engine_line=$(grep -m1 "scripts: GraalJS" "$log" | sed 's/.*scripts: //')
if [[ $mode == optimized && $engine_line != *"optimizing compiler"* ]]; then
  echo "the optimizing compiler is not active: $engine_line" >&2; exit 1
fi
url=http://127.0.0.1:$port/mcp
declare -A inputs=([get-customer]='{"customer_id":3}' [hello]='{"customer_id":3}'
                   [get-customer-mapped]='{"customer_id":3}' [crunch]='{"n":500}')
tools=(get-customer hello get-customer-mapped crunch)

run() { # tool connections duration -> "rps p50_ms p99_ms"
  TOOL=$1 INPUTS=${inputs[$1]} wrk -t1 -c"$2" -d"$3" --latency -s bench/execute.lua "$url" | python3 -c '
import re, sys
text = sys.stdin.read()
def ms(v, unit):
    return float(v) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
rps = re.search(r"Requests/sec:\s+([\d.]+)", text).group(1)
p = dict((k, ms(v, u)) for k, v, u in re.findall(r"^\s+(50|99)%\s+([\d.]+)(us|ms|s)", text, re.M))
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
print(rps, "%.3f" % p["50"], "%.3f" % p["99"], errors.group(1) if errors else 0)'
}

if [[ $what == warmup ]]; then
  echo "# mode=$mode java=$("${java_cmd[0]}" -version 2>&1 | head -1 | tr -d '"') warm-up curve of crunch, 1 connection"
  echo "# machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# engine: $engine_line"
  for i in $(seq 1 6); do
    echo "$mode crunch-after-$((i * 10))s c1 $(run crunch 1 10s)"
  done
  echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
  exit 0
fi

echo "# mode=$mode java=$("${java_cmd[0]}" -version 2>&1 | head -1 | tr -d '"') duration=$duration reps=$reps connections=$connections"
echo "# machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(free -g | awk '/Mem:/ {print $2}') GiB; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# engine: $engine_line"
grep -h "scripts: .* checked in\|scripts: .* loaded and warmed" "$log" | sed 's/.*scripts: /# scripts: /' || true
for tool in "${tools[@]}"; do
  run "$tool" "$connections" "$warmup" >/dev/null
done
for rep in $(seq 1 "$reps"); do
  for tool in "${tools[@]}"; do
    echo "$mode $tool c1 $(run "$tool" 1 "$duration")"
    echo "$mode $tool c$connections $(run "$tool" "$connections" "$duration")"
  done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
if grep -qi "blocked" "$log"; then
  echo "# WARNING: the server logged blocked threads:"; grep -i blocked "$log" | head -5 | sed 's/^/# /'
fi

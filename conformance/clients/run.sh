#!/usr/bin/env bash
# The same scenario with MCP client libraries this project did not write, against the jar:
#   conformance/clients/run.sh [--jar PATH] [--only NAME]
# NAME: python-mcp (Python `mcp` 2.3.0, MCP 2026-07-28 through server/discover), python-mcp-legacy
# (the same in legacy mode: initialize, a 2025-11-25 session), fastmcp (FastMCP 4.0.10, 2026-07-28),
# typescript-sdk (@modelcontextprotocol/sdk 1.32.2), java-sdk (io.modelcontextprotocol.sdk:mcp 2.1.0).
# Builds nothing: it runs target/hyperterse.jar (or --jar) on a copy of tools-examples/quickstart
# with tools.exposure both, server.page_size 3 and server.search_output_schema true, on a free
# loopback port. Prints `PASS|FAIL|N/A client check`, a summary per client, and exits 1 if any
# check failed. A client whose packages cannot be installed is skipped (said so), not failed.
# Packages: a venv in $HYPERTERSE_CLIENTS_HOME (default ~/.cache/hyperterse-clients), `npm ci` in
# ts/, the Java SDK from the Maven build's own test dependencies. See docs/development.md.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
jar=$root/target/hyperterse.jar
only=""
all=(python-mcp python-mcp-legacy fastmcp typescript-sdk java-sdk)
while [[ $# -gt 0 ]]; do
  case $1 in
    --jar) jar=${2:?--jar needs a path}; shift 2 ;;
    --only) only=${2:?--only needs a client name}; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done
if [[ -n $only && " ${all[*]} " != *" $only "* ]]; then
  echo "unknown client: $only (one of: ${all[*]})" >&2; exit 2
fi
[[ -f $jar ]] || { echo "no jar at $jar: build it first (mvn -B -q -DskipTests package)" >&2; exit 2; }
wanted() { [[ -z $only || $only == "$1" ]]; }

home=${HYPERTERSE_CLIENTS_HOME:-$HOME/.cache/hyperterse-clients}
work=$(mktemp -d)
server_pid=""
cleanup() {
  if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null
    wait "$server_pid" 2>/dev/null
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

skipped=()
ran=()
failed_clients=()

# --- the packages, before the server starts (installing may take minutes) --------------------
python_ok=() # the Python clients whose packages are installed
if wanted python-mcp || wanted python-mcp-legacy || wanted fastmcp; then
  venv=$home/venv
  if [[ ! -x $venv/bin/python ]]; then
    python3 -m venv "$venv" >&2 || rm -rf "$venv"
  fi
  if [[ -x $venv/bin/python ]]; then
    have() { "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('$1') != '$2')" 2>/dev/null; }
    # one retry: where an index is unreachable but a mirror has the wheels, pip's default five
    # retries per package only add minutes
    pip_install() { "$venv/bin/pip" install -q --retries 1 --timeout 30 "$@" >&2; }
    have mcp 2.3.0 || pip_install "mcp==2.3.0"
    if have mcp 2.3.0; then
      python_ok+=(python-mcp python-mcp-legacy)
      if wanted fastmcp; then
        have fastmcp 4.0.10 || pip_install "mcp==2.3.0" "fastmcp==4.0.10"
        have fastmcp 4.0.10 && python_ok+=(fastmcp)
      fi
    fi
  fi
fi
if wanted typescript-sdk; then
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    ts_ok=""
  elif [[ -d $here/ts/node_modules/@modelcontextprotocol/sdk && $here/ts/node_modules/.package-lock.json -nt $here/ts/package-lock.json ]]; then
    ts_ok=yes
  else
    (cd "$here/ts" && npm ci --no-audit --no-fund --silent) >&2 && ts_ok=yes || ts_ok=""
  fi
fi
if wanted java-sdk; then
  # the SDK is a test dependency of the build: resolve its classpath (downloads, compiles nothing)
  java_cp=""
  if command -v mvn >/dev/null && mvn -B -q -Dstyle.color=never -f "$root/pom.xml" dependency:build-classpath -Dmdep.includeScope=test \
      -Dmdep.outputFile="$work/java.classpath" >&2 && [[ -s $work/java.classpath ]]; then
    java_cp=$(cat "$work/java.classpath")
  fi
fi

# --- the server ---------------------------------------------------------------------------
cp -r "$root/tools-examples/quickstart" "$work/project"
rm -rf "$work/project/data"
if grep -q '^tools:$' "$work/project/.hyperterse"; then
  sed -i 's/^tools:$/tools:\n  exposure: both/' "$work/project/.hyperterse"
else
  printf 'tools:\n  exposure: both\n' >>"$work/project/.hyperterse"
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
HYPERTERSE_SERVER_PAGE_SIZE=3 HYPERTERSE_SERVER_SEARCH_OUTPUT_SCHEMA=true \
  java -jar "$jar" start "$work/project" -p "$port" >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 240); do
  curl -fsS -o /dev/null "http://127.0.0.1:$port/heartbeat" 2>/dev/null && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.5
done
if ! curl -fsS -o /dev/null "http://127.0.0.1:$port/heartbeat" 2>/dev/null; then
  echo "the server did not start on port $port; its log:" >&2
  cat "$work/server.log" >&2
  exit 1
fi
url=http://127.0.0.1:$port/mcp
echo "server: $jar on $url (quickstart, tools.exposure both, page size 3, search outputSchema)"

# --- the clients ----------------------------------------------------------------------------
run_client() { # NAME COMMAND...: runs one client's scenario, its lines go to stdout
  local name=$1; shift
  ran+=("$name")
  "$@" || failed_clients+=("$name")
}
for client in "${all[@]}"; do
  wanted "$client" || continue
  case $client in
    python-mcp|python-mcp-legacy|fastmcp)
      if [[ " ${python_ok[*]} " == *" $client "* ]]; then
        arg=${client#python-}
        run_client "$client" "$home/venv/bin/python" "$here/python/scenario.py" "$arg" "$url"
      else
        skipped+=("$client"); echo "skipped: $client (package not installable)"
      fi ;;
    typescript-sdk)
      if [[ -n $ts_ok ]]; then
        run_client "$client" node "$here/ts/scenario.mjs" "$url"
      else
        skipped+=("$client"); echo "skipped: $client (package not installable)"
      fi ;;
    java-sdk)
      if [[ -n $java_cp ]]; then
        run_client "$client" java -Dlogback.configurationFile="$here/java/logback.xml" -cp "$java_cp" \
          "$here/java/JavaSdkScenario.java" "$url"
      else
        skipped+=("$client"); echo "skipped: $client (package not installable)"
      fi ;;
  esac
done

echo "clients run: ${ran[*]:-none}; failed: ${failed_clients[*]:-none}; skipped: ${skipped[*]:-none}"
if [[ ${#failed_clients[@]} -gt 0 ]]; then
  echo "--- the server's log (last 30 lines) ---"
  tail -n 30 "$work/server.log"
  exit 1
fi
exit 0

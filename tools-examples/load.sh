#!/usr/bin/env bash
# Loads an example's tables and sample rows into its database, from any folder:
#
#   tools-examples/load.sh postgres     # db/schema.sql and db/seed.sql, with psql
#   tools-examples/load.sh mysql        # the same, with the mysql (or mariadb) client
#   tools-examples/load.sh redis        # db/seed.redis, with redis-cli
#
# The connection string is the one the server uses: the environment variable (SHOP_POSTGRES_URL,
# SHOP_MYSQL_URL, SHOP_REDIS_URL) when set, else the example's .env. An empty or missing one is an
# error, never a silent load into some default database. Safe to run again: tables are created
# when missing and rows inserted when absent. quickstart and scripts need nothing: their SQLite
# file is created on first start.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
example=${1:-}

die() {
  echo "load.sh: $*" >&2
  exit 1
}

usage() {
  echo "usage: $0 postgres|mysql|redis" >&2
  exit 2
}

# The variable's value: the environment's, else the last NAME=value line of the example's .env.
setting() {
  local name=$1 file=$here/$example/.env value
  if [[ -n ${!name:-} ]]; then
    printf '%s' "${!name}"
    return
  fi
  [[ -f $file ]] || return 0
  value=$(sed -n "s/^[[:space:]]*\(export[[:space:]]\{1,\}\)\{0,1\}$name[[:space:]]*=[[:space:]]*//p" "$file" | tail -n 1)
  value=${value%$'\r'}
  if [[ $value == \"*\" || $value == \'*\' ]]; then
    value=${value:1:${#value}-2}
  fi
  printf '%s' "$value"
}

required() {
  local name=$1 value
  value=$(setting "$name")
  [[ -n $value ]] || die "$name is empty: set it, or give it a value in $here/$example/.env"
  printf '%s' "$value"
}

need() {
  local tool
  for tool in "$@"; do
    if command -v "$tool" >/dev/null 2>&1; then
      printf '%s' "$tool"
      return
    fi
  done
  die "the $* client is not installed (it loads the $example example)"
}

percent_decode() {
  local s=${1//+/ }
  printf '%b' "${s//%/\\x}"
}

# Splits scheme://[user[:password]@]host[:port][/path][?query] into URL_USER, URL_PASSWORD,
# URL_HOST, URL_PORT and URL_PATH.
split_url() {
  local url=$1 rest userinfo hostport
  rest=${url#*://}
  rest=${rest%%\?*}
  URL_USER='' URL_PASSWORD='' URL_PORT='' URL_PATH=''
  if [[ $rest == *@* ]]; then
    userinfo=${rest%@*}
    rest=${rest##*@}
    URL_USER=$(percent_decode "${userinfo%%:*}")
    [[ $userinfo == *:* ]] && URL_PASSWORD=$(percent_decode "${userinfo#*:}")
  fi
  hostport=${rest%%/*}
  [[ $rest == */* ]] && URL_PATH=${rest#*/}
  if [[ $hostport == \[* ]]; then # [::1]:6379
    URL_HOST=${hostport%%]*}
    URL_HOST=${URL_HOST#[}
    [[ $hostport == *]:* ]] && URL_PORT=${hostport##*]:}
  else
    URL_HOST=${hostport%%:*}
    [[ $hostport == *:* ]] && URL_PORT=${hostport##*:}
  fi
  [[ -n $URL_HOST ]] || die "the connection string names no host: $(printf '%s' "$url" | sed 's#//[^@/]*@#//***@#')"
}

load_postgres() {
  local url psql
  url=$(required SHOP_POSTGRES_URL)
  psql=$(need psql)
  # client_min_messages: no "already exists, skipping" notices on a second run
  PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning" \
    "$psql" "$url" --no-psqlrc -q -v ON_ERROR_STOP=1 \
    -f "$here/postgres/db/schema.sql" -f "$here/postgres/db/seed.sql" >/dev/null
}

load_mysql() {
  local url mysql file
  url=$(required SHOP_MYSQL_URL)
  mysql=$(need mysql mariadb)
  split_url "$url"
  [[ -n $URL_PATH ]] || die "SHOP_MYSQL_URL names no database (mysql://user@host:port/DATABASE)"
  for file in schema.sql seed.sql; do
    MYSQL_PWD=$URL_PASSWORD "$mysql" --protocol=TCP -h "$URL_HOST" -P "${URL_PORT:-3306}" -u "${URL_USER:-root}" \
      "$(percent_decode "$URL_PATH")" <"$here/mysql/db/$file"
  done
}

load_redis() {
  local url prefix redis args output
  url=$(required SHOP_REDIS_URL)
  prefix=$(setting SHOP_REDIS_PREFIX)
  prefix=${prefix:-shop:}
  redis=$(need redis-cli)
  split_url "$url"
  args=(-h "$URL_HOST" -p "${URL_PORT:-6379}" -n "${URL_PATH:-0}")
  [[ $url == rediss://* ]] && args+=(--tls)
  [[ -n $URL_USER ]] && args+=(--user "$URL_USER")
  # the password through the environment, not the command line other users can read
  # the keys go under the prefix the server reads (shop: unless SHOP_REDIS_PREFIX says otherwise)
  [[ -n $URL_PASSWORD ]] && export REDISCLI_AUTH=$URL_PASSWORD
  output=$(sed "s/ shop:/ ${prefix//\//\\/}/" "$here/redis/db/seed.redis" | "$redis" "${args[@]}" 2>&1) \
    || die "redis-cli failed: $output"
  # redis-cli exits 0 even when it cannot connect or a command fails; its answers say so
  local failed='^(ERR|WRONGTYPE|NOAUTH|WRONGPASS|NOPERM|LOADING|READONLY|\(error\)|Could not connect|AUTH failed|Error)'
  if grep -qE "$failed" <<<"$output"; then
    die "loading db/seed.redis into $URL_HOST:${URL_PORT:-6379} failed: $(grep -E "$failed" <<<"$output" | head -n 1)"
  fi
}

case $example in
  postgres) load_postgres ;;
  mysql) load_mysql ;;
  redis) load_redis ;;
  quickstart | scripts)
    echo "$example uses SQLite: its database file is created from db/ on first start; nothing to load"
    exit 0 ;;
  *) usage ;;
esac
echo "loaded the $example example's data"

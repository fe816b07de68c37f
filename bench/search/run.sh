#!/usr/bin/env bash
# Search quality and latency: builds the fat jar when it is missing or older than the sources,
# ranks every labelled intent with each ranking (hyperterse, BM25 alone, hybrid, static alone and
# static: the static embedding table is in the usual jar), and writes the table into
# bench/RESULTS.md (between the search-quality markers) with the machine and date.
#   bench/search/run.sh [--semantic] [WARMUP_SECONDS]
# --semantic also times the `semantic` ranking's cold start. Its quality and latency are measured
# whenever the add-on target/hyperterse-semantic.jar (the models and ONNX Runtime, which every
# build makes) lies beside the jar: the server reads it from there.
set -euo pipefail
cd "$(dirname "$0")/../.."
semantic=false
if [ "${1:-}" = "--semantic" ]; then
  semantic=true
  shift
fi
jar=target/hyperterse.jar
if [ ! -f "$jar" ] || [ -n "$(find src/main pom.xml -newer "$jar" -print -quit)" ]; then
  mvn -B -q -o package -DskipTests
fi
mkdir -p bench/out
cp="$jar"
addon=target/hyperterse-semantic.jar
# other work on the machine shows in the wall-clock tails: note how busy it was before starting
export LOAD_BEFORE=$(cut -d' ' -f1 /proc/loadavg)
java -cp "$cp" bench/java/SearchQuality.java bench/search bench/out/search-quality.md "${1:-5}" 2>/dev/null
# start-up cost of each ranking in fresh JVMs (class loading, indexing 1,000 tools, first query)
lucene_bytes=$(unzip -v "$jar" | awk '$NF ~ /^org\/apache\/lucene\// {s += $3} END {print s + 0}')
{
  echo
  echo "Start-up in a fresh JVM (\`--cold\`: load the ranking's classes, index N generated tools, answer one query), three runs each:"
  echo
  echo '| ranking | tools | index build ms (3 runs) | first query ms (3 runs) |'
  echo '|---|---|---|---|'
  for count in 30 1000; do
    for ranking in hyperterse hybrid; do
      runs=$(for run in 1 2 3; do java -cp "$jar" bench/java/SearchQuality.java --cold "$ranking" "$count" 2>/dev/null; done)
      echo "$runs" | awk -v r="$ranking" -v n="$count" '{split($4, b, "="); split($5, q, "="); bs = bs (NR > 1 ? ", " : "") b[2]; qs = qs (NR > 1 ? ", " : "") q[2]} END {printf "| %s | %s | %s | %s |\n", r, n, bs, qs}'
    done
  done
  echo
  echo "\`static\` in a fresh JVM: index and first (lexical) query as above, then read the static embedding table and compute the tool vectors, then the first query by meaning:"
  echo
  echo '| tools | index build ms | first query ms | table read and tool vectors ms | first static query ms |'
  echo '|---|---|---|---|---|'
  for count in 30 1000; do
    runs=$(for run in 1 2 3; do java -cp "$jar" bench/java/SearchQuality.java --cold static "$count" 2>/dev/null; done)
    echo "$runs" | awk -v n="$count" '{for (i = 4; i <= NF; i++) {split($i, kv, "="); v[kv[1]] = v[kv[1]] (NR > 1 ? ", " : "") kv[2]}} END {printf "| %s | %s | %s | %s | %s |\n", n, v["build_ms"], v["first_query_ms"], v["vectors_ms"], v["first_semantic_query_ms"]}'
  done
  if $semantic; then
    # the first run of each size starts with an empty vector cache, the next two reuse it
    echo
    echo "\`semantic\` in a fresh JVM: index and first (lexical) query as above, then the static table's vectors and the first query they rank (as the server serves until the model is ready), then load the model and compute its tool vectors (run 1: empty disk cache; runs 2 and 3: every vector from it), then the first query by both:"
    echo
    echo '| tools | index build ms | first query ms | static vectors ms | first query by the table ms | model vectors ready ms (model load included) | tools embedded | first semantic query ms |'
    echo '|---|---|---|---|---|---|---|---|'
    for count in 30 1000; do
      vectors=$(mktemp -d)
      runs=$(for run in 1 2 3; do java -cp "$cp" bench/java/SearchQuality.java --cold semantic "$count" "$vectors" 2>/dev/null; done)
      rm -rf "$vectors"
      echo "$runs" | awk -v n="$count" '{for (i = 4; i <= NF; i++) {split($i, kv, "="); v[kv[1]] = v[kv[1]] (NR > 1 ? ", " : "") kv[2]}} END {printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", n, v["build_ms"], v["first_query_ms"], v["table_ms"], v["first_table_query_ms"], v["vectors_ms"], v["embedded"], v["first_semantic_query_ms"]}'
    done
  fi
  echo
  table_bytes=$(unzip -v "$jar" | awk '$NF ~ /static-embedding\.bin$/ {print $3 " bytes (" $1 " uncompressed)"}')
  echo "Fat jar: $(stat -c %s "$jar") bytes, of which Lucene (org/apache/lucene/**, compressed) $lucene_bytes bytes and the static embedding table $table_bytes."
  if $semantic; then
    echo "The models, ONNX Runtime and the tokenizer (the add-on $addon): $(stat -c %s "$addon") bytes."
  fi
} >> bench/out/search-quality.md
python3 - <<'PY'
import datetime, os, platform, re, subprocess
table = open('bench/out/search-quality.md').read()
cpu = subprocess.run(['sh', '-c', "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], capture_output=True,
                     text=True).stdout.strip()
java = subprocess.run(['java', '-version'], capture_output=True, text=True).stderr.splitlines()[0]
load = os.environ['LOAD_BEFORE']
stamp = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')
block = (f'<!-- search-quality:start (written by bench/search/run.sh) -->\n'
         f'### {stamp}: `bench/search/run.sh` on {os.cpu_count()} × {cpu}, {java}, load average {load} at the start\n\n{table}'
         f'<!-- search-quality:end -->')
path = 'bench/RESULTS.md'
text = open(path).read()
pattern = re.compile(r'<!-- search-quality:start.*?<!-- search-quality:end -->', re.S)
if pattern.search(text):
    text = pattern.sub(lambda m: block, text)
else:
    text = text.rstrip('\n') + '\n\n## Search quality (bench/search)\n\n' + block + '\n'
open(path, 'w').write(text)
PY
echo "bench/RESULTS.md updated"

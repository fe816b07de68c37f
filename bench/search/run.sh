#!/usr/bin/env bash
# Search quality and latency: builds the fat jar when it is missing or older than the sources,
# ranks every labelled intent with each ranking, and writes the table into bench/RESULTS.md
# (between the search-quality markers) with the machine and date.
#   bench/search/run.sh [WARMUP_SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
jar=target/hyperterse.jar
if [ ! -f "$jar" ] || [ -n "$(find src/main pom.xml -newer "$jar" -print -quit)" ]; then
  mvn -B -q -o package -DskipTests
fi
mkdir -p bench/out
java -cp "$jar" bench/java/SearchQuality.java bench/search bench/out/search-quality.md "${1:-5}"
python3 - <<'PY'
import datetime, os, platform, re, subprocess
table = open('bench/out/search-quality.md').read()
cpu = subprocess.run(['sh', '-c', "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], capture_output=True,
                     text=True).stdout.strip()
java = subprocess.run(['java', '-version'], capture_output=True, text=True).stderr.splitlines()[0]
stamp = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')
block = (f'<!-- search-quality:start (written by bench/search/run.sh) -->\n'
         f'### {stamp}: `bench/search/run.sh` on {os.cpu_count()} × {cpu}, {java}\n\n{table}'
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

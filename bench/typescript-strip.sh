#!/usr/bin/env bash
# Load time per TypeScript file for the two strippers, swc (native) and the TypeScript compiler in
# GraalJS (portable): each run is a fresh JVM that strips the first file (loading swc's library
# or the compiler), then ROUNDS rounds over every .ts file of the examples and bench/project (text
# changed each round, so the content cache never answers). Runs alternate swc / typescript, REPS
# times each, interpreted on the default java, then optimized on JDK 25 with the Graal compiler
# (jars fetched as in bench/micro.sh) unless MODES says otherwise. Also prints the fat jar's size
# and what the compiler adds to it.
#   bench/typescript-strip.sh [reps] [rounds]        MODES="interpreted optimized"
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-3}
rounds=${2:-20}
modes=${MODES:-interpreted optimized}
jdk25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
graal_version=${GRAAL_VERSION:-25.0.3}
compiler_dir=${COMPILER_DIR:-target/graal-compiler}
mvn -q -o -B test-compile dependency:build-classpath -Dmdep.outputFile=target/bench-classpath.txt >&2
cp="target/test-classes:target/classes:$(cat target/bench-classpath.txt)"
mapfile -t files < <(find tools-examples bench/project -name '*.ts' -not -path '*/node_modules/*' | sort)
if [[ $modes == *optimized* && ! -f $compiler_dir/compiler-$graal_version.jar ]]; then
  for a in org.graalvm.compiler:compiler org.graalvm.sdk:collections org.graalvm.sdk:word \
           org.graalvm.truffle:truffle-compiler; do
    mvn -q -B dependency:copy -Dartifact="$a:$graal_version" -DoutputDirectory="$compiler_dir" >&2
  done
fi
echo "# $(date -u +%FT%TZ) $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg); ${#files[@]} files, $(cat "${files[@]}" | wc -c) bytes"
for mode in $modes; do
  for rep in $(seq 1 "$reps"); do
    for stripper in swc typescript; do
      if [[ $mode == optimized ]]; then
        "$jdk25/bin/java" -XX:+UnlockExperimentalVMOptions -XX:+EnableJVMCI "--upgrade-module-path=$compiler_dir" \
          --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow \
          -cp "$cp" dev.hyperterse.script.TypeScriptStripBench "$stripper" "$rounds" "${files[@]}" 2>/dev/null | grep -v INFO
      else
        java -cp "$cp" dev.hyperterse.script.TypeScriptStripBench "$stripper" "$rounds" "${files[@]}" 2>/dev/null \
          | grep -v INFO
      fi
    done
  done
  echo "# load after $mode: $(cut -d' ' -f1-3 /proc/loadavg)"
done
if [[ -f target/hyperterse.jar ]]; then
  jar_size=$(stat -c %s target/hyperterse.jar)
  ts_size=$(unzip -v target/hyperterse.jar 'META-INF/resources/webjars/typescript/*' | awk '$1 ~ /^[0-9]+$/ && NF >= 8 {s += $3} END {print s}')
  echo "# target/hyperterse.jar: $jar_size bytes, of which the TypeScript compiler and its licenses (compressed): $ts_size bytes"
fi

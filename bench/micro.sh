#!/usr/bin/env bash
# The script engine's own cost per handler call, in-process (no HTTP, no worker hop): one context,
# rounds of 1000 calls, median of the second half. Interpreted on the default java, then optimized
# on JDK 25 with the Graal compiler (jars fetched as in bench/script-calls.sh).
#   bench/micro.sh [rounds]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-30}
jdk25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
graal_version=${GRAAL_VERSION:-25.0.3}
compiler_dir=${COMPILER_DIR:-target/graal-compiler}
mvn -q -o -B test-compile dependency:build-classpath -Dmdep.outputFile=target/bench-classpath.txt >&2
cp="target/test-classes:target/classes:$(cat target/bench-classpath.txt)"
if [[ ! -f $compiler_dir/compiler-$graal_version.jar ]]; then
  for a in org.graalvm.compiler:compiler org.graalvm.sdk:collections org.graalvm.sdk:word \
           org.graalvm.truffle:truffle-compiler; do
    mvn -q -B dependency:copy -Dartifact="$a:$graal_version" -DoutputDirectory="$compiler_dir" >&2
  done
fi
for tool in hello crunch; do
  payload='{"inputs":{"customer_id":3,"n":500},"tool":"'$tool'"}'
  file=bench/project/app/tools/$tool/handler.ts
  java -cp "$cp" dev.hyperterse.script.ScriptCallBench bench/project "$file" "$payload" "$rounds" 2>/dev/null \
    | grep -v INFO
  "$jdk25/bin/java" -XX:+UnlockExperimentalVMOptions -XX:+EnableJVMCI "--upgrade-module-path=$compiler_dir" \
    --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow \
    -cp "$cp" dev.hyperterse.script.ScriptCallBench bench/project "$file" "$payload" "$rounds" 2>/dev/null \
    | grep -v INFO
done

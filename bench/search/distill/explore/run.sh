#!/usr/bin/env bash
# Runs the dev-only exploration harnesses of the static ranking (see their headers):
#   bench/search/distill/explore/run.sh TABLE_FILE[,TABLE_FILE...]   static tables, fusions, tool texts
#   bench/search/distill/explore/run.sh --semantic                     the static cosine inside semantic
#   bench/search/distill/explore/run.sh --fields TABLE_FILE[,...]      a tool's fields as vectors apart
#   bench/search/distill/explore/run.sh --floor [semantic]             score floors: dev recall against unrelated queries
# (contrastive.sh, beside this one, tunes a table for retrieval on pairs of texts and ranks the dev intents with it.)
# Tables come from bench/search/distill/table.py; the shipped one is
# src/main/resources/dev/hyperterse/search/static-embedding.bin. Needs target/classes and the jar.
set -euo pipefail
cd "$(dirname "$0")/../../../.."
out=bench/out/explore-classes
mkdir -p "$out"
javac -d "$out" -cp target/classes:target/hyperterse.jar bench/search/distill/explore/*.java
if [ "${1:-}" = "--semantic" ]; then
  mvn -B -q -f bench/search/semantic-pom.xml dependency:build-classpath -Dmdep.outputFile="$PWD/bench/out/semantic-cp.txt"
  nice -n 10 java -cp "$out:target/classes:target/hyperterse.jar:$(cat bench/out/semantic-cp.txt)" \
    dev.hyperterse.search.StaticInSemanticDev 2>/dev/null
elif [ "${1:-}" = "--floor" ] && [ "${2:-}" = "semantic" ]; then
  mvn -B -q -f bench/search/semantic-pom.xml dependency:build-classpath -Dmdep.outputFile="$PWD/bench/out/semantic-cp.txt"
  nice -n 10 java -cp "$out:target/classes:target/hyperterse.jar:$(cat bench/out/semantic-cp.txt)" \
    dev.hyperterse.search.FloorDev semantic 2>/dev/null
elif [ "${1:-}" = "--floor" ]; then
  nice -n 10 java -cp "$out:target/classes:target/hyperterse.jar" dev.hyperterse.search.FloorDev 2>/dev/null
elif [ "${1:-}" = "--fields" ]; then
  nice -n 10 java -cp "$out:target/classes:target/hyperterse.jar" dev.hyperterse.search.StaticFieldsDev "$2" 2>/dev/null
else
  nice -n 10 java -cp "$out:target/classes:target/hyperterse.jar" dev.hyperterse.search.StaticFusionDev "$1" 2>/dev/null
fi

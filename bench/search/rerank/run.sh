#!/usr/bin/env bash
# The static ranking's learned order (src/main/java/dev/hyperterse/search/LearnedOrder.java), learned
# again from bench/search's requests:
#   bench/search/rerank/run.sh           leave-one-set-out: each set held out whole ranked by weights
#                                        learned on the others (a Markdown table, base against learned)
#   bench/search/rerank/run.sh --write   learns on every set that is not sealed and writes the weights
#                                        into src/main/resources/dev/hyperterse/search/learned-order.tsv
# The jar computes the features (SearchQuality.java with DUMP_FEATURES: the twenty tools the static
# ranking finds first for each request, before any reordering, and what LearnedOrder reads of them),
# so the trainer learns from exactly what the server reads. Needs python3 with numpy and scipy.
set -euo pipefail
cd "$(dirname "$0")/../../.."
jar=target/hyperterse.jar
if [ ! -f "$jar" ] || [ -n "$(find src/main pom.xml -newer "$jar" -print -quit)" ]; then
  mvn -B -q -o package -DskipTests
fi
mkdir -p bench/out
DUMP_FEATURES=bench/out/rerank.tsv java -cp "$jar" bench/java/SearchQuality.java bench/search bench/out/rerank.md 2>/dev/null
if [ "${1:-}" = "--write" ]; then
  python3 bench/search/rerank/train.py bench/out/rerank.tsv bench/search/catalogs \
    --write src/main/resources/dev/hyperterse/search/learned-order.tsv
else
  # a fold per process (LOSO_JOBS, default the cores), each with one BLAS thread; a fold holds its
  # requests' features densely, about 3 GB with the held words (LOSO_JOBS=1 where memory is short)
  OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python3 bench/search/rerank/train.py bench/out/rerank.tsv \
    bench/search/catalogs --loso
fi

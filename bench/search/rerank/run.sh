#!/usr/bin/env bash
# The learned orders (src/main/java/dev/hyperterse/search/LearnedOrder.java), learned again from
# bench/search's requests:
#   bench/search/rerank/run.sh           leave-one-set-out: each set held out whole ranked by weights
#                                        learned on the others (a Markdown table, base against learned)
#   bench/search/rerank/run.sh --write   learns on every set that is not sealed and writes the weights
#                                        into src/main/resources/dev/hyperterse/search/learned-order.tsv
#   PLACES=N                             how many places the weights order (default: the dump's thirty,
#                                        LearnedOrder.FEW; twenty with --semantic)
#   EXAMPLES=1                           learns from the authors' examples of the tools too (never those
#                                        of the set held out; measured lower, not shipped)
#   HIDDEN=N                             units of the hidden layer over the base features (default 8; 0
#                                        for a dump with one model's cosine)
#   NO_VALUES=1                          weights that read no kinds of value (ValueKinds)
#   NO_MATCHES=1                         weights that read neither the word matches nor the kinds of value
#   TRAIN_SETS=N [TRAIN_SEED=S]          leave-one-set-out learning each fold on N of the other sets only
#   --semantic (with either)             the semantic ranking's order instead, which reads the models'
#                                        cosines too (learned-order-semantic.tsv; all-MiniLM-L6-v2 and
#                                        bge-small-en-v1.5 from the add-on target/hyperterse-semantic.jar,
#                                        else from Maven by bench/search/semantic-pom.xml)
# The jar computes the features (SearchQuality.java with DUMP_FEATURES: the thirty tools the static
# ranking finds first for each request, before any reordering (with --semantic, the last six of the first
# twenty are the models' picks, as the server's order reads them), and what LearnedOrder reads of them),
# so the trainer learns from exactly what the server reads. Needs python3 with numpy and scipy.
set -euo pipefail
cd "$(dirname "$0")/../../.."
jar=target/hyperterse.jar
write=false semantic=false
for arg in "$@"; do
  case "$arg" in
    --write) write=true ;;
    --semantic) semantic=true ;;
    *) echo "usage: $0 [--write] [--semantic]" >&2; exit 2 ;;
  esac
done
if [ ! -f "$jar" ] || [ -n "$(find src/main pom.xml -newer "$jar" -print -quit)" ]; then
  mvn -B -q -o package -DskipTests
fi
mkdir -p bench/out
# EXAMPLES=1: learn from the authors' examples (bench/search/examples/) too, which the dump then holds
if [ -n "${EXAMPLES:-}" ]; then
  export DUMP_EXAMPLES=1
fi
if $semantic; then
  # the models come from the add-on beside the jar (every build makes it); without it, from Maven
  models=""
  if [ ! -f target/hyperterse-semantic.jar ]; then
    mvn -B -q -f bench/search/semantic-pom.xml dependency:build-classpath -Dmdep.outputFile="$PWD/bench/out/semantic-cp.txt"
    models=":$(cat bench/out/semantic-cp.txt)"
  fi
  dump=bench/out/rerank-semantic.tsv weights=src/main/resources/dev/hyperterse/search/learned-order-semantic.tsv
  # semantic's order puts twenty places in order (thirty were read once, on fresh14, and ranked lower)
  export PLACES=${PLACES:-20}
  DUMP_MODEL=1 DUMP_FEATURES=$dump java -cp "$jar$models" bench/java/SearchQuality.java \
    bench/search bench/out/rerank-semantic.md 2>/dev/null
else
  dump=bench/out/rerank.tsv weights=src/main/resources/dev/hyperterse/search/learned-order.tsv
  DUMP_FEATURES=$dump java -cp "$jar" bench/java/SearchQuality.java bench/search bench/out/rerank.md 2>/dev/null
fi
if $write; then
  python3 bench/search/rerank/train.py "$dump" bench/search/catalogs --write "$weights"
else
  # a fold per process (LOSO_JOBS, default the cores), each with one BLAS thread; a fold holds its
  # requests' features sparsely and their vectors, a few hundred MB
  # LOSO_MISSES=FILE also writes each held-out request the learned order does not put first
  OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python3 bench/search/rerank/train.py "$dump" bench/search/catalogs --loso
fi

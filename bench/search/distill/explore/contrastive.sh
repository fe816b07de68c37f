#!/usr/bin/env bash
# Dev-only exploration: tunes the shipped static table for retrieval on pairs of texts (pairs.py:
# Debian's package summaries and descriptions, WordNet's lemmas and definitions, Python's and the
# JDK's function names and docs; nothing of the bench), then ranks the DEV intents with it beside
# the shipped table (bench/java/SearchQuality.java, SPLITS=dev). Measured, not shipped: see
# bench/RESULTS.md. Extra arguments go to contrastive.py (--steps, --lr, --reg, --tau, --batch,
# --sources). Needs the jar, Python 3 with NumPy and SciPy, apt's English package descriptions
# (apt-get -o Acquire::Languages=en update) and WordNet (apt-get install wordnet-base).
#   bench/search/distill/explore/contrastive.sh [--lr 0.1 --reg 0.1 ...]
set -euo pipefail
cd "$(dirname "$0")/../../../.."
out=bench/out/contrastive
mkdir -p "$out"
[ -s "$out/pairs.tsv" ] || python3 bench/search/distill/explore/pairs.py "$out/pairs.tsv"
[ -s "$out/query.i32" ] || java -cp target/hyperterse.jar bench/search/distill/explore/Tokenize.java "$out/pairs.tsv" "$out"
OMP_NUM_THREADS=1 python3 bench/search/distill/explore/contrastive.py \
  src/main/resources/dev/hyperterse/search/static-embedding.bin "$out" "$out/table.bin" "$@"
SPLITS=dev QUALITY_ONLY=1 STATIC_VARIANTS="tuned=$out/table.bin:0.15" \
  java -cp target/hyperterse.jar bench/java/SearchQuality.java bench/search "$out/report.md" 1 > /dev/null
grep -E '^\| (\*\*all four|`mixed-1000`).*dev \| [0-9]+ \| [0-9.]+ / [0-9.]+ / ' "$out/report.md"
echo "columns: hyperterse, bm25 alone, hybrid, static alone, static (shipped), tuned"

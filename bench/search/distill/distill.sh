#!/usr/bin/env bash
# Makes the static embedding table the server ships (src/main/resources/dev/hyperterse/search/
# static-embedding.bin) from all-MiniLM-L6-v2 as LangChain4j's quantized ONNX artifact bundles it
# (the same model, tokenizer and version as the `semantic` ranking's, bench/search/semantic-pom.xml),
# and the WordPiece tokenizer's expected ids for its tests (src/test/resources/dev/hyperterse/search/
# wordpiece.tsv). Needs network access once to resolve the artifact, Java 17+, Python 3 with NumPy.
#   bench/search/distill/distill.sh [DIMS] [extra table.py options]
# 1. TokenVectors.java runs the model on [CLS] token [SEP] for each of the 30,522 vocabulary tokens
#    (about half a minute on two cores) and averages the three outputs;
# 2. table.py reduces them with PCA to DIMS dimensions (default 128), weights each token by
#    a / (a + p), p its Zipf probability from its rank in the vocabulary, a = 1e-4, and stores one
#    byte per dimension with a scale per token.
set -euo pipefail
cd "$(dirname "$0")/../../.."
dims=${1:-128}
shift || true
mkdir -p bench/out/distill src/main/resources/dev/hyperterse/search
mvn -B -q -f bench/search/semantic-pom.xml dependency:build-classpath -Dmdep.outputFile="$PWD/bench/out/semantic-cp.txt"
nice -n 10 java -cp "$(cat bench/out/semantic-cp.txt)" bench/search/distill/TokenVectors.java bench/out/distill \
  bench/search/distill/samples.txt
python3 bench/search/distill/table.py bench/out/distill src/main/resources/dev/hyperterse/search/static-embedding.bin \
  --dims "$dims" "$@"
mkdir -p src/test/resources/dev/hyperterse/search
cp bench/out/distill/wordpiece.tsv src/test/resources/dev/hyperterse/search/wordpiece.tsv
ls -l src/main/resources/dev/hyperterse/search/static-embedding.bin

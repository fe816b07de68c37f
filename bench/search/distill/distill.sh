#!/usr/bin/env bash
# Makes the static embedding table the server ships (src/main/resources/dev/hyperterse/search/
# static-embedding.bin) from all-MiniLM-L6-v2 as LangChain4j's quantized ONNX artifact bundles it
# (the same model, tokenizer and version as the `semantic` ranking's, bench/search/semantic-pom.xml),
# and the WordPiece tokenizer's expected ids for its tests (src/test/resources/dev/hyperterse/search/
# wordpiece.tsv). Needs network access once to resolve the artifact, Java 17+, Python 3 with NumPy
# and SciPy, apt's English package descriptions (apt-get -o Acquire::Languages=en update) and
# WordNet (apt-get install wordnet-base). About ten minutes on two cores.
#   bench/search/distill/distill.sh [DIMS [LAMBDA]]
# 1. TokenVectors.java runs the model on [CLS] token [SEP] for each of the 30,522 vocabulary tokens
#    and averages the three outputs: what the model says of each token alone (half a minute);
# 2. corpus.py collects 429,650 sentences (Debian's package descriptions, WordNet's definitions and
#    examples; nothing of the bench's catalogs or intents) and SentenceVectors.java embeds each
#    with the model (six minutes);
# 3. train.py fits the token vectors, starting from step 1's with Zipf weights, so that the mean of
#    a sentence's token vectors comes as close as least squares allows to the model's embedding of
#    the sentence, in the model's first DIMS principal axes (default 256), regularized by LAMBDA
#    (default 0.1) toward the start; stores one byte per dimension with a scale per token.
# (table.py makes the untrained table from step 1 alone: PCA, Zipf weights, bytes.)
set -euo pipefail
cd "$(dirname "$0")/../../.."
dims=${1:-256}
lambda=${2:-0.1}
mkdir -p bench/out/distill bench/out/corpus src/main/resources/dev/hyperterse/search
mvn -B -q -f bench/search/semantic-pom.xml dependency:build-classpath -Dmdep.outputFile="$PWD/bench/out/semantic-cp.txt"
nice -n 10 java -cp "$(cat bench/out/semantic-cp.txt)" bench/search/distill/TokenVectors.java bench/out/distill \
  bench/search/distill/samples.txt
python3 bench/search/distill/corpus.py bench/out/corpus/texts.txt
nice -n 10 java -Xmx6g -cp "$(cat bench/out/semantic-cp.txt)" bench/search/distill/SentenceVectors.java \
  bench/out/corpus/texts.txt bench/out/corpus/teacher 2
python3 bench/search/distill/train.py bench/out/distill bench/out/corpus/teacher \
  src/main/resources/dev/hyperterse/search/static-embedding.bin --dims "$dims" --lam "$lambda"
mkdir -p src/test/resources/dev/hyperterse/search
cp bench/out/distill/wordpiece.tsv src/test/resources/dev/hyperterse/search/wordpiece.tsv
ls -l src/main/resources/dev/hyperterse/search/static-embedding.bin

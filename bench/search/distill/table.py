#!/usr/bin/env python3
"""Step 2 of bench/search/distill/distill.sh: turns the per-token vectors TokenVectors.java wrote
into the static embedding table the server reads (dev.hyperterse.search.StaticEmbedder).

    table.py IN_DIR OUT_FILE [--dims N] [--no-weighting]

- PCA to N dimensions (default 256), fitted on every token but the special and [unusedN] ones
  (those stay zero vectors: a query never looks them up, or gains nothing from them).
- Token weights from Zipf's law: a token's probability is taken as proportional to 1 / (rank + 2),
  the rank being its id (the vocabulary is roughly in frequency order), and its vector is scaled by
  the smooth-inverse-frequency weight a / (a + p) with a = 1e-4; --no-weighting leaves it out.
- int8 quantization with one float scale per token.

File layout (big-endian, as java.io.DataInputStream reads it):
  4 bytes "HTSE", int version (1), int tokens, int dims,
  int n + n bytes: the vocabulary in UTF-8, one token per line, in id order,
  float[tokens] scales, then tokens x dims signed bytes (token-major): vector = scale * bytes.
"""
import argparse
import struct

import numpy as np

SIF_COEFFICIENT_DEFAULT = 1e-4


def read_token_vectors(in_dir):
    """TokenVectors.java's output: the vocabulary, its vectors (float64) and which tokens are special
    ([PAD], [UNK], [CLS], [SEP], [MASK], [unusedN]: kept as zero vectors)."""
    vocab = open(f'{in_dir}/vocab.txt', encoding='utf-8').read().split('\n')[:-1]
    raw = np.fromfile(f'{in_dir}/vectors.f32', dtype='<f4').reshape(len(vocab), -1).astype(np.float64)
    special = np.array([t.startswith('[') and t.endswith(']') and len(t) > 2 for t in vocab])
    return vocab, raw, special


def zipf_weights(tokens, sif):
    """Each token's smooth-inverse-frequency weight a / (a + p), p proportional to 1 / (id + 2)."""
    inverse_rank = 1.0 / np.arange(2, tokens + 2)
    probability = inverse_rank / inverse_rank.sum()
    return sif / (sif + probability)


def write_table(out_file, vocab, vectors):
    """Stores token vectors (tokens x dims) as int8 with a scale per token, in the layout above."""
    peak = np.abs(vectors).max(axis=1)
    scales = np.where(peak > 0, peak / 127.0, 0.0)
    quantized = np.where(peak[:, None] > 0, np.rint(vectors / np.where(peak > 0, scales, 1.0)[:, None]), 0)
    quantized = np.clip(quantized, -127, 127).astype(np.int8)
    text = '\n'.join(vocab).encode('utf-8') + b'\n'
    with open(out_file, 'wb') as out:
        out.write(b'HTSE')
        out.write(struct.pack('>iii', 1, len(vocab), vectors.shape[1]))
        out.write(struct.pack('>i', len(text)))
        out.write(text)
        out.write(scales.astype('>f4').tobytes())
        out.write(quantized.tobytes())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('in_dir')
    parser.add_argument('out_file')
    parser.add_argument('--dims', type=int, default=256)
    parser.add_argument('--no-weighting', action='store_true')
    parser.add_argument('--sif', type=float, default=SIF_COEFFICIENT_DEFAULT)
    args = parser.parse_args()

    vocab, raw, special = read_token_vectors(args.in_dir)
    used = ~special

    fit = raw[used]
    mean = fit.mean(axis=0)
    # principal axes: right singular vectors of the centred matrix, largest first
    _, singular, axes = np.linalg.svd(fit - mean, full_matrices=False)
    components = axes[:args.dims]
    explained = (singular[:args.dims] ** 2).sum() / (singular ** 2).sum()
    vectors = np.zeros((len(vocab), args.dims))
    vectors[used] = (fit - mean) @ components.T

    if not args.no_weighting:
        vectors *= zipf_weights(len(vocab), args.sif)[:, None]

    write_table(args.out_file, vocab, vectors)
    print(f'{args.out_file}: {len(vocab)} tokens x {args.dims} dims, PCA keeps {explained:.3f} of the variance,'
          f' weighting {"off" if args.no_weighting else "on"}')


if __name__ == '__main__':
    main()

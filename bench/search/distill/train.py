#!/usr/bin/env python3
"""Trains the static embedding table on sentences: each token's vector is fitted so that the mean of
a sentence's token vectors comes as close as least squares allows to the sentence's embedding by the
model itself (SentenceVectors.java), starting from and regularized toward the distilled per-token
vectors (TokenVectors.java). The table keeps what the model says of each token alone where the
corpus says little, and learns from the corpus what the model reads from words in company.

    train.py DISTILL_DIR TEACHER_DIR[,TEACHER_DIR...] OUT_FILE [--dims N] [--lam L] [--iters K]

Writes the table in table.py's format. The last --validation sentences (default 10,000) are kept out
of the fit, and the printed mean cosine on them tells how close the table comes to the model on
sentences it did not see. Deterministic: the same inputs give the same bytes.
"""
import argparse
import sys

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, __file__.rsplit('/', 1)[0])
from table import read_token_vectors, write_table, zipf_weights  # noqa: E402


def read_teacher(teacher_dirs, dims_in=384):
    """Token ids and teacher vectors; with several teachers (same sentences, same tokenizer), each
    sentence's target is their unit vectors side by side over the square root of their number, so
    a dot product of targets is the mean of the teachers' cosines."""
    teacher_dir = teacher_dirs[0]
    raw = np.fromfile(f'{teacher_dir}/ids.i32', dtype='<i4')
    rows, cols = [], []
    pos, line = 0, 0
    while pos < len(raw):
        n = raw[pos]
        ids = raw[pos + 1:pos + 1 + n]
        rows.append(np.full(n, line))
        cols.append(ids)
        pos += 1 + n
        line += 1
    parts = []
    for d in teacher_dirs:
        if not np.array_equal(np.fromfile(f'{d}/ids.i32', dtype='<i4'), raw):
            sys.exit(f'{d} tokenized the sentences differently from {teacher_dir}')
        parts.append(np.fromfile(f'{d}/vectors.f32', dtype='<f4').reshape(line, dims_in))
    vectors = np.hstack(parts) / np.sqrt(len(parts))
    return np.concatenate(rows), np.concatenate(cols), vectors


def cosine(S, E, Y):
    pred = S @ E
    return ((pred * Y).sum(1) / np.maximum(np.linalg.norm(pred, axis=1) * np.linalg.norm(Y, axis=1), 1e-12)).mean()


def main():
    p = argparse.ArgumentParser()
    p.add_argument('distill_dir')
    p.add_argument('teacher_dirs', help='SentenceVectors.java output; several, comma-separated, train on their mean cosine')
    p.add_argument('out_file')
    p.add_argument('--dims', type=int, default=256)
    p.add_argument('--lam', type=float, default=0.1, help='regularization, relative to the mean token weight')
    p.add_argument('--iters', type=int, default=60)
    p.add_argument('--sif', type=float, default=1e-4)
    p.add_argument('--validation', type=int, default=10000)
    args = p.parse_args()

    vocab, token_raw, special = read_token_vectors(args.distill_dir)
    V = len(vocab)

    rows, cols, T = read_teacher(args.teacher_dirs.split(','))
    N = T.shape[0]
    keep = ~special[cols]
    rows, cols = rows[keep], cols[keep]
    S = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(N, V))
    counts = np.asarray(S.sum(axis=1)).ravel()
    nonempty = counts > 0
    S = sp.diags(1.0 / np.maximum(counts, 1)) @ S
    S = S[nonempty]
    T = T[nonempty].astype(np.float64)
    # the last sentences are kept out of the fit: how close the table comes to the model on them
    held = args.validation
    S_val, T_val = S[-held:], T[-held:]
    S, T = S[:-held], T[:-held]
    print(f'{S.shape[0]} sentences, {S.nnz} token entries, {held} kept out', file=sys.stderr)

    # the target space: the teacher's principal axes (uncentred: dot products kept as well as N dims keep them)
    _, sing, axes = np.linalg.svd(T[:200000], full_matrices=False)
    P = axes[:args.dims].T
    kept = (sing[:args.dims] ** 2).sum() / (sing ** 2).sum()
    Y = T @ P

    # start: the distilled token vectors with Zipf weights, in the same space, scaled to fit best
    # (with several teachers, the first teacher's per-token vectors; zeros in the others' part)
    start = np.zeros((V, T.shape[1]))
    start[:, :token_raw.shape[1]] = token_raw
    E0 = (start * zipf_weights(V, args.sif)[:, None]) @ P
    E0[special] = 0
    pred0 = S @ E0
    alpha = (pred0 * Y).sum() / (pred0 * pred0).sum()
    E0 *= alpha

    # ridge toward E0: (S'S + lam D) E = S'Y + lam D E0, D the mean diagonal of S'S
    diag = np.asarray(S.multiply(S).sum(axis=0)).ravel()
    lam = args.lam * diag[diag > 0].mean()
    St = S.T.tocsr()

    def A(E):
        return St @ (S @ E) + lam * E

    B = St @ Y + lam * E0
    E = E0.copy()
    R = B - A(E)
    Z = R.copy()
    rr = (R * R).sum(axis=0)
    for it in range(args.iters):
        AZ = A(Z)
        a = rr / np.maximum((Z * AZ).sum(axis=0), 1e-30)
        E += Z * a
        R -= AZ * a
        rr_new = (R * R).sum(axis=0)
        Z = R + Z * (rr_new / np.maximum(rr, 1e-30))
        rr = rr_new
        if it % 10 == 9:
            print(f'iter {it + 1}: residual {np.sqrt(rr.sum()):.4g}, mean cosine to the model: '
                  f'fitted sentences {cosine(S, E, Y):.4f}, kept out {cosine(S_val, E, T_val @ P):.4f}', file=sys.stderr)
    cos0 = cosine(S_val, E0, T_val @ P)
    E[special] = 0
    write_table(args.out_file, vocab, E)
    print(f'{args.out_file}: {V} x {args.dims}, teacher variance kept {kept:.3f}, lambda {args.lam}, '
          f'kept-out sentences: mean cosine to the model at the start {cos0:.4f}', file=sys.stderr)


if __name__ == '__main__':
    main()

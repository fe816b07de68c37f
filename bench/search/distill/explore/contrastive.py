#!/usr/bin/env python3
"""Dev-only exploration (measured, not shipped: bench/RESULTS.md). Tunes a static embedding table for retrieval: starting from a table (train.py's), each pair of
pairs.py (a short request-like text and the longer text that answers it) is pulled together and
pushed apart from the other pairs of its batch (InfoNCE with in-batch negatives, both directions),
while an L2 pull toward the start keeps what the table learned from the model. A text's vector is
the mean of its tokens' vectors, unit length, exactly as the server computes it.

    contrastive.py START_TABLE PAIRS_DIR OUT_TABLE [--steps N] [--batch B] [--tau T] [--lr R]
                   [--reg L] [--sources debian=1,wordnet=1,...]

PAIRS_DIR holds pairs.tsv (pairs.py) and query.i32 / document.i32 (Tokenize.java). Deterministic
for the same inputs and settings.
"""
import argparse
import struct
import sys

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, __file__.rsplit('/', 2)[0])
from table import write_table  # noqa: E402  (bench/search/distill/table.py)


def read_table(path):
    with open(path, 'rb') as f:
        data = f.read()
    assert data[:4] == b'HTSE'
    _, tokens, dims = struct.unpack('>iii', data[4:16])
    n = struct.unpack('>i', data[16:20])[0]
    vocab = data[20:20 + n].decode('utf-8').split('\n')[:tokens]
    pos = 20 + n
    scales = np.frombuffer(data[pos:pos + 4 * tokens], dtype='>f4').astype(np.float32)
    pos += 4 * tokens
    q = np.frombuffer(data[pos:pos + tokens * dims], dtype=np.int8).reshape(tokens, dims).astype(np.float32)
    return vocab, q * scales[:, None]


def read_ids(path):
    raw = np.fromfile(path, dtype='<i4')
    out, pos = [], 0
    while pos < len(raw):
        n = raw[pos]
        out.append(raw[pos + 1:pos + 1 + n])
        pos += 1 + n
    return out


def mean_matrix(lists, index):
    """Rows: texts; columns: positions in `index` (the batch's distinct tokens); entries 1/count."""
    rows, cols, vals = [], [], []
    for r, ids in enumerate(lists):
        if len(ids) == 0:
            continue
        rows.append(np.full(len(ids), r))
        cols.append(np.searchsorted(index, ids))
        vals.append(np.full(len(ids), 1.0 / len(ids), dtype=np.float32))
    return sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                         shape=(len(lists), len(index)))


def main():
    p = argparse.ArgumentParser()
    p.add_argument('start')
    p.add_argument('pairs')
    p.add_argument('out')
    p.add_argument('--steps', type=int, default=3000)
    p.add_argument('--batch', type=int, default=256)
    p.add_argument('--tau', type=float, default=0.05)
    p.add_argument('--lr', type=float, default=1e-3, help='Adam step, relative to the mean token vector norm')
    p.add_argument('--reg', type=float, default=1.0, help='L2 pull toward the start table, per step')
    p.add_argument('--sources', default='', help='sampling weight per source, e.g. wordnet=0.3')
    p.add_argument('--seed', type=int, default=5)
    args = p.parse_args()

    vocab, E0 = read_table(args.start)
    sources = [line.split('\t', 1)[0] for line in open(f'{args.pairs}/pairs.tsv', encoding='utf-8')]
    queries = read_ids(f'{args.pairs}/query.i32')
    documents = read_ids(f'{args.pairs}/document.i32')
    assert len(queries) == len(documents) == len(sources)
    weights = {k: float(v) for k, v in (s.split('=') for s in args.sources.split(',') if s)}
    w = np.array([weights.get(s, 1.0) for s in sources]) * np.array(
        [len(q) > 0 and len(d) > 0 for q, d in zip(queries, documents)])
    w = w / w.sum()
    rng = np.random.default_rng(args.seed)
    scale = float(np.linalg.norm(E0, axis=1)[np.linalg.norm(E0, axis=1) > 0].mean())
    lr = args.lr * scale / np.sqrt(E0.shape[1])
    E = E0.copy()
    m = np.zeros_like(E)
    v = np.zeros_like(E)
    b1, b2, eps = 0.9, 0.999, 1e-8
    losses = []
    for step in range(1, args.steps + 1):
        batch = rng.choice(len(sources), size=args.batch, replace=False, p=w)
        qs = [queries[i] for i in batch]
        ds = [documents[i] for i in batch]
        index = np.unique(np.concatenate(qs + ds))
        Q = mean_matrix(qs, index)
        D = mean_matrix(ds, index)
        EU = E[index]
        q = Q @ EU
        d = D @ EU
        qn_norm = np.maximum(np.linalg.norm(q, axis=1, keepdims=True), 1e-9)
        dn_norm = np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1e-9)
        qn, dn = q / qn_norm, d / dn_norm
        S = (qn @ dn.T) / args.tau
        # both directions: each query against the batch's documents, each document against its queries
        P1 = np.exp(S - S.max(axis=1, keepdims=True))
        P1 /= P1.sum(axis=1, keepdims=True)
        P2 = np.exp(S - S.max(axis=0, keepdims=True))
        P2 /= P2.sum(axis=0, keepdims=True)
        diag = np.arange(args.batch)
        loss = -(np.log(P1[diag, diag] + 1e-12).mean() + np.log(P2[diag, diag] + 1e-12).mean()) / 2
        losses.append(loss)
        G = (P1 + P2) / 2
        G[diag, diag] -= 1
        G /= args.batch * args.tau
        g_qn = G @ dn
        g_dn = G.T @ qn
        g_q = (g_qn - qn * (g_qn * qn).sum(axis=1, keepdims=True)) / qn_norm
        g_d = (g_dn - dn * (g_dn * dn).sum(axis=1, keepdims=True)) / dn_norm
        g = np.asarray(Q.T @ g_q + D.T @ g_d, dtype=np.float32)
        g += args.reg * (EU - E0[index]) / (scale * scale)
        m[index] = b1 * m[index] + (1 - b1) * g
        v[index] = b2 * v[index] + (1 - b2) * g * g
        mhat = m[index] / (1 - b1 ** step)
        vhat = v[index] / (1 - b2 ** step)
        E[index] = EU - lr * mhat / (np.sqrt(vhat) + eps)
        if step % 250 == 0:
            drift = np.linalg.norm(E - E0) / np.linalg.norm(E0)
            print(f'step {step}: loss {np.mean(losses[-250:]):.4f}, drift from the start {drift:.4f}', file=sys.stderr)
    special = np.array([t.startswith('[') and t.endswith(']') and len(t) > 2 for t in vocab])
    E[special] = 0
    write_table(args.out, vocab, E.astype(np.float64))
    print(f'{args.out}: {E.shape[0]} x {E.shape[1]}', file=sys.stderr)


if __name__ == '__main__':
    main()

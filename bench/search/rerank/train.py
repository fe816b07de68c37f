#!/usr/bin/env python3
"""Learns the static ranking's learned order (src/main/java/dev/hyperterse/search/LearnedOrder.java).

    bench/search/rerank/run.sh            (dumps the features with the jar, then runs this)
    train.py DUMP CATALOG_DIR --loso      leave-one-set-out: learns on all sets but one, ranks that one
                                          (each set in turn; LOSO_JOBS folds at a time, default the cores)
    train.py DUMP CATALOG_DIR --write F   learns on every set given, writes the weights to F

DUMP is what `DUMP_FEATURES=DUMP` makes SearchQuality.java write: per request, a line with its static
vector (an empty tool name, an empty field per base feature), then the thirty tools the static ranking
finds first (LearnedOrder.FEW) (before any reordering), each with its base features (the nine
LearnedOrder.features reads, then the four word matches TokenMatches.features reads, then the ten kinds of
value ValueKinds.features reads) and its static vector; DUMP.q each request's set, catalog, kind (intent, or an author's example) right tools and text;
DUMP.verbs its verb's cosine with every word a catalog's names start with; DUMP.table the static table's
name (written into the weights: the server uses them only with that table). With DUMP_MODEL (the
semantic ranking's order), each tool's line has more base features, last: its cosine with the request
by each model DUMP.model names, one a line, in that order (written into the weights too: the server's
semantic ranking reads all-MiniLM-L6-v2 and bge-small-en-v1.5, from its add-on), then per part of the
tool's text DUMP.texts names (its name, its lead, its description; written into the weights as texts),
that part's cosine by each model. Only the requests of the
sets given (the dev catalogs' intents and the sets held out whole that have been read; never a sealed
one) are learned from (with EXAMPLES=1 and a dump made with DUMP_EXAMPLES, the authors' examples of the
tools too). The score is linear in the base features, plus for each way a request is put
(its first word among the NF commonest first words of the training requests, else another; a digit; a
quoted word; all/every/each/any; a question mark; this/that/it; which of the NV verbs below the
request's verb is nearest, by the static table, so that a verb no training request began with is read
by its meaning: "stop forwarding" as delete; each of the NW words most training requests hold that it
holds, wherever it stands: "who", "new", "running") and each kind of tool (its name's first verb among the NV
commonest first words of training catalogs' names, once the words half a catalog's names carry are
left out, else another; only words WordNet knows as verbs; a plural word in its name) a weight; and a
bilinear form of the query's and the tool's static vectors of rank RANK, (U'q).(V't); and a hidden layer of HIDDEN
units (default 8; none for an order that reads one model's cosine, as semantic's did; HIDDEN=0: none) over the base features, a . tanh(W'b + c), which reads them together (W and a
L2-regularized by LAM_HID, c not). DUMP.verbs holds each request's verb's
cosine with every word a catalog's names start with. Fitted by a softmax over
each request's thirty tools (the right one's log-probability), L2-regularized (the base weights 100
times less), by L-BFGS from a seeded start (the fit's iterations are printed); the same inputs give the
same weights on the same machine.

MAX_ITER=N: at most N iterations of the fit (default 300); LAM=X: the pair weights' L2 (default 1e-3).

NO_TOKENS=1: weights that read no token readings from a dump that has them (its `.tokens` file: SearchQuality's
dumps always carry the lead's); EXTRA=FILE: readings made outside the server appended to the base features, lines
`QID\tTOOL\tVALUE…` (EXTRA_COLS=0,2: only those values), to measure a signal before the server makes it.

TRAIN_SETS=N (with --loso): a learning curve, each fold learned on N of the other sets only (and the dev
catalogs' requests), drawn by a seed of the held-out set's name and TRAIN_SEED, independently for each N
(the sets of a smaller N are not a part of a larger one's).
"""
import collections
import json
import multiprocessing
import os
import re
import sys
import unicodedata

import numpy as np
import scipy.sparse
from scipy.optimize import minimize
from scipy.special import logsumexp

K = None        # places reordered: the most tools a request has in the dump (LearnedOrder.FEW), or PLACES
HAND_K = 20     # places the hand weights reorder (ActionWeights.HAND's few)
RANK = 8        # the bilinear form's rank
LAM_MAP = 1e-3  # L2 on its maps
MAX_ITER = int(os.environ.get('MAX_ITER', '300'))  # L-BFGS iterations at most (MAX_ITER=N: N)
LAM = float(os.environ.get('LAM', '1e-3'))  # L2 on the pair weights (the base weights: LAM / 100; LAM=X: X)
NV = 24         # verbs of tools' names
NF = 40         # first words of requests
NW = 200        # words of requests, wherever they stand
MIN_SCORE = 0.16  # the static ranking's floor: places under it are no hits
BASE = None  # the base features per tool, read from the dump
VERBS = __file__.rsplit('/', 1)[0] + '/../../../src/main/resources/dev/hyperterse/search/verbs.txt'


def java_digit(c):
    return ord(c) < 0x10000 and unicodedata.category(c) == 'Nd'


def java_letter(c):
    return ord(c) < 0x10000 and unicodedata.category(c).startswith('L')


def words(text):
    """A request's words, as LearnedOrder.frame reads them: runs of a-z, 0-9 and ', lower case."""
    return re.findall(r"[a-z0-9']+", text.lower())


def name_words(name):
    name = re.sub(r'([a-z0-9])([A-Z])', r'\1 \2', name).lower()
    return [w for w in re.split(r'[^a-z0-9]+', name) if w]


class Data:
    def __init__(self, dump, catalog_dir):
        rows = collections.defaultdict(list)
        self.table = open(dump + '.table', encoding='utf-8').read().strip()
        # the models whose cosines are the last base features, one name a line, in the order the server reads them
        self.models = ([m.strip() for m in open(dump + '.model', encoding='utf-8').read().splitlines() if m.strip()]
                       if os.path.exists(dump + '.model') else [])
        # the parts of a tool's text (its name, lead, description) whose cosines by each model follow the whole
        # text's: per part, one per model
        self.texts = ([t.strip() for t in open(dump + '.texts', encoding='utf-8').read().splitlines() if t.strip()]
                      if self.models and os.path.exists(dump + '.texts') else [])
        # the texts of a tool whose token vectors, by each model, are read after the parts' cosines (its lead
        # and whole text): per text, per model, the request's tokens' best matches in it, then its tokens' in the request
        self.tokens = ([t.strip() for t in open(dump + '.tokens', encoding='utf-8').read().splitlines() if t.strip()]
                       if self.models and os.path.exists(dump + '.tokens') else [])
        # the tag of the map the token vectors were read through (the jar's token-basis.bin), if any
        self.basis = (open(dump + '.basis', encoding='utf-8').read().strip()
                      if self.tokens and os.path.exists(dump + '.basis') else '')
        self.qvec, self.tvec = {}, collections.defaultdict(list)
        global BASE
        for line in open(dump, encoding='utf-8'):
            p = line.rstrip('\n').split('\t')
            if p[1] == '' and BASE is None:
                # as many base features as the query's line has empty fields (the ranking's nine, the four
                # word matches and the ten kinds of value; with models, each model's cosine, then per part of the
                # tool's text each model's)
                BASE = next(k for k, x in enumerate(p[2:]) if x != '')
            vector = np.array([float(x) for x in p[2 + BASE:]], dtype=np.float32)
            if p[1] == '':
                assert int(p[0]) not in self.qvec, f'two query lines for request {p[0]}'
                self.qvec[int(p[0])] = vector  # the query's vector
                continue
            rows[int(p[0])].append((p[1], [float(x) for x in p[2:2 + BASE]]))
            self.tvec[int(p[0])].append(vector)
        global K
        K = max(len(v) for v in rows.values())
        if os.environ.get('PLACES'):
            # weights that order fewer places than the dump holds (semantic's order: twenty)
            K = min(K, int(os.environ['PLACES']))
        self.q = {}
        for line in open(dump + '.q', encoding='utf-8'):
            qid, set_, cat, kind, exp, split, text = line.rstrip('\n').split('\t', 6)
            self.q[int(qid)] = dict(set=set_, cat=cat, kind=kind, exp=set(exp.split(',')), text=text)
        self.names, self.x, self.y = {}, {}, {}
        for qid, q in self.q.items():
            r = rows.get(qid, [])
            self.names[qid] = [n for n, _ in r]
            self.x[qid] = np.array([f for _, f in r]).reshape(-1, BASE)
            self.y[qid] = np.array([n in q['exp'] for n, _ in r])
        self.verb_cosines = {}
        lines = open(dump + '.verbs', encoding='utf-8').read().splitlines()
        self.verb_words = lines[0].split('\t')[1:]
        for row in lines[1:]:
            p = row.split('\t')
            self.verb_cosines[int(p[0])] = dict(zip(self.verb_words, (float(x) for x in p[1:])))
        self.lexicon = {row.split()[1] for row in open(VERBS, encoding='utf-8') if row.startswith('L ')}
        self.catalogs = {}
        for q in self.q.values():
            key = (q['set'], q['cat'])
            if key not in self.catalogs:
                path = f"{catalog_dir}/{'' if q['set'] == 'dev' else q['set'] + '/'}{q['cat']}.json"
                self.catalogs[key] = [t['name'] for t in json.load(open(path, encoding='utf-8'))['tools']]
        self.common = {}
        for key, names in self.catalogs.items():
            counts = collections.Counter(w for n in names for w in set(name_words(n)))
            self.common[key] = {w for w, c in counts.items() if len(names) >= 4 and c * 2 >= len(names)}

    def own_words(self, key, name):
        return [w for w in name_words(name) if w not in self.common[key]]


class Vocabulary:
    def __init__(self, data, qids):
        verbs = collections.Counter()
        for key in sorted({(data.q[i]['set'], data.q[i]['cat']) for i in qids}):
            for n in data.catalogs[key]:
                w = data.own_words(key, n)
                if w:
                    verbs[w[0]] += 1
        first = collections.Counter()
        for i in qids:
            w = words(data.q[i]['text'])
            if w:
                first[w[0]] += 1
        # ties broken by the word, so that the lists do not depend on the order requests come in
        # only verbs (WordNet's, as the server's action stage knows them): a noun some large catalog
        # starts its names with (woo_products_…) says nothing of what a tool does
        self.verbs = [v for v, _ in sorted(verbs.items(), key=lambda kv: (-kv[1], kv[0])) if v in data.lexicon][:NV]
        self.first = [v for v, _ in sorted(first.items(), key=lambda kv: (-kv[1], kv[0]))[:NF]]
        # the words most training requests hold, anywhere in them ("who", "new", "running", "still")
        held = collections.Counter()
        for i in qids:
            held.update(set(words(data.q[i]['text'])))
        self.words = [v for v, _ in sorted(held.items(), key=lambda kv: (-kv[1], kv[0]))[:NW]]
        self.word_index = {v: k for k, v in enumerate(self.words)}

    def frame(self, text, cosines):
        w = words(text)
        f = np.zeros(len(self.first) + 6 + len(self.verbs) + len(self.words))
        for x in set(w):
            if x in self.word_index:
                f[len(self.first) + 6 + len(self.verbs) + self.word_index[x]] = 1
        if cosines is not None:
            f[len(self.first) + 6 + int(np.argmax([cosines[v] for v in self.verbs]))] = 1
        f[self.first.index(w[0]) if w and w[0] in self.first else len(self.first)] = 1
        n = len(self.first)
        # as Java reads chars (LearnedOrder.frame): a decimal digit; a quote mark or apostrophe before a
        # letter, digit or underscore (characters past U+FFFF are two chars there, neither of them either)
        f[n + 1] = 1 if any(java_digit(c) for c in text) else 0
        f[n + 2] = 1 if any(a in '"\u201c\'' and (java_digit(b) or java_letter(b) or b == '_')
                            for a, b in zip(text, text[1:])) else 0
        f[n + 3] = 1 if any(x in ('all', 'every', 'each', 'any') for x in w) else 0
        # Java's String.strip: white space as Character.isWhitespace reads it
        f[n + 4] = 1 if text.strip(' \t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2008\u2009\u200a\u2028\u2029\u205f\u3000').endswith('?') else 0
        f[n + 5] = 1 if any(x in ('this', 'that', 'it') for x in w) else 0
        return f

    def kind(self, data, key, name):
        words = data.own_words(key, name)
        verb = next((self.verbs.index(w) for w in words if w in self.verbs), len(self.verbs))
        plural = any(len(w) > 3 and w.endswith('s') and not w.endswith('ss') for w in words)
        one = np.zeros(len(self.verbs) + 2)
        one[verb] = 1
        one[len(self.verbs) + 1] = 1 if plural else 0
        return one

    def features(self, data, qid):
        q = data.q[qid]
        key = (q['set'], q['cat'])
        frame = self.frame(q['text'], data.verb_cosines.get(qid))
        rows = [np.concatenate([data.x[qid][i], np.outer(frame, self.kind(data, key, n)).ravel()])
                for i, n in enumerate(data.names[qid][:K])]
        return np.array(rows).reshape(len(rows), BASE + len(frame) * (len(self.verbs) + 2))


HIDDEN = None  # units of a hidden layer over the base features: HIDDEN, else 8 for static's order and none for semantic's
LAM_HID = 1e-3


class Model:
    """The linear weights w, and the bilinear form's maps U and V (dims x RANK); with HIDDEN, a hidden layer
    over the base features: a . tanh(W1' b + c)."""

    def __init__(self, w, u, v, hid=None):
        self.w, self.u, self.v, self.hid = w, u, v, hid

    def scores(self, data, vocab, qid):
        if len(data.y[qid]) == 0:
            return None
        t = np.array(data.tvec[qid][:K])
        fx = vocab.features(data, qid)
        s = fx @ self.w + (t @ self.v) @ (data.qvec[qid] @ self.u)
        if self.hid is not None:
            w1, c, a = self.hid
            s = s + np.tanh(fx[:, :BASE] @ w1 + c) @ a
        return s


def fit(data, vocab, qids):
    chosen = [i for i in qids if len(data.y[i][:K]) >= 2 and data.y[i][:K].any()]
    n = len(chosen)
    dims = len(data.qvec[chosen[0]])
    # the features, a row per request's place (K a request, empty past its last tool), kept sparse: a
    # request's way of being put meets one kind of tool per place, so few of the d columns are not zero
    rows, cols, vals = [], [], []
    q = np.zeros((n, dims), np.float32)
    t = np.zeros((n, K, dims), np.float32)
    mask = np.zeros((n, K), bool)
    pos = np.zeros((n, K), bool)
    d = None
    for j, i in enumerate(chosen):
        yj = data.y[i][:K]
        fj = vocab.features(data, i)
        d = fj.shape[1]
        r, c = np.nonzero(fj)
        rows.append(r + j * K)
        cols.append(c)
        vals.append(fj[r, c])
        q[j] = data.qvec[i]
        t[j, :len(yj)] = np.array(data.tvec[i][:K])
        mask[j, :len(yj)] = True
        pos[j, :len(yj)] = yj
    f = scipy.sparse.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n * K, d))
    del rows, cols, vals
    reg = np.full(d, LAM)
    reg[:BASE] = LAM / 100

    nm = 2 * dims * RANK
    H = HIDDEN
    bx = f[:, :BASE].toarray() if H else None  # the base features, dense (n * K, BASE), for the hidden layer

    def unpack(x):
        return x[:d], x[d:d + dims * RANK].reshape(dims, RANK), x[d + dims * RANK:d + nm].reshape(dims, RANK)

    def unpack_hid(x):
        h = x[d + nm:]
        return h[:BASE * H].reshape(BASE, H), h[BASE * H:BASE * H + H], h[BASE * H + H:]

    def loss(x):
        w, u, v = unpack(x)
        qu = q @ u
        tv = t @ v
        lin = f @ w
        if H:
            w1, c, a = unpack_hid(x)
            z = np.tanh(bx @ w1 + c)
            lin = lin + z @ a
        s = np.where(mask, lin.reshape(n, K) + np.einsum('nr,nkr->nk', qu, tv), -1e9)
        lz = logsumexp(s, axis=1)
        lp = logsumexp(np.where(pos, s, -1e9), axis=1)
        g = np.exp(s - lz[:, None]) - np.where(pos, np.exp(s - lp[:, None]), 0)
        gw = f.T @ g.ravel()
        gu = q.T @ np.einsum('nk,nkr->nr', g, tv)
        gv = np.einsum('nk,nkd,nr->dr', g, t, qu, optimize=True)
        value = (lz - lp).sum() / n + (reg * w) @ w + LAM_MAP * ((u * u).sum() + (v * v).sum())
        grad = [gw / n + 2 * reg * w, (gu / n + 2 * LAM_MAP * u).ravel(), (gv / n + 2 * LAM_MAP * v).ravel()]
        if H:
            gr = g.ravel()
            ga = z.T @ gr
            gz = np.outer(gr, a) * (1 - z * z)
            gw1 = bx.T @ gz
            gc = gz.sum(axis=0)
            value += LAM_HID * ((w1 * w1).sum() + (a * a).sum())
            grad += [(gw1 / n + 2 * LAM_HID * w1).ravel(), gc / n, ga / n + 2 * LAM_HID * a]
        return value, np.concatenate(grad)

    # the maps start small and random (a fixed seed: the same inputs give the same weights)
    rng = np.random.default_rng(1)
    x0 = np.concatenate([np.zeros(d), rng.normal(0, 0.05, 2 * dims * RANK)]
                        + ([rng.normal(0, 0.3, BASE * H), np.zeros(H), rng.normal(0, 0.1, H)] if H else []))
    x0[0] = 10
    result = minimize(loss, x0, jac=True, method='L-BFGS-B', options={'maxiter': MAX_ITER})
    print(f'fit: {result.nit} iterations, {"converged" if result.success else "stopped: " + str(result.message)}',
          file=sys.stderr)
    return Model(*unpack(result.x), unpack_hid(result.x) if H else None)


def base_order(x):
    """The action stage's hand weights (ActionWeights without the learned order)."""
    return x[:, 0] + 0.1 * x[:, 5] + 0.4 * x[:, 6] + 0.05 * x[:, 8]


def rank(data, qid, scores, places=None):
    """The place of the first right tool (0: none in the ten) and the first hit, once the first `places`
    (default K) are sorted by `scores`."""
    x, y = data.x[qid], data.y[qid]
    if len(y) == 0:
        return 0, None
    k = min(len(y), places or K)
    order = list(np.argsort(-scores[:k], kind='stable')) + list(range(k, len(y)))
    hits = sum(1 for i in range(min(10, len(y))) if x[i, 0] >= MIN_SCORE)
    first = data.names[qid][order[0]] if hits else None
    for place in range(hits):
        if y[order[place]]:
            return place + 1, first
    return 0, first


def siblings(data, key, a, b):
    if a == b:
        return False
    names = data.catalogs[key]

    def words(n):
        out = set()
        for w in name_words(n):
            if len(w) > 2:
                out.add(w[:-1] if w.endswith('s') and len(w) > 3 and not w.endswith('ss') else w)
        return out
    counts = collections.Counter(w for n in names for w in words(n))
    wa = {w for w in words(a) if counts[w] * 2 < len(names)}
    wb = {w for w in words(b) if counts[w] * 2 < len(names)}
    return bool(wa & wb) and wa != wb


def score_set(data, qids, scorer, ranks=None, places=None):
    """Top-1, MRR@10, recall@5/10 and sibling misses of `scorer` over `qids`; each request's place of
    its first right tool (0: none in the ten), first hit and whether that is a sibling appended to `ranks`
    when given."""
    s = dict(n=0, top1=0, mrr=0.0, r5=0, r10=0, misses=0, sibling=0)
    for i in qids:
        r, first = rank(data, i, scorer(i), places)
        q = data.q[i]
        sibling = r != 1 and first is not None and any(siblings(data, (q['set'], q['cat']), e, first) for e in q['exp'])
        if ranks is not None:
            ranks.append((i, r, first, sibling))
        s['n'] += 1
        s['top1'] += r == 1
        s['mrr'] += 0 if r == 0 else 1 / r
        s['r5'] += 1 <= r <= 5
        s['r10'] += r > 0
        s['misses'] += r != 1
        s['sibling'] += sibling
    return s


def cells(s):
    n = s['n']
    return (f"{s['top1'] / n:.2f} | {s['mrr'] / n:.4f} | {s['r5'] / n:.2f} | {s['r10'] / n:.3f}"
            f" | {s['sibling']} of {s['misses']}")


def line(label, base, learned):
    return f"| {label} | {base['n']} | {cells(base)} | {cells(learned)} |"


FOLDS = None  # (data, intents) for fold(), set before the folds are forked


def fold(held):
    """Learns on every set but `held` and scores `held`: by the hand weights, then by the learned order."""
    data, intents, examples = FOLDS
    train = [i for i in intents + examples if data.q[i]['set'] != held]
    if os.environ.get('TRAIN_SETS'):
        # a learning curve: learn on TRAIN_SETS of the other sets only (drawn by a seed of the held-out
        # set's name and TRAIN_SEED), the dev catalogs' requests always
        others = sorted({data.q[i]['set'] for i in train} - {'dev'})
        rng = np.random.default_rng([int(os.environ.get('TRAIN_SEED', '0'))] + [ord(c) for c in held])
        keep = set(rng.choice(others, size=min(len(others), int(os.environ['TRAIN_SETS'])), replace=False)) | {'dev'}
        train = [i for i in train if data.q[i]['set'] in keep]
    test = [i for i in intents if data.q[i]['set'] == held]
    vocab = Vocabulary(data, train)
    w = fit(data, vocab, train)
    b = score_set(data, test, lambda i: base_order(data.x[i][:HAND_K]) if len(data.y[i]) else None, places=HAND_K)
    ranks = []
    lrn = score_set(data, test, lambda i: w.scores(data, vocab, i), ranks)
    return b, lrn, ranks


def main():
    dump, catalog_dir = sys.argv[1], sys.argv[2]
    data = Data(dump, catalog_dir)
    global HIDDEN
    # static's order has the layer, and so has semantic's with two models' cosines (with one model's, it had none:
    # with the layer, it ranked fresh17, read once, lower)
    HIDDEN = int(os.environ.get('HIDDEN', '0' if len(data.models) == 1 else '8'))
    global BASE
    if (os.environ.get('NO_VALUES', '') not in ('', '0') or os.environ.get('NO_MATCHES')) \
            and BASE - len(data.models) * (1 + len(data.texts) + 2 * len(data.tokens)) == 23:
        # weights that read no kinds of value (as both orders learned before them): the ten columns after
        # the word matches left out
        for qid in data.x:
            data.x[qid] = np.delete(data.x[qid], range(13, 23), axis=1)
        BASE -= 10
    if os.environ.get('NO_MATCHES'):
        # weights that read no word matches (as semantic's learned before them): the four columns after
        # the ranking's nine left out
        assert BASE >= 13, 'the dump holds no word matches'
        for qid in data.x:
            data.x[qid] = np.delete(data.x[qid], range(9, 13), axis=1)
        BASE -= 4
    assert not data.tokens or BASE - len(data.models) * (1 + len(data.texts) + 2 * len(data.tokens)) in (23, 13, 9), \
        f'{BASE} base features do not hold the token readings the dump names'
    if os.environ.get('NO_TOKENS') and data.tokens:
        # weights that read no token vectors (as semantic's learned before them): the last columns left out
        width = 2 * len(data.models) * len(data.tokens)
        for qid in data.x:
            data.x[qid] = data.x[qid][:, :BASE - width]
        BASE -= width
    if os.environ.get('EXTRA'):
        # EXTRA=FILE: more readings per place, to measure a candidate signal before the server makes it: lines
        # `QID\tTOOL\tVALUE…`, appended to the base features (EXTRA_COLS=0,2: only those of the values)
        extra = {}
        for row in open(os.environ['EXTRA'], encoding='utf-8'):
            p = row.rstrip('\n').split('\t')
            extra[(int(p[0]), p[1])] = [float(v) for v in p[2:]]
        cols = os.environ.get('EXTRA_COLS')
        pick = [int(c) for c in cols.split(',')] if cols else None
        width = len(pick) if pick else len(next(iter(extra.values())))
        for qid in data.x:
            vals = [extra[(qid, n)] for n in data.names[qid]]
            vals = np.array([[v[c] for c in pick] if pick else v for v in vals]).reshape(len(vals), width)
            data.x[qid] = np.concatenate([data.x[qid], vals], axis=1)
        BASE += width
    sets = sorted({q['set'] for q in data.q.values()} - {'dev'}, key=lambda s: (s != 'unseen', len(s), s))
    intents = [i for i, q in data.q.items() if q['kind'] == 'intent']
    # EXAMPLES=1: the authors' examples of the tools (bench/search/examples/, in a dump made with
    # DUMP_EXAMPLES=1) are learned from too, as requests for their tools; never those of the set held out,
    # and never scored
    examples = [i for i, q in data.q.items() if q['kind'] == 'example'] if os.environ.get('EXAMPLES') else []
    if '--loso' in sys.argv:
        print('| set held out | intents | top-1 | MRR@10 | recall@5 | recall@10 | sibling misses |'
              ' learned: top-1 | MRR@10 | recall@5 | recall@10 | sibling misses |')
        print('|---|---|---|---|---|---|---|---|---|---|---|---|')
        total = [collections.Counter(), collections.Counter()]
        global FOLDS
        FOLDS = (data, intents, examples)
        # the folds are independent: one process each, as many at a time as LOSO_JOBS says (default:
        # the machine's cores), forked so that they share the parsed dump
        jobs = max(1, int(os.environ.get('LOSO_JOBS', os.cpu_count() or 1)))
        if jobs > 1:
            with multiprocessing.get_context('fork').Pool(min(jobs, len(sets))) as pool:
                results = pool.map(fold, sets)
        else:
            results = [fold(held) for held in sets]
        for held, (b, lrn, _) in zip(sets, results):
            total[0].update(b)
            total[1].update(lrn)
            print(line(held, b, lrn))
        print(line('**all**', total[0], total[1]))
        misses = os.environ.get('LOSO_MISSES')
        if misses:
            # each held-out request the learned order does not put first: its set, catalog, place of the
            # first right tool (0: not in the ten), first hit, right tools, whether the first hit is a
            # sibling, and its text
            with open(misses, 'w', encoding='utf-8') as f:
                for _, _, ranks in results:
                    for i, r, first, sibling in ranks:
                        if r == 1:
                            continue
                        q = data.q[i]
                        f.write('\t'.join([q['set'], q['cat'], str(r), first or '-', ','.join(sorted(q['exp'])),
                                           'sibling' if sibling else '-', q['text']]) + '\n')
    if '--write' in sys.argv:
        out = sys.argv[sys.argv.index('--write') + 1]
        vocab = Vocabulary(data, intents + examples)
        w = fit(data, vocab, intents + examples)
        title = ('# The semantic ranking\'s learned order (the static ranking\'s best tools and the models\' picks,\n'
                 '# the models\' cosines read too; dev.hyperterse.search.LearnedOrder), written by\n' if data.models else
                 '# The static ranking\'s learned order (dev.hyperterse.search.LearnedOrder), written by\n')
        with open(out, 'w', encoding='utf-8') as f:
            f.write(title +
                    '# bench/search/rerank/train.py from the requests of these sets: '
                    + ', '.join(['dev'] + sets) + f' ({len(intents)} requests'
                    + (f', and the {len(examples)} examples of their tools' if examples else '') + ').\n'
                    '# places: how many of the ranking\'s best tools they put in order; verbs: kinds of tool by their\n'
                    '# name\'s verb; first: first words of requests;\n'
                    '# words: words a request may hold anywhere;\n'
                    '# base: the base features\' weights (the ranking\'s nine, the four word matches, the ten kinds of value\n'
                    '# if any, the models\' cosines of the whole text last if any, then per part of the tool\'s text\n'
                    '# texts names, each model\'s cosine, then per part tokens names, each model\'s two readings of its\n'
                    '# token vectors against the request\'s: the request\'s tokens\' best matches, the part\'s); pair: per way a\n'
                    '# request is put (each first word, another, a digit, a quoted word, all/every/each/any, a question mark,\n'
                    '# this/that/it, its verb nearest each kind\'s verb, each word it holds), the weight per kind of tool (each\n'
                    '# verb, another, a plural name); u, v: per dimension of the static table, the maps of\n'
                    '# the query\'s and the tool\'s vectors whose dot product the score adds; hidden: per unit of a hidden\n'
                    '# layer over the base features, a weight per base feature, its bias and its weight in the score\n'
                    '# (a . tanh(w\'x + c) per unit).\n')
            f.write('table\t' + data.table + '\n')
            if data.models:
                f.write('model\t' + '\t'.join(data.models) + '\n')
            if data.texts:
                f.write('texts\t' + '\t'.join(data.texts) + '\n')
            if data.tokens and not os.environ.get('NO_TOKENS'):
                f.write('tokens\t' + '\t'.join(data.tokens) + '\n')
                if data.basis:
                    f.write('basis\t' + data.basis + '\n')
            f.write(f'places\t{K}\n')
            f.write('verbs\t' + '\t'.join(vocab.verbs) + '\n')
            f.write('first\t' + '\t'.join(vocab.first) + '\n')
            if vocab.words:
                f.write('words\t' + '\t'.join(vocab.words) + '\n')
            f.write('base\t' + '\t'.join(f'{v:.6g}' for v in w.w[:BASE]) + '\n')
            pairs = w.w[BASE:].reshape(len(vocab.first) + 6 + len(vocab.verbs) + len(vocab.words), len(vocab.verbs) + 2)
            for row in pairs:
                f.write('pair\t' + '\t'.join(f'{v:.6g}' for v in row) + '\n')
            for key, m in (('u', w.u), ('v', w.v)):
                for row in m:
                    f.write(key + '\t' + '\t'.join(f'{v:.6g}' for v in row) + '\n')
            if w.hid is not None:
                # per unit: its weight per base feature, its bias, its weight in the score
                w1, c, a = w.hid
                for h in range(len(a)):
                    f.write('hidden\t' + '\t'.join(f'{v:.6g}' for v in list(w1[:, h]) + [c[h], a[h]]) + '\n')
        # in sample, per set: what SearchQuality must reproduce with these weights in the jar
        for s in ['dev'] + sets:
            qs = [i for i in intents if data.q[i]['set'] == s]
            r = score_set(data, qs, lambda i: w.scores(data, vocab, i))
            print(f"in sample {s}: MRR@10 {r['mrr'] / r['n']:.4f} top-1 {r['top1'] / r['n']:.3f}"
                  f" recall@10 {r['r10'] / r['n']:.3f} ({r['n']})")


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""Top-1 misses by kind, for issue 34's sibling count: each request's first hit against the right tool closest
to it (the one sharing most name words), read from the tools' names alone.

    bench/search/rerank/kinds.py MISSES DUMP

MISSES: what `LOSO_MISSES=FILE train.py DUMP CATALOGS --loso` writes (the learned order's misses, each set held
out); DUMP: the dump it learned from (its first place per request is the table's order before any reordering).
A name's words: split at non-letters and camelCase, longer than two letters, a plural 's' dropped; words that half
the catalog's names carry are left out; its action is its first word when WordNet (Debian's wordnet-base,
/usr/share/wordnet) knows it as a verb, its object the rest. Kinds: same object, another action / another action
and object in part / same action, another object / no shared word / other (neither has an action, or one only).
The dev catalogs' requests are left out (they are only learned from).
"""
import sys, json, re, collections, glob
verbs = set()
for line in open('/usr/share/wordnet/index.verb'):
    if not line.startswith(' '):
        verbs.add(line.split(' ', 1)[0])
def name_words(name):
    name = re.sub(r'([a-z0-9])([A-Z])', r'\1 \2', name).lower()
    out = []
    for w in re.split(r'[^a-z0-9]+', name):
        if len(w) > 2:
            out.append(w[:-1] if w.endswith('s') and len(w) > 3 and not w.endswith('ss') else w)
    return out
cats = {}
def catalog(s, c):
    key = (s, c)
    if key not in cats:
        path = f'bench/search/catalogs/{c}.json' if s in ('dev', 'heldout') else f'bench/search/catalogs/{s}/{c}.json'
        names = [t['name'] for t in json.load(open(path))['tools']]
        counts = collections.Counter(w for n in names for w in set(name_words(n)))
        cats[key] = {w for w, k in counts.items() if k * 2 >= len(names)}
    return cats[key]
def parts(s, c, n):
    common = catalog(s, c)
    ws = [w for w in name_words(n) if w not in common]
    if ws and ws[0] in verbs:
        return ws[0], set(ws[1:]), set(ws)
    return None, set(ws), set(ws)
def kind(s, c, first, rights):
    f = parts(s, c, first)
    best = max(rights, key=lambda r: len(parts(s, c, r)[2] & f[2]))
    r = parts(s, c, best)
    if not (f[2] & r[2]):
        return 'no shared word'
    if f[0] and r[0] and f[0] != r[0]:
        return 'same object, another action' if f[1] == r[1] and f[1] else 'another action and object in part'
    if f[0] and f[0] == r[0]:
        return 'same action, another object'
    return 'other'
def table(rows):
    k = collections.Counter(kind(*x) for x in rows)
    return len(rows), k
# learned: misses file (set, cat, place, first, rights, sibling, text); a miss with a first hit
learned = []
for line in open(sys.argv[1]):
    p = line.rstrip('\n').split('\t')
    if p[3] != '-' and p[2] != '1':
        learned.append((p[0], p[1], p[3], p[4].split(',')))
# base: the dump's first place per request (intents only), as the table ranks before any order
q = {}
for line in open(sys.argv[2] + '.q'):
    p = line.rstrip('\n').split('\t')
    if p[3] == 'intent' and p[1] != 'dev':
        q[p[0]] = (p[1], p[2], p[4].split(','))
first = {}
for line in open(sys.argv[2]):
    p = line.split('\t', 3)
    if p[1] and p[0] in q and p[0] not in first:
        first[p[0]] = p[1]
base = [(s, c, first[i], r) for i, (s, c, r) in q.items() if i in first and first[i] not in r]
kinds = ['same object, another action', 'another action and object in part', 'same action, another object',
         'no shared word', 'other']
print('| order | top-1 misses | ' + ' | '.join(kinds) + ' |')
print('|---|---|' + '---|' * len(kinds))
for label, rows in (('none (the table\'s order, the action stage off)', base), ('`semantic`\'s learned order, each set held out', learned)):
    n, k = table(rows)
    print(f'| {label} | {n} | ' + ' | '.join(str(k[x]) for x in kinds) + ' |')

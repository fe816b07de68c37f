#!/usr/bin/env python3
"""The sentences the static table is trained on (train.py), written one a line in a fixed order:

- Debian's package descriptions (bookworm main, English): each package's one-line summary and the
  sentences of its long description. They describe what software does, in the words tool
  descriptions use. Read from apt's lists; `apt-get -o Acquire::Languages=en update` fetches the
  long descriptions (the i18n Translation-en file).
- WordNet 3.0 (Debian's wordnet-base): each synset as "lemma, lemma: definition", the definition
  alone, and its first example sentence: the everyday vocabulary an agent's request uses.

No text of the bench's catalogs or intents is used.

    corpus.py OUT_FILE
"""
import glob
import random
import re
import subprocess
import sys

MIN_WORDS, MAX_WORDS = 3, 60


def package_descriptions():
    """(summary, long description as one line) of each package in apt's English descriptions."""
    files = sorted(glob.glob('/var/lib/apt/lists/*_debian_dists_bookworm_main_i18n_Translation-en*'))
    if not files:
        sys.exit('no Translation-en in /var/lib/apt/lists: run apt-get -o Acquire::Languages=en update')
    path = files[0]
    tool = 'lz4cat' if path.endswith('.lz4') else 'zcat' if path.endswith('.gz') else 'xzcat' if path.endswith('.xz') else 'cat'
    text = subprocess.run([tool, path], capture_output=True, check=True).stdout.decode('utf-8', 'replace')
    for block in text.split('\n\n'):
        m = re.search(r'^Description-en: (.*)$', block, re.M)
        if m:
            yield m.group(1), ' '.join(l.strip() for l in block[m.end():].split('\n')
                                       if l.startswith(' ') and l.strip() != '.')


def debian(add):
    for summary, body in package_descriptions():
        add(summary)
        for sentence in re.split(r'(?<=[.!?])\s+(?=[A-Z])', re.sub(r'\s+', ' ', body)):
            if not re.search(r'https?://|[{}<>]|\*', sentence):
                add(sentence.rstrip('.'))


def synsets():
    """(lemmas, definitions, examples) of each WordNet 3.0 synset, in file order."""
    for pos in ['noun', 'verb', 'adj', 'adv']:
        for line in open(f'/usr/share/wordnet/data.{pos}', encoding='latin-1'):
            if line.startswith('  '):
                continue
            head, _, gloss = line.partition('| ')
            fields = head.split()
            count = int(fields[3], 16)
            lemmas = [re.sub(r'\(.*\)$', '', fields[4 + 2 * i].replace('_', ' ')) for i in range(count)]
            parts = [p.strip() for p in gloss.strip().split(';')]
            yield (lemmas, [p for p in parts if not p.startswith('"')],
                   [p.strip('"') for p in parts if p.startswith('"')])


def wordnet(add):
    for lemmas, definitions, examples in synsets():
        if definitions:
            add(', '.join(lemmas[:4]) + ': ' + definitions[0])
            add(definitions[0])
        for example in examples[:1]:
            add(example)


def main():
    texts, seen = [], set()

    def add(text):
        text = ' '.join(text.replace('\t', ' ').split())
        words = len(text.split())
        if MIN_WORDS <= words <= MAX_WORDS and text.lower() not in seen:
            seen.add(text.lower())
            texts.append(text)

    debian(add)
    wordnet(add)
    random.Random(7).shuffle(texts)
    with open(sys.argv[1], 'w', encoding='utf-8') as out:
        out.writelines(t + '\n' for t in texts)
    print(f'{sys.argv[1]}: {len(texts)} sentences', file=sys.stderr)


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""Dev-only exploration (contrastive.sh). Pairs of texts that say the same thing in two ways, for
tuning the static table to retrieve (contrastive.py): a short request-like text and the longer
text that answers it, the way an agent's request and a tool's description say the same thing.

- Debian's package descriptions: the one-line summary and the long description's first sentences.
- WordNet 3.0: a synset's lemmas and its definition (words to their meaning: "replica" to "copy").
- Python 3.11's standard library: a public function's or method's name as words ("get terminal
  size") and the first paragraph of its docstring.
- The JDK's API (lib/src.zip of the last JDK under /usr/lib/jvm that has one): a public method's name as words with its class's,
  and the first sentence of its javadoc.

No text of the bench's catalogs or intents is used. Written one pair a line, tab-separated, in a
fixed order (deterministic).

    pairs.py OUT_FILE
"""
import ast
import glob
import html
import os
import random
import re
import sys
import zipfile

sys.path.insert(0, __file__.rsplit('/', 2)[0])
from corpus import package_descriptions, synsets  # noqa: E402  (bench/search/distill/corpus.py)

MAX_WORDS = 60


def words_of(identifier):
    """getTerminalSize, get_terminal_size -> get terminal size"""
    s = re.sub(r'([a-z0-9])([A-Z])', r'\1 \2', identifier)
    s = re.sub(r'([A-Z]+)([A-Z][a-z])', r'\1 \2', s)
    return ' '.join(s.replace('_', ' ').split()).lower()


def first_sentences(text, most=2):
    text = ' '.join(text.split())
    parts = re.split(r'(?<=[.!?])\s+(?=[A-Z])', text)
    return ' '.join(parts[:most]).strip()


def clip(text):
    return ' '.join(text.split()[:MAX_WORDS])


def debian(add):
    for summary, body in package_descriptions():
        body = first_sentences(re.sub(r'https?://\S+', '', body), 3)
        if body:
            add('debian', summary, body)


def wordnet(add):
    for lemmas, definitions, _ in synsets():
        if definitions and definitions[0]:
            add('wordnet', ', '.join(lemmas[:4]), definitions[0])


def python_stdlib(add):
    root = '/usr/lib/python3.11'
    for path in sorted(glob.glob(f'{root}/**/*.py', recursive=True)):
        rel = os.path.relpath(path, root)
        if any(part in rel for part in ('test', 'idlelib', 'lib2to3', 'site-packages', 'dist-packages', 'tkinter', 'turtledemo')):
            continue
        try:
            tree = ast.parse(open(path, encoding='utf-8').read())
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        module = rel[:-3].replace('/', '.')
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith('_'):
                doc = ast.get_docstring(node)
                if not doc:
                    continue
                paragraph = doc.strip().split('\n\n')[0]
                if len(paragraph.split()) < 3 or '>>>' in paragraph:
                    continue
                add('python', words_of(node.name), first_sentences(paragraph))


JAVADOC = re.compile(r'/\*\*(.*?)\*/\s*(?:@\w+(?:\([^)]*\))?\s*)*public\s+(?:static\s+|final\s+|abstract\s+|synchronized\s+|default\s+|native\s+)*'
                     r'(?:<[^>]*>\s*)?[\w.<>\[\], ?]+\s+(\w+)\s*\(', re.S)


def jdk(add):
    found = [p for p in sorted(glob.glob('/usr/lib/jvm/*/lib/src.zip')) if os.path.exists(p)]
    if not found:
        sys.exit('no JDK with lib/src.zip under /usr/lib/jvm')
    src = found[-1]
    with zipfile.ZipFile(src) as z:
        for name in sorted(z.namelist()):
            if not name.endswith('.java') or not (name.startswith('java.base/java/') or name.startswith('java.sql/java/')
                                                  or name.startswith('java.net.http/') or name.startswith('java.logging/java/')):
                continue
            cls = words_of(os.path.basename(name)[:-5])
            text = z.read(name).decode('utf-8', 'replace')
            for m in JAVADOC.finditer(text):
                doc = m.group(1)
                doc = '\n'.join(l.strip().lstrip('*').strip() for l in doc.split('\n'))
                doc = doc.split('\n@')[0]
                doc = re.sub(r'\{@(?:code|link|linkplain|literal)\s+([^}]*)\}', lambda g: g.group(1).split('#')[-1].split('(')[0], doc)
                doc = html.unescape(re.sub(r'<[^>]+>', ' ', doc))
                if '{@inheritDoc}' in doc:
                    continue
                sentence = first_sentences(doc, 1)
                if len(sentence.split()) >= 3:
                    add('jdk', words_of(m.group(2)) + ' ' + cls, sentence)


def main():
    pairs, seen = [], set()

    def add(source, query, document):
        query, document = clip(' '.join(query.replace('\t', ' ').split())), clip(' '.join(document.replace('\t', ' ').split()))
        key = (query.lower(), document.lower())
        if query and document and key not in seen and query.lower() != document.lower():
            seen.add(key)
            pairs.append((source, query, document))

    debian(add)
    wordnet(add)
    python_stdlib(add)
    jdk(add)
    random.Random(11).shuffle(pairs)
    counts = {}
    with open(sys.argv[1], 'w', encoding='utf-8') as out:
        for source, q, d in pairs:
            counts[source] = counts.get(source, 0) + 1
            out.write(f'{source}\t{q}\t{d}\n')
    print(f'{sys.argv[1]}: {len(pairs)} pairs {counts}', file=sys.stderr)


if __name__ == '__main__':
    main()

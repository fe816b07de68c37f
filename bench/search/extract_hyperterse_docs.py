"""Collects the example tools (v1 `queries:` blocks) from the Hyperterse docs into a bench catalog.
   python3 bench/search/extract_hyperterse_docs.py HYPERTERSE_GIT_DIR OUT.json
Reads docs/src/content/docs/**/*.mdx at HEAD of a clone of hyperterse/hyperterse, parses every
```yaml block holding `queries:`, and keeps each query name once (the first definition seen)."""
import json
import re
import subprocess
import sys

import yaml

git_dir, out = sys.argv[1:3]
commit = subprocess.check_output(['git', '--git-dir', git_dir, 'rev-parse', 'HEAD'], text=True).strip()
files = subprocess.check_output(['git', '--git-dir', git_dir, 'ls-tree', '-r', '--name-only', commit,
                                 'docs/src/content/docs'], text=True).split()
tools = {}
for path in sorted(f for f in files if f.endswith('.mdx')):
    text = subprocess.check_output(['git', '--git-dir', git_dir, 'show', f'{commit}:{path}'], text=True)
    for block in re.findall(r'```ya?ml[^\n]*\n(.*?)```', text, re.S):
        if 'queries:' not in block:
            continue
        try:
            doc = yaml.safe_load(block)
        except yaml.YAMLError:
            continue
        queries = doc.get('queries') if isinstance(doc, dict) else None
        if not isinstance(queries, dict):
            continue
        for name, q in queries.items():
            if not isinstance(q, dict) or name in tools or not q.get('description'):
                continue
            inputs = []
            for input_name, i in (q.get('inputs') or {}).items():
                i = i if isinstance(i, dict) else {}
                inputs.append({'name': input_name, 'type': str(i.get('type', 'string')),
                               'description': str(i.get('description', '')), 'optional': bool(i.get('optional', False))})
            tools[name] = {'name': name, 'description': str(q['description']).strip(),
                           'statement': str(q.get('statement', '')).strip(), 'inputs': inputs, 'doc': path}
catalog = {'source': f'hyperterse/hyperterse docs example queries at {commit[:12]}', 'tools': list(tools.values())}
with open(out, 'w') as f:
    json.dump(catalog, f, indent=1)
    f.write('\n')
print(f'{out}: {len(tools)} tools', file=sys.stderr)

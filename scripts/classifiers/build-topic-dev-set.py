#!/usr/bin/env python3
"""Converts hand-written case sources into EVALS.md topic cases:
data/topics/dev-source/*.txt → data/topics/cases.dev.jsonl and data/topics/fresh-source/*.txt →
data/topics/cases.fresh.jsonl, fresh-first-source and fresh-final-source (issue 16.4's two fresh sets) likewise, data/topics/holdout-source/*.txt → data/topics/cases.holdout.jsonl. Line format: `topic | acceptable topics or - | turn || A: assistant turn || turn`."""
import json, pathlib
root = pathlib.Path(__file__).resolve().parents[2]
for source, target in (('dev-source', 'cases.dev.jsonl'), ('fresh-source', 'cases.fresh.jsonl'), ('holdout-source', 'cases.holdout.jsonl'),
                       ('fresh-first-source', 'cases.fresh-first.jsonl'), ('fresh-final-source', 'cases.fresh-final.jsonl')):
    lines = []
    for path in sorted((root / 'data/topics' / source).glob('*.txt')):
        for raw in path.read_text(encoding='utf-8').splitlines():
            if not raw.strip() or raw.startswith('#'):
                continue
            topic, acceptable, conversation = (part.strip() for part in raw.split(' | ', 2))
            messages = []
            for turn in conversation.split(' || '):
                turn = turn.strip()
                if turn.startswith('A: '):
                    messages.append({'role': 'assistant', 'content': turn[3:]})
                else:
                    messages.append({'role': 'user', 'content': turn})
            case = {'id': f'{target.split(".")[1]}-{path.stem}-{len(lines) + 1:03d}', 'messages': messages, 'topic': topic}
            if acceptable != '-':
                case['acceptable_topics'] = [item.strip() for item in acceptable.split(',')]
            lines.append(json.dumps(case, ensure_ascii=False))
    (root / 'data/topics' / target).write_text('\n'.join(lines) + '\n', encoding='utf-8')
    print(target, len(lines), 'cases')

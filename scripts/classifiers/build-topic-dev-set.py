#!/usr/bin/env python3
"""Converts the hand-written dev sources (data/topics/dev-source/*.txt) into data/topics/cases.dev.jsonl in the
EVALS.md topic-case format. Line format: `topic | acceptable topics or - | turn || A: assistant turn || turn`."""
import json, pathlib
root = pathlib.Path(__file__).resolve().parents[2]
lines = []
for path in sorted((root / 'data/topics/dev-source').glob('*.txt')):
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
        case = {'id': f'dev-{path.stem}-{len(lines) + 1:03d}', 'messages': messages, 'topic': topic}
        if acceptable != '-':
            case['acceptable_topics'] = [item.strip() for item in acceptable.split(',')]
        lines.append(json.dumps(case, ensure_ascii=False))
(root / 'data/topics/cases.dev.jsonl').write_text('\n'.join(lines) + '\n', encoding='utf-8')
print(len(lines), 'cases')

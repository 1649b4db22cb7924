#!/usr/bin/env python3
"""Agents that misbehave, for tests/test_agents.py: ``hostile.py MODE [LOG]``.

Modes: ``sleep`` (never answers its first decision of a hand in time), ``die`` (exits at its
first decision of a hand), ``junk`` (answers text that is no action), ``illegal`` (answers an
action that is not legal), ``flood`` (answers the first legal action, then 50 lines nobody
asked for), ``longline`` (answers a line of 1 MiB), ``noready`` (never answers hello),
``first`` (well behaved: the first legal action), ``slow`` (the same after 20 ms). With LOG
every received line is appended to that file (the protocol's messages, for the schema test).
"""

import json
import sys
import time

mode = sys.argv[1]
log = open(sys.argv[2], "a") if len(sys.argv) > 2 else None
asked_this_hand = 0

for line in sys.stdin:
    if log is not None:
        log.write(line)
        log.flush()
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "hello":
        if mode == "noready":
            continue
        print(json.dumps({"type": "ready", "name": f"hostile-{mode}"}), flush=True)
        continue
    if kind == "hand_start":
        asked_this_hand = 0
        continue
    if kind != "decide":
        continue
    asked_this_hand += 1
    legal = msg["legal"]
    if mode == "sleep" and asked_this_hand == 1:
        time.sleep(5)
    elif mode == "die" and asked_this_hand == 1:
        sys.exit(3)
    elif mode == "junk":
        print("let me think about it", flush=True)
    elif mode == "illegal":
        tiles = [f"{d}{s}" for s in "mps" for d in range(1, 10)] + [f"{d}z" for d in range(1, 8)]
        print(next(f"discard {t}" for t in tiles if f"discard {t}" not in legal), flush=True)
    elif mode == "flood":
        sys.stdout.write(legal[0] + "\n" + "spam\n" * 50)
        sys.stdout.flush()
    elif mode == "longline":
        sys.stdout.write("x" * (1 << 20) + "\n")
        sys.stdout.flush()
    else:
        if mode == "slow":
            time.sleep(0.02)
        print(legal[0], flush=True)

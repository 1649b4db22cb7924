#!/usr/bin/env python3
"""A small rule-based mjcore agent (the agent protocol, docs/agents.md) in plain Python.

The same rules as rule_agent.js and rule_agent.c, so all three play the same decisions:

1. ``hu`` when it is legal; else 2. the first legal ``declare``; else 3. the first legal
``choose`` (a per-hand choice); else 4. the legal discard of least use to the hand; else
5. ``pass``; else 6. the first legal action.

A tile's use: 4 per other copy held, 3 per neighbouring kind held (same suit, one apart),
1 per kind held two apart; the public joker kind (``view.public.joker_kind``) 100; a
flower -1000.
Ties go to the discard listed first.  Run: ``mjcore simulate --bots exec:python3 rule_agent.py``.
"""

import json
import sys

SUITS = "mpsz"


def kind(tile):
    """'5p' -> 13 (0..33), flowers -> None."""
    suit = SUITS.find(tile[1])
    return None if suit < 0 else suit * 9 + int(tile[0]) - 1


def counts(hand):
    """'246m11z' -> 34 counts (flowers ignored)."""
    out = [0] * 34
    digits = []
    for ch in hand:
        if ch.isdigit():
            digits.append(ch)
        else:
            for d in digits:
                k = kind(d + ch)
                if k is not None:
                    out[k] += 1
            digits = []
    return out


def use(k, held, joker):
    score = 4 * (held[k] - 1) + (100 if k == joker else 0)
    if k < 27:
        for d, w in ((-2, 1), (-1, 3), (1, 3), (2, 1)):
            j = k + d
            if 0 <= j < 27 and j // 9 == k // 9 and held[j]:
                score += w
    return score


def decide(msg):
    legal = msg["legal"]
    view = msg["view"]
    for prefix in ("hu", "declare ", "choose "):
        for action in legal:
            if action == prefix or action.startswith(prefix):
                return action
    discards = [a for a in legal if a.startswith("discard ")]
    if discards:
        held = counts(view["seats"][view["seat"]].get("hand", ""))
        joker_tile = (view.get("public") or {}).get("joker_kind")
        joker = kind(joker_tile) if isinstance(joker_tile, str) else None
        best, best_score = discards[0], None
        for action in discards:
            k = kind(action[8:])
            score = -1000 if k is None else use(k, held, joker)  # a flower goes first
            if best_score is None or score < best_score:
                best, best_score = action, score
        return best
    return "pass" if "pass" in legal else legal[0]


def main():
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            print(json.dumps({"type": "ready", "name": "rule-agent", "language": "python"}))
        elif msg["type"] == "decide":
            print(decide(msg))
        else:
            continue  # hand_start, hand_end: nothing to answer
        sys.stdout.flush()


if __name__ == "__main__":
    main()

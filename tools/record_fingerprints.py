"""Record the fingerprints of 10,000 seeded hands per variant, option set and bot.

Run: ``python tools/record_fingerprints.py [--jobs 2]`` with the engine whose results are the
reference (the released wheel before an engine change). Writes tests/data/fingerprints.json:
one digest per block of 100 hands (tests/fingerprints.py says what a hand's fingerprint
covers), which tests/test_fingerprints.py compares against. Re-record only when a change of
results is intended, and say so in the commit.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import fingerprints as fp  # noqa: E402


def _run(combo: tuple[str, str, str]) -> tuple[str, list[str]]:
    digests = fp.block_digests(*combo, blocks=list(range(fp.HANDS // fp.BLOCK)))
    return fp.key(*combo), [digests[b] for b in sorted(digests)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args()
    with ProcessPoolExecutor(args.jobs) as pool:
        runs = dict(pool.map(_run, fp.combos()))
    data = {
        "recorded_with": fp.recorded_with(),
        "hands": fp.HANDS,
        "block": fp.BLOCK,
        "seed": fp.SEED,
        "main_options": fp.MAIN_OPTIONS,
        "digests": {k: runs[k] for k in sorted(runs)},
    }
    fp.DATA.parent.mkdir(exist_ok=True)
    fp.DATA.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {fp.DATA}: {len(runs)} runs of {fp.HANDS} hands")


if __name__ == "__main__":
    main()

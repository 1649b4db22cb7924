"""Record the digests of seeded VectorEnv runs (every array a learner reads, step by step).

Run: ``python tools/record_vector_digests.py`` with the engine whose streams are the reference
(the build before an engine change). Writes tests/data/vector_digests.json, which
tests/test_rl.py compares against (tests/vector_streams.py says what a digest covers).
Re-record only when a change of observations or masks is intended, and say so in the commit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import fingerprints as fp  # noqa: E402
import vector_streams as vs  # noqa: E402


def main() -> None:
    data = {
        "recorded_with": fp.recorded_with(),
        "envs": vs.ENVS,
        "steps": vs.STEPS,
        "seed": vs.SEED,
        "digests": {vs.key(*c): vs.stream_digest(*c) for c in vs.combos()},
    }
    vs.DATA.parent.mkdir(exist_ok=True)
    vs.DATA.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {vs.DATA}: {len(data['digests'])} runs of {vs.STEPS} steps x {vs.ENVS} games")


if __name__ == "__main__":
    main()

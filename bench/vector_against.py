"""VectorEnv steps per CPU second under this build and another, interleaved: the before-and-after
figure of an engine change for the RL loop (issue 34's "VectorEnv ≥ 2×").

Run: ``python bench/vector_against.py OTHER_PYTHON [VARIANT …] [--envs 64] [--steps 512000]
[--rounds 10]``. ``OTHER_PYTHON`` is the interpreter of another virtual environment with
another build of mjcore installed (the baseline). Each round runs every variant once under
each build, alternately, in fresh processes (one BLAS thread); a figure is the best round's
steps per CPU second of the timed part (``vector_steps.vector``, after a warm-up of 20 steps
a game), so a slow moment of a shared machine does not count against one build only. The
ratio is this build's figure over the other's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

VARIANTS = ("xuezhan_kaxinwu", "qingdao", "lipu", "susong", "rongcheng")
_TIMED = (
    "import sys, time; sys.path.insert(0, {bench!r}); from vector_steps import vector; "
    "vector({variant!r}, 20 * {n}, {n}); t = time.process_time(); "
    "done = vector({variant!r}, {steps}, {n}); print(done / (time.process_time() - t))"
)


def steps_per_second(python: str, variant: str, steps: int, n: int) -> float:
    """One timed run of ``steps`` VectorEnv steps of ``n`` games in a fresh ``python``."""
    code = _TIMED.format(bench=str(Path(__file__).parent), variant=variant, steps=steps, n=n)
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    env.pop("MJCORE_PURE_PYTHON", None)
    out = subprocess.run(
        [python, "-c", code],
        env=env,
        cwd=tempfile.gettempdir(),  # not a source checkout: ``-c`` imports from the cwd first
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("against", help="the other build's interpreter (the baseline)")
    parser.add_argument("variants", nargs="*", default=list(VARIANTS))
    parser.add_argument("--envs", type=int, default=64, help="games in the VectorEnv (N)")
    parser.add_argument("--steps", type=int, default=512_000, help="game steps a timed run")
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    best = {v: [0.0, 0.0] for v in args.variants}
    for _ in range(args.rounds):
        for variant in args.variants:
            for i, python in enumerate((sys.executable, args.against)):
                sps = steps_per_second(python, variant, args.steps, args.envs)
                best[variant][i] = max(best[variant][i], sps)
    head = f"{'variant':16} {'this build':>12} {'against':>12} {'ratio':>6}"
    print(f"{head}  (steps per CPU second, N={args.envs})")
    for variant, (fast, slow) in best.items():
        print(f"{variant:16} {fast:>12,.0f} {slow:>12,.0f} {fast / slow:>5.2f}x")


if __name__ == "__main__":
    main()

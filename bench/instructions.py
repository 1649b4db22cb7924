"""Instructions per hand, counted by valgrind (callgrind): a figure that load does not move.

Run: ``python bench/instructions.py [VARIANT …] [--bots random,greedy] [--hands 30]
[--against OTHER_PYTHON]``. ``--against`` counts the same hands under another interpreter
(another build of mjcore installed in another virtual environment) in place of the
pure-Python fallback: the before-and-after figure of a change.

On a shared 2-core machine the CPU-time figures of ``bench_games.py`` swing by ±30 % with
whatever else runs; an instruction count is the same on every run of the same code, so two
builds (or the compiled engine and its pure-Python fallback, the baseline printed beside it
here) can be compared to the percent. Each figure is (instructions of importing and playing
``--hands`` seeded hands) − (the same with none), divided by ``--hands``: the hands exactly as
``bench_games.play_many`` (and ``simulate``) plays them. Hash randomisation is off and numpy's
BLAS runs one thread, so the count repeats. Needs ``valgrind`` on the PATH (Debian package).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

VARIANTS = ("xuezhan_kaxinwu", "qingdao", "lipu", "susong", "rongcheng")
_PLAY = (
    "import sys; sys.path.insert(0, {bench!r}); from bench_games import play_many; "
    "play_many({variant!r}, {bots!r}, games=2); "
    "play_many({variant!r}, {bots!r}, games={n}, seed=99) if {n} else None"
)


def count(
    variant: str, bots: str, hands: int, pure: bool = False, python: str = sys.executable
) -> int:
    """Instructions callgrind counts for importing mjcore and playing ``hands`` hands."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
    env.pop("MJCORE_PURE_PYTHON", None)
    if pure:
        env["MJCORE_PURE_PYTHON"] = "1"
    code = _PLAY.format(bench=str(Path(__file__).parent), variant=variant, bots=bots, n=hands)
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + [python, "-c", code],
        env=env,
        cwd=tempfile.gettempdir(),  # not a source checkout: ``-c`` imports from the cwd first
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"Collected : ([\d,]+)", out.stderr)
    if found is None:
        raise RuntimeError(f"no callgrind total in: {out.stderr[-500:]}")
    return int(found.group(1).replace(",", ""))


def per_hand(
    variant: str, bots: str, hands: int, pure: bool = False, python: str = sys.executable
) -> float:
    return (
        count(variant, bots, hands, pure, python) - count(variant, bots, 0, pure, python)
    ) / hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", default=list(VARIANTS))
    parser.add_argument("--bots", default="random,greedy")
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--against", help="another interpreter (build) to count beside this one")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    other = "pure Python" if args.against is None else "against"
    print(f"{'variant':16} {'bots':7} {'compiled':>14} {other:>14} {'ratio':>6}")
    for variant in args.variants:
        for bots in args.bots.split(","):
            fast = per_hand(variant, bots, args.hands)
            if args.against is None:
                slow = per_hand(variant, bots, args.hands, pure=True)
            else:
                slow = per_hand(variant, bots, args.hands, python=args.against)
            print(
                f"{variant:16} {bots:7} {fast / 1e6:>12.2f} M {slow / 1e6:>12.2f} M "
                f"{slow / fast:>5.2f}x",
                flush=True,
            )


if __name__ == "__main__":
    main()

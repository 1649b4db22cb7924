"""One BLAS thread while a simulation plays its hands, whatever the environment says.

No hand needs BLAS, but numpy's BLAS (OpenBLAS, MKL, BLIS…) starts a pool of threads per
core, and after any small numpy call that reaches it (a bot's, the statistics') they spin,
waiting for work, on the cores the hands run on. :func:`one_blas_thread` holds every loaded
BLAS library to one thread (through threadpoolctl, which knows each library's own switch)
and restores the caller's setting on exit.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any


@cache
def _controller() -> Any:
    """The BLAS libraries loaded in this process (numpy loads its own when mjcore imports it;
    looked up once per process: the scan of the loaded libraries takes milliseconds)."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run the block with every loaded BLAS library on one thread (the previous count after)."""
    with _controller().limit(limits=1, user_api="blas"):
        yield

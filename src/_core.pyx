# Compiled by Cython into mjcore._core (CMakeLists.txt).
# Thin Python wrappers over the C kernels: validate -> call kernel -> convert.
# Cython directives are set in one place, CMakeLists.txt (MJCORE_DEBUG turns
# bounds checking back on).
"""Native hand core of mjcore (use :mod:`mjcore.hand` and :mod:`mjcore.batch`)."""

import operator

import numpy as np

cimport numpy as cnp
from cpython.bytearray cimport (
    PyByteArray_AS_STRING,
    PyByteArray_FromStringAndSize,
    PyByteArray_GET_SIZE,
)
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.long cimport PyLong_AsLongAndOverflow
from cpython.ref cimport Py_INCREF
from libc.stdint cimport int64_t, int8_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from mj_hand cimport *

cnp.import_array()

from mjcore import tiles as _tiles
from mjcore.errors import InvalidHandError
from mjcore.errors import clip as _clip

N_KINDS = MJ_N_KINDS
TABLE_BYTES = mj_table_bytes()
"""Bytes of lookup tables compiled into the extension."""
TABLE_CHECKSUM = mj_table_checksum().decode("ascii")
"""First 16 hex digits of the SHA-256 of the tables (see src/gen_tables.py)."""

SEVEN_PAIRS = MJ_SEVEN_PAIRS
ORPHANS = MJ_ORPHANS
KNITTED = MJ_KNITTED
PAIR258 = MJ_PAIR258

_QUESTION = {MJ_OP_WIN: MJ_Q_WIN, MJ_OP_READY: MJ_Q_WAITS, MJ_OP_WAITS: MJ_Q_WAITS,
             MJ_OP_SHANTEN: MJ_Q_SHANTEN}
_OPS = {"is_win": MJ_OP_WIN, "is_ready": MJ_OP_READY, "waits": MJ_OP_WAITS,
        "shanten": MJ_OP_SHANTEN}
_TOTALS = {
    MJ_Q_WIN: "3m+2 <= 14 (2, 5, 8, 11 or 14)",
    MJ_Q_WAITS: "3m+1 <= 13 (1, 4, 7, 10 or 13)",
    MJ_Q_SHANTEN: "1, 2, 4, 5, 7, 8, 10, 11, 13 or 14",
}


def ensure_init():
    """Touch the tables (they are static data: nothing to build at import)."""
    return TABLE_BYTES


cdef inline int _flag(object value, str name) except -1:
    """A form flag as 0 or 1: ``True``/``False`` or a numpy bool; any other value raises
    (a truthy ``"no"`` must not turn a form on)."""
    if value is True:
        return 1
    if value is False:
        return 0
    if isinstance(value, np.bool_):
        return 1 if value else 0
    raise InvalidHandError(f"{name} must be True or False, got {_clip(value)}")


cpdef int form_flags(object seven_pairs=True, object thirteen_orphans=False,
                     object knitted=False, object pair258=False) except -1:
    """Kernel flag bits of the form options (each a bool; anything else raises)."""
    return ((MJ_SEVEN_PAIRS if _flag(seven_pairs, "seven_pairs") else 0)
            | (MJ_ORPHANS if _flag(thirteen_orphans, "thirteen_orphans") else 0)
            | (MJ_KNITTED if _flag(knitted, "knitted") else 0)
            | (MJ_PAIR258 if _flag(pair258, "pair258") else 0))


def _coerce_row(counts):
    """Slow path: a tile string, sequence or other array -> C-contiguous uint8[34]."""
    if isinstance(counts, str):
        return _tiles.counts(counts)
    try:
        arr = np.asarray(counts)
    except (TypeError, ValueError) as exc:
        raise InvalidHandError(
            f"counts must be 34 integers or a tile string, got {_clip(counts)}") from exc
    if arr.shape != (MJ_N_KINDS,):
        raise InvalidHandError(f"counts must have shape (34,), got shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise InvalidHandError(f"counts must be integers, got dtype {arr.dtype}")
    if arr.min() < 0 or arr.max() > 4:
        bad = int(np.argmax((arr < 0) | (arr > 4)))
        raise InvalidHandError(
            f"count of {_tiles.format([bad])} (index {bad}) is {arr[bad]}, must be 0..4")
    return np.ascontiguousarray(arr, dtype=np.uint8)


cdef inline cnp.ndarray _row(object counts):
    if isinstance(counts, cnp.ndarray):
        arr = <cnp.ndarray>counts
        if (cnp.PyArray_TYPE(arr) == cnp.NPY_UINT8 and cnp.PyArray_NDIM(arr) == 1
                and cnp.PyArray_DIM(arr, 0) == MJ_N_KINDS and cnp.PyArray_STRIDE(arr, 0) == 1):
            return arr
    return _coerce_row(counts)


cdef inline long _jokers(object jokers) except? -1:
    if type(jokers) is int and -1000 < jokers < 1000:
        return jokers
    if isinstance(jokers, (bool, np.bool_)):
        raise InvalidHandError(f"jokers must be an integer, got {jokers!r}")
    try:
        value = operator.index(jokers)
    except TypeError:
        raise InvalidHandError(f"jokers must be an integer, got {_clip(jokers)}") from None
    if value < 0:
        raise InvalidHandError(f"jokers must be >= 0, got {value}")
    if value > 14:
        raise InvalidHandError(f"jokers must be at most 14, got {value}")
    return value


cdef inline long _kind_arg(object kind) except? -3:
    """A tile-kind argument as a long (-2 for anything out of range or not an integer)."""
    if isinstance(kind, (bool, np.bool_)):
        return -2
    try:
        value = operator.index(kind)
    except TypeError:
        return -2
    return value if -1 <= value < MJ_N_KINDS else -2


def _raise(int code, int bad, long k, int question, str what):
    if code == MJ_BAD_COUNT:
        raise InvalidHandError(f"{what}count of {_tiles.format([bad])} (index {bad}) must be 0..4")
    if code == MJ_BAD_JOKERS:
        raise InvalidHandError(f"{what}jokers must be >= 0, got {k}")
    raise InvalidHandError(
        f"{what}tiles + jokers must be {_TOTALS[question]}, got {bad} tiles + {k} jokers")


cdef inline const uint8_t *_checked_ptr(const uint8_t *c, long k, int question) except NULL:
    cdef int bad = 0
    cdef int code = mj_check(c, k, question, &bad)
    if code != MJ_OK:
        _raise(code, bad, k, question, "")
    return c


cdef inline const uint8_t *_checked(cnp.ndarray row, long k, int question) except NULL:
    return _checked_ptr(<const uint8_t *>cnp.PyArray_DATA(row), k, question)


cdef long long _ask(int op, object counts, object jokers, int flags) except? -9:
    """Validate one hand for ``op`` and answer it (the row stays alive here).

    A ``bytearray`` of 34 counts (the engine's own hands) is read in place, like a
    uint8[34] array; anything else goes through :func:`_row`.
    """
    cdef cnp.ndarray row
    cdef long k = _jokers(jokers)
    cdef const uint8_t *c
    if type(counts) is bytearray and PyByteArray_GET_SIZE(counts) == MJ_N_KINDS:
        c = _checked_ptr(<const uint8_t *>PyByteArray_AS_STRING(counts), k, _QUESTION[op])
    else:
        row = _row(counts)
        c = _checked(row, k, _QUESTION[op])
    if op == MJ_OP_WIN:
        return mj_is_win(c, <int>k, flags)
    if op == MJ_OP_READY:
        return mj_is_ready(c, <int>k, flags)
    if op == MJ_OP_WAITS:
        return <long long>mj_waits(c, <int>k, flags)
    return mj_shanten(c, <int>k, flags)


def is_win(counts, jokers=0, *, seven_pairs=True, thirteen_orphans=False,
           knitted=False, pair258=False):
    """True when the concealed tiles plus ``jokers`` form a complete hand.

    ``sum(counts) + jokers`` must be 3m+2 <= 14. Standard form (m sets + pair)
    always; seven pairs, thirteen orphans and 十三不靠 (only with 14 tiles) as
    enabled; ``pair258`` restricts the pair (one pair for seven pairs) to a
    suited 2/5/8. A joker stands for any kind, even a fifth copy.
    """
    cdef int flags = form_flags(seven_pairs, thirteen_orphans, knitted, pair258)
    return _ask(MJ_OP_WIN, counts, jokers, flags) != 0


def is_ready(counts, jokers=0, *, seven_pairs=True, thirteen_orphans=False,
             knitted=False, pair258=False):
    """True when some kind completes the hand (tiles + jokers = 3m+1 <= 13).

    Same as ``is_win(counts, jokers + 1)`` and ``shanten(...) == 0``. It differs
    from ``bool(waits(...))`` only when the sole completing tile is a fifth copy
    of a kind held four times (waits leaves such kinds out).
    """
    cdef int flags = form_flags(seven_pairs, thirteen_orphans, knitted, pair258)
    return _ask(MJ_OP_READY, counts, jokers, flags) != 0


def waits_mask(counts, jokers=0, *, seven_pairs=True, thirteen_orphans=False,
               knitted=False, pair258=False):
    """Bit t set when kind t (held fewer than 4 times) completes the hand."""
    cdef long long w = _ask(MJ_OP_WAITS, counts, jokers,
                            form_flags(seven_pairs, thirteen_orphans, knitted, pair258))
    return <uint64_t>w


def waits(counts, jokers=0, *, seven_pairs=True, thirteen_orphans=False,
          knitted=False, pair258=False):
    """Sorted kinds t with counts[t] < 4 such that counts + t wins (3m+1 <= 13 tiles)."""
    cdef uint64_t w = <uint64_t>_ask(MJ_OP_WAITS, counts, jokers,
                                     form_flags(seven_pairs, thirteen_orphans, knitted, pair258))
    cdef int t
    return [t for t in range(MJ_N_KINDS) if (w >> t) & 1]


def shanten(counts, jokers=0, *, seven_pairs=True, thirteen_orphans=False,
            knitted=False, pair258=False):
    """Tiles away from ready: -1 complete, 0 ready (tiles + jokers in 1, 2, 4, ... 14).

    With M = (T-1)//3 sets and S = 3M+2: ``S - overlap - jokers - 1`` where
    overlap is the most real tiles fitting one complete shape of an enabled form.
    """
    cdef int flags = form_flags(seven_pairs, thirteen_orphans, knitted, pair258)
    return _ask(MJ_OP_SHANTEN, counts, jokers, flags)


def facts(counts, win_tile, jokers=0, pair258=False):
    """C.4 facts as a tuple (see :func:`mjcore.hand.hand_facts`)."""
    cdef cnp.ndarray row = _row(counts)
    cdef long k = _jokers(jokers)
    cdef const uint8_t *c = _checked(row, k, MJ_Q_WIN)
    cdef long w = _kind_arg(win_tile)
    if not -1 <= w < MJ_N_KINDS or (w >= 0 and c[w] == 0):
        raise InvalidHandError(
            f"win_tile must be a kind held in counts (or -1 for a joker), got {_clip(win_tile)}")
    cdef int win = <int>w
    cdef int flags = MJ_PAIR258 if _flag(pair258, "pair258") else 0
    cdef uint8_t h[34]
    cdef int i, n = 0, quads = 0, suits = 0
    for i in range(MJ_N_KINDS):
        h[i] = c[i]
        n += c[i]
        quads += c[i] == 4
        if c[i]:
            suits |= 1 << (i // 9 if i < 27 else 3)
    return (
        mj_win_standard(c, <int>k, flags) != 0,
        mj_win_seven_pairs(c, <int>k, flags) != 0,
        mj_win_orphans(c, <int>k) != 0,
        mj_win_knitted(c, <int>k) != 0,
        mj_all_triplets(c, <int>k, flags) != 0,
        _closed_wait(h, <int>k, flags, win, n),
        _straight_suits(h, <int>k, flags, n),
        quads,
        win >= 0 and c[win] == 4,
        mj_pair_kinds(c, <int>k, flags),
        suits,
    )


def decompose(counts, jokers=0, pair258=False):
    """Standard decompositions as tuples of group codes (see mj_hand.h), sorted.

    Each tuple holds the sets' codes (sorted) and then the pair's code; empty
    when the hand does not win in the standard form.
    """
    cdef cnp.ndarray row = _row(counts)
    cdef long k = _jokers(jokers)
    cdef const uint8_t *c = _checked(row, k, MJ_Q_WIN)
    cdef int flags = MJ_PAIR258 if _flag(pair258, "pair258") else 0
    cdef long cap = 64, need, rows = 0, i
    cdef int j, width = (<int>(row.sum() + k) - 2) // 3 + 1
    cdef uint16_t[:, ::1] buf
    while True:
        buf = np.empty((cap, MJ_DEC_WIDTH), dtype=np.uint16)
        with nogil:
            need = mj_decompose(c, <int>k, flags, &buf[0, 0], cap, &rows)
        if need <= cap:
            break
        cap = need
    return [tuple([buf[i, j] for j in range(width)]) for i in range(rows)]


cdef bint _closed_wait(uint8_t *h, int k, int flags, int w, int n) noexcept:
    if w < 0 or w >= 27 or w % 9 == 0 or w % 9 == 8 or n + k < 5:
        return False
    if h[w - 1] == 0 or h[w + 1] == 0:
        return False
    h[w - 1] -= 1
    h[w] -= 1
    h[w + 1] -= 1
    cdef bint ok = mj_win_standard(h, k, flags) != 0
    h[w - 1] += 1
    h[w] += 1
    h[w + 1] += 1
    return ok


cdef int _straight_suits(uint8_t *h, int k, int flags, int n) noexcept:
    """Suits whose 1..9 (jokers for missing ranks) leave a standard win."""
    cdef int s, r, missing, mask = 0
    cdef uint8_t held[9]
    if n + k < 11:
        return 0
    for s in range(3):
        missing = 0
        for r in range(9):
            held[r] = h[9 * s + r] != 0
            missing += not held[r]
        if missing > k:
            continue
        for r in range(9):
            h[9 * s + r] -= held[r]
        if mj_win_standard(h, k - missing, flags):
            mask |= 1 << s
        for r in range(9):
            h[9 * s + r] += held[r]
    return mask


cdef Py_ssize_t _run(const char *data, Py_ssize_t n, Py_ssize_t rstep, Py_ssize_t cstep,
                     int itemsize, bint is_signed, const char *jk, Py_ssize_t jstep, int op,
                     int flags, char *out, int *code, int *bad) noexcept nogil:
    """Check and answer rows in one pass; returns the first bad row (n if none).

    Rows of contiguous uint8 counts (the fast path) are read in place; any other
    integer layout goes through a local row that mj_load_counts fills and checks,
    so nothing is allocated and no value is truncated before it is checked.
    """
    cdef Py_ssize_t i
    cdef int64_t a = 0
    cdef uint8_t row[MJ_N_KINDS]
    cdef const uint8_t *c = row
    cdef bint direct = itemsize == 1 and not is_signed and cstep == 1
    for i in range(n):
        if direct:
            c = <const uint8_t *>(data + i * rstep)
        else:
            code[0] = mj_load_counts(data + i * rstep, cstep, itemsize, is_signed, row, bad)
            if code[0] != MJ_OK:
                return i
        code[0] = mj_checked(c, (<const int64_t *>(jk + i * jstep))[0], op, flags, &a, bad)
        if code[0] != MJ_OK:
            return i
        if op == MJ_OP_WAITS:
            (<int64_t *>out)[i] = a
        elif op == MJ_OP_SHANTEN:
            (<int8_t *>out)[i] = <int8_t>a
        else:
            out[i] = <char>a
    return n


_OUT_DTYPES = {MJ_OP_WIN: np.bool_, MJ_OP_READY: np.bool_, MJ_OP_WAITS: np.uint64,
               MJ_OP_SHANTEN: np.int8}


cdef inline bint _native_int(cnp.ndarray arr, int itemsize):
    """Integer dtype of ``itemsize`` 1, 2, 4 or 8 bytes in native byte order."""
    return (cnp.PyArray_ISINTEGER(arr) and cnp.PyArray_ISNOTSWAPPED(arr)
            and itemsize in (1, 2, 4, 8))


def run_batch(str name, cnp.ndarray counts, object jokers, int flags):
    """Answer ``name`` (is_win/is_ready/waits/shanten) for every row, GIL released.

    ``counts`` is ``(N, 34)`` of any native integer dtype and strides, read in
    place (never copied or converted); ``jokers`` is an int for every row or an
    aligned int64 array of N entries (or one for all rows). Each row is checked
    in the same pass that answers it; the first bad row raises, naming it.
    """
    cdef int op = _OPS[name]
    cdef int itemsize = cnp.PyArray_ITEMSIZE(counts)
    if cnp.PyArray_NDIM(counts) != 2 or cnp.PyArray_DIM(counts, 1) != MJ_N_KINDS:
        raise InvalidHandError(
            f"counts must have shape (N, 34), got shape {(<object>counts).shape}")
    if not _native_int(counts, itemsize):
        raise InvalidHandError(f"counts must hold native integers, got dtype {counts.dtype}")
    cdef Py_ssize_t n = cnp.PyArray_DIM(counts, 0), m, jstep = 0, done
    cdef int64_t k0 = 0
    cdef const char *jk = <const char *>&k0
    cdef cnp.ndarray jarr
    if isinstance(jokers, cnp.ndarray):
        jarr = <cnp.ndarray>jokers
        if (cnp.PyArray_NDIM(jarr) != 1 or cnp.PyArray_ITEMSIZE(jarr) != 8
                or not _native_int(jarr, 8) or not cnp.PyArray_ISSIGNED(jarr)
                or not cnp.PyArray_ISALIGNED(jarr)):
            raise InvalidHandError(f"jokers must be an int or an aligned 1-d int64 array, got "
                                   f"dtype {jarr.dtype}, shape {(<object>jarr).shape}")
        m = cnp.PyArray_DIM(jarr, 0)
        if m != n and m != 1:
            raise InvalidHandError(f"jokers must be an int or {n} ints, got {m}")
        jk = <const char *>cnp.PyArray_DATA(jarr)
        jstep = 0 if m == 1 else cnp.PyArray_STRIDE(jarr, 0)
    else:
        try:
            k0 = jokers
        except (TypeError, OverflowError):
            raise InvalidHandError(
                f"jokers must be an int or {n} ints, got {_clip(jokers)}") from None
    out = np.empty(n, dtype=_OUT_DTYPES[op])
    if n == 0:
        return out
    cdef char *dst = <char *>cnp.PyArray_DATA(out)
    cdef const char *src = <const char *>cnp.PyArray_DATA(counts)
    cdef Py_ssize_t rstep = cnp.PyArray_STRIDE(counts, 0), cstep = cnp.PyArray_STRIDE(counts, 1)
    cdef bint is_signed = cnp.PyArray_ISSIGNED(counts)
    cdef int code = MJ_OK, bad = 0
    with nogil:
        done = _run(src, n, rstep, cstep, itemsize, is_signed, jk, jstep, op, flags, dst, &code,
                    &bad)
    if done == n:
        return out
    what = f"{name}: row {done}: "
    if code == MJ_BAD_COUNT:
        raise InvalidHandError(f"{what}count of {_tiles.format([bad])} (index {bad}) is "
                               f"{counts[done, bad]}, must be 0..4")
    _raise(code, bad, (<const int64_t *>(jk + done * jstep))[0], _QUESTION[op], what)


def discard_shanten(const uint8_t[::1] counts not None, int joker_kind=-1, int flags=SEVEN_PAIRS):
    """Shanten after discarding one tile of each kind, in one call (a greedy player's turn).

    ``counts`` is any buffer of 34 uint8 counts (bytearray, bytes, numpy uint8); with
    ``joker_kind`` >= 0 every copy of that kind left in hand is a joker (青岛 混). Returns a
    list of 34 ints: ``out[t]`` = ``shanten(counts - t)`` for each held kind t, 99 for kinds
    not held. ``flags`` are :func:`form_flags` bits.
    """
    if counts.shape[0] != MJ_N_KINDS:
        raise InvalidHandError(f"counts must have {MJ_N_KINDS} entries, got {counts.shape[0]}")
    if not -1 <= joker_kind < MJ_N_KINDS:
        raise InvalidHandError(f"joker_kind must be -1 or a kind 0..33, got {joker_kind}")
    cdef uint8_t h[34]
    cdef int t, k = 0, bad = 0, code
    cdef list out = [99] * MJ_N_KINDS
    for t in range(MJ_N_KINDS):
        if counts[t] > 4:
            _raise(MJ_BAD_COUNT, t, 0, MJ_Q_SHANTEN, "")
        h[t] = counts[t]
    for t in range(MJ_N_KINDS):
        if not h[t]:
            continue
        h[t] -= 1
        k = 0
        if joker_kind >= 0:
            k = h[joker_kind]
            h[joker_kind] = 0
        code = mj_check(h, k, MJ_Q_SHANTEN, &bad)
        if code != MJ_OK:
            _raise(code, bad, k, MJ_Q_SHANTEN, "")
        out[t] = mj_shanten(h, k, flags)
        if joker_kind >= 0:
            h[joker_kind] = <uint8_t>k
        h[t] += 1
    return out


def is_win_bits(counts, jokers, int flags):
    """:func:`is_win` with the forms as :func:`form_flags` bits (no keyword parsing per call:
    the engine asks this on every turn)."""
    return _ask(MJ_OP_WIN, counts, jokers, flags) != 0


cpdef uint64_t waits_mask_bits(counts, jokers, int flags) except? 1:
    """:func:`waits_mask` with the forms as :func:`form_flags` bits."""
    return <uint64_t>_ask(MJ_OP_WAITS, counts, jokers, flags)


cpdef bint hand_is_win_bits(counts, int joker_kind, int flags) except -1:
    """:func:`is_win_bits` of a seat's concealed ``counts`` with every copy of ``joker_kind``
    (-1: none) a joker: the engine's self-draw question in one call."""
    _joker_kind(joker_kind)
    cdef uint8_t h[34]
    cdef int k = 0
    _load(counts, h)
    _check_split(h, joker_kind, MJ_Q_WIN)
    if joker_kind >= 0:
        k = h[joker_kind]
        h[joker_kind] = 0
    return mj_is_win(h, k, flags) != 0


cdef int _held_kinds(tuple items, counts, int *kinds) except -1:
    """The kinds held, lowest first, into ``kinds``; how many (held_items, held_tuple)."""
    cdef uint8_t h[34]
    if items is None:
        raise TypeError("items must be a tuple, not None")
    if len(items) < MJ_N_KINDS:
        raise InvalidHandError(f"items must have at least {MJ_N_KINDS} entries, got {len(items)}")
    _load(counts, h)
    return mj_held_kinds(h, kinds)


cpdef list held_items(tuple items, counts):
    """``[items[t] for t in range(34) if counts[t]]``: one item per kind held (the engine's
    discard actions of a hand). ``items`` needs an entry for each of the 34 kinds."""
    cdef int kinds[MJ_N_KINDS]
    cdef int t, n = _held_kinds(items, counts, kinds)
    cdef list out = PyList_New(n)  # filled below: every slot is set before the list is seen
    for t in range(n):
        item = items[kinds[t]]
        Py_INCREF(item)
        PyList_SET_ITEM(out, t, item)
    return out


cpdef tuple held_tuple(tuple items, counts):
    """:func:`held_items` as a tuple (a turn's legal actions when they are the discards alone)."""
    cdef int kinds[MJ_N_KINDS]
    cdef int t, n = _held_kinds(items, counts, kinds)
    cdef tuple out = PyTuple_New(n)  # filled below: every slot is set before the tuple is seen
    for t in range(n):
        item = items[kinds[t]]
        Py_INCREF(item)
        PyTuple_SET_ITEM(out, t, item)
    return out


cpdef bytearray zeros(Py_ssize_t n):
    """``bytearray(n)`` as a C call: a new count vector (every seat starts with two)."""
    if n < 0:
        raise ValueError(f"a count vector has a size >= 0, got {n}")
    cdef bytearray out = PyByteArray_FromStringAndSize(NULL, n)
    memset(PyByteArray_AS_STRING(out), 0, n)
    return out


cpdef counts_array(counts, int plus=-1):
    """A new uint8[34] array of ``counts`` (checked 0..4), with one more tile of the kind
    ``plus`` when it is a kind (a claimed winning tile): a hand's copy in one C call."""
    cdef uint8_t h[34]
    cdef cnp.npy_intp dim = MJ_N_KINDS
    if not -1 <= plus < MJ_N_KINDS:
        raise InvalidHandError(f"plus must be -1 or a kind 0..33, got {plus}")
    _load(counts, h)
    if plus >= 0:
        if h[plus] == 4:
            raise InvalidHandError(f"a fifth {_tiles.format([plus])}: counts are 0..4")
        h[plus] += 1
    cdef cnp.ndarray out = cnp.PyArray_SimpleNew(1, &dim, cnp.NPY_UINT8)
    memcpy(cnp.PyArray_DATA(out), h, MJ_N_KINDS)
    return out


cpdef zero_floats(float[::1] out, Py_ssize_t n):
    """``out[:n] = 0`` in one memset (the RL encoder clears an observation row a step)."""
    if not 0 <= n <= out.shape[0]:
        raise ValueError(f"n must be 0..{out.shape[0]} (the row's length), got {n}")
    if n:
        memset(&out[0], 0, n * sizeof(float))


cpdef size_t address(object obj):
    """``id(obj)`` as a C call: the key of identity tables (the RL action mask finds each legal
    action, a shared object, by its address: mjcore/rl/_fast.py)."""
    return <size_t><void*>obj


cpdef Py_ssize_t tiles_in(counts, kinds) except -1:
    """How many tiles ``counts`` holds of the kinds in the bitmask ``kinds`` (bit t: kind t)."""
    cdef uint8_t h[34]
    cdef int t, total = 0
    if type(kinds) is not int or not 0 <= kinds <= 0x3FFFFFFFF:  # 34 bits
        raise InvalidHandError(f"kinds must be a bitmask of the 34 kinds, got {kinds!r:.40}")
    cdef uint64_t mask = kinds
    _load(counts, h)
    for t in range(MJ_N_KINDS):
        if mask >> t & 1:
            total += h[t]
    return total


cpdef uint64_t held_mask(counts) except? 1:
    """The kinds ``counts`` holds, as a bitmask (bit t: kind t held at least once)."""
    cdef uint8_t h[34]
    cdef int t
    cdef uint64_t mask = 0
    _load(counts, h)
    for t in range(MJ_N_KINDS):
        mask |= <uint64_t>(h[t] != 0) << t
    return mask


cpdef uint64_t hand_waits_bits(counts, int joker_kind, int flags) except? 1:
    """A seat's waits in one call: :func:`waits_mask_bits` of the concealed ``counts`` with
    every copy of ``joker_kind`` (-1: none) a joker, or 0 when the hand does not hold 3m+1
    tiles (a seat holding a tile to discard waits on nothing yet)."""
    _joker_kind(joker_kind)
    cdef uint8_t h[34]
    cdef int t, total = 0, k = 0
    _load(counts, h)
    for t in range(MJ_N_KINDS):
        total += h[t]
    if total % 3 != 1:
        return 0
    _check_split(h, joker_kind, MJ_Q_WAITS)
    if joker_kind >= 0:
        k = h[joker_kind]
        h[joker_kind] = 0
    return mj_waits(h, k, flags)


cpdef int shanten_bits(counts, jokers, int flags) except? -9:
    """:func:`shanten` with the forms as :func:`form_flags` bits."""
    return <int>_ask(MJ_OP_SHANTEN, counts, jokers, flags)


# ---- the greedy bot's questions, each in one call (mjcore/bots/greedy.py) -------------------
# (A few µs each: they keep the GIL, whose release and retaking cost a tenth of such a call.)
cdef int _load(object counts, uint8_t *h) except -1:
    """Copy 34 counts into ``h``, checked 0..4: a bytearray, bytes or uint8 row is read in
    place, anything else goes through :func:`_coerce_row`."""
    cdef const uint8_t *src
    cdef cnp.ndarray row
    cdef int t
    cdef uint8_t most = 0
    if type(counts) is bytearray or type(counts) is bytes:
        if len(counts) != MJ_N_KINDS:
            raise InvalidHandError(f"counts must have {MJ_N_KINDS} entries, got {len(counts)}")
        src = <const uint8_t *>(<char *>counts)
        row = None
    else:
        row = _row(counts)
        src = <const uint8_t *>cnp.PyArray_DATA(row)
    for t in range(MJ_N_KINDS):  # (no early exit: the compiler copies and checks in vectors)
        h[t] = src[t]
        most = src[t] if src[t] > most else most
    if most > 4:
        for t in range(MJ_N_KINDS):
            if src[t] > 4:
                _raise(MJ_BAD_COUNT, t, 0, MJ_Q_SHANTEN, "")
    return 0


cdef inline int _joker_kind(int joker_kind) except -1:
    if not -1 <= joker_kind < MJ_N_KINDS:
        raise InvalidHandError(f"joker_kind must be -1 or a kind 0..33, got {joker_kind}")
    return 0


cdef int _check_split(uint8_t *h, int jk, int question) except -1:
    """mj_check of ``h`` with every copy of ``jk`` (>= 0) a joker (h is left as it was)."""
    cdef int k = 0, bad = 0, code
    if jk >= 0:
        k = h[jk]
        h[jk] = 0
    code = mj_check(h, k, question, &bad)
    if jk >= 0:
        h[jk] = <uint8_t>k
    if code != MJ_OK:
        _raise(code, bad, k, question, "")
    return 0


cdef int _not_none(object value, str name) except -1:
    """The TypeError a ``def``'s ``not None`` argument raises, for a cpdef's."""
    if value is None:
        raise TypeError(f"{name} must not be None")
    return 0


cdef int _load_tiles(list tiles, int *out) except -1:
    cdef Py_ssize_t n = len(tiles), i
    if n > MJ_N_KINDS + 8:
        raise InvalidHandError(f"at most {MJ_N_KINDS + 8} discard kinds, got {n}")
    for i in range(n):
        out[i] = tiles[i]
        if out[i] < 0:
            raise InvalidHandError(f"tiles must be kinds >= 0, got {out[i]}")
    return 0


cpdef tuple greedy_discard(counts, int joker_kind, int flags, list tiles):
    """The greedy bot's discard in one call: ``(best, picks)``, picks indexing ``tiles``.

    ``tiles`` are the kinds of the legal discards in order. The first tile not held (a flower,
    kind >= 34, or a kind counted 0) wins outright: ``(None, [its index])``. Otherwise
    ``best`` is the least shanten after a discard (every copy of ``joker_kind`` >= 0 a joker)
    and ``picks`` the discards reaching it; when several remain they are cut to those of least
    connectivity — except a ready tie (``best == 0``, several picks), left whole for
    :func:`greedy_ready_discard`, whose tie-break needs the 宝.
    """
    _joker_kind(joker_kind)
    cdef uint8_t h[34]
    cdef int tv[42]
    cdef int pk[42]
    cdef int8_t shan[34]
    cdef int n, i, t, m = 0, best = 99
    _not_none(tiles, "tiles")
    _load(counts, h)
    _load_tiles(tiles, tv)
    n = len(tiles)
    for i in range(n):
        t = tv[i]
        if t >= MJ_N_KINDS or not h[t]:
            return None, [i]
    if n == 0:
        return 99, []
    h[tv[0]] -= 1
    _check_split(h, joker_kind, MJ_Q_SHANTEN)  # every discard leaves the same total
    h[tv[0]] += 1
    best = _discard_shantens(h, tv, n, joker_kind, flags, shan)
    for i in range(n):
        if shan[tv[i]] == best:
            pk[m] = i
            m += 1
    if m > 1 and best != 0:
        m = mj_least_connected(h, tv, pk, m)
    return best, [pk[i] for i in range(m)]


cpdef list greedy_ready_discard(counts, int joker_kind, int flags, list tiles, list picks,
                                int bao=-1):
    """The greedy bot's tie-break among ready discards: of ``picks`` (indices into ``tiles``,
    each leaving the hand ready), those leaving the most winning kinds — the kind ``bao``
    (>= 0) counted twice when it is one of them (宝中宝) — then the least connected.
    """
    _joker_kind(joker_kind)
    cdef uint8_t h[34]
    cdef int tv[42]
    cdef int pk[42]
    cdef int key[42]
    cdef int n, m, i, t, top = -1, kept = 0
    cdef uint64_t w
    _not_none(tiles, "tiles")
    _not_none(picks, "picks")
    _load(counts, h)
    _load_tiles(tiles, tv)
    n = len(tiles)
    m = len(picks)
    if m > n:
        raise InvalidHandError(f"more picks ({m}) than tiles ({n})")
    for i in range(m):
        pk[i] = picks[i]
        if not 0 <= pk[i] < n:
            raise InvalidHandError(f"picks must index tiles, got {pk[i]}")
        t = tv[pk[i]]
        if t >= MJ_N_KINDS or not h[t]:
            raise InvalidHandError(f"a ready discard must be a held kind, got {t}")
    if m == 0:
        return []
    h[tv[pk[0]]] -= 1
    _check_split(h, joker_kind, MJ_Q_WAITS)
    h[tv[pk[0]]] += 1
    for i in range(m):
        t = tv[pk[i]]
        h[t] -= 1
        w = mj_split_waits(h, joker_kind, flags)
        h[t] += 1
        key[i] = mj_bits_set(w) + (<int>(w >> bao & 1) if 0 <= bao < 64 else 0)
        if key[i] > top:
            top = key[i]
    for i in range(m):
        if key[i] == top:
            pk[kept] = pk[i]
            kept += 1
    if kept > 1:
        kept = mj_least_connected(h, tv, pk, kept)
    return [pk[i] for i in range(kept)]


cpdef int shanten_removed(counts, int joker_kind, int flags, dict removed,
                          bint discard=False) except? -9:
    """Shanten of ``counts`` less ``removed`` (kind -> copies), every copy of ``joker_kind``
    (>= 0) a joker; with ``discard``, the least over one more held tile discarded (99 when
    none is left). The greedy bot's claim and gang questions, in one call each."""
    _joker_kind(joker_kind)
    cdef uint8_t h[34]
    cdef int t, n, s
    _not_none(removed, "removed")
    _load(counts, h)
    for kind, copies in removed.items():
        t = kind
        n = copies
        if not 0 <= t < MJ_N_KINDS or not 0 <= n <= h[t]:
            raise InvalidHandError(f"cannot remove {n} of kind {t} from the hand")
        h[t] -= n
    if not discard:
        _check_split(h, joker_kind, MJ_Q_SHANTEN)
        return mj_split_shanten(h, joker_kind, flags)
    for t in range(MJ_N_KINDS):
        if h[t]:
            h[t] -= 1
            _check_split(h, joker_kind, MJ_Q_SHANTEN)
            h[t] += 1
            break
    s = mj_least_after_discard(h, joker_kind, flags)
    return s


# ---- the expert bot's questions, each in one call (mjcore/bots/expert.py) -------------------
cdef int _load_unseen(list unseen, long *out) except -1:
    """Copy the 34 unseen counts (plain ints 0..255, the expert bot's tally) into ``out``."""
    return _load_counts(unseen, out, "unseen")


cdef int _load_counts(list values, long *out, str what) except -1:
    """Copy 34 counts (plain ints 0..255) into ``out``, each checked as a C long (no Python
    comparison); ``what`` names them in the error."""
    cdef Py_ssize_t t
    cdef int past
    cdef long v
    if len(values) != MJ_N_KINDS:
        raise InvalidHandError(f"{what} must have {MJ_N_KINDS} entries, got {len(values)}")
    for t in range(MJ_N_KINDS):
        value = values[t]
        v = -1
        if type(value) is int:
            v = PyLong_AsLongAndOverflow(value, &past)
            if past:
                v = -1
        if not 0 <= v <= 255:
            raise InvalidHandError(f"{what} must be ints 0..255, got {_clip(value)}")
        out[t] = v
    return 0


cdef int _check_discards(uint8_t *h, const int *tv, int n, int joker_kind, int query) except -1:
    """Every discard ``tv[:n]`` is a held kind and leaves a hand the core can ask ``query``
    of (InvalidHandError otherwise); ``h`` is left as it was."""
    cdef int i, t
    for i in range(n):
        t = tv[i]
        if t >= MJ_N_KINDS or not h[t]:
            raise InvalidHandError(f"a discard must be a held kind, got {t}")
        h[t] -= 1
        try:
            _check_split(h, joker_kind, query)
        finally:
            h[t] += 1
    return 0


cdef int _discard_shantens(uint8_t *h, const int *tv, int n, int joker_kind, int flags,
                           int8_t *shan) noexcept nogil:
    """Fill ``shan[t]`` with the shanten after discarding each kind ``t`` of ``tv[:n]`` (each
    kind computed once; the others left 99); the least of them (99 when ``n`` is 0)."""
    cdef int i, t
    cdef uint64_t kinds = 0
    for t in range(MJ_N_KINDS):
        shan[t] = 99
    for i in range(n):
        kinds |= 1ull << tv[i]
    return mj_discard_shantens(h, joker_kind, flags, kinds, shan)


cdef inline long _live(uint64_t waits, const long *unseen) noexcept nogil:
    """The unseen copies of the kinds in the bitmask ``waits``."""
    cdef long live = 0
    cdef int u
    for u in range(MJ_N_KINDS):
        if waits >> u & 1:
            live += unseen[u]
    return live


def expert_ukeire(counts, int joker_kind, int flags, list unseen not None, list tiles not None):
    """The expert bot's tile efficiency in one call: for each discard kind in ``tiles`` (held
    kinds), the unseen copies (``unseen``: 34 counts) of the kinds that lower the hand's
    shanten after that discard. Only kinds near the hand are tried (every held kind and the
    suited kinds within two ranks of one); with ``joker_kind`` >= 0 every copy of it is a
    joker and drawing it adds one."""
    _joker_kind(joker_kind)
    cdef uint8_t h[34]
    cdef long un[34]
    cdef int tv[42]
    cdef int n, i, t, code = MJ_OK, bad = 0
    cdef long k = 0, got
    cdef uint64_t near
    cdef list out = []
    _load(counts, h)
    _load_unseen(unseen, un)
    _load_tiles(tiles, tv)
    n = len(tiles)
    for i in range(n):
        if tv[i] >= MJ_N_KINDS or not h[tv[i]]:
            raise InvalidHandError(f"a discard must be a held kind, got {tv[i]}")
    near = mj_near_mask(h)
    for i in range(n):  # (microseconds a discard: the GIL is kept, its round trip costs more)
        t = tv[i]
        got = mj_ukeire_one(h, t, joker_kind, flags, un, near, &code, &bad, &k)
        if got < 0:
            _raise(code, bad, k, MJ_Q_SHANTEN, "")
        out.append(got)
    return out


def expert_waits(counts, int joker_kind, int flags, list unseen not None, list tiles not None):
    """The expert bot's ready discards in one call: ``(masks, live)``, for each discard kind
    in ``tiles`` (held kinds) the bitmask of kinds completing the hand after it (as
    :func:`waits_mask_bits` of the hand less that tile, every copy of ``joker_kind`` >= 0 a
    joker) and the unseen copies (``unseen``: 34 counts) of those kinds."""
    _joker_kind(joker_kind)
    cdef uint8_t h[34]
    cdef long un[34]
    cdef int tv[42]
    cdef int n, i, t
    cdef long live
    cdef uint64_t w
    cdef list masks = [], lives = []
    _load(counts, h)
    _load_unseen(unseen, un)
    _load_tiles(tiles, tv)
    n = len(tiles)
    _check_discards(h, tv, n, joker_kind, MJ_Q_WAITS)
    for i in range(n):  # (the GIL kept: as expert_ukeire)
        t = tv[i]
        h[t] -= 1
        w = mj_split_waits(h, joker_kind, flags)
        h[t] += 1
        live = _live(w, un)
        masks.append(w)
        lives.append(live)
    return masks, lives


cdef inline bint _seen(object tile, long *seen) noexcept:
    """Count one tile of a group into ``seen`` (flowers, kinds >= 34, are not counted); False
    when it is no kind >= 0 (the caller raises)."""
    cdef int past
    cdef long k
    if type(tile) is not int:
        return False
    k = PyLong_AsLongAndOverflow(tile, &past)  # (past: -1 / +1 beyond a C long)
    if past > 0:
        return True
    if k < 0 or past < 0:
        return False
    if k < MJ_N_KINDS:
        seen[k] += 1
    return True


def unseen_counts(totals not None, counts, list groups not None):
    """The copies of each kind a seat has not seen, in one call: ``max(totals[t] - seen[t] -
    counts[t], 0)`` for the 34 kinds, where ``totals`` are the tile set's 34 counts (a list
    of ints 0..255, or bytes: a byte a kind, read as they are),
    ``counts`` the seat's concealed hand and ``seen`` counts the kinds in every sequence of
    ``groups`` (melds, rivers, …; kinds >= 34, the flowers, are not counted)."""
    cdef uint8_t h[34]
    cdef long seen[34]
    cdef long tot[34]
    cdef long total
    cdef int t
    cdef const unsigned char *raw
    if type(totals) is bytes:  # (a tile set's counts, kept as bytes: no int to check)
        if len(<bytes>totals) != MJ_N_KINDS:
            raise InvalidHandError(
                f"totals must have {MJ_N_KINDS} entries, got {len(<bytes>totals)}")
        raw = <bytes>totals
        for t in range(MJ_N_KINDS):
            tot[t] = raw[t]
    elif type(totals) is list:
        _load_counts(<list>totals, tot, "totals")
    else:
        raise InvalidHandError(f"totals must be a list or bytes, got {type(totals).__name__}")
    _load(counts, h)
    for t in range(MJ_N_KINDS):
        seen[t] = 0
    for group in groups:
        if type(group) is list:  # (most groups: indexed, no iterator object)
            for tile in <list>group:
                if not _seen(tile, seen):
                    raise InvalidHandError(f"tiles must be kinds >= 0, got {_clip(tile)}")
        elif type(group) is tuple:
            for tile in <tuple>group:
                if not _seen(tile, seen):
                    raise InvalidHandError(f"tiles must be kinds >= 0, got {_clip(tile)}")
        else:
            for tile in group:
                if not _seen(tile, seen):
                    raise InvalidHandError(f"tiles must be kinds >= 0, got {_clip(tile)}")
    cdef list out = [0] * MJ_N_KINDS
    for t in range(MJ_N_KINDS):
        total = tot[t] - seen[t] - h[t]
        if total > 0:
            out[t] = total
    return out


def expert_discards(counts, int joker_kind, int flags, list tiles not None):
    """Per discard kind in ``tiles`` (held kinds): ``(shantens, connectivity)``, the shanten
    after that discard (every copy of ``joker_kind`` >= 0 a joker; kinds asked twice are
    computed once) and how much the tile helps its neighbours (the greedy bot's
    ``mj_connectivity``: the expert's last tie-break). One call for the expert bot's turn."""
    _joker_kind(joker_kind)
    cdef uint8_t h[34]
    cdef int tv[42]
    cdef int8_t shan[34]
    cdef int n, i
    _load(counts, h)
    _load_tiles(tiles, tv)
    n = len(tiles)
    _check_discards(h, tv, n, joker_kind, MJ_Q_SHANTEN)
    _discard_shantens(h, tv, n, joker_kind, flags, shan)  # (the GIL kept: as expert_ukeire)
    return [shan[tv[i]] for i in range(n)], [mj_connectivity(h, tv[i]) for i in range(n)]


cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define MJ_PREFETCH(p) __builtin_prefetch((const void *)(p))
    #else
    #define MJ_PREFETCH(p) ((void)(p))
    #endif
    """
    void MJ_PREFETCH(const void *p) noexcept nogil


def mlp_forward(const float[::1] x not None, const float[:, ::1] w1 not None,
                const float[::1] b1 not None, const float[:, ::1] w2 not None,
                const float[::1] b2 not None, const float[:, ::1] w3 not None,
                const float[::1] b3 not None, float[::1] out not None):
    """Write ``relu(relu(x @ w1 + b1) @ w2 + b2) @ w3 + b3`` into ``out`` (float32 arrays,
    C-contiguous): the learned bot's forward pass for one observation. The first layer adds
    only the rows of ``x``'s nonzero entries (an observation is mostly zeros), so it costs
    a few microseconds where numpy's three small products and temporaries cost tens."""
    cdef Py_ssize_t n = x.shape[0], h1 = w1.shape[1], h2 = w2.shape[1], m = w3.shape[1]
    cdef Py_ssize_t i, j
    cdef float v
    cdef float *a
    if (w1.shape[0] != n or b1.shape[0] != h1 or w2.shape[0] != h1 or b2.shape[0] != h2
            or w3.shape[0] != h2 or b3.shape[0] != m or out.shape[0] != m):
        raise ValueError(
            f"mlp_forward: shapes do not chain: x ({n},), w1 ({w1.shape[0]}, {h1}), "
            f"b1 ({b1.shape[0]},), w2 ({w2.shape[0]}, {h2}), b2 ({b2.shape[0]},), "
            f"w3 ({w3.shape[0]}, {m}), b3 ({b3.shape[0]},), out ({out.shape[0]},)")
    cdef Py_ssize_t nz = 0, r
    cdef Py_ssize_t *rows = <Py_ssize_t *>malloc((n + 1) * sizeof(Py_ssize_t))
    a = <float *>malloc((h1 + h2 + 1) * sizeof(float))
    if a == NULL or rows == NULL:
        free(a)
        free(rows)
        raise MemoryError()
    with nogil:
        for i in range(n):  # the nonzero rows, fetched ahead: their loads overlap
            if x[i] != 0:
                rows[nz] = i
                nz += 1
                for j in range(0, h1, 16):
                    MJ_PREFETCH(&w1[i, j])
        for j in range(h1):
            a[j] = b1[j]
        for r in range(nz):
            i = rows[r]
            v = x[i]
            for j in range(h1):
                a[j] += v * w1[i, j]
        for j in range(h2):
            a[h1 + j] = b2[j]
        for i in range(h1):
            v = a[i]
            if v > 0:
                for j in range(h2):
                    a[h1 + j] += v * w2[i, j]
        for j in range(m):
            out[j] = b3[j]
        for i in range(h2):
            v = a[h1 + i]
            if v > 0:
                for j in range(m):
                    out[j] += v * w3[i, j]
    free(a)
    free(rows)


def discard_features(counts, int joker_kind, int flags, list unseen not None,
                     list tiles not None, list rows not None, float[:, ::1] out not None,
                     tuple cols not None):
    """The learned bot's discard features in one call (mjcore/bots/learned.py). For each
    discard kind ``tiles[i]`` (held kinds), into row ``rows[i]`` of ``out`` at the six
    columns ``cols`` (discard, step, best, ukeire, live, conn): 1; its shanten after the
    discard minus the least (capped at 3); whether it keeps the least; at the least, the
    unseen copies of the kinds that lower the shanten ÷ 20 (when not ready) or of its waits
    ÷ 8 (when ready after it); its connectedness ÷ 8. Returns the least shanten (99 with no
    tiles). ``unseen``: 34 counts; every copy of ``joker_kind`` >= 0 a joker."""
    _joker_kind(joker_kind)
    cdef uint8_t h[34]
    cdef long un[34]
    cdef int tv[42]
    cdef int rv[42]
    cdef int8_t shan[34]
    cdef long got[34]
    cdef int cv[6]
    cdef int n, i, t, best = 99, code = MJ_OK, bad = 0
    cdef long k = 0
    cdef uint64_t near, w
    _load(counts, h)
    _load_unseen(unseen, un)
    _load_tiles(tiles, tv)
    n = len(tiles)
    if len(rows) != n or len(cols) != 6:
        raise ValueError(f"discard_features: {n} tiles need {n} rows and 6 columns, "
                         f"got {len(rows)} rows and {len(cols)} columns")
    for i in range(6):
        cv[i] = cols[i]
        if not 0 <= cv[i] < out.shape[1]:
            raise ValueError(f"discard_features: column {cv[i]} outside 0..{out.shape[1] - 1}")
    for i in range(n):
        rv[i] = rows[i]
        if not 0 <= rv[i] < out.shape[0]:
            raise ValueError(f"discard_features: row {rv[i]} outside 0..{out.shape[0] - 1}")
    _check_discards(h, tv, n, joker_kind, MJ_Q_SHANTEN)
    for t in range(MJ_N_KINDS):
        got[t] = -1
    with nogil:
        best = _discard_shantens(h, tv, n, joker_kind, flags, shan)
    if best == 0:
        _check_discards(h, tv, n, joker_kind, MJ_Q_WAITS)
    near = mj_near_mask(h)
    for i in range(n):
        t = tv[i]
        if shan[t] != best or got[t] >= 0 or best < 0:
            continue
        with nogil:
            if best > 0:
                got[t] = mj_ukeire_one(h, t, joker_kind, flags, un, near, &code, &bad, &k)
            else:
                h[t] -= 1
                w = mj_split_waits(h, joker_kind, flags)
                h[t] += 1
                got[t] = _live(w, un)
        if got[t] < 0:
            _raise(code, bad, k, MJ_Q_SHANTEN, "")
    for i in range(n):
        t = tv[i]
        out[rv[i], cv[0]] = 1.0
        out[rv[i], cv[1]] = min(shan[t] - best, 3)
        out[rv[i], cv[2]] = shan[t] == best
        if shan[t] == best and best > 0:
            out[rv[i], cv[3]] = <float>(got[t] / 20.0)
        elif shan[t] == best and best == 0:
            out[rv[i], cv[4]] = <float>(got[t] / 8.0)
        out[rv[i], cv[5]] = <float>(mj_connectivity(h, t) / 8.0)
    return best


def legal_logits(const float[::1] z not None, Py_ssize_t n_actions,
                 const int64_t[::1] legal not None, const float[:, ::1] feats not None,
                 float[::1] out not None):
    """``out[i] = z[legal[i]] + feats[i] · z[n_actions:]``: the learned bot's score of each
    legal action (its logit from the network's output ``z`` plus its features weighted by
    the rest of ``z``), in one call instead of three numpy operations."""
    cdef Py_ssize_t k = legal.shape[0], f = feats.shape[1], i, j
    cdef float s
    if not 0 <= n_actions <= z.shape[0] or z.shape[0] - n_actions != f:
        raise ValueError(f"legal_logits: z has {z.shape[0]} entries, not {n_actions} + {f}")
    if feats.shape[0] != k or out.shape[0] != k:
        raise ValueError(f"legal_logits: {k} legal actions, {feats.shape[0]} feature rows, "
                         f"{out.shape[0]} outputs")
    for i in range(k):
        if not 0 <= legal[i] < n_actions:
            raise ValueError(f"legal_logits: action index {legal[i]} outside 0..{n_actions - 1}")
    with nogil:
        for i in range(k):
            s = 0
            for j in range(f):
                s += feats[i, j] * z[n_actions + j]
            out[i] = z[legal[i]] + s

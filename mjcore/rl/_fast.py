# cython: boundscheck=False, wraparound=False, initializedcheck=False
# Compiled by Cython when the wheel is built (CMakeLists.txt); this file is its Python fallback.
"""The RL hot path: the observation and mask writers and the vector step loop.

Compiled by Cython in pure Python mode (``_fast.pxd`` beside it types it, as the engine's
``.pxd`` files do): the writers read the Game's and SeatState's C fields directly and write
float32 / int8 typed memoryviews, so a :class:`~mjcore.rl.VectorEnv` step builds no Python
dict and no numpy temporary. What changes seldom — each seat's melds, river, flowers and won
tiles — is kept per game as ready entries (:class:`SeatPlanes`) and re-read only when the
engine changed it; the mask finds legal actions by object address. Under
``MJCORE_PURE_PYTHON=1`` the same code runs as Python on the same numpy arrays, with the
same results.

The row numbers below are the order of ``OWN_ROWS``, ``SEAT_ROWS`` and ``PUBLIC_ROWS`` in
``encoding.py`` (the :class:`~mjcore.rl.Encoder` checks them when it builds a :class:`Spec`).
What is read is only what the observing seat may know: see ``encoding.py``. Compiled without
bounds checks (the directive line above): every index is a tile kind (< 42) within a row of
the layout, and the public callers (``Encoder``, ``VectorEnv``) check the arrays' shapes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _core
from ..engine.seat import NO_LOCKS
from ..engine.variant import Variant

K = 42  # columns of a plane: every tile kind, flowers included
N_KINDS = 34  # kinds a concealed hand counts
LAST_DISCARDS = 6
SCORE_SCALE = 0.01
# own rows
R_HAND, R_HELD, R_DRAWN, R_CLAIM = 0, 1, 2, 3
R_PASS_HU, R_PASS_PENG, R_NO_DISCARD, R_NO_BUGANG = 4, 5, 6, 7
# seat rows (relative to the seat's first row)
S_CHI, S_PENG, S_MINGGANG, S_ANGANG, S_NIU, S_RIVER, S_LAST = 0, 1, 2, 3, 4, 5, 6
S_FLOWERS = S_LAST + LAST_DISCARDS
S_WON, S_REVEALED, S_WAITS = S_FLOWERS + 1, S_FLOWERS + 2, S_FLOWERS + 3
SEATS = 4
# SeatPlanes.info columns: entries of melds / flowers / wins, of them before the 暗杠, meld 花,
# river entries, the river's length and discard count when read, the score so far; the 花 the
# seat shows + 1 (0: not yet asked since its melds or flowers changed) and its choices then
I_COUNT, I_VISIBLE, I_HUA, I_RIVER, I_RIVER_LEN, I_DISCARDS, I_SCORE = 0, 1, 2, 3, 4, 5, 6
I_SHOWN_HUA, I_HUA_CHOICES = 7, 8
N_INFO = 9
K_MELDS, K_RIVER, K_FLOWERS, K_WON = 0, 1, 2, 3  # SeatPlanes.keys per seat
KEYS = 4
ENTRIES = 160  # a SeatPlanes row: a tile set has at most 144 tiles, + 6 last discards
# public rows (relative to the first public row)
P_INDICATORS, P_JOKER, P_SET_ASIDE, P_HORSES = 0, 1, 2, 3

PHASE_INDEX = {"turn": 0, "choose": 1, "claim": 2, "rob": 3, "fenzhang": 4, "waiting": 5, "over": 6}
DRAW_INDEX = {"deal": 0, "wall": 1, "replacement": 2, "claim": 3, "fenzhang": 4}
TURN, CHOOSE, CLAIM, ROB, FENZHANG, WAITING, OVER = PHASE_INDEX.values()
PINNED = 256  # action objects besides the engine's shared ones fill_mask remembers


def rows() -> dict[str, int]:
    """The row numbers above by name (compiled, they are C constants: not module attributes)."""
    return {
        "hand": R_HAND,
        "no_bugang": R_NO_BUGANG,
        "river": S_RIVER,
        "flowers": S_FLOWERS,
        "shown_waits": S_WAITS,
        "horses": P_HORSES,
    }


class Spec:
    """What the writers need of an Encoder, as plain fields (a C struct when compiled): the
    offsets of the observation's scalars, the variant's switches and the action indices."""

    def __init__(self, enc: Any) -> None:
        per = enc.per_seat
        self.size = enc.size
        self.seat_row0 = enc.seat_row0
        self.public_row0 = enc.public_row0
        self.n_seat_rows = enc.n_seat_rows
        self.total_tiles = float(enc.total_tiles)
        self.s_phase = enc.s_phase
        self.s_to_act = enc.s_to_act
        self.s_draw_how = enc.s_draw_how
        self.s_claim_from = enc.s_claim_from
        self.s_wall = enc.s_wall
        self.s_first = enc.s_first
        self.s_locks = enc.s_locks
        self.s_options = enc.s_options
        self.seat0 = per["present"][0]
        self.seat_stride = per["present"][1] - per["present"][0]
        base = self.seat0
        self.f_score = per["score"][0] - base
        self.f_tiles = per["tiles"][0] - base
        self.f_dealer = per["dealer"][0] - base
        self.f_wind = per["wind"][0] - base
        self.f_current = per["current"][0] - base
        self.f_sealed = per["sealed"][0] - base
        self.f_hidden = per["hidden_gangs"][0] - base
        self.f_wins = per["wins"][0] - base
        self.f_declared = per["declared"][0] - base
        self.f_choices = per["choices"][0] - base
        self.f_claimed = per["claimed_from"][0] - base
        self.f_liable = per["liable"][0] - base
        self.f_hua = per["hua"][0] - base
        self.f_sanbi = per["sanbi"][0] - base
        self.show_angang = bool(enc.show_angang)
        # the variant's own public facts (Variant's RL hooks): asked only if it has them
        cls = type(enc.variant)
        self.variant = enc.variant
        self.shows_hand = cls.shown_hand is not Variant.shown_hand  # 荣成 明搂
        self.shows_waits = cls.shown_waits is not Variant.shown_waits  # 荣成 亮听
        self.hua = cls.seat_hua is not Variant.seat_hua  # 宿松 花
        self.relations = cls.seat_relations is not Variant.seat_relations  # 宿松 吃三比
        self.hu_lock_kinds = enc.variant.pass_hu_rule == "same_kind"
        self.hu_lock_any = enc.variant.pass_hu_rule == "any"
        self.declares = {name: i for i, name in enumerate(enc.declares)}
        self.choice_names = tuple(enc.choice_names)
        self.option_values = np.array(enc.option_values, dtype=np.float32)
        self.table = enc.table
        self.by_id = enc.table._by_id
        self.actions = enc.table.actions
        # Action objects by address in an open-addressing table (at most half full): the
        # engine's shared ones (module constants), then up to PINNED others the mask met, kept
        # alive in ``pinned`` (a key's object lives as long as the table: no address reuse).
        # Most legal actions are found with no Python call (fill_mask).
        ids = enc.table._by_id
        slots = 64
        while slots < 2 * (len(ids) + PINNED):
            slots *= 2
        self.slot_mask = slots - 1
        self.slot_key = np.zeros(slots, dtype=np.uint64)  # 0: empty
        self.slot_index = np.full(slots, -1, dtype=np.int32)
        self.pinned: list[Any] = []
        for key, i in ids.items():
            _insert(self, key, i)
        self.encoder = enc


class SeatPlanes:
    """One game's seat planes by absolute seat, as sparse entries: the non-zero entries of each
    seat's rows ``chi`` … ``won_tiles`` (melds, river, last discards, flowers, wins), its
    宿松 meld 花, and every seat's score so far.

    They change only when a seat's melds, river, flowers or wins do, yet every observation
    shows them: :func:`refresh` rebuilds a seat's entries only when the objects they are read
    from changed (the engine replaces ``flowers`` / ``won_tiles`` tuples and meld objects,
    appends to and pops from a river and counts every discard), so a step adds a few ready
    entries instead of reading the Python objects again. An entry is ``offset << 3 | value``
    (offset within the seat block, value 1, 3 or 4: added to the zeroed row). Row ``s`` of
    ``entries`` holds seat ``s``'s melds, flowers and won tiles, its 暗杠 last (after
    ``I_VISIBLE``, so an observer who may not see them stops there); row ``SEATS + s`` its
    river and last discards (they change most often: rebuilt alone). The counts, keys and
    scores are packed in ``info`` and ``keys``: a step reads a few cache lines of a game's
    SeatPlanes, not dense rows (at N = 64 / 256 the cache traffic costs more than the
    instructions)."""

    def __init__(self) -> None:
        self.game: Any = None
        # rows s: melds, flowers, wins of seat s; rows SEATS + s: its river, last discards
        self.entries = np.zeros((2 * SEATS, ENTRIES), dtype=np.int32)
        self.info = np.zeros((SEATS, N_INFO), dtype=np.int64)  # I_* per seat
        self.paid = 0
        self.sanbi: list[Any] = []  # 宿松 吃三比 pairs when the seats had made sanbi_claims
        self.sanbi_claims = -1
        # per seat the objects its entries were read from: melds (a tuple), river, flowers, won
        self.keys: list[Any] = [None] * (KEYS * SEATS)

    def forget(self, game: Any) -> None:
        """Start over for ``game``: every seat is read afresh on the next refresh."""
        self.game = game
        self.paid = 0
        self.sanbi_claims = -1
        for s in range(SEATS):
            self.info[s, I_SCORE] = 0
            self.keys[KEYS * s + K_MELDS] = None
            self.keys[KEYS * s + K_RIVER] = None


def refresh(spec: Spec, cache: SeatPlanes, game: Any) -> None:
    """Bring ``cache`` up to date with ``game``: the seats whose melds, flowers, wins or
    river changed since it was last refreshed, and the payments settled since."""
    if cache.game is not game:
        cache.forget(game)
    keys = cache.keys
    info = cache.info
    for s in range(game.n):
        ss = game.seats[s]
        j = KEYS * s
        if (
            not _same_melds(keys[j + K_MELDS], ss.melds)
            or keys[j + K_FLOWERS] is not ss.flowers
            or keys[j + K_WON] is not ss.won_tiles
        ):
            _rebuild_melds(spec, cache, s, ss)
        river = ss.discards
        if (
            keys[j + K_RIVER] is not river
            or info[s, I_RIVER_LEN] != len(river)
            or info[s, I_DISCARDS] != ss.discard_count
        ):
            _rebuild_river(cache, s, ss)
    paid = game._settlement
    end = len(paid)
    for k in range(cache.paid, end):
        p = paid[k]
        payer, payee, amount = p[0], p[1], p[2]
        info[payer, I_SCORE] -= amount
        info[payee, I_SCORE] += amount
    cache.paid = end


def _same_melds(kept: tuple | None, melds: list) -> bool:
    """``melds`` holds the very meld objects ``kept`` does (melds are immutable)."""
    if kept is None or len(kept) != len(melds):
        return False
    for k in range(len(melds)):
        if kept[k] is not melds[k]:
            return False
    return True


def _rebuild_melds(spec: Spec, cache: SeatPlanes, s: int, ss: Any) -> None:
    """Seat ``s``'s meld, flower and won-tile entries read afresh (暗杠 last), its melds' 花
    for 宿松; the objects read, as keys."""
    melds = tuple(ss.melds)
    entries = cache.entries
    k = 0
    hua = 0
    for m in melds:
        kind = m.kind
        tiles = m.tiles
        if kind == "chi" or kind == "niu":
            row = S_CHI if kind == "chi" else S_NIU
            for t in tiles:
                k = _put(entries, s, k, row * K + t, 1)
        elif kind == "peng":
            k = _put(entries, s, k, S_PENG * K + tiles[0], 3)
        elif kind != "angang":  # 直杠, 补杠
            k = _put(entries, s, k, S_MINGGANG * K + tiles[0], 4)
        if spec.hua:
            hua += spec.variant.meld_hua(m)
    for t in ss.flowers:
        k = _put(entries, s, k, S_FLOWERS * K + t, 1)
    for t in ss.won_tiles:
        k = _put(entries, s, k, S_WON * K + t, 1)
    info = cache.info
    info[s, I_VISIBLE] = k
    for m in melds:
        if m.kind == "angang":
            k = _put(entries, s, k, S_ANGANG * K + m.tiles[0], 4)
    info[s, I_COUNT] = k
    info[s, I_HUA] = hua
    info[s, I_SHOWN_HUA] = 0  # (Variant.seat_hua asked again)
    keys = cache.keys
    keys[KEYS * s + K_MELDS] = melds
    keys[KEYS * s + K_FLOWERS] = ss.flowers
    keys[KEYS * s + K_WON] = ss.won_tiles


def _rebuild_river(cache: SeatPlanes, s: int, ss: Any) -> None:
    """Seat ``s``'s river entries read afresh: a count per kind and its last discards, most
    recent first; the river read, its length and the discard count, as keys."""
    discards = ss.discards
    nd = len(discards)
    entries = cache.entries
    row = SEATS + s
    k = 0
    for i in range(nd):
        t = discards[i]
        k = _put(entries, row, k, S_RIVER * K + t, 1)
    for i in range(min(nd, LAST_DISCARDS)):
        t = discards[nd - 1 - i]
        k = _put(entries, row, k, (S_LAST + i) * K + t, 1)
    info = cache.info
    info[s, I_RIVER] = k
    info[s, I_RIVER_LEN] = nd
    info[s, I_DISCARDS] = ss.discard_count
    cache.keys[KEYS * s + K_RIVER] = discards


def _put(entries: Any, row: int, k: int, offset: int, value: int) -> int:
    """Entry ``k`` of ``row``: ``value`` at ``offset``; the next entry's number."""
    if k >= ENTRIES:  # (never: an entry is a tile, a meld or one of the last discards)
        raise IndexError(f"more than {ENTRIES} seat plane entries")
    entries[row, k] = offset << 3 | value
    return k + 1


def encode(spec: Spec, cache: SeatPlanes, game: Any, seat: int, out: Any) -> None:
    """Write ``seat``'s observation of ``game`` into ``out`` (float32[spec.size]); ``cache``
    keeps the game's seat planes from one call to the next (see :class:`SeatPlanes`)."""
    refresh(spec, cache, game)
    _zero(spec, out)
    n = game.n
    phase = _phase_index(game.phase)  # (compared as an int from here on)
    st = game.seats[seat]
    _own_rows(spec, game, st, seat, phase, out)
    for r in range(n):
        _seat_block(spec, cache, game, seat, r, phase, out)
    if spec.shows_waits and _any_declared(game):
        spec.encoder.shown_waits(game, seat, out)
    if spec.hua or spec.relations:
        _hua_relations(spec, cache, game, seat, out)
    for a, b in game.liabilities:
        _relation(spec, game, seat, a, b, spec.f_liable, out)
    _public_rows(spec, game, out)
    values = spec.option_values
    o = spec.s_options
    for i in range(values.shape[0]):
        out[o + i] = values[i]


def _zero(spec: Spec, out: Any) -> None:
    """``out[:spec.size] = 0`` in one memset (a memoryview set to a number is stepped item by
    item: it was 40 % of a VectorEnv step)."""
    _core.zero_floats(out, spec.size)


def _own_rows(spec: Spec, game: Any, st: Any, seat: int, phase: int, out: Any) -> None:
    """The observer's own tiles, its 过手 locks, the phase (its PHASE_INDEX) as it sees it,
    the wall."""
    hand = st.hand
    for t in range(N_KINDS):
        out[t] = hand[t]
    for t in st.held_flowers:
        out[R_HELD * K + t] += 1
    pending = game.pending
    decisions = game.decisions
    asked = seat in pending and seat not in decisions
    shown = phase
    if (phase == CLAIM or phase == ROB or phase == FENZHANG) and not asked:
        shown = WAITING
    current = game.current
    if current == seat and game.drawn >= 0 and (phase == TURN or phase == FENZHANG):
        out[R_DRAWN * K + game.drawn] = 1
    if shown == CLAIM or shown == ROB:
        n = game.n
        src = game.claim[0]
        tile = game.claim[1]
        out[R_CLAIM * K + tile] = 1
        out[spec.s_claim_from + (src - seat + n) % n] = 1
    out[spec.s_phase + shown] = 1
    to_act = current == seat if phase == TURN else asked
    out[spec.s_to_act] = to_act
    if to_act and phase == TURN:
        how = _draw_index(game.draw_how)
        if how >= 0:
            out[spec.s_draw_how + how] = 1
    wall = game.wall
    total = spec.total_tiles
    remaining = wall.tail - wall.head  # Wall.remaining and Wall.live, read from its fields
    out[spec.s_wall] = remaining / total
    out[spec.s_wall + 1] = max(remaining - wall.kept, 0) / total
    out[spec.s_wall + 2] = len(game.hidden_indicators)
    out[spec.s_first] = game.first_go_around
    _locks(spec, st, out)


def _phase_index(phase: str) -> int:
    """``PHASE_INDEX[phase]``, compared as C strings first (the engine's phases are these)."""
    if phase == "turn":
        return TURN
    if phase == "claim":
        return CLAIM
    if phase == "choose":
        return CHOOSE
    if phase == "rob":
        return ROB
    if phase == "fenzhang":
        return FENZHANG
    if phase == "over":
        return OVER
    return PHASE_INDEX[phase]  # type: ignore[no-any-return]


def _draw_index(how: Any) -> int:
    """``DRAW_INDEX.get(how, -1)``, compared as C strings."""
    if how == "wall":
        return 1
    if how == "replacement":
        return 2
    if how == "deal":
        return 0
    if how == "claim":
        return 3
    if how == "fenzhang":
        return 4
    return -1


def _locks(spec: Spec, st: Any, out: Any) -> None:
    """The observer's own 过手胡 / 过手碰 locks and discard / 补杠 bans (it knows them)."""
    locks = st.pass_hu
    if locks is not NO_LOCKS and spec.hu_lock_kinds:
        for t in locks:
            out[R_PASS_HU * K + t] = locks[t]
    if spec.hu_lock_any:
        out[spec.s_locks] = st.pass_hu_any
    if st.pass_peng:
        for t in st.pass_peng:
            out[R_PASS_PENG * K + t] = 1
    if st.no_discard:
        for t in st.no_discard:
            out[R_NO_DISCARD * K + t] = 1
    if st.no_bugang:
        for t in st.no_bugang:
            out[R_NO_BUGANG * K + t] = 1


def _seat_block(
    spec: Spec, cache: SeatPlanes, game: Any, seat: int, r: int, phase: int, out: Any
) -> None:
    """Seat ``r`` places after the observer: its kept entries (others' 暗杠 hidden unless the
    variant shows them), revealed hand and scalars (``phase``: the PHASE_INDEX)."""
    n = game.n
    over = phase == OVER
    s = (seat + r) % n
    ss = game.seats[s]
    base = (spec.seat_row0 + r * spec.n_seat_rows) * K
    shown = r == 0 or over or spec.show_angang  # 暗杠 kinds this observer may see
    info = cache.info
    end = info[s, I_COUNT] if shown else info[s, I_VISIBLE]
    entries = cache.entries
    for k in range(end):
        e = entries[s, k]
        out[base + (e >> 3)] += e & 7
    for k in range(info[s, I_RIVER]):
        e = entries[SEATS + s, k]
        out[base + (e >> 3)] += e & 7
    hand = ss.hand
    count = 0
    for t in range(N_KINDS):
        count += hand[t]
    if r and (over or (spec.shows_hand and ss.declared and spec.variant.shown_hand(ss))):
        for t in range(N_KINDS):
            out[base + S_REVEALED * K + t] = hand[t]
    o = spec.seat0 + r * spec.seat_stride
    out[o] = 1  # present
    if cache.paid:
        out[o + spec.f_score] = info[s, I_SCORE] * SCORE_SCALE
    out[o + spec.f_tiles] = (count + len(ss.held_flowers)) / 14.0
    dealer = game.dealer
    out[o + spec.f_dealer] = s == dealer
    out[o + spec.f_wind + (s - dealer + n) % n] = 1
    out[o + spec.f_current] = s == game.current and phase == TURN
    out[o + spec.f_sealed] = ss.sealed
    out[o + spec.f_hidden] = info[s, I_COUNT] - end  # (暗杠 not shown)
    out[o + spec.f_wins] = len(ss.wins)
    if ss.declared:
        j = spec.declares.get(ss.declared, -1)
        if j >= 0:
            out[o + spec.f_declared + j] = 1
    if ss.choices:
        _choices(spec, ss.choices, o + spec.f_choices, out)
    claimed = ss.claimed_from
    for s2 in range(n):
        if claimed[s2]:
            out[o + spec.f_claimed + (s2 - seat + n) % n] = claimed[s2]


def _choices(spec: Spec, choices: dict[str, int], o: int, out: Any) -> None:
    """Per choice the options switch on: made (1) and its value."""
    names = spec.choice_names
    for j in range(len(names)):
        value = choices.get(names[j])
        if value is not None:
            out[o + 2 * j] = 1
            v = value  # (an int: a C long when compiled, not a float conversion)
            out[o + 2 * j + 1] = v


def _relation(spec: Spec, game: Any, seat: int, a: int, b: int, field: int, out: Any) -> None:
    """Mark the pair {a, b} in both seats' ``field`` (relative seat of the other)."""
    n = game.n
    ra = (a - seat + n) % n
    rb = (b - seat + n) % n
    stride = spec.seat_stride
    out[spec.seat0 + ra * stride + field + rb] = 1
    out[spec.seat0 + rb * stride + field + ra] = 1


def _any_declared(game: Any) -> bool:
    """Some seat has declared (only a declared seat shows its waits: 荣成 亮听)."""
    for st in game.seats:
        if st.declared:
            return True
    return False


def _hua_relations(spec: Spec, cache: SeatPlanes, game: Any, seat: int, out: Any) -> None:
    """The variant's public 花 of each seat (``Variant.seat_hua`` of its flowers and its melds'
    花, kept by ``cache``) and its seat relations (``Variant.seat_relations``: 宿松 吃三比,
    which need three claims from one seat). The relations are read again only after a claim
    (``claims`` and ``claimed_from`` grow together)."""
    n = game.n
    related = False
    claims = 0
    variant = spec.variant
    info = cache.info
    for r in range(n):
        s = (seat + r) % n
        st = game.seats[s]
        if spec.hua and (st.flowers or st.melds):  # (花 0 otherwise)
            # Variant.seat_hua reads the seat's flowers, its melds' 花 and its choices: asked
            # again only when one of them changed (refresh, or a choice made)
            if not info[s, I_SHOWN_HUA] or info[s, I_HUA_CHOICES] != len(st.choices):
                info[s, I_SHOWN_HUA] = variant.seat_hua(st, info[s, I_HUA]) + 1
                info[s, I_HUA_CHOICES] = len(st.choices)
            out[spec.seat0 + r * spec.seat_stride + spec.f_hua] = info[s, I_SHOWN_HUA] - 1
        related = related or st.claims >= 3  # (a pair needs three claims from one seat)
        claims += st.claims
    if related and spec.relations:
        if cache.sanbi_claims != claims:
            cache.sanbi = variant.seat_relations(game)
            cache.sanbi_claims = claims
        for a, b in cache.sanbi:
            _relation(spec, game, seat, a, b, spec.f_sanbi, out)


def _public_rows(spec: Spec, game: Any, out: Any) -> None:
    """Face-up indicators, the public wildcard kind, 分张 tiles and horses."""
    pub = spec.public_row0 * K
    for t in game.indicators:
        out[pub + P_INDICATORS * K + t] += 1
    if not game.hidden_indicators:
        extra = game.extra
        jk = extra.get("joker_kind", -1)
        if jk >= 0:
            out[pub + P_JOKER * K + jk] = 1
    for t in game.set_aside:
        out[pub + P_SET_ASIDE * K + t] += 1
    for t in game.horses:
        out[pub + P_HORSES * K + t] += 1


def fill_mask(spec: Spec, game: Any, seat: int, out: Any) -> None:
    """Write ``seat``'s legal-action mask into ``out`` (int8[actions]): 1 on each legal index."""
    for i in range(out.shape[0]):  # (out[:] = 0, as a loop the C compiler makes a memset)
        out[i] = 0
    for a in game.legal_actions(seat):
        out[_index(spec, a)] = 1


def action_indices(spec: Spec, actions: Any, out: Any) -> None:
    """Write each action's index in the table into ``out`` (int64[len(actions)])."""
    for n in range(len(actions)):
        out[n] = _index(spec, actions[n])


def _index(spec: Spec, a: Any) -> int:
    """``a``'s index in the table: found by address, else encoded (and remembered)."""
    i = _known_index(spec, a)
    if i < 0:
        i = spec.table.encode(a)  # (an object met for the first time)
        if len(spec.pinned) < PINNED:
            spec.pinned.append(a)
            _insert(spec, _address(a), i)
    return i  # type: ignore[no-any-return]


def _address(a: Any) -> int:
    """The object's address (its ``id`` in CPython): the key of the shared actions' table
    (the native core's pointer cast: ``id`` is a call through Python even when compiled)."""
    return _core.address(a)


def _slot(key: int, mask: int) -> int:
    """The first slot to probe for ``key`` (objects are 16-byte aligned: the low bits are 0)."""
    return ((key >> 4) ^ (key >> 12)) & mask


def _insert(spec: Spec, key: int, i: int) -> None:
    """Enter the object at address ``key`` (alive as long as ``spec``) with index ``i``."""
    mask = spec.slot_mask
    h = _slot(key, mask)
    while spec.slot_key[h] != 0:
        h = (h + 1) & mask
    spec.slot_key[h] = key
    spec.slot_index[h] = i


def _known_index(spec: Spec, a: Any) -> int:
    """The index of ``a`` if it is one of the objects in the table, else −1 (they stay
    alive while the table does: an address found is the same object)."""
    key = _address(a)
    mask = spec.slot_mask
    h = _slot(key, mask)
    while True:
        k = spec.slot_key[h]
        if k == key:
            return spec.slot_index[h]  # type: ignore[no-any-return]
        if k == 0:
            return -1
        h = (h + 1) & mask


def seat_to_act(game: Any) -> int:
    """The seat to act next (the first in play order of a window), −1 once it is over."""
    phase = game.phase
    if phase == "turn":
        return game.current  # type: ignore[no-any-return]
    if phase == "claim" or phase == "rob" or phase == "fenzhang" or phase == "choose":
        decisions = game.decisions
        for s in game.pending:
            if s not in decisions:
                return s  # type: ignore[no-any-return]
    return -1


def add_payments(game: Any, start: int, rewards: Any) -> int:
    """Add the payments settled since index ``start`` to ``rewards[seat]``; the new count."""
    paid = game._settlement
    end = len(paid)
    for k in range(start, end):
        p = paid[k]
        payer, payee, amount = p[0], p[1], p[2]
        rewards[payer] -= amount
        rewards[payee] += amount
    return end


def first_illegal(actions: Any, mask: Any) -> int:
    """The first ``i`` whose ``actions[i]`` is not set in ``mask[i]`` (−1: all legal)."""
    n_actions = mask.shape[1]
    for i in range(actions.shape[0]):
        a = actions[i]
        if a < 0 or a >= n_actions or not mask[i, a]:
            return i
    return -1


def step_batch(
    spec: Spec,
    tables: list[Any],
    caches: list[Any],
    actions: Any,
    seats: Any,
    obs: Any,
    mask: Any,
    rewards: Any,
) -> list[int]:
    """Game ``i`` of ``tables`` applies ``actions[i]`` (a checked index) for ``seats[i]``;
    the step's payments go to ``rewards[i]``; the next seat, observation (with ``caches[i]``,
    the game's :class:`SeatPlanes`) and mask are written. Returns the indices of the episodes
    that ended (their rows are left for the caller)."""
    decoded = spec.actions
    finished = []
    players = rewards.shape[1]
    for i in range(len(tables)):
        for j in range(players):
            rewards[i, j] = 0
        table = tables[i]
        game = table.game
        game.apply(seats[i], decoded[actions[i]])
        table._paid = add_payments(game, table._paid, rewards[i])
        if game.phase == "over" and table.hand_over():
            finished.append(i)
            continue
        game = table.game
        s = seat_to_act(game)
        seats[i] = s
        encode(spec, caches[i], game, s, obs[i])
        fill_mask(spec, game, s, mask[i])
    return finished

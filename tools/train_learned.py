"""Train the ``learned`` bot's networks (mjcore/bots/learned_weights.npz) with numpy alone.

Run: ``python tools/train_learned.py [--hands 1200] [--epochs 14] [--hidden 48]
[--variants a,b] [--out PATH]`` (docs/bots.md gives the measured time and strength).

Per variant, at its default options:

1. **Data**: ``--hands`` self-play deals of four ``expert`` bots (seeds 0…, the dealer
   rotating); every decision with more than one legal action is a sample: the seat's
   ``mjcore.rl`` observation, the legal actions (indices of the action table) with their
   features (:func:`mjcore.bots.learned.action_features`) and the expert's choice.
2. **Network**: observation → ReLU(H) → ReLU(H) → one logit per action of the table, plus
   each legal action's features weighted by a linear function of the hidden state; softmax
   over the legal actions only. Inputs never non-zero in the data are dropped.
3. **Fit**: cross-entropy to the expert's choice, minibatches of 256, Adam (lr 1e-3, halved
   for the last third), ``--epochs`` passes; 10 % of the deals held out for the accuracy.

The weights are stored as float16 (one file for every variant, well under 1 MB).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from mjcore.bots.expert import ExpertBot
from mjcore.bots.learned import FEATURES, action_features
from mjcore.rl.encoding import Encoder
from mjcore.variants import get_variant, names

F = len(FEATURES)


def collect(variant: str, hands: int, seed0: int = 0) -> dict[str, Any]:
    """Self-play samples of four experts: observations, legal indices, features, choices."""
    enc = Encoder(get_variant(variant))
    table = enc.table
    xs, idxs, feats, ys, deal = [], [], [], [], []
    for h in range(hands):
        game = enc.variant.new_game(seed=seed0 + h, dealer=h % 4)
        bots = [ExpertBot(1000 * h + s) for s in range(4)]
        while not game.is_over:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            action = bots[seat].act_fast(game, seat, legal)
            if len(legal) > 1:
                xs.append(enc.observation(game, seat).astype(np.float16))
                idxs.append([table.encode(a) for a in legal])
                feats.append(action_features(game, seat, legal).astype(np.float16))
                ys.append(legal.index(action))
                deal.append(h)
            game.apply(seat, action)
    width = max(len(i) for i in idxs)
    n = len(xs)
    idx = np.full((n, width), -1, dtype=np.int64)
    phi = np.zeros((n, width, F), dtype=np.float16)
    for k, (i, f) in enumerate(zip(idxs, feats, strict=True)):
        idx[k, : len(i)] = i
        phi[k, : len(i)] = f
    return {
        "x": np.stack(xs),
        "idx": idx,
        "phi": phi,
        "y": np.array(ys),
        "deal": np.array(deal),
        "encoder": enc,
    }


class Net:
    """The network's parameters and one Adam step of the masked softmax loss."""

    def __init__(self, d: int, h: int, a: int, rng: np.random.Generator) -> None:
        f32 = np.float32
        self.p = {
            "w1": (rng.standard_normal((d, h)) * np.sqrt(2 / d)).astype(f32),
            "b1": np.zeros(h, f32),
            "w2": (rng.standard_normal((h, h)) * np.sqrt(2 / h)).astype(f32),
            "b2": np.zeros(h, f32),
            "w3": (rng.standard_normal((h, a)) * 0.01).astype(f32),
            "b3": np.zeros(a, f32),
            "c": (rng.standard_normal((h, F)) * 0.01).astype(f32),
            "cb": np.zeros(F, f32),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def forward(self, x: np.ndarray, idx: np.ndarray, phi: np.ndarray) -> tuple[Any, ...]:
        p = self.p
        h1 = np.maximum(x @ p["w1"] + p["b1"], 0)
        h2 = np.maximum(h1 @ p["w2"] + p["b2"], 0)
        head_all = h2 @ p["w3"] + p["b3"]
        valid = idx >= 0
        safe = np.where(valid, idx, 0)
        head = np.take_along_axis(head_all, safe, axis=1)
        g = h2 @ p["c"] + p["cb"]
        logits = head + np.einsum("blf,bf->bl", phi, g)
        logits = np.where(valid, logits, -np.inf)
        return h1, h2, g, safe, valid, logits

    def step(
        self, x: np.ndarray, idx: np.ndarray, phi: np.ndarray, y: np.ndarray, lr: float
    ) -> float:
        p = self.p
        h1, h2, g, safe, valid, logits = self.forward(x, idx, phi)
        b = len(x)
        z = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(z)
        prob = e / e.sum(axis=1, keepdims=True)
        loss = float(-np.log(prob[np.arange(b), y] + 1e-12).mean())
        d = prob
        d[np.arange(b), y] -= 1
        d = np.where(valid, d, 0) / b
        dhead = np.zeros((b, p["w3"].shape[1]), np.float32)
        np.add.at(dhead, (np.repeat(np.arange(b), idx.shape[1]), safe.ravel()), d.ravel())
        dg = np.einsum("bl,blf->bf", d, phi).astype(np.float32)
        grads = {"w3": h2.T @ dhead, "b3": dhead.sum(0), "c": h2.T @ dg, "cb": dg.sum(0)}
        dh2 = (dhead @ p["w3"].T + dg @ p["c"].T) * (h2 > 0)
        grads["w2"], grads["b2"] = h1.T @ dh2, dh2.sum(0)
        dh1 = (dh2 @ p["w2"].T) * (h1 > 0)
        grads["w1"], grads["b1"] = x.T @ dh1, dh1.sum(0)
        self.t += 1
        for k, gk in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * gk
            self.v[k] = 0.999 * self.v[k] + 0.001 * gk * gk
            mh = self.m[k] / (1 - 0.9**self.t)
            vh = self.v[k] / (1 - 0.999**self.t)
            p[k] -= lr * (mh / (np.sqrt(vh) + 1e-8) + 1e-5 * p[k])
        return loss

    def accuracy(self, x: np.ndarray, idx: np.ndarray, phi: np.ndarray, y: np.ndarray) -> float:
        hits = 0
        for s in range(0, len(x), 2048):
            logits = self.forward(x[s : s + 2048], idx[s : s + 2048], phi[s : s + 2048])[-1]
            hits += int((logits.argmax(axis=1) == y[s : s + 2048]).sum())
        return hits / max(len(x), 1)


def train(variant: str, hands: int, epochs: int, hidden: int, out: dict[str, np.ndarray]) -> None:
    t0 = time.process_time()
    data = collect(variant, hands)
    enc: Encoder = data["encoder"]
    t1 = time.process_time()
    keep = np.flatnonzero((data["x"] != 0).any(axis=0))
    x = data["x"][:, keep].astype(np.float32)
    idx, phi, y = data["idx"], data["phi"].astype(np.float32), data["y"]
    held = data["deal"] >= int(hands * 0.9)
    rng = np.random.default_rng(0)
    net = Net(len(keep), hidden, len(enc.table), rng)
    train_rows = np.flatnonzero(~held)
    steps = 0
    for epoch in range(epochs):
        lr = 1e-3 if epoch < 2 * epochs // 3 else 5e-4
        order = rng.permutation(train_rows)
        losses = []
        for s in range(0, len(order), 256):
            r = order[s : s + 256]
            losses.append(net.step(x[r], idx[r], phi[r], y[r], lr))
            steps += 1
        print(
            f"{variant} epoch {epoch + 1}: loss {np.mean(losses):.3f} "
            f"held-out accuracy {net.accuracy(x[held], idx[held], phi[held], y[held]):.3f}",
            flush=True,
        )
    t2 = time.process_time()
    fields = enc.layout()
    names_, pos = [], []
    for j in keep:
        f = next(f for f in fields if f.offset <= j < f.offset + f.size)
        names_.append(f.name)
        pos.append(j - f.offset)
    acc = net.accuracy(x[held], idx[held], phi[held], y[held])
    pre = f"{variant}/"
    for k, v in net.p.items():
        out[pre + k] = v.astype(np.float16)
    out[pre + "input_fields"] = np.array(names_)
    out[pre + "input_pos"] = np.array(pos, dtype=np.int16)
    out[pre + "actions"] = np.array(enc.table.texts)
    out[pre + "meta"] = np.array(
        [hands, len(x), epochs, hidden, acc, t1 - t0, t2 - t1], dtype=np.float64
    )
    print(
        f"{variant}: {hands} deals, {len(x)} decisions, {len(keep)} inputs, held-out accuracy "
        f"{acc:.3f}; data {t1 - t0:.0f} s, fit {t2 - t1:.0f} s (CPU)",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=1200)
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--hidden", type=int, default=48)
    ap.add_argument("--variants", default=",".join(names()))
    ap.add_argument("--out", default="mjcore/bots/learned_weights.npz")
    args = ap.parse_args()
    out: dict[str, np.ndarray] = {}
    for v in args.variants.split(","):
        train(v, args.hands, args.epochs, args.hidden, out)
        np.savez_compressed(args.out, **out)  # after each variant: progress survives
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

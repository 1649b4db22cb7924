#!/usr/bin/env node
// A small rule-based mjcore agent (the agent protocol, docs/agents.md) in Node.js.
// The same rules as rule_agent.py and rule_agent.c, so all three play the same decisions:
// 1. "hu" when legal; else 2. the first legal "declare"; else 3. the first legal "choose";
// else 4. the legal discard of least use to the hand (4 per other copy held, 3 per
// neighbouring kind held, 1 per kind two apart, the public joker kind 100, a flower -1000;
// ties go to the discard listed first); else 5. "pass"; else 6. the first legal action.
"use strict";
const readline = require("readline");

const SUITS = "mpsz";

function kind(tile) {
  const suit = SUITS.indexOf(tile[1]);
  return suit < 0 ? null : suit * 9 + Number(tile[0]) - 1;
}

function counts(hand) {
  const out = new Array(34).fill(0);
  let digits = [];
  for (const ch of hand) {
    if (ch >= "0" && ch <= "9") {
      digits.push(ch);
    } else {
      for (const d of digits) {
        const k = kind(d + ch);
        if (k !== null) out[k] += 1;
      }
      digits = [];
    }
  }
  return out;
}

function use(k, held, joker) {
  let score = 4 * (held[k] - 1) + (k === joker ? 100 : 0);
  if (k < 27) {
    for (const [d, w] of [[-2, 1], [-1, 3], [1, 3], [2, 1]]) {
      const j = k + d;
      if (j >= 0 && j < 27 && Math.floor(j / 9) === Math.floor(k / 9) && held[j]) score += w;
    }
  }
  return score;
}

function decide(msg) {
  const legal = msg.legal;
  const view = msg.view;
  for (const prefix of ["hu", "declare ", "choose "]) {
    for (const action of legal) {
      if (action === prefix || action.startsWith(prefix)) return action;
    }
  }
  const discards = legal.filter((a) => a.startsWith("discard "));
  if (discards.length) {
    const held = counts(view.seats[view.seat].hand || "");
    const jokerTile = (view.public || {}).joker_kind;
    const joker = typeof jokerTile === "string" ? kind(jokerTile) : null;
    let best = discards[0];
    let bestScore = null;
    for (const action of discards) {
      const k = kind(action.slice(8));
      const score = k === null ? -1000 : use(k, held, joker);
      if (bestScore === null || score < bestScore) {
        best = action;
        bestScore = score;
      }
    }
    return best;
  }
  return legal.includes("pass") ? "pass" : legal[0];
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "hello") {
    process.stdout.write(JSON.stringify({ type: "ready", name: "rule-agent", language: "javascript" }) + "\n");
  } else if (msg.type === "decide") {
    process.stdout.write(decide(msg) + "\n");
  }
});
rl.on("close", () => process.exit(0));

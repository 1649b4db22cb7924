// mjcore table rendering shared by the live table (table.js) and the replay viewer (replay.js):
// words in 中文 and English, tiles, one view (game.view(seat)) drawn into the board.
"use strict";

const $ = (sel) => document.querySelector(sel);

// ---------------------------------------------------------------- words
const WORDS = {
  zh: {
    title: "麻将", lang: "English", notConnected: "未连接", connecting: "连接中…", disconnected: "已断开",
    newRoom: "开房", variant: "玩法", players: "人数", options: "勾选项", seats: "座位",
    claimWindow: "吃碰等待 (毫秒)", idleTimeout: "掉线托管 (秒)", create: "开房入座", joinRoom: "加入房间",
    room: "房间", join: "加入", hand: "局", phase: "阶段", wall: "牌墙", live: "可摸", indicators: "翻牌",
    events: "记录", seat: (s) => `${s}号位`, dealer: "庄", player: "玩家", bot: (k) => `机器人 (${k})`,
    away: "离开 (机器人代打)", score: "分", tiles: (n) => `${n} 张`, won: "胡", declared: "宣告",
    discarded: (s) => `${s}号位打出`, robGang: (s) => `${s}号位补杠`,
    settlement: "结算", exhausted: "荒庄", continues: "(血战继续)", scores: "得分", matchTotal: "总分",
    nextHand: "下一局", payer: "付分", payee: "收分", amount: "分数", reason: "原因",
    handValue: (n) => `牌值 ${n} 分`, fan: (n) => `${n} 番`, from: (s) => `(${s}号位放炮)`,
    seatKinds: { human: "真人", expert: "高手机器人", greedy: "贪心机器人", random: "随机机器人", mc: "搜索机器人", learned: "学习机器人" }, hidden: "未翻",
    yes: "是", no: "否", replay: "回放", replayTitle: "牌局回放", load: "载入", paste: "粘贴牌局 JSON",
    file: "牌局文件", view: "视角", openHands: "全部明牌", first: "开始", prev: "上一步",
    next: "下一步", last: "结束", step: (i, n) => `第 ${i} / ${n} 步`, deal: "发牌",
    byAction: (s, a) => `${s}号位: ${a}`, noBundle: "请载入一局牌", welcome: (s) => `${s}号位`,
    phases: { turn: "出牌", claim: "吃碰杠", choose: "选择", waiting: "等待", over: "结束" },
    turnOf: "轮到", flowers: "花", yourName: "昵称", namePlaceholder: "你的名字", you: "你", tapToDiscard: "轮到你: 点一张牌打出",
    concealed: (n) => `${n} 张暗牌`, formula: "算法", bots: "机器人", mine: "我",
    combine: { base: (v) => `${v} 分`, add: (v) => `+${v}`, mul: (v) => `×${v}`, fan: (v) => `${v} 番` },
    jokerMark: { joker_kind: "混", bao: "宝" }, roomNotJoined: (r) => `房间 ${r}: 输入昵称后加入`,
  },
  en: {
    title: "mahjong", lang: "中文", notConnected: "not connected", connecting: "connecting…",
    disconnected: "disconnected", newRoom: "New room", variant: "Variant", players: "Players",
    options: "Options", seats: "Seats", claimWindow: "Claim window (ms)", idleTimeout: "Idle timeout (s)",
    create: "Create and sit", joinRoom: "Join a room", room: "Room", join: "Join", hand: "Hand",
    phase: "Phase", wall: "Wall", live: "live", indicators: "Indicators", events: "Events",
    seat: (s) => `Seat ${s}`, dealer: "dealer", player: "player", bot: (k) => `bot (${k})`,
    away: "away (a bot plays)", score: "score", tiles: (n) => `${n} tile${n === 1 ? "" : "s"}`,
    won: "Won", declared: "declared", discarded: (s) => `Seat ${s} discarded`,
    robGang: (s) => `Seat ${s} adds a kong with`, settlement: "Settlement",
    exhausted: "exhausted wall", continues: "(the hand continues)", scores: "Scores",
    matchTotal: "match", nextHand: "Next hand", payer: "payer", payee: "payee", amount: "amount",
    reason: "reason", handValue: (n) => `hand value ${n} point${n === 1 ? "" : "s"}`,
    fan: (n) => `${n} fan`, from: (s) => `(discarded by seat ${s})`,
    seatKinds: { human: "human", expert: "expert bot", greedy: "greedy bot", random: "random bot", mc: "search bot", learned: "learned bot" }, hidden: "face down",
    yes: "yes", no: "no", replay: "Replay", replayTitle: "Game replay", load: "Load",
    paste: "Paste a saved game (JSON)", file: "Saved game file", view: "View as",
    openHands: "all hands open", first: "First", prev: "Back", next: "Forward", last: "Last",
    step: (i, n) => `step ${i} of ${n}`, deal: "the deal", byAction: (s, a) => `Seat ${s}: ${a}`,
    noBundle: "Load a game to replay", welcome: (s) => `seat ${s}`,
    phases: { turn: "turn", claim: "claims", choose: "choosing", waiting: "waiting", over: "over" },
    turnOf: "Turn:", flowers: "flowers", yourName: "Your name", namePlaceholder: "your name", you: "you", tapToDiscard: "Your turn: tap a tile to discard",
    concealed: (n) => `${n} concealed`, formula: "calculation", bots: "Bots", mine: "me",
    combine: { base: (v) => `${v} pt${v === 1 ? "" : "s"}`, add: (v) => `+${v}`, mul: (v) => `×${v}`, fan: (v) => `${v} fan` },
    jokerMark: { joker_kind: "J", bao: "W" }, roomNotJoined: (r) => `Room ${r}: enter your name and join`,
  },
};
// Vocabulary of actions, melds, declarations, choices, public state and pay reasons: [中文, English].
const VOCAB = {
  action: { discard: ["打", "Discard"], gang: ["杠", "Kong"], chi: ["吃", "Chow"], peng: ["碰", "Pung"],
    hu: ["胡", "Win"], pass: ["过", "Pass"], declare: ["宣告", "Declare"], choose: ["选", "Choose"],
    niu: ["扭", "Niu"] },
  meld: { chi: ["吃", "chow"], peng: ["碰", "pung"], zhigang: ["明杠", "open kong"],
    bugang: ["补杠", "added kong"], angang: ["暗杠", "concealed kong"], niu: ["扭", "niu"] },
  how: { self_draw: ["自摸", "self-drawn"], discard: ["点炮", "on a discard"],
    rob_gang: ["抢杠", "robbing a kong"], fenzhang: ["分张", "last-round draw"] },
  declare: { baoting: ["报听", "ready (hidden)"], liangting: ["亮听", "ready, waits shown"],
    minglou: ["明搂", "ready, hand shown"], kouting: ["扣听", "ready (kouting)"],
    cunpai: ["存牌", "keep the bao"], gangkai: ["杠开", "win on the kong"] },
  choice: { pao: ["跑", "pao stake"], piao: ["飘", "piao"], changpao: ["长跑", "standing pao"],
    zeng: ["增", "zeng stake"], zuoma: ["坐马", "seat horse bet"] },
  public: { joker_kind: ["混", "joker"], joker_indicator: ["翻混牌", "joker indicator"],
    bao: ["宝", "bao (wild)"], ting: ["听牌", "ready hands"], hua: ["花", "flowers shown"],
    sanbi: ["三比", "sanbi pairs"] },
  reason: { pao: ["跑", "pao"], piao: ["飘", "piao"], gang: ["杠分", "kong bonus"], cap: ["封顶", "cap"],
    chajiao: ["查叫", "not-ready penalty"], zhigang: ["明杠", "open kong"], bugang: ["补杠", "added kong"],
    angang: ["暗杠", "concealed kong"], quanbao: ["全包", "pays for all"], peisha: ["陪杀", "partner pays"],
    sanbi: ["三比", "sanbi"], huazhu: ["花猪", "flower pig"], minglou: ["明搂", "hand shown"] },
  event: { deal: ["发牌", "deal"], indicator: ["翻牌", "indicator"], bao: ["宝", "bao"],
    flower: ["补花", "flower"], choose: ["选择", "choice"], draw: ["摸牌", "draw"],
    discard: ["打牌", "discard"], claim: ["吃碰", "claim"], gang: ["杠", "kong"],
    bugang_declared: ["补杠", "adds a kong"], declare: ["宣告", "declares"], niu: ["扭牌", "niu"],
    fenzhang: ["分张", "last-round draw"], hu: ["胡", "win"], pay: ["付分", "pays"],
    liability: ["包赔", "liability"], sealed: ["封牌", "sealed"], horses: ["买马", "horses"],
    end: ["结束", "end"] },
};

let LANG = "zh";
try { LANG = localStorage.getItem("mjcore:lang") === "en" ? "en" : "zh"; } catch { /* file:// */ }
function setLang(l) {
  LANG = l === "en" ? "en" : "zh";
  try { localStorage.setItem("mjcore:lang", LANG); } catch { /* no storage */ }
  document.documentElement.lang = LANG === "en" ? "en" : "zh";
}
function t(key, ...args) {
  const w = WORDS[LANG][key];
  return typeof w === "function" ? w(...args) : (w === undefined ? key : w);
}
function word(group, key) {
  const entry = (VOCAB[group] || {})[key];
  if (!entry) return key;
  return LANG === "en" ? entry[1] : entry[0];
}
const capital = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);
// Variants in English: the region's name and what it is known for (the 中文 title beside it).
const VARIANT_EN = {
  xuezhan_kaxinwu: "Sichuan Bloody Battle, Middle Five", lipu: "Lipu (Guangxi)", susong: "Susong (Anhui)",
  qingdao: "Qingdao (Shandong)", rongcheng: "Rongcheng (Shandong)",
};
function variantLabel(v) {
  if (!v) return "";
  return LANG === "en" ? `${VARIANT_EN[v.name] || capital(v.name.replace(/_/g, " "))} · ${v.title}` : v.title;
}
// Static labels of a page: <el data-i18n="key">.
function translatePage() {
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  const btn = document.querySelector("#lang");
  if (btn) btn.textContent = t("lang");
}
function langButton(onChange) {
  const btn = document.querySelector("#lang");
  if (!btn) return;
  btn.onclick = () => { setLang(LANG === "en" ? "zh" : "en"); translatePage(); onChange(); };
  setLang(LANG);
  translatePage();
}

// ---------------------------------------------------------------- patterns (the registry)
let PATTERNS = {}; // variant -> {id: {name, value, kind}}
function addPatterns(variant, list) {
  const map = (PATTERNS[variant] = PATTERNS[variant] || {});
  for (const p of list || []) map[p.id] = p;
}
function patternLabel(variant, id, name) {
  const p = (PATTERNS[variant] || {})[id];
  const zh = name || (p && p.name);
  if (LANG === "en") return (p && p.english) || capital(String(id).replace(/_/g, " "));
  return zh || id;
}
function reasonLabel(variant, reason) {
  // "pihu+pao", "zhigang", "chajiao", "xxx+cap", "pinghu+horses2" -> words
  return String(reason).split("+").map((part) => {
    const m = part.match(/^horses(\d+)$/);
    if (m) return LANG === "en" ? `horses ×${Number(m[1]) + 1}` : `马 ×${Number(m[1]) + 1}`;
    if ((PATTERNS[variant] || {})[part]) return patternLabel(variant, part);
    return word("reason", part);
  }).join(" + ");
}

// ---------------------------------------------------------------- tiles
const SUITS = { m: "万", p: "筒", s: "条" };
const NUMERALS = "一二三四五六七八九";
const HONORS = ["东", "南", "西", "北", "白", "发", "中"];
const FLOWERS = ["春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"];
const HONORS_EN = ["E", "S", "W", "N", "Wh", "G", "R"];
const HONOR_NAMES_EN = ["East", "South", "West", "North", "White", "Green", "Red"];
const SUIT_NAMES_EN = { m: "characters", p: "dots", s: "bamboo" };

function kindToNotation(kind) {
  if (kind === null || kind === undefined || kind < 0) return "?";
  if (kind < 27) return `${(kind % 9) + 1}${"mps"[Math.floor(kind / 9)]}`;
  if (kind < 34) return `${kind - 26}z`;
  return `${kind - 33}f`;
}
// [big, small] text of a tile face in the current language.
function tileFace(tile) {
  const n = Number(tile[0]), suit = tile[1];
  if (LANG === "en") {
    if (SUITS[suit]) return [String(n), suit];
    if (suit === "z") return [HONORS_EN[n - 1] || "?", ""];
    if (suit === "f") return [`F${n}`, ""];
    return ["?", ""];
  }
  if (SUITS[suit]) return [NUMERALS[n - 1], SUITS[suit]];
  if (suit === "z") return [HONORS[n - 1], ""];
  if (suit === "f") return [FLOWERS[n - 1], "花"];
  return ["?", ""];
}
// A tile's name as text: 一万 / 1m (English: notation; honours by name).
function tileName(tile) {
  if (!tile || tile === "?") return "?";
  if (LANG === "en") {
    const n = Number(tile[0]);
    if (tile[1] === "z") return HONOR_NAMES_EN[n - 1] || tile;
    return tile;
  }
  return tileFace(tile).join("");
}
function tileTitle(tile) {
  const n = Number(tile[0]), suit = tile[1];
  if (SUITS[suit]) return `${tile} · ${NUMERALS[n - 1]}${SUITS[suit]} · ${n} ${SUIT_NAMES_EN[suit]}`;
  if (suit === "z") return `${tile} · ${HONORS[n - 1]} · ${HONOR_NAMES_EN[n - 1]}`;
  return `${tile} · ${FLOWERS[n - 1] || ""}`;
}
function parseTiles(text) {
  // "123m55z" -> ["1m","2m","3m","5z","5z"]; a list of those; a tile kind number (old wire form)
  if (typeof text === "number") return [kindToNotation(text)];
  if (text === null || text === undefined || text === "") return [];
  if (Array.isArray(text)) return text.flatMap((x) => (x === null ? ["?"] : parseTiles(x)));
  const out = [];
  let digits = "";
  for (const ch of String(text)) {
    if (ch >= "0" && ch <= "9") digits += ch;
    else if ("mpszf".includes(ch)) { for (const d of digits) out.push(d + ch); digits = ""; }
    else if (ch === "?") out.push("?");
  }
  return out;
}
const tilesText = (x) => parseTiles(x).map(tileName).join(LANG === "en" ? " " : "");
let jokerTiles = new Map(); // tile -> the public key that makes it wild (joker_kind 混, bao 宝)
// English corner index of the honours (the characters' English faces carry their numeral).
function tileIndex(tile) {
  return tile[1] === "z" ? HONORS_EN[Number(tile[0]) - 1] || "" : "";
}
function tileEl(tile, extra) {
  const el = document.createElement("span");
  el.className = "tile";
  el.setAttribute("role", "img");
  if (extra) el.classList.add(...extra.split(" ").filter(Boolean));
  if (tile === "?" || !/^[1-9][mpszf]$/.test(tile)) {
    el.classList.add("back");
    el.title = t("hidden");
    el.setAttribute("aria-label", t("hidden"));
    el.append(tileSvg("?"));
    return el;
  }
  el.classList.add(tile[1]);
  el.dataset.tile = tile;
  el.title = tileTitle(tile);
  el.setAttribute("aria-label", tileName(tile));
  el.append(tileSvg(tile, LANG));
  const index = LANG === "en" ? tileIndex(tile) : "";
  if (index) { const b = document.createElement("b"); b.className = "idx"; b.textContent = index; el.append(b); }
  const wild = jokerTiles.get(tile);
  if (wild) {
    el.classList.add("joker");
    const mark = document.createElement("b");
    mark.className = "wild";
    mark.textContent = t("jokerMark")[wild] || "★";
    el.append(mark);
    el.title += ` · ${word("public", wild)}`;
  }
  return el;
}
// Face-down tiles of another seat's concealed hand, with their count.
function backsEl(n) {
  const box = document.createElement("span");
  box.className = "backs";
  for (let i = 0; i < n; i++) box.appendChild(tileEl("?"));
  const count = document.createElement("b");
  count.className = "count";
  count.textContent = `×${n}`;
  box.append(count);
  box.title = t("concealed", n);
  return box;
}
function tilesEl(text, cls) {
  const box = document.createElement("span");
  if (cls) box.className = cls;
  for (const tile of parseTiles(text)) box.appendChild(tileEl(tile));
  return box;
}
const looksLikeTiles = (v) => typeof v === "string" && /^(\d+[mpszf])+$/.test(v);
const isTileValue = (v) => typeof v === "number" || looksLikeTiles(v);

// ---------------------------------------------------------------- actions, choices
function choiceLabel(name, value) {
  return `${word("choice", name)} ${value}`;
}
function actionLabel(a) {
  const [kind, ...rest] = a.split(" ");
  if (kind === "choose" && rest.length === 2) {
    return LANG === "en" ? `${capital(word("choice", rest[0]))}: ${rest[1]}` : `选${word("choice", rest[0])} ${rest[1]}`;
  }
  if (kind === "declare" && rest.length) {
    const d = word("declare", rest[0]);
    return LANG === "en" ? `Declare ${d}` : d;
  }
  const w = word("action", kind);
  if (rest.length && parseTiles(rest.join("")).length) return `${w} ${tilesText(rest.join(""))}`;
  return rest.length ? `${w} ${rest.join(" ")}` : w;
}

// ---------------------------------------------------------------- public state
function publicValue(key, x) {
  // an element showing one public-state value in words
  const box = document.createElement("span");
  if (isTileValue(x)) { box.appendChild(tilesEl(x)); return box; }
  if (x === "hidden") { box.append(t("hidden")); return box; }
  if (key === "ting" && Array.isArray(x)) {
    x.forEach((entry, s) => {
      if (!entry) return;
      const item = document.createElement("span");
      item.className = "ting-item";
      item.append(`${t("seat", s)} ${word("declare", entry.declared)} `);
      if (entry.hand) item.appendChild(tilesEl(entry.hand));
      if (entry.waits) item.appendChild(tilesEl(entry.waits));
      box.appendChild(item);
    });
    return box;
  }
  if (key === "hua" && Array.isArray(x)) { box.append(x.map((n, s) => `${t("seat", s)} ${n}`).join(" · ")); return box; }
  if (key === "sanbi" && Array.isArray(x)) {
    box.append(x.length ? x.map((p) => p.map((s) => t("seat", s)).join("–")).join(", ") : "—");
    return box;
  }
  if (typeof x === "boolean") box.append(x ? t("yes") : t("no"));
  else if (x === null || x === undefined) box.append("—");
  else if (typeof x === "object") box.append(Array.isArray(x) ? x.map((v) => (isTileValue(v) ? tilesText(v) : String(v))).join(", ") : Object.entries(x).map(([k, v]) => `${word("public", k)} ${v}`).join(", "));
  else box.append(String(x));
  return box;
}

// ---------------------------------------------------------------- the board
function seatPositions(n, me) {
  const names = { 2: ["bottom", "top"], 3: ["bottom", "right", "left"], 4: ["bottom", "right", "top", "left"] }[n];
  const out = {};
  for (let i = 0; i < n; i++) out[(me + i) % n] = names[i];
  return out;
}
// ctx: {variant (info or null), hand (number), seats (server seat info list or null),
//       events (this hand's events), match ({scores}|null), onAct (fn|null), onNext (fn|null)}
function renderView(v, ctx) {
  const variant = ctx.variant;
  $("#variant-title").textContent = variant ? variantLabel(variant) : v.variant;
  $("#hand-no").textContent = `${ctx.hand + 1}`;
  $("#phase").textContent = (t("phases")[v.phase]) || v.phase;
  $("#phase").dataset.phase = v.phase;
  $("#wall").textContent = `${v.wall_remaining} (${t("live")} ${v.wall_live})`;
  jokerTiles = new Map(Object.entries(v.public || {})
    .filter(([k, x]) => /^(joker|bao|hun|wildcard)s?(_kinds?)?$/i.test(k) && isTileValue(x))
    .flatMap(([k, x]) => parseTiles(x).map((tile) => [tile, k])));
  const ind = $("#indicators");
  ind.innerHTML = "";
  if (v.indicators.length) {
    const label = document.createElement("span");
    label.textContent = `${t("indicators")} `;
    ind.append(label, tilesEl(v.indicators));
  }
  const pub = $("#public");
  pub.innerHTML = "";
  for (const [k, x] of Object.entries(v.public || {})) {
    const item = document.createElement("span");
    item.className = "public-item";
    item.dataset.key = k;
    item.append(`${word("public", k)} `, publicValue(k, x));
    pub.appendChild(item);
  }
  const me = v.seat >= 0 ? v.seat : 0;
  const pos = seatPositions(v.seats.length, me);
  for (const p of ["top", "left", "right", "bottom"]) {
    const el = $(`#seat-${p}`);
    el.innerHTML = "";
    el.hidden = !Object.values(pos).includes(p);
  }
  for (const s of v.seats) renderSeat(s, $(`#seat-${pos[s.seat]}`), v, ctx);
  renderClaim(v, ctx);
  renderHand(v, ctx);
  renderActions(v, ctx);
  renderSettlement(v, ctx);
  renderLog(ctx, v.variant);
}
function seatName(s, v, ctx) {
  // the seat's player: a chosen display name (always as text, never markup), "you", or the bot
  const info = (ctx.seats || [])[s.seat] || null;
  if (!info) return s.seat === v.seat ? t("you") : "";
  if (info.kind === "human") return info.name || (s.seat === v.seat ? t("you") : t("player"));
  return t("seatKinds")[info.kind] || t("bot", info.kind);
}
function renderSeat(s, box, v, ctx) {
  const info = (ctx.seats || [])[s.seat] || null;
  box.classList.toggle("current", v.current === s.seat && v.phase === "turn");
  box.classList.toggle("me", s.seat === v.seat);
  box.dataset.seat = s.seat;
  const head = el("div", "name");
  head.append(el("span", "seat-no", t("seat", s.seat)));
  const who = seatName(s, v, ctx);
  if (who) head.append(el("span", "player", who));
  if (s.seat === v.dealer) head.append(el("span", "dealer", t("dealer")));
  if (info && info.away) head.append(el("span", "away", t("away")));
  head.append(el("span", "score", `${t("score")} ${v.scores[s.seat]}`),
    el("span", "count", t("tiles", s.concealed_count)));
  box.appendChild(head);
  const row = (label, ...content) => {
    const r = el("div", `row ${label}`, ...content);
    box.appendChild(r);
    return r;
  };
  if (s.hand !== undefined && s.seat !== v.seat) {
    const h = tilesEl(s.hand);
    if (s.drawn) { const i = [...h.children].findIndex((x) => x.dataset.tile === s.drawn); if (i >= 0) h.children[i].remove(); }
    if (s.drawn) h.appendChild(tileEl(s.drawn, "drawn"));
    row("shown-hand", h);
  } else if (s.seat !== v.seat && s.concealed_count > 0) {
    row("concealed", backsEl(s.concealed_count));
  }
  if (s.melds.length) {
    const melds = document.createElement("span");
    for (const m of s.melds) {
      const [kind, tiles] = m.split(" ");
      const meld = tiles === "?" ? el("span", "meld", ...[0, 1, 2, 3].map(() => tileEl("?"))) : tilesEl(tiles, "meld");
      meld.classList.add("meld");
      meld.title = word("meld", kind);
      meld.dataset.kind = kind;
      meld.prepend(el("i", null, word("meld", kind)));
      melds.appendChild(meld);
    }
    row("melds", melds);
  }
  if (s.flowers) row("flowers", el("span", "tag", t("flowers")), tilesEl(s.flowers));
  if (s.won_tiles.length) row("won", el("span", "tag", t("won")), tilesEl(s.won_tiles));
  const extra = [];
  if (s.declared) extra.push(LANG === "en" ? `${t("declared")} ${word("declare", s.declared)}` : word("declare", s.declared));
  for (const [k, x] of Object.entries(s.choices || {})) extra.push(choiceLabel(k, x));
  if (extra.length) row("choices", extra.join(" · "));
  const river = tilesEl(s.discards);
  if (v.claim && v.claim.from === s.seat && river.lastChild) river.lastChild.classList.add("last");
  row("discards", river);
}
function renderClaim(v, ctx) {
  // the table's centre: the tile on offer to claim, else the wall left and whose turn it is
  const box = $("#claim");
  box.innerHTML = "";
  if (v.claim) {
    box.append(el("span", null, v.claim.kind === "rob" ? t("robGang", v.claim.from) : t("discarded", v.claim.from)),
      tilesEl(v.claim.tile, "claim-tile"));
    return;
  }
  box.append(el("span", "wall-left", String(v.wall_remaining)), el("span", "wall-label", t("wall")));
  if (v.phase === "turn" && v.current >= 0) {
    const who = seatName(v.seats[v.current], v, ctx);
    box.append(el("span", "turn", `${t("turnOf")} ${t("seat", v.current)}${who ? ` · ${who}` : ""}`));
  }
}
function renderHand(v, ctx) {
  const box = $("#my-hand");
  box.innerHTML = "";
  if (v.seat < 0) return;
  const me = v.seats[v.seat];
  const tiles = parseTiles(me.hand);
  if (me.drawn) { const i = tiles.lastIndexOf(me.drawn); if (i >= 0) tiles.splice(i, 1); }
  const legal = new Set(v.legal_actions);
  const add = (tile, cls) => {
    const tileBox = tileEl(tile, cls);
    const action = `discard ${tile}`;
    if (ctx.onAct && legal.has(action)) { // a tile is its own discard button (tap, or Tab + Enter)
      tileBox.classList.add("clickable");
      tileBox.setAttribute("role", "button");
      tileBox.tabIndex = 0;
      tileBox.dataset.action = action;
      tileBox.onclick = () => ctx.onAct(action);
      tileBox.onkeydown = (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); ctx.onAct(action); } };
    }
    box.appendChild(tileBox);
  };
  tiles.forEach((tile) => add(tile, ""));
  if (me.drawn) add(me.drawn, "drawn");
  box.classList.toggle("to-discard", !!ctx.onAct && v.legal_actions.some((a) => a.startsWith("discard ")));
}
function renderActions(v, ctx) {
  const box = $("#actions");
  if (!box) return;
  box.innerHTML = "";
  if (!ctx.onAct) return;
  // discards are the hand's own tiles (renderHand); the rest are buttons
  const rest = v.legal_actions.filter((a) => !a.startsWith("discard "));
  if (rest.length < v.legal_actions.length) box.append(el("span", "hint", t("tapToDiscard")));
  for (const a of rest) {
    const b = document.createElement("button");
    b.className = "act";
    b.dataset.action = a;
    b.dataset.kind = a.split(" ")[0];
    b.textContent = actionLabel(a);
    b.title = a;
    b.onclick = () => ctx.onAct(a);
    box.appendChild(b);
  }
}
function el(tag, cls, ...children) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  e.append(...children.filter((c) => c !== null && c !== undefined));
  return e;
}
// A pattern's value as people read it: "2 番" / "×2" / "+1" / "1 分"; nothing for 荔浦's columns.
function patternValue(variant, p) {
  const entry = (PATTERNS[variant] || {})[p.id];
  const kind = entry ? entry.kind : p.combine;
  if (kind === "column") return "";
  const f = t("combine")[kind === "points" ? "base" : kind] || t("combine")[p.combine];
  return f ? f(p.value) : String(p.value);
}
// A win's formula for people: none when it says nothing ("1 = 1"); pattern names and the
// formula's few words in the page's language.
function formulaText(variant, formula) {
  if (!formula) return "";
  // "… 小胡 1 = 1" says its value twice: drop the "= 1" (not after an operator: "1 × 1 = 1")
  const tail = formula.match(/(^|[^×+*^)/\-\s]\s+)(\d+) = (\d+)$/);
  let text = tail && tail[2] === tail[3] ? formula.slice(0, -` = ${tail[3]}`.length) : formula;
  if (/^\s*\d+\s*$/.test(text)) return ""; // a bare number: the hand value says it already
  if (LANG !== "en") return text;
  const entries = Object.values(PATTERNS[variant] || {}).sort((a, b) => b.name.length - a.name.length);
  for (const p of entries) if (p.english) text = text.split(p.name).join(p.english);
  text = text.replace(/大大胡/g, "double big win").replace(/大胡/g, "big win").replace(/小胡/g, "small win")
    .replace(/(\d+)花/g, "$1 flowers").replace(/^T\[/, "table[");
  return /[\u3400-\u9fff]/.test(text) ? "" : text;
}
function renderSettlement(v, ctx) {
  const box = $("#settlement");
  const events = ctx.events || [];
  const wins = events.filter((e) => e.type === "hu");
  const end = events.find((e) => e.type === "end");
  box.hidden = !end && !wins.length;
  box.innerHTML = "";
  if (box.hidden) return;
  const variant = v.variant;
  box.append(el("h3", null, `${t("settlement")}${end ? (end.exhausted ? ` — ${t("exhausted")}` : "") : ` ${t("continues")}`}`));
  for (const w of wins) {
    const how = `${word("how", w.how)}${w.how === "discard" && w.from_seat >= 0 ? ` ${t("from", w.from_seat)}` : ""}`;
    const winner = seatName(v.seats[w.seat] || { seat: w.seat }, v, ctx);
    const head = el("span", null, `${t("seat", w.seat)}${winner ? ` ${winner}` : ""} ${t("won")} `);
    const rest = el("span", null, ` ${how} · ${w.fan ? `${t("fan", w.fan)} · ` : ""}${t("handValue", w.points)}`);
    const list = el("ul", "patterns");
    for (const p of w.patterns) {
      const value = patternValue(variant, p);
      const li = el("li", "pattern", el("span", "pname", patternLabel(variant, p.id, p.name)), value ? el("small", "pvalue", value) : null);
      li.dataset.id = p.id;
      const entry = (PATTERNS[variant] || {})[p.id];
      if (entry) li.title = LANG === "en" ? `${entry.name} · ${entry.id}` : `${entry.english || ""} · ${entry.id}`;
      list.appendChild(li);
    }
    const formula = formulaText(variant, w.formula);
    box.append(el("div", "win", el("div", "win-head", head, tilesEl(w.tile, "won-tile"), rest), el("div", "win-hand", w.hand ? tilesEl(w.hand) : null), list,
      formula ? el("div", "formula", `${t("formula")}: ${formula}`) : null));
  }
  const pays = events.filter((e) => e.type === "pay");
  if (pays.length) {
    const table = el("table", "pays");
    table.append(el("tr", null, ...[t("payer"), t("payee"), t("amount"), t("reason")].map((h) => el("th", null, h))));
    for (const p of pays) {
      table.append(el("tr", null, el("td", null, t("seat", p.payer)), el("td", null, t("seat", p.payee)),
        el("td", null, String(p.amount)), el("td", "reason", reasonLabel(variant, p.reason))));
    }
    box.append(table);
  }
  if (end) {
    let text = `${t("scores")}: ${end.scores.map((s, i) => `${t("seat", i)} ${s > 0 ? "+" : ""}${s}`).join(", ")}`;
    if (ctx.match) text += ` · ${t("matchTotal")}: ${ctx.match.scores.join(", ")}`;
    box.append(el("p", "scores", text));
    if (ctx.onNext) {
      const next = el("button", null, t("nextHand"));
      next.id = "next-hand";
      next.onclick = () => { next.disabled = true; ctx.onNext(); };
      box.append(next);
    }
  }
}
function eventText(e, variant) {
  const S = (s) => t("seat", s);
  const en = LANG === "en";
  switch (e.type) {
    case "deal": return `${word("event", "deal")} · ${t("dealer")} ${S(e.dealer)}`;
    case "indicator":
      if (e.hidden && !e.tile) return `${word("event", "indicator")} · ${t("hidden")}`;
      return `${word("event", "indicator")} ${tilesText(e.tile)}${e.joker !== null && e.joker !== undefined ? ` · ${word("public", "joker_kind")} ${tilesText(e.joker)}` : ""}`;
    case "bao": return `${word("public", "bao")} ${tilesText(e.tile)}`;
    case "flower": return `${S(e.seat)} ${word("event", "flower")} ${tilesText(e.flower)}${e.tile !== null && e.tile !== undefined ? ` → ${tilesText(e.tile)}` : ""}`;
    case "choose": return `${S(e.seat)} ${choiceLabel(e.name, e.value)}`;
    case "draw": return `${S(e.seat)} ${word("event", "draw")}${e.tile !== null && e.tile !== undefined ? ` ${tilesText(e.tile)}` : ""}`;
    case "discard": return `${S(e.seat)} ${word("action", "discard")} ${tilesText(e.tile)}`;
    case "claim": return `${S(e.seat)} ${word("meld", e.kind)} ${tilesText(e.tiles)} (${S(e.from_seat)})`;
    case "gang": return `${S(e.seat)} ${word("meld", e.meld)}${e.tile !== null && e.tile !== undefined ? ` ${tilesText(e.tile)}` : ""}`;
    case "bugang_declared": return `${S(e.seat)} ${word("event", "bugang_declared")} ${tilesText(e.tile)}`;
    case "declare": return `${S(e.seat)} ${word("declare", e.name)}`;
    case "niu": return `${S(e.seat)} ${word("event", "niu")} ${tilesText(e.tiles)}`;
    case "fenzhang": return `${S(e.seat)} ${word("event", "fenzhang")}${e.tile !== null && e.tile !== undefined ? ` ${tilesText(e.tile)}` : ""}`;
    case "hu": return `${S(e.seat)} ${t("won")} ${tilesText(e.tile)} · ${word("how", e.how)} · ${t("handValue", e.points)}`;
    case "pay": return en ? `${S(e.payer)} pays ${S(e.payee)} ${e.amount} (${reasonLabel(variant, e.reason)})`
      : `${S(e.payer)} 付 ${S(e.payee)} ${e.amount} 分 (${reasonLabel(variant, e.reason)})`;
    case "liability": return `${word("event", "liability")} ${(e.seats || []).map(S).join(" → ")}`;
    case "sealed": return `${S(e.seat)} ${word("event", "sealed")}`;
    case "horses": return `${word("event", "horses")} ${tilesText(e.tiles)}`;
    case "end": return `${word("event", "end")} · ${e.scores.map((s, i) => `${S(i)} ${s}`).join(", ")}`;
    default: return word("event", e.type);
  }
}
function renderLog(ctx, variant) {
  const log = $("#log");
  if (!log) return;
  log.innerHTML = "";

  for (const e of (ctx.events || []).slice(-80)) {
    const li = document.createElement("li");
    li.value = e.seq + 1;
    li.textContent = eventText(e, variant);
    log.appendChild(li);
  }
  log.scrollTop = log.scrollHeight;
}

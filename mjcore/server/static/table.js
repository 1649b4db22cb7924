// mjcore browser table: plain JS, no build step. Talks the protocol of docs/protocol.md.
"use strict";

const $ = (sel) => document.querySelector(sel);
const SUITS = { m: "万", p: "筒", s: "条" };
const NUMERALS = "一二三四五六七八九";
const HONORS = ["东", "南", "西", "北", "白", "发", "中"];
const FLOWERS = ["春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"];
const ACTION_WORDS = { discard: "打", gang: "杠", chi: "吃", peng: "碰", hu: "胡", pass: "过",
  declare: "宣告", choose: "选", niu: "扭" };
const HOW_WORDS = { self_draw: "自摸", discard: "点炮", rob_gang: "抢杠", fenzhang: "分张" };
const MELD_WORDS = { chi: "吃", peng: "碰", zhigang: "明杠", bugang: "补杠", angang: "暗杠" };

// ---------------------------------------------------------------- tiles
function kindToNotation(kind) {
  if (kind === null || kind === undefined || kind < 0) return "?";
  if (kind < 27) return `${(kind % 9) + 1}${"mps"[Math.floor(kind / 9)]}`;
  if (kind < 34) return `${kind - 26}z`;
  return `${kind - 33}f`;
}
function tileName(t) {
  const n = Number(t[0]), suit = t[1];
  if (SUITS[suit]) return [NUMERALS[n - 1], SUITS[suit]];
  if (suit === "z") return [HONORS[n - 1], ""];
  if (suit === "f") return [FLOWERS[n - 1], "花"];
  return ["?", ""];
}
function parseTiles(text) {
  // "123m55z" -> ["1m","2m","3m","5z","5z"]; a tile kind number -> its notation
  if (typeof text === "number") return [kindToNotation(text)];
  if (!text) return [];
  if (Array.isArray(text)) return text.flatMap(parseTiles);
  const out = [];
  let digits = "";
  for (const ch of String(text)) {
    if (ch >= "0" && ch <= "9") digits += ch;
    else if ("mpszf".includes(ch)) { for (const d of digits) out.push(d + ch); digits = ""; }
    else if (ch === "?") out.push("?");
  }
  return out;
}
function tileEl(t, extra) {
  const el = document.createElement("span");
  el.className = "tile";
  if (t === "?") { el.classList.add("hidden"); el.textContent = "?"; return el; }
  const [main, sub] = tileName(t);
  el.classList.add(t[1]);
  el.dataset.tile = t;
  el.title = t;
  el.innerHTML = `${main}<small>${sub || t}</small>`;
  if (extra) el.classList.add(...extra.split(" ").filter(Boolean));
  if (jokerTiles.has(t)) el.classList.add("joker");
  return el;
}
function tilesEl(text, cls) {
  const box = document.createElement("span");
  if (cls) box.className = cls;
  for (const t of parseTiles(text)) box.appendChild(tileEl(t));
  return box;
}
const looksLikeTiles = (v) => typeof v === "string" && /^(\d+[mpszf])+$/.test(v);

function actionLabel(a) {
  const [kind, ...rest] = a.split(" ");
  const word = ACTION_WORDS[kind] || kind;
  if ((kind === "discard" || kind === "gang" || kind === "chi" || kind === "niu") && rest.length) {
    return `${word} ${parseTiles(rest.join("")).map((t) => tileName(t).join("")).join("")}`;
  }
  return rest.length ? `${word} ${rest.join(" ")}` : word;
}

// ---------------------------------------------------------------- session
let variants = [];
let session = null; // {room, seat, token}
let ws = null, cursor = null, lastState = null, msgId = 0, retry = 0, closedOnPurpose = false;
let eventsByHand = {};
let jokerTiles = new Set();

function saveSession(s) { localStorage.setItem(`mjcore:${s.room}`, JSON.stringify(s)); }
function loadSession(room) {
  try { return JSON.parse(localStorage.getItem(`mjcore:${room}`)); } catch { return null; }
}
async function api(path, body) {
  const resp = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await resp.json();
  if (!resp.ok) throw new Error(data.error || resp.statusText);
  return data;
}
function setStatus(text, state) { const s = $("#status"); s.textContent = text; s.dataset.state = state; }

// ---------------------------------------------------------------- lobby
function currentVariant() { return variants.find((v) => v.name === $("#variant").value); }
function renderLobbyForm() {
  const v = currentVariant();
  const players = $("#players");
  players.innerHTML = "";
  for (let n = v.max_players; n >= v.min_players; n--) players.add(new Option(n, n));
  const opts = $("#options");
  opts.querySelectorAll("label").forEach((el) => el.remove());
  for (const [name, o] of Object.entries(v.options)) {
    const label = document.createElement("label");
    label.title = o.doc || "";
    let input;
    if (typeof o.default === "boolean") {
      input = document.createElement("input"); input.type = "checkbox"; input.checked = o.default;
    } else if (o.choices) {
      input = document.createElement("select");
      for (const c of o.choices) input.add(new Option(c, JSON.stringify(c), false, c === o.default));
    } else {
      input = document.createElement("input"); input.value = JSON.stringify(o.default);
    }
    input.dataset.option = name;
    label.append(`${name} `, input);
    opts.appendChild(label);
  }
  renderSeatInputs();
}
function renderSeatInputs() {
  const box = $("#seats");
  box.querySelectorAll("label").forEach((el) => el.remove());
  const n = Number($("#players").value);
  for (let s = 0; s < n; s++) {
    const sel = document.createElement("select");
    for (const k of ["human", "greedy", "random"]) sel.add(new Option(k, k, false, s === 0 ? k === "human" : k === "greedy"));
    sel.dataset.seat = s;
    const label = document.createElement("label");
    label.append(`seat ${s} `, sel);
    box.appendChild(label);
  }
}
function readOptions() {
  const out = {};
  for (const el of document.querySelectorAll("[data-option]")) {
    out[el.dataset.option] = el.type === "checkbox" ? el.checked : JSON.parse(el.value);
  }
  return out;
}
async function createRoom(ev) {
  ev.preventDefault();
  $("#lobby-error").textContent = "";
  try {
    const seats = [...document.querySelectorAll("[data-seat]")].map((el) => el.value);
    const room = await api("/api/rooms", {
      variant: $("#variant").value, players: Number($("#players").value), options: readOptions(),
      seats, claim_window_ms: Number($("#claim-window").value),
      idle_timeout_s: Number($("#idle-timeout").value),
    });
    await joinRoom(room.room, seats.indexOf("human"));
  } catch (e) { $("#lobby-error").textContent = e.message; }
}
async function joinRoom(room, seat) {
  const joined = await api(`/api/rooms/${room}/join`, seat === undefined ? {} : { seat });
  session = { room, seat: joined.seat, token: joined.token };
  saveSession(session);
  location.hash = `room=${room}`;
  openTable();
}

// ---------------------------------------------------------------- connection
function openTable() {
  $("#lobby").hidden = true;
  $("#table").hidden = false;
  $("#room-id").textContent = session.room;
  connect();
}
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${session.room}`);
  setStatus("connecting…", "idle");
  ws.onopen = () => {
    retry = 0;
    const hello = { type: "hello", token: session.token };
    if (cursor) Object.assign(hello, cursor); // resume after the last event we saw
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (e) => onMessage(JSON.parse(e.data));
  ws.onclose = () => {
    setStatus("disconnected", "closed");
    if (closedOnPurpose) return;
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 300 * 2 ** retry);
  };
}
function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}
function onMessage(msg) {
  switch (msg.type) {
    case "welcome": setStatus(`seat ${msg.seat} 座`, "open"); break;
    case "state": onState(msg); break;
    case "error":
      $("#table-error").textContent = `${msg.code}: ${msg.message}`;
      if (msg.code === "not_authenticated" || msg.code === "no_room") closedOnPurpose = true;
      enableActions();
      break;
    case "closing": closedOnPurpose = msg.reason.startsWith("replaced"); setStatus(msg.reason, "closed"); break;
    default: break;
  }
}
function onState(msg) {
  const list = (eventsByHand[msg.hand] = eventsByHand[msg.hand] || []);
  for (const ev of msg.events) if (!list.some((x) => x.seq === ev.seq)) list.push(ev);
  cursor = { hand: msg.hand, since: msg.next };
  lastState = msg;
  render(msg);
}

// ---------------------------------------------------------------- rendering
function seatPositions(n, me) {
  const names = { 2: ["bottom", "top"], 3: ["bottom", "right", "left"], 4: ["bottom", "right", "top", "left"] }[n];
  const out = {};
  for (let i = 0; i < n; i++) out[(me + i) % n] = names[i];
  return out;
}
function render(msg) {
  const v = msg.view;
  const variant = variants.find((x) => x.name === v.variant);
  $("#variant-title").textContent = variant ? `${variant.title} (${variant.name})` : v.variant;
  $("#hand-no").textContent = `${msg.hand + 1}`;
  $("#phase").textContent = v.phase;
  $("#wall").textContent = `${v.wall_remaining} (live ${v.wall_live})`;
  jokerTiles = new Set(Object.entries(v.public || {}).filter(([k, x]) => /^(joker|bao|hun|wildcard)s?(_kinds?)?$/i.test(k) && looksLikeTiles(x)).flatMap(([, x]) => parseTiles(x)));
  const ind = $("#indicators");
  ind.innerHTML = "";
  if (v.indicators.length) ind.append("Indicators 翻牌 ", tilesEl(v.indicators));
  const pub = $("#public");
  pub.innerHTML = "";
  for (const [k, x] of Object.entries(v.public || {})) {
    const item = document.createElement("span");
    item.className = "public-item";
    item.dataset.key = k;
    item.append(`${k}: `);
    if (looksLikeTiles(x)) item.appendChild(tilesEl(x));
    else item.append(typeof x === "string" ? x : JSON.stringify(x));
    pub.appendChild(item);
  }
  const pos = seatPositions(v.seats.length, v.seat);
  for (const p of ["top", "left", "right", "bottom"]) $(`#seat-${p}`).innerHTML = "";
  for (const s of v.seats) renderSeat(s, $(`#seat-${pos[s.seat]}`), v, msg);
  renderClaim(v);
  renderHand(v);
  renderActions(v);
  renderSettlement(msg);
  renderLog(msg.hand);
}
function renderSeat(s, box, v, msg) {
  const info = msg.seats[s.seat] || {};
  box.classList.toggle("current", v.current === s.seat && v.phase === "turn");
  box.dataset.seat = s.seat;
  const head = document.createElement("div");
  head.className = "name";
  const who = info.kind === "human" ? (info.name || "player") : `bot (${info.kind})`;
  head.textContent = `Seat ${s.seat}${s.seat === v.dealer ? " 庄" : ""} · ${who}${info.away ? " · away (bot playing)" : ""}` +
    ` · score ${v.scores[s.seat]} · ${s.concealed_count} tiles`;
  box.appendChild(head);
  const row = (label, content) => {
    const r = document.createElement("div");
    r.className = `row ${label}`;
    r.append(content);
    box.appendChild(r);
    return r;
  };
  if (s.melds.length) {
    const melds = document.createElement("span");
    for (const m of s.melds) {
      const [kind, tiles] = m.split(" ");
      const el = tilesEl(tiles, "meld");
      el.title = kind;
      el.prepend(MELD_WORDS[kind] || kind);
      melds.appendChild(el);
    }
    row("melds", melds);
  }
  if (s.flowers) row("flowers", tilesEl(s.flowers));
  if (s.won_tiles.length) { const w = tilesEl(s.won_tiles); w.prepend("胡 "); row("won", w); }
  const extra = [];
  if (s.declared) extra.push(`declared ${s.declared}`);
  for (const [k, x] of Object.entries(s.choices || {})) extra.push(`${k}=${x}`);
  if (extra.length) row("choices", extra.join(" · "));
  if (s.hand !== undefined && s.seat !== v.seat) { const h = tilesEl(s.hand); row("shown-hand", h); }
  row("discards", tilesEl(s.discards));
}
function renderClaim(v) {
  const box = $("#claim");
  box.innerHTML = "";
  if (v.claim) box.append(`Seat ${v.claim.from} ${v.claim.kind === "rob" ? "adds a gang with" : "discarded"} `, tilesEl(v.claim.tile));
}
function renderHand(v) {
  const box = $("#my-hand");
  box.innerHTML = "";
  const me = v.seats[v.seat];
  const tiles = parseTiles(me.hand);
  if (me.drawn) { const i = tiles.lastIndexOf(me.drawn); if (i >= 0) tiles.splice(i, 1); }
  const legal = new Set(v.legal_actions);
  const add = (t, cls) => {
    const el = tileEl(t, cls);
    if (legal.has(`discard ${t}`)) {
      el.classList.add("clickable");
      el.onclick = () => act(`discard ${t}`);
    }
    box.appendChild(el);
  };
  tiles.forEach((t) => add(t, ""));
  if (me.drawn) add(me.drawn, "drawn");
}
function renderActions(v) {
  const box = $("#actions");
  box.innerHTML = "";
  for (const a of v.legal_actions) {
    const b = document.createElement("button");
    b.className = "act";
    b.dataset.action = a;
    b.dataset.kind = a.split(" ")[0];
    b.textContent = actionLabel(a);
    b.title = a;
    b.onclick = () => act(a);
    box.appendChild(b);
  }
}
function act(a) {
  $("#table-error").textContent = "";
  document.querySelectorAll("#actions button").forEach((b) => (b.disabled = true));
  send({ type: "act", action: a, id: ++msgId });
}
function enableActions() { document.querySelectorAll("#actions button").forEach((b) => (b.disabled = false)); }

function renderSettlement(msg) {
  const box = $("#settlement");
  const events = eventsByHand[msg.hand] || [];
  const wins = events.filter((e) => e.type === "hu");
  const end = events.find((e) => e.type === "end");
  box.hidden = !end && !wins.length;
  if (box.hidden) { box.innerHTML = ""; return; }
  let html = `<h3>Settlement 结算${end ? (end.exhausted ? " — 荒庄 (exhausted wall)" : "") : " (hand continues)"}</h3>`;
  for (const w of wins) {
    const pats = w.patterns.map((p) => `<li class="pattern" data-id="${p.id}">${p.name} <small>(${p.id}, ${p.combine} ${p.value})</small></li>`).join("");
    html += `<div class="win">Seat ${w.seat} 胡 ${tileName(parseTiles(w.tile)[0]).join("")} · ${HOW_WORDS[w.how] || w.how}` +
      `${w.how === "discard" ? ` (from seat ${w.from_seat})` : ""} · ${w.fan ? `${w.fan} 番 · ` : ""}${w.points} points` +
      `<div class="win-hand"></div><ul>${pats}</ul><small>${w.formula || ""}</small></div>`;
  }
  const pays = events.filter((e) => e.type === "pay");
  if (pays.length) {
    html += "<table><tr><th>payer</th><th>payee</th><th>amount</th><th>reason</th></tr>" +
      pays.map((p) => `<tr><td>${p.payer}</td><td>${p.payee}</td><td>${p.amount}</td><td>${p.reason}</td></tr>`).join("") + "</table>";
  }
  if (end) {
    html += `<p>Scores 得分: ${end.scores.map((s, i) => `seat ${i}: ${s}`).join(", ")}` +
      ` · match 总分: ${msg.match.scores.join(", ")}</p><button id="next-hand">Next hand 下一局</button>`;
  }
  box.innerHTML = html;
  box.querySelectorAll(".win-hand").forEach((el, i) => { if (wins[i].hand) el.appendChild(tilesEl(wins[i].hand)); });
  const next = $("#next-hand");
  if (next) next.onclick = () => { next.disabled = true; send({ type: "next", hand: msg.hand }); };
}
function eventText(e) {
  const parts = [];
  for (const [k, x] of Object.entries(e)) {
    if (k === "type" || k === "seq" || k === "patterns" || x === null) continue;
    const isTile = (k === "tile" || k === "flower") && typeof x === "number";
    parts.push(`${k}=${isTile ? kindToNotation(x) : (typeof x === "object" ? JSON.stringify(x) : x)}`);
  }
  return `${e.seq}. ${e.type} ${parts.join(" ")}`;
}
function renderLog(hand) {
  const log = $("#log");
  log.innerHTML = "";
  for (const e of (eventsByHand[hand] || []).slice(-80)) {
    const li = document.createElement("li");
    li.textContent = eventText(e);
    log.appendChild(li);
  }
}

// ---------------------------------------------------------------- start
async function start() {
  variants = await api("/api/variants");
  for (const v of variants) $("#variant").add(new Option(`${v.title} (${v.name})`, v.name));
  $("#variant").onchange = renderLobbyForm;
  $("#players").onchange = renderSeatInputs;
  renderLobbyForm();
  $("#create-form").onsubmit = createRoom;
  $("#join-form").onsubmit = async (ev) => {
    ev.preventDefault();
    try { await joinRoom($("#join-room").value.trim()); } catch (e) { $("#lobby-error").textContent = e.message; }
  };
  const m = location.hash.match(/room=([0-9a-f]+)/);
  if (m) {
    const saved = loadSession(m[1]);
    if (saved) { session = saved; openTable(); } else $("#join-room").value = m[1];
  }
}
start();

// mjcore browser table: plain JS, no build step. Talks the protocol of docs/protocol.md;
// drawing and words are in render.js (shared with the replay viewer).
"use strict";

// ---------------------------------------------------------------- session
let variants = [];
let bots = { names: ["expert", "greedy", "random", "mc"], default: "expert" }; // GET /api/bots
let session = null; // {room, seat, token}
let ws = null, cursor = null, lastState = null, msgId = 0, retry = 0, closedOnPurpose = false;
let eventsByHand = {};
let status = ["notConnected", "idle", []];

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
function setStatus(key, state, ...args) {
  status = [key, state, args];
  const s = $("#status");
  s.textContent = WORDS.zh[key] !== undefined ? t(key, ...args) : key;
  s.dataset.state = state;
}

// ---------------------------------------------------------------- lobby
// Every room option and its values in 中文 and English: [中文, English]. An option the table
// does not know yet falls back to its doc's 中文 head (zh) or its name (en).
const OPTION_WORDS = {
  three_suits: ["三堆牌 (加万字)", "Three suits (characters added)"],
  must_gang: ["有杠必杠", "Must kong when possible"],
  gang_chain: ["杠上杠计分", "Kong chain scoring"],
  kaxinwu_single_wait_only: ["卡心五只算独听", "Closed Wait on Five only as the single wait"],
  creator_is_dealer: ["开房者为庄", "Room creator deals first"],
  auto_play: ["自动摸打", "Auto draw and discard"],
  hun: ["带混", "Jokers (wild tiles)"],
  honor_cycle: ["字牌上滚", "Honor order for the joker"],
  niupai: ["扭牌", "Exposed honor sets"],
  niupai_forces_zimo: ["扭牌只能自摸", "Exposed honor sets win by self-draw only"],
  daipiao: ["带飘", "Float (no tiles kept back)"],
  multi_win: ["一炮多响", "Several winners on one discard"],
  no_honors: ["不带风", "No honor tiles"],
  no_chi: ["不让吃牌", "No chows"],
  pingdu8: ["平度8张", "Eight tiles of one suit to win"],
  self_draw_only: ["自摸胡", "Self-draw wins only"],
  pair258: ["258将", "Pair must be 2, 5 or 8"],
  laogang: ["捞杠 (先碰后杠)", "Added kongs (after a pung)"],
  no_chi_adjacent: ["吃后不打相同及相邻", "After a chow, no discard of its tile's kin"],
  zuoma: ["坐马", "Seat horse bets"],
  zhuama: ["抓马", "Horses drawn after a win"],
  luanzhang: ["乱掌", "Any pair (no 2-5-8 pair needed)"],
  no_huangzhuang: ["不荒庄", "No drawn hands (nothing kept back)"],
  peng_only: ["只碰不吃", "Pungs only, no chows"],
  cunpai_mode: ["存牌方式", "Wild replacement tile, if not chosen"],
  chuzeng: ["出增分", "Zeng stake per payer"],
  piaohua: ["飘花", "Float flowers"],
  flower_bonus_stack: ["花奖叠加", "Flower bonuses stack"],
};
const VALUE_WORDS = {
  gang_chain: { flat: ["每杠固定翻倍", "flat (×2 each)"], compound: ["逐杠累加翻倍", "compound (doubling)"] },
  honor_cycle: { split: ["风牌箭牌分开", "winds and dragons apart"], single7: ["七字一圈", "one cycle of seven"] },
  cunpai_mode: { best: ["自动取最优", "the better one"], cunpai: ["存牌", "keep the wild"], gangkai: ["杠开", "win on the kong"] },
  zhuama: { 0: ["不抓马", "none"], 2: ["抓 2 匹", "2 horses"], 4: ["抓 4 匹", "4 horses"], 6: ["抓 6 匹", "6 horses"] },
  chuzeng: { 0: ["不出增", "none"], 1: ["1 分", "1 point"], 2: ["2 分", "2 points"], 5: ["5 分", "5 points"] },
};
function optionLabel(name, o) {
  const known = OPTION_WORDS[name];
  if (known) return LANG === "en" ? known[1] : known[0];
  const zh = (o.doc || "").split(/[:：(（]/)[0].trim();
  return LANG === "en" || !zh ? capital(name.replace(/_/g, " ")) : zh;
}
function valueLabel(name, value) {
  const known = (VALUE_WORDS[name] || {})[value];
  if (known) return LANG === "en" ? known[1] : known[0];
  return String(value);
}
function currentVariant() { return variants.find((v) => v.name === $("#variant").value); }
function renderVariantList() {
  const sel = $("#variant");
  const keep = sel.value;
  sel.innerHTML = "";
  for (const v of variants) sel.add(new Option(variantLabel(v), v.name));
  if (keep) sel.value = keep;
}
function renderLobbyForm() {
  const v = currentVariant();
  const players = $("#players");
  const keep = players.value;
  players.innerHTML = "";
  for (let n = v.max_players; n >= v.min_players; n--) players.add(new Option(n, n));
  if (keep && Number(keep) >= v.min_players && Number(keep) <= v.max_players) players.value = keep;
  const opts = $("#options");
  opts.querySelectorAll("label").forEach((el) => el.remove());
  for (const [name, o] of Object.entries(v.options)) {
    const label = document.createElement("label");
    label.title = o.doc || "";
    label.dataset.name = name;
    let input;
    if (typeof o.default === "boolean") {
      input = document.createElement("input"); input.type = "checkbox"; input.checked = o.default;
    } else if (o.choices) {
      input = document.createElement("select");
      for (const c of o.choices) input.add(new Option(valueLabel(name, c), JSON.stringify(c), false, c === o.default));
    } else {
      input = document.createElement("input"); input.value = JSON.stringify(o.default);
    }
    input.dataset.option = name;
    label.append(el("span", "opt-name", optionLabel(name, o)), input);
    opts.appendChild(label);
  }
  renderSeatInputs();
}
function renderSeatInputs() {
  const box = $("#seats");
  const old = [...box.querySelectorAll("[data-seat]")].map((el) => el.value);
  box.querySelectorAll("label").forEach((el) => el.remove());
  const n = Number($("#players").value);
  for (let s = 0; s < n; s++) {
    const sel = document.createElement("select");
    for (const k of ["human", ...bots.names]) {
      const chosen = old[s] ? old[s] === k : (s === 0 ? k === "human" : k === bots.default);
      sel.add(new Option(t("seatKinds")[k], k, false, chosen));
    }
    sel.dataset.seat = s;
    const label = document.createElement("label");
    label.append(el("span", "opt-name", t("seat", s)), sel);
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
function playerName() {
  const name = $("#player-name").value.trim();
  try { localStorage.setItem("mjcore:name", name); } catch { /* no storage */ }
  return name;
}
async function joinRoom(room, seat) {
  const body = seat === undefined ? {} : { seat };
  const name = playerName();
  if (name) body.name = name;
  const joined = await api(`/api/rooms/${room}/join`, body);
  session = { room, seat: joined.seat, token: joined.token };
  saveSession(session);
  if (location.hash !== `#room=${room}`) location.hash = `room=${room}`;
  openTable();
}

// ---------------------------------------------------------------- connection
function openTable() {
  $("#lobby").hidden = true;
  $("#table").hidden = false;
  $("#room-id").textContent = session.room;
  closedOnPurpose = false;
  connect();
}
function closeTable() {
  // leave the current room's connection (another room's link was opened in this tab)
  closedOnPurpose = true;
  if (ws) { ws.onclose = null; ws.close(); }
  ws = null; session = null; cursor = null; lastState = null; eventsByHand = {};
  clearTable();
}
// Nothing of the room left stays on the table (its title, seats, hand) until the next
// room's first view arrives.
function clearTable() {
  for (const id of ["variant-title", "hand-no", "phase", "wall", "indicators", "public",
    "seat-top", "seat-left", "claim", "seat-right", "seat-bottom", "my-hand", "actions",
    "table-error", "log"]) $(`#${id}`).replaceChildren();
  $("#settlement").hidden = true;
  $("#replay-link").hidden = true;
}
// #room=ID: this browser's seat in that room (if it has one), else the join form filled in.
async function openFromHash() {
  const m = location.hash.match(/room=([0-9A-Za-z_-]+)/);
  const room = m ? m[1] : null;
  if (session && session.room === room) return;
  if (session) closeTable();
  if (!room) { $("#table").hidden = true; $("#lobby").hidden = false; setStatus("notConnected", "idle"); return; }
  const saved = loadSession(room);
  if (saved) { session = saved; openTable(); return; }
  $("#table").hidden = true;
  $("#lobby").hidden = false;
  $("#join-room").value = room;
  $("#lobby-error").textContent = t("roomNotJoined", room);
  $("#player-name").focus();
}
function connect() {
  if (!session) return; // the tab left the room (another room's link) before a retry
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${session.room}`);
  setStatus("connecting", "idle");
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
    const room = session && session.room;
    setTimeout(() => { if (session && session.room === room && !closedOnPurpose) connect(); }, 300 * 2 ** retry);
  };
}
function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}
function onMessage(msg) {
  switch (msg.type) {
    case "welcome": setStatus("welcome", "open", msg.seat); break;
    case "state": onState(msg); break;
    case "error":
      $("#table-error").textContent = msg.message;
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
function render(msg) {
  const variant = variants.find((x) => x.name === msg.view.variant) || null;
  renderView(msg.view, {
    variant, hand: msg.hand, seats: msg.seats, events: eventsByHand[msg.hand] || [],
    match: msg.match, onAct: act, onNext: () => send({ type: "next", hand: msg.hand }),
  });
  const link = $("#replay-link");
  const over = (eventsByHand[msg.hand] || []).some((e) => e.type === "end");
  link.hidden = !over;
  link.href = `/replay?room=${session.room}&hand=${msg.hand}`;
}
function act(a) {
  $("#table-error").textContent = "";
  document.querySelectorAll("#actions button").forEach((b) => (b.disabled = true));
  document.querySelectorAll("#my-hand .tile.clickable").forEach((tile) => { // one discard per turn
    tile.classList.remove("clickable"); tile.onclick = null; tile.onkeydown = null;
  });
  send({ type: "act", action: a, id: ++msgId });
}
function enableActions() { if (lastState) render(lastState); }

// ---------------------------------------------------------------- start
function relabel() {
  renderVariantList();
  renderLobbyForm();
  if (status) setStatus(status[0], status[1], ...status[2]);
  if (lastState) render(lastState);
}
async function start() {
  variants = await api("/api/variants");
  try { bots = await api("/api/bots"); } catch { /* an older server: the default list */ }
  for (const v of variants) addPatterns(v.name, v.patterns);
  langButton(relabel);
  renderVariantList();
  $("#variant").onchange = renderLobbyForm;
  $("#players").onchange = renderSeatInputs;
  renderLobbyForm();
  setStatus("notConnected", "idle");
  $("#create-form").onsubmit = createRoom;
  $("#join-form").onsubmit = async (ev) => {
    ev.preventDefault();
    try { await joinRoom($("#join-room").value.trim()); } catch (e) { $("#lobby-error").textContent = e.message; }
  };
  try { $("#player-name").value = localStorage.getItem("mjcore:name") || ""; } catch { /* no storage */ }
  window.addEventListener("hashchange", () => { openFromHash(); });
  await openFromHash();
}
start();

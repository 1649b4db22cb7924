// mjcore browser table: plain JS, no build step. Talks the protocol of docs/protocol.md;
// drawing and words are in render.js (shared with the replay viewer).
"use strict";

// ---------------------------------------------------------------- session
let variants = [];
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
    // the option's doc starts with its 中文 name ("自摸胡: …"); English: the option's name
    const zh = (o.doc || "").split(/[:：(（]/)[0].trim();
    const text = LANG === "en" || !zh || zh.length > 12 ? name.replace(/_/g, " ") : zh;
    label.append(`${text} `, input);
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
    for (const k of ["human", "expert", "greedy", "random"]) {
      const chosen = old[s] ? old[s] === k : (s === 0 ? k === "human" : k === "expert");
      sel.add(new Option(t("seatKinds")[k], k, false, chosen));
    }
    sel.dataset.seat = s;
    const label = document.createElement("label");
    label.append(`${t("seat", s)} `, sel);
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
    setTimeout(connect, 300 * 2 ** retry);
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
  send({ type: "act", action: a, id: ++msgId });
}
function enableActions() { document.querySelectorAll("#actions button").forEach((b) => (b.disabled = false)); }

// ---------------------------------------------------------------- start
function relabel() {
  renderVariantList();
  renderLobbyForm();
  if (status) setStatus(status[0], status[1], ...status[2]);
  if (lastState) render(lastState);
}
async function start() {
  variants = await api("/api/variants");
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
  const m = location.hash.match(/room=([0-9a-f]+)/);
  if (m) {
    const saved = loadSession(m[1]);
    if (saved) { session = saved; openTable(); } else $("#join-room").value = m[1];
  }
}
start();

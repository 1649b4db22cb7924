// mjcore replay viewer: steps through a replay bundle (mjcore/replay.py build_replay) with the
// table's own drawing (render.js). The bundle comes inline (mjcore replay --html), from a room's
// finished hand (?room=ID&hand=N, with this browser's seat token) or a pasted/uploaded saved game.
"use strict";

let bundle = null, stepNo = 0, viewAs = "open", handNo = 0;
let roomSeats = null; // a room's seats (their players' display names) for a room's hand

function setStatus(text, state) { const s = $("#status"); s.textContent = text; s.dataset.state = state; }
async function bundleOf(saved) {
  const resp = await fetch("/api/replay", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: typeof saved === "string" ? saved : JSON.stringify(saved),
  });
  const data = await resp.json();
  if (!resp.ok) throw new Error(data.error || resp.statusText);
  return data;
}
function seatOption(s) {
  const name = roomSeats && roomSeats[s] && roomSeats[s].kind === "human" ? roomSeats[s].name : "";
  return name ? `${t("seat", s)} · ${name}` : t("seat", s);
}
function show(b, hand, fromRoom = false) {
  bundle = b;
  handNo = hand || 0;
  addPatterns(b.variant, b.patterns);
  stepNo = 0;
  $("#loader").hidden = !!window.MJCORE_BUNDLE || fromRoom;
  $("#table").hidden = false;
  const sel = $("#view-as");
  const keep = sel.value || "open";
  sel.innerHTML = "";
  sel.add(new Option(t("openHands"), "open"));
  for (let s = 0; s < b.players; s++) sel.add(new Option(seatOption(s), String(s)));
  sel.value = [...sel.options].some((o) => o.value === keep) ? keep : "open";
  viewAs = sel.value;
  draw();
}
function draw() {
  if (!bundle) return;
  const step = bundle.steps[stepNo];
  const seat = viewAs === "open" ? -1 : Number(viewAs);
  const view = seat < 0 ? step.open_view : step.views[seat];
  const all = seat < 0 ? bundle.events : bundle.seat_events[seat];
  const variant = { name: bundle.variant, title: bundle.title };
  renderView(view, { variant, hand: handNo, seats: roomSeats, events: all.filter((e) => e.seq < step.events),
    match: null, onAct: null, onNext: null });
  const n = bundle.steps.length - 1;
  $("#step-label").textContent = t("step", stepNo, n);
  $("#step-action").textContent = step.action ? t("byAction", step.action.seat, actionLabel(step.action.action)) : t("deal");
  $("#first").disabled = $("#prev").disabled = stepNo === 0;
  $("#next").disabled = $("#last").disabled = stepNo === n;
  document.body.dataset.step = String(stepNo);
}
function go(i) {
  if (!bundle) return;
  stepNo = Math.max(0, Math.min(bundle.steps.length - 1, i));
  draw();
}
async function loadSaved(text) {
  $("#load-error").textContent = "";
  try { show(await bundleOf(text), 0); } catch (e) { $("#load-error").textContent = e.message; }
}
async function loadRoomHand(room, hand) {
  // The seat token goes only to this room's hand: nothing but an id and a number in the path.
  if (!/^[0-9a-f]{16}$/.test(room) || !/^[0-9]{1,18}$/.test(hand)) throw new Error("bad room or hand in the address");
  let token = null;
  try { token = (JSON.parse(localStorage.getItem(`mjcore:${room}`)) || {}).token; } catch { /* none */ }
  const resp = await fetch(`/api/rooms/${room}/hands/${hand}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const data = await resp.json();
  if (!resp.ok) throw new Error(data.error || resp.statusText);
  try { // the players' names: the room's public summary
    const summary = await fetch(`/api/rooms/${room}`);
    if (summary.ok) roomSeats = (await summary.json()).seats || null;
  } catch { /* names are a nicety */ }
  show(await bundleOf(data), Number(hand), true);
}
function relabel() {
  if (!bundle) return;
  const sel = $("#view-as");
  sel.options[0].text = t("openHands");
  for (let s = 0; s < bundle.players; s++) sel.options[s + 1].text = seatOption(s);
  draw();
}
function start() {
  langButton(relabel);
  $("#first").onclick = () => go(0);
  $("#prev").onclick = () => go(stepNo - 1);
  $("#next").onclick = () => go(stepNo + 1);
  $("#last").onclick = () => go(Infinity);
  $("#view-as").onchange = (e) => { viewAs = e.target.value; draw(); };
  document.addEventListener("keydown", (e) => {
    if (e.target && (e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT" || e.target.tagName === "SELECT")) return;
    if (e.key === "ArrowRight") { go(stepNo + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { go(stepNo - 1); e.preventDefault(); }
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(Infinity);
  });
  $("#load").onclick = () => loadSaved($("#saved-json").value);
  $("#saved-file").onchange = async (e) => {
    const file = e.target.files[0];
    if (file) loadSaved(await file.text());
  };
  if (window.MJCORE_BUNDLE) { show(window.MJCORE_BUNDLE, window.MJCORE_BUNDLE.hand || 0); return; }
  const q = new URLSearchParams(location.search);
  if (q.get("room") && q.get("hand") !== null) {
    loadRoomHand(q.get("room"), q.get("hand")).catch((e) => { $("#load-error").textContent = e.message; });
  }
}
start();

// perfectplay's page: pick a game, play it on an Image AutoGUI board (003 section 5.3) with every
// move button marked with its value and remoteness, a computer that plays perfectly, and a value
// history. Everything about a game comes from the API (/api/...): a new game adds a theme, not
// code here. This file holds the page's state, the answers asked for, play and the controls;
// choose.js the home page, the choice of game and variant and a variant's solve; board.js the
// drawing. They are loaded board.js, choose.js, then this file, which starts the page.
"use strict";

// Value colors, chosen apart from every piece color of the games' themes (the browser test checks
// the distance); the letter on each button tells the values apart without color.
const COLORS = { win: "#16a34a", tie: "#c7b300", draw: "#7c3aed", lose: "#be185d", unsolved: "#06b6d4" };
const LETTERS = { win: "W", tie: "T", draw: "D", lose: "L", unsolved: "?" };
// The most the computer takes over a move whose values a live search has not found yet: then it
// plays the best move proven so far, else one not known to lose.
const COMPUTER_SECONDS = 10;
const SVG = "http://www.w3.org/2000/svg";
// Value-remoteness order, worst to best (003 section 2.1): lose fast < lose slow < draw <
// tie slow < tie fast < win slow < win fast.
function rank(value, remoteness) {
  const r = remoteness ?? 0;
  switch (value) {
    case "lose": return r;
    // Not known yet: below every draw, tie and win known, above every loss known.
    case "unsolved": return 5000;
    case "draw": return 10000;
    case "tie": return 30000 - r;
    default: return 50000 - r;
  }
}

const $ = (id) => document.getElementById(id);
const state = {
  game: null, variant: null, info: null, theme: null, solveTimer: null,
  // Positions from the start, the moves between them (with who made each), and where we are.
  history: [], played: [], index: 0,
  cache: new Map(), parts: [], timer: null,
  // Positions of a game searched live whose search is under way: their moves, values unknown.
  pending: new Map(),
  // Counts the calls of show(): an answer that comes after a later call is not drawn.
  generation: 0,
  // Whether the last move was made from the keyboard: focus then goes to the next buttons.
  keyboard: false,
  // When the computer began to think over the position at `index` (a live search under way).
  thinking: null,
  // What the computer said of its last move played before its values were known.
  computerNote: "",
};

// A value not known yet: the variant is not solved, or a live search is under way.
const unknown = (pos) => pos.positionValue === "unsolved";
// A sentence begins with a capital: "Tigers win", "White should lose in 3".
const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);
// "tigers win", "X wins": a player's name that is a plural takes the plural verb.
const verb = (name, singular, plural) => (/[^s]s$/.test(name) ? plural : singular);

async function api(path) {
  const r = await fetch("/api/" + path);
  const body = await r.json();
  // A live search the server has no room for yet: 503 with the moves and when to ask again.
  if (r.status === 503 && body.busy) return body;
  if (!r.ok) throw new Error(body.error + (body.expected ? "\nexpected: " + body.expected : ""));
  return body;
}

function showError(e) { $("error").textContent = e ? String(e.message ?? e) : ""; }

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// Thrown while a position is searched live when the page has moved on to another one.
class MovedOn extends Error {}

// A position's answer. A game searched live (Quarto) may answer "202 searching" with the
// search's progress and the moves, values unknown (or "503 busy" with them, when the server has
// no room for another search yet): the page shows them (`onPending`, the first time), so play
// goes on, and asks again (after the server's `retryAfter` when busy) while show() call
// `generation` is the latest.
async function position(p, onPending, generation) {
  const key = state.game + "/" + state.variant + "/" + p;
  let drawn = false;
  while (!state.cache.has(key)) {
    const body = await api(`${state.game}/${state.variant}/positions/?p=${encodeURIComponent(p)}`);
    if (!body.searching && !body.busy) {
      state.cache.set(key, body);
      state.pending.delete(key);
      break;
    }
    if (generation !== state.generation) throw new MovedOn();
    state.pending.set(key, body);
    if (!drawn && onPending) onPending(body);
    else if (state.parts.length === 0) {
      const computer = isComputer(body) && wholeMoves(body).length > 0;
      $("prediction").textContent = computer ? computerWords(body) : words(body);
    }
    drawn = true;
    await new Promise((r) => setTimeout(r, body.busy ? 1000 * body.busy.retryAfter : 300));
  }
  return state.cache.get(key);
}

const cached = (p) => state.cache.get(`${state.game}/${state.variant}/${p}`)
  ?? state.pending.get(`${state.game}/${state.variant}/${p}`);

// Whole moves (with their parts); `moves` holds GamesmanUni's flattened parts for multipart games.
const wholeMoves = (pos) => pos.fullMoves ?? pos.moves;
const firstToMove = (pos) => pos.autoguiPosition.startsWith("1");
const moverName = (pos) => state.info.players[firstToMove(pos) ? 0 : 1];
const isComputer = (pos) => $(firstToMove(pos) ? "p1" : "p2").value === "computer";
// A move's remoteness counted from the position it is played in (the child's, plus this move).
const moveRemoteness = (m) => (m.moveValue === "draw" || m.remoteness == null || m.remoteness < 0 ? null : m.remoteness + 1);

async function show() {
  clearTimeout(state.timer);
  // Positions of the history chart are all in the cache (or searched still): they were shown
  // before.
  const generation = ++state.generation;
  let pos;
  try {
    for (const p of state.history.slice(0, state.index)) {
      if (!cached(p)) await position(p, null, generation);
    }
    pos = await position(state.history[state.index], render, generation);
  } catch (e) {
    if (e instanceof MovedOn) return;
    throw e;
  }
  // The page may have moved on while the answer was on its way.
  if (generation !== state.generation) return;
  render(pos);
}

// Draws a position shown: its board and buttons, the history, the moves played. While the
// computer is to move nothing is live: it plays once the values are known, or at random in a
// variant not solved, or after COMPUTER_SECONDS of a live search with what the search has found.
function render(pos) {
  state.parts = [];
  clearTimeout(state.timer);
  const computer = wholeMoves(pos).length > 0 && isComputer(pos);
  drawBoard(pos, !computer);
  drawHistory();
  $("prediction").textContent = computer ? computerWords(pos) : words(pos);
  $("note").textContent = state.computerNote;
  $("moves").innerHTML = "";
  for (const m of state.played.slice(0, state.index)) {
    const li = document.createElement("li");
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = m.player;
    li.append(who, " " + m.move);
    if (m.note) li.title = m.note;
    $("moves").appendChild(li);
  }
  $("undo").disabled = state.index === 0;
  $("redo").disabled = state.index >= state.history.length - 1;
  $("cancel").hidden = true;
  $("board").classList.toggle("thinking", computer || (unknown(pos) && pos.searching));
  if (computer) scheduleComputer(pos);
}

// What the page says while the computer is to move.
function computerWords(pos) {
  const name = `${capital(moverName(pos))} (computer)`;
  if (!unknown(pos)) return `${name} is thinking… ${words(pos)}`;
  if (!pos.searching && !pos.busy) {
    return `${name} cannot judge this position yet (the variant is not solved): it plays a move at random.`;
  }
  const since = state.thinking?.index === state.index ? state.thinking.since : Date.now();
  const left = Math.max(0, COMPUTER_SECONDS - Math.floor((Date.now() - since) / 1000));
  return `${name} is thinking: it moves within ${COMPUTER_SECONDS} s (${left} s left), with the best `
    + `move proven by then. ${words(pos)}`;
}

// --- playing ------------------------------------------------------------------------------------

async function play(m, pos, note = "") {
  if (!note) state.computerNote = "";
  state.history = state.history.slice(0, state.index + 1);
  state.played = state.played.slice(0, state.index);
  state.history.push(m.position);
  state.played.push({ move: m.move, player: moverName(pos), autoguiMove: m.autoguiMove, partMoves: m.partMoves, note });
  state.index += 1;
  await show();
}

// Whether clicking a button plays a whole move (a one-part move, or a move's last part).
function completes(b) {
  return b.moves.length === 1 && (!b.best.partMoves || state.parts.length + 1 === b.best.partMoves.length);
}

function click(b) {
  const at = state.history[state.index];
  const pos = cached(at);
  // Nothing is live while the computer is to move (a stale button must not pre-empt it).
  if (!pos || isComputer(pos)) return;
  if (completes(b)) return play(b.best, pos).catch(showError);
  state.parts.push(b.gui);
  drawParts(pos);
}

// A multipart move begun: the chosen parts marked, the next parts offered, and Cancel shown.
function drawParts(pos) {
  const layer = $("buttons");
  layer.innerHTML = "";
  for (const p of state.parts) {
    const [, , c] = p.split("_");
    const [x, y] = state.theme.centers[Number(c)];
    el("circle", { cx: x, cy: y, r: state.theme.pieceSize * 0.45, fill: "none", stroke: "#2563eb", "stroke-width": 5, class: "chosen" }, layer);
  }
  drawButtons(pos, layer);
  $("cancel").hidden = state.parts.length === 0;
}

function cancelParts() {
  if (state.parts.length === 0) return;
  state.parts = [];
  const pos = cached(state.history[state.index]);
  if (pos) drawParts(pos);
}

// The computer's move: one of the best (the moves come best first), at random among equals.
// Where values are not known yet it waits for them up to COMPUTER_SECONDS from its first look
// at the position, then plays the best move proven so far (a known win, tie or draw), else a
// move not known to lose, else the slowest loss; in a variant not solved, a move at random.
function scheduleComputer(pos) {
  const at = state.index;
  if (state.thinking?.index !== at) state.thinking = { index: at, since: Date.now() };
  const searching = unknown(pos) && (pos.searching || pos.busy);
  const waited = Date.now() - state.thinking.since;
  const delay = searching ? Math.max(0, COMPUTER_SECONDS * 1000 - waited) : 500;
  state.timer = setTimeout(() => {
    if (state.index !== at) return;
    const now = cached(state.history[at]) ?? pos;
    const moves = wholeMoves(now);
    const best = Math.max(...moves.map((m) => rank(m.moveValue, m.remoteness)));
    const ties = moves.filter((m) => rank(m.moveValue, m.remoteness) === best);
    const m = ties[Math.floor(Math.random() * ties.length)];
    const secs = Math.round((Date.now() - state.thinking.since) / 1000);
    state.computerNote = !unknown(now) ? ""
      : !searching && m.moveValue !== "unsolved"
        ? `${capital(moverName(now))} (computer) played ${m.move}: it ${m.moveValue}s at once (the variant is not solved).`
      : !searching ? `${capital(moverName(now))} (computer) played ${m.move} at random: the variant is not solved.`
      : m.moveValue === "unsolved"
        ? `${capital(moverName(now))} (computer) played ${m.move} after ${secs} s: no move was proven by then, and this one is not known to lose.`
        : `${capital(moverName(now))} (computer) played ${m.move} after ${secs} s: the best move proven by then (${m.moveValue}).`;
    play(m, now, state.computerNote).catch(showError);
  }, delay);
  if (searching) {
    // The time left, counted down.
    const tick = () => {
      if (state.index !== at || !unknown(cached(state.history[at]) ?? pos)) return;
      $("prediction").textContent = computerWords(cached(state.history[at]) ?? pos);
      setTimeout(tick, 1000);
    };
    setTimeout(tick, 1000);
  }
}

// Undo against the computer takes back its reply and your move together: it goes back to the
// last position where a person is to move (one step when the computer plays both sides).
function undo() {
  if (state.index === 0) return;
  clearTimeout(state.timer);
  const bothComputers = $("p1").value === "computer" && $("p2").value === "computer";
  state.index -= 1;
  while (!bothComputers && state.index > 0 && isComputer(cached(state.history[state.index]))) state.index -= 1;
  show().catch(showError);
}

function redo() {
  if (state.index >= state.history.length - 1) return;
  const bothComputers = $("p1").value === "computer" && $("p2").value === "computer";
  state.index += 1;
  while (!bothComputers && state.index < state.history.length - 1 && isComputer(cached(state.history[state.index]))) {
    state.index += 1;
  }
  show().catch(showError);
}

$("solve").addEventListener("click", async () => {
  $("solve").hidden = true;
  const r = await fetch(`/api/${state.game}/${state.variant}/solve`, { method: "POST" });
  const body = await r.json();
  if (!r.ok) { showError(body.error); $("solve").hidden = false; return; }
  await watchSolve().catch(showError);
});

$("cancel-solve").addEventListener("click", async () => {
  $("cancel-solve").hidden = true;
  const r = await fetch(`/api/${state.game}/${state.variant}/solve/cancel`, { method: "POST" });
  if (!r.ok) showError((await r.json()).error);
  await watchSolve().catch(showError);
});

$("home-link").addEventListener("click", (e) => {
  e.preventDefault();
  history.pushState(null, "", "/");
  showHome().catch(showError);
});
window.addEventListener("popstate", () => loadGames().catch(showError));
$("variant").addEventListener("change", (e) => chooseVariant(e.target.value).catch(showError));
$("undo").addEventListener("click", undo);
$("redo").addEventListener("click", redo);
$("cancel").addEventListener("click", cancelParts);
document.addEventListener("keydown", (e) => { if (e.key === "Escape") cancelParts(); });
$("restart").addEventListener("click", () => {
  state.index = 0; state.history = state.history.slice(0, 1); state.played = []; show().catch(showError);
});
for (const id of ["p1", "p2"]) $(id).addEventListener("change", () => show().catch(showError));
loadGames().catch(showError);

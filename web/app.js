// perfectplay's page: pick a game, play it on an Image AutoGUI board (003 section 5.3) with every
// move button colored by its value, a computer that plays perfectly, and a value history.
// Everything about a game comes from the API (/api/...): a new game adds a theme, not code here.
"use strict";

const COLORS = { win: "#16a34a", tie: "#eab308", draw: "#d97706", lose: "#b91c1c" };
const SVG = "http://www.w3.org/2000/svg";
// Value-remoteness order, worst to best (003 section 2.1): lose fast < lose slow < draw <
// tie slow < tie fast < win slow < win fast.
function rank(value, remoteness) {
  const r = remoteness ?? 0;
  switch (value) {
    case "lose": return r;
    case "draw": return 10000;
    case "tie": return 30000 - r;
    default: return 50000 - r;
  }
}

const $ = (id) => document.getElementById(id);
const state = {
  game: null, variant: null, info: null, theme: null,
  history: [], index: 0, played: [], cache: new Map(), parts: [], timer: null, busy: false,
};

async function api(path) {
  const r = await fetch("/api/" + path);
  const body = await r.json();
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

async function position(p) {
  const key = state.game + "/" + state.variant + "/" + p;
  if (!state.cache.has(key)) {
    state.cache.set(key, await api(`${state.game}/${state.variant}/positions/?p=${encodeURIComponent(p)}`));
  }
  return state.cache.get(key);
}

// --- choosing a game and variant ---------------------------------------------------------------

async function loadGames() {
  const games = await api("?all=1");
  const select = $("game");
  select.innerHTML = "";
  for (const g of games) select.add(new Option(g.name, g.id));
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted) select.value = wanted;
  await chooseGame(select.value);
}

async function chooseGame(id) {
  const g = await api(id + "/?all=1");
  state.game = id;
  const select = $("variant");
  select.innerHTML = "";
  for (const v of g.variants) {
    select.add(new Option(v.status === "solved" ? v.name : v.name + " (not solved)", v.id));
  }
  const wanted = new URLSearchParams(location.search).get("variant");
  select.value = wanted && g.variants.some((v) => v.id === wanted) ? wanted : g.defaultVariant;
  await chooseVariant(select.value);
}

async function chooseVariant(id) {
  clearTimeout(state.timer);
  state.variant = id;
  showError(null);
  const info = await api(`${state.game}/${id}/`);
  state.info = info;
  const gui = info.imageAutoGUIData;
  state.theme = gui ? gui.themes[gui.defaultTheme] : null;
  $("p1name").textContent = info.players[0];
  $("p2name").textContent = info.players[1];
  if (info.status !== "solved") {
    $("board").innerHTML = "";
    $("history").innerHTML = "";
    $("moves").innerHTML = "";
    offerSolve(info);
    return;
  }
  $("solve").hidden = true;
  // `?game=..&variant=..&p=<position>` starts from a position (a link to share).
  const query = new URLSearchParams(location.search);
  const from = query.get("game") === state.game && query.get("variant") === id ? query.get("p") : null;
  state.history = [from ?? info.startPosition];
  state.played = [];
  state.index = 0;
  await show();
}

// An unsolved variant: the server solves it in the background on request (one at a time), and
// the page follows its progress, then plays.
function offerSolve(info) {
  const button = $("solve");
  const busy = info.status === "solving" || info.status === "queued";
  button.hidden = busy;
  showError(info.solveError ? "The last solve failed: " + info.solveError : null);
  if (busy) {
    const s = info.solving ?? {};
    const share = s.phaseTotal ? ` ${Math.floor((100 * s.phaseDone) / s.phaseTotal)}%` : "";
    $("prediction").textContent = info.status === "queued"
      ? "Queued: another solve runs first."
      : `Solving (${Math.round(s.seconds ?? 0)} s): ${s.phase}${share}. ${s.note ?? ""}`;
    const [game, variant] = [state.game, state.variant];
    state.timer = setTimeout(async () => {
      if (state.game !== game || state.variant !== variant) return;
      await chooseVariant(variant).catch(showError);
    }, 1000);
  } else {
    $("prediction").textContent = `Not solved yet (or \`${info.solveCommand}\` in a shell).`;
  }
}

$("solve").addEventListener("click", async () => {
  $("solve").hidden = true;
  const r = await fetch(`/api/${state.game}/${state.variant}/solve`, { method: "POST" });
  if (!r.ok) { showError((await r.json()).error); return; }
  await chooseVariant(state.variant).catch(showError);
});

// --- drawing ------------------------------------------------------------------------------------

function words(pos) {
  const mover = pos.turn;
  if (wholeMoves(pos).length === 0) {
    if (pos.positionValue === "tie") return "Game over: a tie.";
    const other = state.info.players.find((p) => p !== mover) ?? "the other player";
    return `Game over: ${pos.positionValue === "win" ? mover : other} wins.`;
  }
  if (pos.positionValue === "draw") return `${mover} should draw (neither side can force an end).`;
  return `${mover} should ${pos.positionValue} in ${pos.remoteness}.`;
}

function drawBoard(pos) {
  const t = state.theme;
  const svg = $("board");
  svg.innerHTML = "";
  if (!t) { svg.textContent = "no board for this game"; return; }
  svg.setAttribute("viewBox", `0 0 ${t.space[0]} ${t.space[1]}`);
  const bg = el("g", { id: "background" }, svg);
  bg.innerHTML = t.backgroundSvg ?? "";
  const pieces = el("g", { id: "pieces" }, svg);
  const cells = pos.autoguiPosition.split("_")[1] ?? "";
  [...cells].forEach((c, i) => {
    const e = t.entities[c];
    if (!e || !t.centers[i]) return;
    const [x, y] = t.centers[i];
    const g = el("g", { transform: `translate(${x},${y}) scale(${t.pieceSize})`, "data-entity": c }, pieces);
    g.innerHTML = e.svg;
  });
  drawButtons(pos, el("g", { id: "buttons" }, svg));
}

// The buttons for the moves, or for the next part of a multipart move (003 chapter 6): a part is
// worth the best move it can still complete to (003 section 6.3). Moves come best first.
// Whole moves (with their parts); `moves` holds GamesmanUni's flattened parts for multipart games.
const wholeMoves = (pos) => pos.fullMoves ?? pos.moves;

function buttons(pos) {
  const out = new Map();
  for (const m of wholeMoves(pos)) {
    let key;
    if (m.partMoves) {
      const done = state.parts;
      if (!done.every((p, i) => m.partMoves[i] === p)) continue;
      key = m.partMoves[done.length];
      if (key === undefined) continue;
    } else {
      // Once a multipart move has begun, only its next parts are offered.
      if (state.parts.length > 0) continue;
      key = m.autoguiMove;
    }
    if (!key) continue;
    if (!out.has(key)) out.set(key, { gui: key, best: m, moves: [] });
    out.get(key).moves.push(m);
  }
  return [...out.values()];
}

function drawButtons(pos, layer) {
  const t = state.theme;
  for (const b of buttons(pos)) {
    const m = b.best;
    const color = COLORS[m.moveValue];
    const [type, a, c] = b.gui.split("_");
    let e;
    if (type === "A") {
      const [x, y] = t.centers[Number(c)];
      e = el("circle", { cx: x, cy: y, r: t.pieceSize * 0.2, fill: color, stroke: "#fff", "stroke-width": 2 }, layer);
    } else {
      const [x1, y1] = t.centers[Number(a)];
      const [x2, y2] = t.centers[Number(c)];
      const len = Math.hypot(x2 - x1, y2 - y1);
      const shrink = Math.min(t.pieceSize * 0.3, len / 3);
      const [dx, dy] = [(x2 - x1) / len, (y2 - y1) / len];
      const sx = x1 + dx * shrink, sy = y1 + dy * shrink, ex = x2 - dx * shrink, ey = y2 - dy * shrink;
      if (type === "M") {
        const w = t.arrowWidth, hx = ex - dx * w * 1.6, hy = ey - dy * w * 1.6;
        e = el("g", { fill: color, stroke: color }, layer);
        el("line", { x1: sx, y1: sy, x2: hx, y2: hy, "stroke-width": w, "stroke-linecap": "round" }, e);
        el("polygon", {
          points: `${ex},${ey} ${hx - dy * w * 1.4},${hy + dx * w * 1.4} ${hx + dy * w * 1.4},${hy - dx * w * 1.4}`,
          stroke: "none",
        }, e);
      } else {
        e = el("line", { x1: sx, y1: sy, x2: ex, y2: ey, stroke: color, "stroke-width": t.arrowWidth, "stroke-linecap": "round" }, layer);
      }
    }
    e.classList.add("move", m.moveValue);
    e.setAttribute("data-move", completes(b) ? m.move : b.gui);
    e.setAttribute("data-value", m.moveValue);
    e.setAttribute("opacity", "0.85");
    const tip = el("title", {}, e);
    const rem = m.remoteness === null || m.remoteness < 0 ? "" : ` (remoteness ${m.remoteness})`;
    tip.textContent = b.moves.length === 1
      ? `${m.move}: ${m.moveValue}s${rem}`
      : `${b.moves.length} moves, the best ${m.moveValue}s${rem}`;
    e.addEventListener("click", () => click(b));
  }
}

function drawHistory() {
  const svg = $("history");
  svg.innerHTML = "";
  const points = state.history.slice(0, state.index + 1).map((p) => state.cache.get(`${state.game}/${state.variant}/${p}`));
  const maxR = Math.max(1, ...points.map((p) => Math.max(0, p.remoteness ?? 0)));
  const W = 400, H = 220, pad = 24, mid = H / 2;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  el("line", { x1: pad, y1: mid, x2: W - 8, y2: mid, stroke: "#9aa5b1", "stroke-dasharray": "4 3" }, svg);
  const label = (y, text) => { const t = el("text", { x: 2, y, "font-size": 11, fill: "#52606d" }, svg); t.textContent = text; };
  label(14, state.info.players[0]);
  label(H - 4, state.info.players[1]);
  const n = Math.max(points.length - 1, 8);
  const xy = points.map((p, i) => {
    const firstToMove = p.autoguiPosition.startsWith("1");
    const r = p.remoteness ?? 0;
    // Height: how soon the game ends; the sign: who is winning.
    const h = p.positionValue === "tie" || p.positionValue === "draw" ? 0 : (maxR + 1 - r) / (maxR + 1);
    const firstWins = (p.positionValue === "win") === firstToMove;
    const y = mid - (firstWins ? 1 : -1) * h * (mid - 16);
    return [pad + (i / n) * (W - pad - 12), y, p];
  });
  el("polyline", { points: xy.map(([x, y]) => `${x},${y}`).join(" "), fill: "none", stroke: "#627d98", "stroke-width": 1.5 }, svg);
  xy.forEach(([x, y, p], i) => {
    const c = el("circle", { cx: x, cy: y, r: 5, fill: COLORS[p.positionValue] }, svg);
    c.classList.add("vh-point", p.positionValue);
    c.setAttribute("data-value", p.positionValue);
    c.setAttribute("data-remoteness", p.remoteness ?? "");
    el("title", {}, c).textContent = `move ${i}: ${words(p)}`;
  });
}

async function show() {
  const pos = await position(state.history[state.index]);
  state.parts = [];
  // Positions of the history chart are all in the cache: they were shown before.
  for (const p of state.history.slice(0, state.index + 1)) await position(p);
  drawBoard(pos);
  drawHistory();
  $("prediction").textContent = words(pos);
  $("moves").innerHTML = state.played.slice(0, state.index).map((m) => `<li>${m}</li>`).join("");
  $("undo").disabled = state.index === 0;
  $("redo").disabled = state.index >= state.history.length - 1;
  scheduleComputer(pos);
}

// --- playing ------------------------------------------------------------------------------------

async function play(m) {
  state.history = state.history.slice(0, state.index + 1);
  state.played = state.played.slice(0, state.index);
  state.history.push(m.position);
  state.played.push(m.move);
  state.index += 1;
  await show();
}

// Whether clicking a button plays a whole move (a one-part move, or a move's last part).
function completes(b) {
  return b.moves.length === 1 && (!b.best.partMoves || state.parts.length + 1 === b.best.partMoves.length);
}

function click(b) {
  if (completes(b)) {
    play(b.best).catch(showError);
    return;
  }
  state.parts.push(b.gui);
  position(state.history[state.index]).then((pos) => {
    const layer = $("buttons");
    layer.innerHTML = "";
    // Mark the chosen parts, then offer the next ones.
    for (const p of state.parts) {
      const [, , c] = p.split("_");
      const [x, y] = state.theme.centers[Number(c)];
      el("circle", { cx: x, cy: y, r: state.theme.pieceSize * 0.45, fill: "none", stroke: "#2563eb", "stroke-width": 5, class: "chosen" }, layer);
    }
    drawButtons(pos, layer);
  }).catch(showError);
}

function isComputer(pos) {
  return $(pos.autoguiPosition.startsWith("1") ? "p1" : "p2").value === "computer";
}

function scheduleComputer(pos) {
  clearTimeout(state.timer);
  const moves = wholeMoves(pos);
  if (moves.length === 0 || !isComputer(pos)) return;
  state.timer = setTimeout(() => {
    const best = rank(moves[0].moveValue, moves[0].remoteness);
    const ties = moves.filter((m) => rank(m.moveValue, m.remoteness) === best);
    play(ties[Math.floor(Math.random() * ties.length)]).catch(showError);
  }, 500);
}

$("game").addEventListener("change", (e) => chooseGame(e.target.value).catch(showError));
$("variant").addEventListener("change", (e) => chooseVariant(e.target.value).catch(showError));
$("undo").addEventListener("click", () => { if (state.index > 0) { state.index -= 1; show().catch(showError); } });
$("redo").addEventListener("click", () => {
  if (state.index < state.history.length - 1) { state.index += 1; show().catch(showError); }
});
$("restart").addEventListener("click", () => { state.index = 0; state.history = state.history.slice(0, 1); state.played = []; show().catch(showError); });
for (const id of ["p1", "p2"]) {
  $(id).addEventListener("change", () => position(state.history[state.index]).then(scheduleComputer).catch(showError));
}
loadGames().catch(showError);

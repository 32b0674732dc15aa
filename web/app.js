// perfectplay's page: pick a game, play it on an Image AutoGUI board (003 section 5.3) with every
// move button marked with its value and remoteness, a computer that plays perfectly, and a value
// history. Everything about a game comes from the API (/api/...): a new game adds a theme, not
// code here.
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

// --- choosing a game and variant ---------------------------------------------------------------

// The page opens on the home page of games, or on the game the link names (`?game=`).
async function loadGames() {
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted) await chooseGame(wanted);
  else await showHome();
}

// The home page: a card a game, with its name, its board at the start, a line on it, and what
// of it is solved; a card opens the game.
async function showHome() {
  clearTimeout(state.timer);
  clearTimeout(state.solveTimer);
  state.game = null;
  document.body.classList.add("at-home");
  const home = $("home");
  home.hidden = false;
  $("play").hidden = true;
  $("side").hidden = true;
  // Drawn anew each time (what is solved may have changed), into a list of its own, shown once
  // whole: a later call's drawing replaces an earlier one's.
  const games = await api("");
  const list = document.createElement("ul");
  list.id = "games";
  await Promise.all(games.map(async (g) => {
    const li = document.createElement("li");
    list.appendChild(li);
    const a = document.createElement("a");
    a.href = `?game=${g.id}`;
    a.className = "card";
    a.dataset.game = g.id;
    li.appendChild(a);
    const detail = await api(`${g.id}/`);
    const v = openingVariant(detail, null);
    const info = await api(`${g.id}/${v.id}/`);
    const picture = document.createElementNS(SVG, "svg");
    picture.setAttribute("class", "picture");
    picture.setAttribute("role", "img");
    picture.setAttribute("aria-label", `${g.name} at the start`);
    drawPicture(picture, info);
    const name = document.createElement("h2");
    name.textContent = g.name;
    const line = document.createElement("p");
    line.className = "line";
    line.textContent = firstSentence(info.rules ?? info.description ?? "");
    const solved = detail.variants.filter((x) => x.status === "solved");
    const status = document.createElement("p");
    status.className = "solved";
    status.textContent = solved.length === detail.variants.length
      ? (solved.length === 1 ? "Solved." : `All ${solved.length} variants solved.`)
      : `${solved.length} of ${detail.variants.length} variants solved`
        + (solved.length ? ` (${solved.map((x) => x.id).join(", ")}).` : ".");
    a.append(picture, name, line, status);
    a.addEventListener("click", (e) => {
      e.preventDefault();
      history.pushState(null, "", a.href);
      chooseGame(g.id).catch(showError);
    });
  }));
  if (state.game === null) $("games").replaceWith(list);
}

// A game's line on the home page: the first sentence of its rules, without the sources cited in
// parentheses.
const firstSentence = (text) => {
  const plain = text.replace(/\s*\([^()]*\)/g, "").replace(/\s+/g, " ");
  return (plain.match(/^.*?[.!?](\s|$)/) ?? [plain])[0].trim();
};

// A small picture of a variant's start: its board and pieces, no buttons.
function drawPicture(svg, info) {
  const gui = info.imageAutoGUIData;
  const t = gui ? gui.themes[gui.defaultTheme] : null;
  if (!t) return;
  svg.setAttribute("viewBox", `0 0 ${t.space[0]} ${t.space[1]}`);
  el("g", {}, svg).innerHTML = t.backgroundSvg ?? "";
  const cells = info.autoguiStartPosition.split("_")[1] ?? "";
  [...cells].forEach((c, i) => {
    const e = t.entities[c];
    if (!e || !t.centers[i]) return;
    const [x, y] = t.centers[i];
    el("g", { transform: `translate(${x},${y}) scale(${t.pieceSize})` }, svg).innerHTML = e.svg;
  });
}

// The variant a game opens on: the one the link names, else its default if solved, else its
// largest solved one (the last in the list), else the one that solves fastest here.
function openingVariant(g, wanted) {
  const solved = g.variants.filter((v) => v.status === "solved");
  const cost = (v) => v.cost?.seconds ?? v.cost?.indices ?? Infinity;
  const quickest = [...g.variants].filter((v) => !v.cost?.refused).sort((a, b) => cost(a) - cost(b))[0];
  return g.variants.find((v) => v.id === wanted)
    ?? solved.find((v) => v.id === g.defaultVariant)
    ?? solved[solved.length - 1]
    ?? quickest
    ?? g.variants.find((v) => v.id === g.defaultVariant)
    ?? g.variants[0];
}

// A variant's name in the list: marked while it is not solved.
function variantLabel(v) {
  if (v.status === "solved") return v.name;
  if (v.status === "solving" || v.status === "queued") return `${v.name} (solving)`;
  return `${v.name} (not solved)`;
}

async function chooseGame(id) {
  const g = await api(id + "/");
  state.game = id;
  document.body.classList.remove("at-home");
  $("home").hidden = true;
  $("play").hidden = false;
  $("side").hidden = false;
  $("game-name").textContent = g.name;
  const select = $("variant");
  select.innerHTML = "";
  for (const v of g.variants) {
    const option = new Option(variantLabel(v), v.id);
    option.title = v.description ?? "";
    select.add(option);
  }
  const query = new URLSearchParams(location.search);
  const wanted = query.get("game") === id ? query.get("variant") : null;
  select.value = openingVariant(g, wanted).id;
  await chooseVariant(select.value);
}

// The variant list's labels as the server says now (after a solve ends, say).
async function refreshVariantLabels() {
  const g = await api(state.game + "/");
  const select = $("variant");
  for (const v of g.variants) {
    const option = [...select.options].find((o) => o.value === v.id);
    if (option) option.textContent = variantLabel(v);
  }
}

// Drops the positions of the current variant from the cache (their values were not known).
function forgetPositions() {
  const prefix = `${state.game}/${state.variant}/`;
  for (const key of [...state.cache.keys()]) if (key.startsWith(prefix)) state.cache.delete(key);
}

async function chooseVariant(id) {
  clearTimeout(state.timer);
  clearTimeout(state.solveTimer);
  state.variant = id;
  showError(null);
  state.boardWidth = 0;
  $("board").style.minWidth = "";
  const info = await api(`${state.game}/${id}/`);
  state.info = info;
  const gui = info.imageAutoGUIData;
  state.theme = gui ? gui.themes[gui.defaultTheme] : null;
  $("p1name").textContent = info.players[0];
  $("p2name").textContent = info.players[1];
  $("description").textContent = info.description ?? "";
  $("rules-title").textContent = `Rules of ${info.gameName}`;
  $("rules-text").textContent = info.rules ?? "";
  $("help").hidden = !info.multipart;
  if (info.status !== "solved") forgetPositions();
  solvePanel(info);
  // `?game=..&variant=..&p=<position>` starts from a position (a link to share).
  const query = new URLSearchParams(location.search);
  const from = query.get("game") === state.game && query.get("variant") === id ? query.get("p") : null;
  state.history = [from ?? info.startPosition];
  state.played = [];
  state.index = 0;
  state.computerNote = "";
  await show();
}

// A variant not solved plays with its values unknown; the panel beside it says what a solve
// costs here (or why it is refused), starts it in the background (one at a time), follows its
// progress with the time left, cancels it, and once it ends shows the values on the same game.
function solvePanel(info) {
  const busy = info.status === "solving" || info.status === "queued";
  $("solve-panel").hidden = info.status === "solved";
  $("solve").hidden = info.status !== "unsolved" || Boolean(info.cost?.refused);
  const s = info.solving ?? {};
  $("cancel-solve").hidden = !busy || Boolean(s.elsewhere) || Boolean(s.cancelling);
  const lines = [];
  if (info.status === "unsolved") {
    lines.push(`${info.gameName} ${info.id} is not solved yet: its moves are offered with values unknown (?).`);
    if (info.cost) lines.push(`A solve here: ${info.cost.summary}.`);
    if (info.cost?.refused) lines.push(`It is refused on this machine: ${info.cost.refused}.`);
    else lines.push(`Solve it here, in the background (or \`${info.solveCommand}\` in a shell).`);
    if (info.solveStopped) lines.push(`The last solve was ${info.solveStopped}.`);
    if (info.solveError) lines.push(`The last solve failed: ${info.solveError}`);
  } else if (info.status === "queued") {
    lines.push("Queued: another solve runs first.");
  } else if (busy) {
    const share = s.phaseTotal ? ` ${Math.floor((100 * s.phaseDone) / s.phaseTotal)}%` : "";
    lines.push(`Solving (${Math.round(s.seconds ?? 0)} s): ${s.phase}${share}. ${timeLeft(s)}`);
    if (s.cancelling) lines.push("Cancelling: it stops at the next step of the tier in progress.");
    if (s.elsewhere) lines.push(`Solved by another process: ${s.note}`);
  }
  $("solve-status").textContent = lines.join(" ");
  if (busy) state.solveTimer = setTimeout(() => watchSolve().catch(showError), 1000);
}

// The time a running solve has left: the solver's own figure once a tier is done, else the
// estimate less the time spent.
function timeLeft(s) {
  const said = /about (\d+) s left/.exec(s.note ?? "");
  if (said) return `About ${said[1]} s left.`;
  if (s.estimate != null) {
    return `About ${Math.max(0, Math.round(s.estimate - (s.seconds ?? 0)))} s left (estimated).`;
  }
  return "";
}

// While a solve runs: its progress; when it ends, the list's labels and the values, on the game
// being played.
async function watchSolve() {
  const [game, variant] = [state.game, state.variant];
  const info = await api(`${game}/${variant}/`);
  if (state.game !== game || state.variant !== variant) return;
  const wasSolved = state.info.status === "solved";
  state.info = info;
  solvePanel(info);
  if (info.status === "solved" || info.status === "unsolved") await refreshVariantLabels();
  if (info.status === "solved" && !wasSolved) {
    forgetPositions();
    const resumed = (info.solvedHere ?? []).find((l) => l.startsWith("resumed:"));
    state.computerNote = `Solved here in ${Math.round(state.solveSeconds ?? 0)} s`
      + (resumed ? ` (${resumed.replace(/^resumed:\s*/, "")}).` : ".");
    await show();
  }
  state.solveSeconds = info.solving?.seconds ?? state.solveSeconds;
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

// --- drawing ------------------------------------------------------------------------------------

function words(pos) {
  const mover = moverName(pos);
  if (wholeMoves(pos).length === 0) {
    if (pos.positionValue === "tie") return "Game over: a tie.";
    if (unknown(pos)) return "Game over.";
    const winner = pos.positionValue === "win" ? mover : state.info.players[firstToMove(pos) ? 1 : 0];
    return `Game over: ${winner} ${verb(winner, "wins", "win")}.`;
  }
  const Mover = capital(mover);
  if (unknown(pos) && pos.busy) {
    return `${Mover} to move. The server is busy searching other positions (${pos.busy.why}); `
      + `it is asked again in ${pos.busy.retryAfter} s. The moves' values show when it is searched.`;
  }
  if (unknown(pos) && pos.searching?.queued) {
    return `${Mover} to move. This position waits its turn to be searched live; `
      + "the moves' values show when it is done.";
  }
  if (unknown(pos) && pos.searching) {
    const s = pos.searching;
    const [done, total, secs] = [s.done ?? 0, s.total ?? 0, s.seconds ?? 0];
    const left = done > 0 && total > done
      ? `about ${Math.ceil((secs / done) * (total - done))} s left`
      : "the time left is known once a move is searched";
    return `${Mover} to move. Solving this position live: ${done} of ${total || "?"} moves`
      + ` searched in ${Math.round(secs)} s, ${left}; the moves' values show when it is done.`;
  }
  if (unknown(pos)) {
    return `${Mover} to move. This variant is not solved yet: the moves' values are not known (?).`;
  }
  if (pos.positionValue === "draw") return `${Mover} should draw (neither side can force an end).`;
  return `${Mover} should ${pos.positionValue} in ${pos.remoteness}.`;
}

// The centers a move's buttons touch, for marking the last move.
function touched(gui) {
  const [type, a, c] = gui.split("_");
  return type === "A" ? [Number(c)] : [Number(a), Number(c)];
}

function drawBoard(pos, live) {
  const t = state.theme;
  const svg = $("board");
  svg.innerHTML = "";
  if (!t) { svg.textContent = "no board for this game"; return; }
  svg.setAttribute("viewBox", `0 0 ${t.space[0]} ${t.space[1]}`);
  const bg = el("g", { id: "background" }, svg);
  bg.innerHTML = t.backgroundSvg ?? "";
  drawCoordinates(el("g", { id: "coordinates" }, svg));
  drawLastMove(el("g", { id: "last-move" }, svg), pos);
  const pieces = el("g", { id: "pieces" }, svg);
  const cells = pos.autoguiPosition.split("_")[1] ?? "";
  [...cells].forEach((c, i) => {
    const e = t.entities[c];
    if (!e || !t.centers[i]) return;
    const [x, y] = t.centers[i];
    const g = el("g", { transform: `translate(${x},${y}) scale(${t.pieceSize})`, "data-entity": c }, pieces);
    g.innerHTML = e.svg;
  });
  el("g", { id: "preview" }, svg);
  const layer = el("g", { id: "buttons" }, svg);
  if (live) drawButtons(pos, layer);
  if (wholeMoves(pos).length === 0) drawFinal(pos, svg);
}

// Each point's name in the move notation, small, at the point's upper left.
function drawCoordinates(layer) {
  const t = state.theme;
  (t.pointNames ?? []).forEach((name, i) => {
    if (!name || !t.centers[i]) return;
    const [x, y] = t.centers[i];
    const s = t.pieceSize;
    const text = el("text", {
      x: x - s * 0.5, y: y - s * 0.36, "font-size": s * 0.17, class: "coordinate", fill: "#52606d",
    }, layer);
    text.textContent = name;
  });
}

// The move that led here: a ring on each point whose piece it changed (where the disc landed,
// not the arrow clicked above its column), else on each point its buttons touched.
function drawLastMove(layer, pos) {
  const m = state.played[state.index - 1];
  if (!m) return;
  const t = state.theme;
  const before = cached(state.history[state.index - 1]);
  const cells = (p) => [...(p.autoguiPosition.split("_")[1] ?? "")];
  let centers = [];
  if (before) {
    const [was, now] = [cells(before), cells(pos)];
    centers = now.map((c, i) => i).filter((i) => now[i] !== was[i] && t.centers[i]
      && (t.entities[now[i]] || t.entities[was[i]]));
  }
  if (centers.length === 0) {
    const guis = m.partMoves ?? (m.autoguiMove ? [m.autoguiMove] : []);
    centers = [...new Set(guis.flatMap(touched))].filter((c) => t.centers[c]);
  }
  for (const c of centers) {
    const [x, y] = t.centers[c];
    el("circle", {
      cx: x, cy: y, r: t.pieceSize * 0.5, fill: "none", stroke: "#0ea5e9", "stroke-width": t.pieceSize * 0.06,
      "stroke-dasharray": `${t.pieceSize * 0.12} ${t.pieceSize * 0.08}`, class: "last-move", "data-center": c,
    }, layer);
  }
}

// The final position: a frame in the result's color and the result in words.
function drawFinal(pos, svg) {
  const t = state.theme;
  const [w, h] = t.space;
  if (unknown(pos)) return;
  const winner = pos.positionValue === "tie" ? null
    : state.info.players[(pos.positionValue === "win") === firstToMove(pos) ? 0 : 1];
  const color = winner === null ? COLORS.tie : "#1f2933";
  const g = el("g", { id: "final", "data-winner": winner ?? "" }, svg);
  const lw = Math.max(w, h) * 0.02;
  el("rect", { x: lw / 2, y: lw / 2, width: w - lw, height: h - lw, fill: "none", stroke: color, "stroke-width": lw }, g);
  const fs = Math.max(w, h) * 0.06;
  el("rect", { x: w / 2 - fs * 4, y: h / 2 - fs * 0.9, width: fs * 8, height: fs * 1.6, rx: fs * 0.3, fill: "rgba(255,255,255,0.88)" }, g);
  const text = el("text", { x: w / 2, y: h / 2 + fs * 0.35, "font-size": fs, "text-anchor": "middle", "font-weight": 700, fill: color }, g);
  text.textContent = winner === null ? "Tie" : capital(`${winner} ${verb(winner, "wins", "win")}`);
}

// The buttons for the moves, or for the next part of a multipart move (003 chapter 6): a part is
// worth the best move it can still complete to (003 section 6.3). Moves come best first.
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

// A button's label: the value's letter and the moves to the end (W3: wins in 3).
function label(m) {
  const r = moveRemoteness(m);
  return LETTERS[m.moveValue] + (r === null ? "" : r);
}

// The least size of a button on the screen, in CSS pixels: a finger's.
const MIN_TAP = 32;

// Where along its line a button sits: past the middle toward its end, so that the buttons of two
// lines that cross in their middles (Five Field Kono's diagonal moves, QuickCross's two strokes
// of a cell) stand apart.
const along = (type) => (type === "M" ? 0.62 : 0.72);

// Where a button sits on the board: a point's center, or its place on a move's line.
function buttonAt(gui) {
  const t = state.theme;
  const [type, a, c] = gui.split("_");
  if (type === "A") return t.centers[Number(c)];
  const [[x1, y1], [x2, y2]] = [t.centers[Number(a)], t.centers[Number(c)]];
  const k = along(type);
  return [x1 + (x2 - x1) * k, y1 + (y2 - y1) * k];
}

// Sizes the buttons of one drawing so that each is at least MIN_TAP pixels across and none
// covers another: the board is drawn at least as wide as puts the closest two buttons MIN_TAP
// apart (on a phone it then scrolls sideways), and a button grows from its `base` radius (board
// units) to MIN_TAP / 2 pixels where it is drawn smaller, never past half the way to its nearest.
function fitButtons(points) {
  const t = state.theme;
  const svg = $("board");
  let closest = Infinity;
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const d = Math.hypot(points[i][0] - points[j][0], points[i][1] - points[j][1]);
      if (d > 0) closest = Math.min(closest, d);
    }
  }
  if (!Number.isFinite(closest)) closest = t.pieceSize;
  const wanted = Math.ceil((t.space[0] * MIN_TAP) / closest);
  state.boardWidth = Math.max(state.boardWidth ?? 0, wanted);
  svg.style.minWidth = `${state.boardWidth}px`;
  const pixels = svg.getBoundingClientRect().width / t.space[0] || 1;
  svg.dataset.closest = closest.toFixed(1);
  return (base) => Math.min(Math.max(base, MIN_TAP / 2 / pixels), closest / 2);
}

// What a button would do, drawn faintly on the board while it is pointed at or focused: the
// points whose piece every move it leads to changes the same way (the L-game's first click: the
// L it places, not the neutral piece moved after it). `b` null clears it.
function preview(pos, b) {
  const layer = $("preview");
  if (!layer) return;
  layer.innerHTML = "";
  if (!b) return;
  const t = state.theme;
  const cells = (p) => [...(p.split("_")[1] ?? "")];
  const now = cells(pos.autoguiPosition);
  const after = b.moves.map((m) => cells(m.autoguiPosition ?? ""));
  now.forEach((c, i) => {
    const next = after[0]?.[i];
    if (next === undefined || next === c || !after.every((a) => a[i] === next)) return;
    const e = t.entities[next];
    if (!e || !t.centers[i]) return;
    const [x, y] = t.centers[i];
    el("g", { transform: `translate(${x},${y}) scale(${t.pieceSize})`, opacity: 0.45, "data-entity": next }, layer).innerHTML = e.svg;
  });
}

// The piece or mark a part button chooses, where the button is a part of a move, its token is
// one of the theme's pieces (GamesmanUni's button characters mapped back), and that piece is not
// drawn at the button's point already.
function partIcon(pos, b, token, center) {
  const t = state.theme;
  if (!b.best.partMoves) return null;
  const entity = t.tokens?.[token] ?? token;
  if (!t.entities[entity]) return null;
  const cells = [...(pos.autoguiPosition.split("_")[1] ?? "")];
  return cells[center] === entity ? null : entity;
}

function drawButtons(pos, layer) {
  const t = state.theme;
  const s = t.pieceSize;
  // Point buttons last, on top: a tap on a point is that point's move even where a line's label
  // (Tac Tix's runs) crosses it.
  const ordered = buttons(pos).sort((x, y) => (x.gui[0] === "A") - (y.gui[0] === "A"));
  const radius = fitButtons(ordered.map((b) => buttonAt(b.gui)));
  for (const b of ordered) {
    const m = b.best;
    const color = COLORS[m.moveValue];
    const [type, a, c] = b.gui.split("_");
    const e = el("g", { fill: color, stroke: color }, layer);
    let at, size;
    if (type === "A") {
      const [x, y] = t.centers[Number(c)];
      size = radius(s * 0.24);
      el("circle", { cx: x, cy: y, r: size, stroke: "#fff", "stroke-width": size * 0.125, class: "target" }, e);
      at = [x, y];
    } else {
      const [x1, y1] = t.centers[Number(a)];
      const [x2, y2] = t.centers[Number(c)];
      const len = Math.hypot(x2 - x1, y2 - y1);
      const shrink = Math.min(s * 0.3, len / 3);
      const [dx, dy] = [(x2 - x1) / len, (y2 - y1) / len];
      const sx = x1 + dx * shrink, sy = y1 + dy * shrink, ex = x2 - dx * shrink, ey = y2 - dy * shrink;
      if (type === "M") {
        const w = t.arrowWidth, hx = ex - dx * w * 1.6, hy = ey - dy * w * 1.6;
        el("line", { x1: sx, y1: sy, x2: hx, y2: hy, "stroke-width": w, "stroke-linecap": "round" }, e);
        el("polygon", {
          points: `${ex},${ey} ${hx - dy * w * 1.4},${hy + dx * w * 1.4} ${hx + dy * w * 1.4},${hy - dx * w * 1.4}`,
          stroke: "none",
        }, e);
      } else {
        el("line", { x1: sx, y1: sy, x2: ex, y2: ey, "stroke-width": t.arrowWidth, "stroke-linecap": "round" }, e);
      }
      at = buttonAt(b.gui);
      size = radius(s * 0.2);
      el("circle", { cx: at[0], cy: at[1], r: size, stroke: "#fff", "stroke-width": size * 0.15, class: "target" }, e);
    }
    // A part that chooses a piece or a mark not on the board (Chung-Toi's orientation) shows it;
    // a button on a piece (Quarto's piece to give, Dodgem's car) is a ring around it, so that the
    // piece stays in sight.
    const icon = type === "A" && partIcon(pos, b, a, Number(c));
    const cells = [...(pos.autoguiPosition.split("_")[1] ?? "")];
    const onPiece = type === "A" && !icon && Boolean(t.entities[cells[Number(c)]]);
    const disc = e.querySelector("circle");
    if (icon) {
      disc.setAttribute("fill", "#fff");
      disc.setAttribute("stroke", color);
      disc.setAttribute("stroke-width", size * 0.22);
      const g = el("g", { transform: `translate(${at[0]},${at[1]}) scale(${size * 1.5})`, class: "icon", "data-entity": icon }, e);
      g.innerHTML = t.entities[icon].svg;
    } else if (onPiece) {
      disc.setAttribute("fill-opacity", 0.12);
      disc.setAttribute("stroke", color);
      disc.setAttribute("stroke-width", size * 0.16);
    }
    // The label in proportion to its button (beside an icon or a piece: small, at its top right).
    const f = size / 0.24;
    const badge = icon || onPiece;
    const [lx, ly, lf] = badge ? [at[0] + size * 0.8, at[1] - size * 0.6, f * 0.13] : [at[0], at[1] + f * 0.065, f * (label(m).length > 2 ? 0.15 : 0.19)];
    if (badge) el("circle", { cx: lx, cy: ly - lf * 0.35, r: lf * (label(m).length > 1 ? 1.1 : 0.9), stroke: "none" }, e);
    const text = el("text", {
      x: lx, y: ly, "font-size": lf,
      "text-anchor": "middle", fill: m.moveValue === "tie" ? "#1f2933" : "#fff", stroke: "none",
      "font-weight": 700, class: "label",
    }, e);
    text.textContent = label(m);
    // Worse moves of the same value fade with their distance from the best (deltaRemoteness).
    const opacity = Math.max(0.35, 1 - 0.2 * (m.deltaRemoteness ?? 0));
    e.setAttribute("opacity", opacity.toFixed(2));
    e.classList.add("move", m.moveValue);
    e.setAttribute("data-move", completes(b) ? m.move : b.gui);
    e.setAttribute("data-value", m.moveValue);
    e.setAttribute("data-label", label(m));
    e.setAttribute("tabindex", "0");
    e.setAttribute("role", "button");
    const r = moveRemoteness(m);
    const what = `${m.moveValue}s${r === null ? "" : " in " + r}`;
    const name = b.moves.length === 1 ? m.move : `${b.moves.length} moves`;
    e.setAttribute("aria-label", `${completes(b) ? m.move : "part of " + name}: ${what}`);
    el("title", {}, e).textContent = b.moves.length === 1 ? `${m.move}: ${what}` : `${name}, the best ${what}`;
    e.addEventListener("click", () => { state.keyboard = false; click(b); });
    for (const on of ["mouseenter", "focus"]) e.addEventListener(on, () => preview(pos, b));
    for (const off of ["mouseleave", "blur"]) e.addEventListener(off, () => preview(pos, null));
    e.addEventListener("keydown", (ev) => {
      if (ev.key !== "Enter" && ev.key !== " ") return;
      ev.preventDefault();
      state.keyboard = true;
      click(b);
    });
  }
  if (state.keyboard) layer.querySelector(".move")?.focus({ preventScroll: true });
  // A board wider than the screen (a phone's) scrolls to where the buttons are.
  const box = $("board-box");
  if (box.scrollWidth > box.clientWidth && ordered.length > 0) {
    const xs = ordered.map((b) => buttonAt(b.gui)[0]);
    const middle = (Math.min(...xs) + Math.max(...xs)) / 2;
    const pixels = $("board").getBoundingClientRect().width / t.space[0];
    box.scrollLeft = Math.max(0, middle * pixels - box.clientWidth / 2);
  }
}

// The value history after 000 Figure 4.5 and GamesmanUni: one row per position (its move number
// on both sides), the first player's wins to the left and the second's to the right, remoteness
// counted from the edges (0) toward the middle, where ties and draws sit; the scale is fixed per
// variant (its highest remoteness), so a position keeps its place as the game goes on.
function drawHistory() {
  const svg = $("history");
  svg.innerHTML = "";
  const points = state.history.slice(0, state.index + 1).map(cached);
  const seen = Math.max(1, ...points.map((p) => Math.max(0, p.remoteness ?? 0)));
  const scale = Math.max(state.info.highestRemoteness ?? 0, seen);
  svg.dataset.scale = scale;
  const W = 420, side = 30, top = 36, row = 20, bottom = 24, mid = W / 2, gap = 16;
  const H = top + points.length * row + bottom;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("height", H);
  // x of remoteness r on a side (-1: the first player's, +1: the second's).
  const half = mid - side - gap;
  const xOf = (r, sign) => mid + sign * (gap + half * (1 - r / scale));
  const text = (x, y, s, cls, anchor = "middle") => {
    const t = el("text", { x, y, "font-size": 11, fill: "#52606d", "text-anchor": anchor, class: cls }, svg);
    t.textContent = s;
  };
  const wins = (name) => `${name} ${verb(name, "wins", "win")}`;
  text(side, 12, wins(state.info.players[0]), "side-label", "start");
  text(W - side, 12, wins(state.info.players[1]), "side-label", "end");
  const step = scale <= 10 ? 1 : scale <= 30 ? 5 : scale <= 100 ? 10 : 50;
  const ticks = [];
  for (let r = 0; r <= scale; r += step) ticks.push(r);
  if (ticks[ticks.length - 1] !== scale) {
    if (scale - ticks[ticks.length - 1] < step / 2) ticks.pop();
    ticks.push(scale);
  }
  for (const sign of [-1, 1]) {
    for (const r of ticks) {
      const x = xOf(r, sign);
      el("line", { x1: x, y1: top - 6, x2: x, y2: H - bottom + 2, stroke: "#e4e7eb" }, svg);
      text(x, top - 10, r, "col-label");
      text(x, H - 8, r, "col-label");
    }
  }
  el("line", { x1: mid, y1: top - 6, x2: mid, y2: H - bottom + 2, stroke: "#9aa5b1", "stroke-dasharray": "4 3" }, svg);
  text(mid, top - 22, "tie/draw", "col-label-mid");
  const xy = points.map((p, i) => {
    const y = top + i * row + row / 2;
    text(side - 8, y + 4, i, "row-label", "end");
    text(W - side + 8, y + 4, i, "row-label", "start");
    if (unknown(p)) return [null, y, p];
    if (["tie", "draw"].includes(p.positionValue)) return [mid, y, p];
    const firstWins = (p.positionValue === "win") === firstToMove(p);
    return [xOf(Math.max(0, p.remoteness ?? 0), firstWins ? -1 : 1), y, p];
  });
  // The line joins known values; a value not known yet breaks it.
  let run = [];
  for (const [x, y] of [...xy, [null, 0]]) {
    if (x !== null) { run.push(`${x},${y}`); continue; }
    if (run.length > 1) el("polyline", { points: run.join(" "), fill: "none", stroke: "#627d98", "stroke-width": 1.5 }, svg);
    run = [];
  }
  xy.forEach(([x, y, p], i) => {
    if (x === null) {
      // Not known yet: a pale band across the row (it could be anywhere), no point.
      const g = el("g", { class: "vh-point unsolved", "data-value": p.positionValue, "data-remoteness": "" }, svg);
      el("rect", { x: side, y: y - row / 2 + 3, width: W - 2 * side, height: row - 6, rx: 4, fill: COLORS.unsolved, opacity: 0.15 }, g);
      const q = el("text", { x: mid, y: y + 4, "font-size": 11, "text-anchor": "middle", fill: "#0e7490" }, g);
      q.textContent = "? not known yet";
      el("title", {}, g).textContent = `after move ${i}: ${words(p)}`;
      return;
    }
    const c = el("circle", { cx: x, cy: y, r: 5, fill: COLORS[p.positionValue] }, svg);
    c.classList.add("vh-point", p.positionValue);
    c.setAttribute("data-value", p.positionValue);
    c.setAttribute("data-remoteness", p.remoteness ?? "");
    el("title", {}, c).textContent = `after move ${i}: ${words(p)}`;
  });
  $("history-box").scrollTop = H;
}

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

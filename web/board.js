// perfectplay's page: drawing a position, its board (Image AutoGUI, 003 section 5.3) with
// every move's button, the last move, the end, and the value history. Loaded before app.js,
// whose state and helpers it uses when called.
"use strict";

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

// The characters of an AutoGUI position's board, one a center.
const cellsOf = (autogui) => [...(autogui.split("_")[1] ?? "")];

// The pieces of `cells` (one a center; another character, or none, draws nothing) at their
// centers of theme `t`, into `layer`, each with `attrs` besides.
function drawPieces(layer, t, cells, attrs = {}) {
  cells.forEach((c, i) => {
    const e = t.entities[c];
    if (!e || !t.centers[i]) return;
    const [x, y] = t.centers[i];
    const at = { transform: `translate(${x},${y}) scale(${t.pieceSize})`, "data-entity": c, ...attrs };
    el("g", at, layer).innerHTML = e.svg;
  });
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
  drawPieces(el("g", { id: "pieces" }, svg), t, cellsOf(pos.autoguiPosition));
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
  let centers = [];
  if (before) {
    const [was, now] = [cellsOf(before.autoguiPosition), cellsOf(pos.autoguiPosition)];
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
  const now = cellsOf(pos.autoguiPosition);
  const after = b.moves.map((m) => cellsOf(m.autoguiPosition ?? ""));
  const placed = now.map((c, i) => {
    const next = after[0]?.[i];
    return next !== undefined && next !== c && after.every((a) => a[i] === next) ? next : null;
  });
  drawPieces(layer, state.theme, placed, { opacity: 0.45 });
}

// The piece or mark a part button chooses, where the button is a part of a move, its token is
// one of the theme's pieces (GamesmanUni's button characters mapped back), and that piece is not
// drawn at the button's point already.
function partIcon(pos, b, token, center) {
  const t = state.theme;
  if (!b.best.partMoves) return null;
  const entity = t.tokens?.[token] ?? token;
  if (!t.entities[entity]) return null;
  return cellsOf(pos.autoguiPosition)[center] === entity ? null : entity;
}

function drawButtons(pos, layer) {
  const t = state.theme;
  const s = t.pieceSize;
  // Point buttons last, on top: a tap on a point is that point's move even where a line's label
  // (Tac Tix's runs) crosses it.
  const ordered = buttons(pos).sort((x, y) => (x.gui[0] === "A") - (y.gui[0] === "A"));
  const radius = fitButtons(ordered.map((b) => buttonAt(b.gui)));
  const board = cellsOf(pos.autoguiPosition);
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
    const onPiece = type === "A" && !icon && Boolean(t.entities[board[Number(c)]]);
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

// perfectplay's page: the home page of games, choosing a game and a variant, and a variant's
// solve (its cost said first, its progress followed, cancelled). Loaded before app.js, whose
// state and helpers it uses when called.
"use strict";

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
  drawPieces(svg, t, cellsOf(info.autoguiStartPosition));
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

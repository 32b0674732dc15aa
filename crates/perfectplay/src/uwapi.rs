//! The API's answers in the shape GamesCraftersUWAPI gives them, so that GamesmanUni (its Vue
//! client) plays our games unchanged, beside the fields our own page reads.
//!
//! What GamesmanUni needs and why (its source: `src/scripts/apis/gamesCrafters/types.ts`,
//! `src/scripts/gamesmanUni/index.ts`, `src/components/units/GameBody/ImageAutoGUI.vue`):
//! - Images resolve only against the files bundled with it (`models/images/svg/<path>`; an
//!   unknown path throws), so `charImages` name its general pieces, chosen by the colour of our
//!   entities (digits: its digit images), and `background` is left out (an empty or unknown one throws); our SVG board goes
//!   in `backgroundSvg` for our page.
//! - A token button whose character has a `charImages` entry is drawn from that image's
//!   `#MoveButtonSVG` element, which its general pieces lack: token buttons get a character of
//!   their own (drawn as a circle).
//! - Moves are keyed by `autoguiMove`: present and unique in a position; a move with no board
//!   button has `autoguiMove` equal to `move` (what a click on a listed move sends).
//! - A draw's remoteness is -200 (its `INFINITY`); 0 ends a match.
//! - A value not known yet (a variant not solved, a live search under way) is `unsolved`, its
//!   word, with remoteness -100 (its `FINITE_UNKNOWN`); the moves are listed all the same, and its
//!   computer chooses among them all.
//! - Multipart moves come flattened, as UWAPI's multipart handler gives them: a position
//!   `<position>;<part>;<part>` is the state after those parts, whose moves are the next parts
//!   (`~<part>`, to the next state) or the moves they complete (to the real child). Our page reads
//!   the whole moves with their parts from `fullMoves`.
//! - Its custom Tic-Tac-Toe (and Quarto) board reads `position` in AutoGUI form (`1_---------`):
//!   for those games positions are sent in that form, and accepted back.

use std::collections::HashMap;

use perfectplay_core::{
    AutoGuiMove, Game, GameExt, ImageAutoGui, Move, Position, Remoteness, Value, ValueRemoteness,
};
use serde_json::{json, Value as JsonValue};

use crate::oracle::PositionReport;

/// Game ids whose GamesmanUni board parses `position` itself, in AutoGUI form.
const READS_AUTOGUI_POSITION: &[&str] = &["tictactoe"];

/// GamesmanUni's `INFINITY` remoteness: a draw.
pub const DRAW_REMOTENESS: i64 = -200;

/// GamesmanUni's `FINITE_UNKNOWN` remoteness, sent where a value is not known yet.
pub const UNKNOWN_REMOTENESS: i64 = -100;

/// GamesmanUni's value of a position not solved: its moves are offered without hints.
pub const UNSOLVED: &str = "unsolved";

/// GamesmanUni's bundled general pieces and their colours.
const BUNDLED_PIECES: &[(&str, (u8, u8, u8))] = &[
    ("general/whitepiece.svg", (0xff, 0xff, 0xff)),
    ("general/blackpiece.svg", (0x00, 0x00, 0x00)),
    ("general/redpiece.svg", (0xd0, 0x20, 0x20)),
    ("general/bluepiece.svg", (0x20, 0x40, 0xd0)),
    ("general/brownpiece.svg", (0x8b, 0x5a, 0x2b)),
    ("general/green_circle.svg", (0x20, 0xa0, 0x40)),
    ("general/yellow_circle.svg", (0xf0, 0xd0, 0x20)),
    ("general/orange_circle.svg", (0xf0, 0x80, 0x20)),
    ("general/purple_circle.svg", (0x80, 0x30, 0xa0)),
    ("general/teal_circle.svg", (0x20, 0x90, 0x90)),
    ("general/pink_circle.svg", (0xf0, 0x90, 0xc0)),
    ("general/brown_circle.svg", (0x8b, 0x5a, 0x2b)),
];

/// Characters for token buttons whose own character has an image.
const BUTTON_CHARS: &str = "ZYXWVUQJKHGFEDCBAzyvuqjkhgfedcba9876543210";

/// The `gui` level GamesmanUni groups games by: v2 is an Image AutoGUI, v0 none.
pub fn gui_level(has_theme: bool) -> &'static str {
    if has_theme {
        "v2"
    } else {
        "v0"
    }
}

/// How one variant's AutoGUI maps onto GamesmanUni's.
#[derive(Debug, Default)]
pub struct Mapping {
    /// Token button characters that would draw an image, and the characters sent instead.
    buttons: HashMap<char, char>,
    /// Whether positions are sent (and taken) in AutoGUI form.
    autogui_positions: bool,
}

/// The first `#rrggbb` fill of an entity's SVG.
fn fill_colour(svg: &str) -> Option<(u8, u8, u8)> {
    let at = svg.find("fill=\"#")? + 7;
    let hex = svg.get(at..at + 6)?;
    let c = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    Some((c(0)?, c(2)?, c(4)?))
}

/// The Image AutoGUI data, in both forms, and the mapping of its buttons.
pub fn theme(game: &dyn Game, t: &ImageAutoGui) -> (JsonValue, Mapping) {
    let mut free: Vec<(&str, (u8, u8, u8))> = BUNDLED_PIECES.to_vec();
    let mut char_images = serde_json::Map::new();
    for e in &t.entities {
        if e.token.is_ascii_digit() {
            // Digits (scores, counts) have images of their own.
            let image = format!("general/{}.svg", e.token);
            char_images.insert(e.token.to_string(), json!({"image": image, "scale": t.piece_size}));
            continue;
        }
        let colour = fill_colour(&e.svg).unwrap_or((0x80, 0x80, 0x80));
        let distance = |c: (u8, u8, u8)| {
            let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2);
            d(c.0, colour.0) + d(c.1, colour.1) + d(c.2, colour.2)
        };
        if let Some(k) = (0..free.len()).min_by_key(|&k| distance(free[k].1)) {
            let (image, _) = free.remove(k);
            char_images.insert(e.token.to_string(), json!({"image": image, "scale": t.piece_size}));
        }
    }
    let autogui_positions = READS_AUTOGUI_POSITION.contains(&game.id());
    // Its custom boards read the token of a button as the piece placed: keep it there.
    let mut pool = BUTTON_CHARS.chars().filter(|c| !t.entities.iter().any(|e| e.token == *c));
    let buttons = if autogui_positions {
        HashMap::new()
    } else {
        t.entities.iter().filter_map(|e| Some((e.token, pool.next()?))).collect()
    };
    let json = json!({
        "defaultTheme": t.theme,
        "themes": {
            t.theme: {
                "space": [t.size.0, t.size.1],
                "centers": t.centers.iter().map(|c| [c.0, c.1]).collect::<Vec<_>>(),
                "charImages": char_images,
                "arrowWidth": t.arrow_width,
                "circleButtonRadius": t.piece_size * 0.2,
                "backgroundSvg": t.background,
                "entities": t.entities.iter()
                    .map(|e| (e.token.to_string(), json!({"svg": e.svg})))
                    .collect::<serde_json::Map<_, _>>(),
                "pieceSize": t.piece_size,
                "pointNames": point_names(game, t.centers.len()),
                // Our page's: the piece each of GamesmanUni's button characters stands for.
                "tokens": buttons.iter()
                    .map(|(entity, button)| (button.to_string(), json!(entity.to_string())))
                    .collect::<serde_json::Map<_, _>>(),
            }
        }
    });
    (json, Mapping { buttons, autogui_positions })
}

/// Positions looked at for the names of the points, at most.
const NAMING_POSITIONS: usize = 500;

/// The name each point has in the move notation (`a7`), where the notation names points: read
/// off the moves of the positions near the start, each move's coordinates in its text (a letter
/// and a number, in order) matched with the points its buttons touch (in order), where the two
/// counts agree. A point named two ways, or never, has none, and so does a name given to two.
pub fn point_names(game: &dyn Game, points: usize) -> Vec<Option<String>> {
    let mut names: Vec<Option<String>> = vec![None; points];
    let mut conflicting = vec![false; points];
    let mut seen = std::collections::HashSet::new();
    let mut queue = std::collections::VecDeque::from([game.start()]);
    while let Some(p) = queue.pop_front() {
        if seen.len() >= NAMING_POSITIONS || names.iter().all(Option::is_some) {
            break;
        }
        if !seen.insert(p) {
            continue;
        }
        for mv in game.legal_moves(p) {
            let parts = game.move_parts(p, mv);
            let buttons = if parts.is_empty() {
                game.autogui_move(p, mv).into_iter().collect()
            } else {
                parts
            };
            let mut touched: Vec<usize> = Vec::new();
            for b in buttons {
                let ends = match b {
                    AutoGuiMove::Token { at, .. } => vec![at],
                    AutoGuiMove::Arrow { from, to } | AutoGuiMove::Line { from, to } => {
                        vec![from, to]
                    }
                };
                for c in ends {
                    if touched.last() != Some(&c) {
                        touched.push(c);
                    }
                }
            }
            let coordinates = coordinates(&game.move_to_string(p, mv));
            if coordinates.len() == touched.len() {
                for (c, name) in touched.into_iter().zip(coordinates) {
                    match names.get_mut(c) {
                        Some(Some(known)) if *known != name => conflicting[c] = true,
                        Some(slot) => *slot = Some(name),
                        None => {}
                    }
                }
            }
            queue.push_back(game.do_move(p, mv));
        }
    }
    // A name must name one point: one on two (the L-game's orientation buttons beside its
    // squares) names neither.
    let mut count = std::collections::HashMap::new();
    for name in names.iter().flatten() {
        *count.entry(name.clone()).or_insert(0) += 1;
    }
    for (name, conflict) in names.iter_mut().zip(conflicting) {
        if conflict || name.as_ref().is_some_and(|n| count[n] > 1) {
            *name = None;
        }
    }
    names
}

/// The coordinates in a move's text: each a lower-case letter (not inside a word; `x` for a
/// capture may come before it) and the digits after it (`a7`, `d10`), in order.
fn coordinates(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        let before = i.checked_sub(1).map(|k| b[k]);
        let word = before.is_some_and(|c| c.is_ascii_lowercase() && c != b'x');
        if b[i].is_ascii_lowercase() && digits > 0 && !word {
            out.push(text[i..=i + digits].to_string());
            i += 1 + digits;
        } else {
            i += 1;
        }
    }
    out
}

impl Mapping {
    /// A move or part in GamesmanUni's form.
    fn button(&self, m: AutoGuiMove) -> String {
        match m {
            AutoGuiMove::Token { token, at } => {
                let token = self.buttons.get(&token).copied().unwrap_or(token);
                AutoGuiMove::Token { token, at }.to_string()
            }
            other => other.to_string(),
        }
    }

    /// A position as sent.
    pub fn position_text(&self, game: &dyn Game, p: Position) -> String {
        if self.autogui_positions {
            game.autogui_position(p)
        } else {
            game.position_to_string(p)
        }
    }
}

/// The value of `name` in a raw query string, percent-decoded. A `+` stays a `+`: GamesmanUni
/// sends positions unencoded (Chung Toi's `+` pieces among them), and our page encodes its own.
pub fn query_value(raw: &str, name: &str) -> Option<String> {
    let value = raw.split('&').find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))?;
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    Some(String::from_utf8_lossy(&out).into_owned())
}

/// A position given in AutoGUI form (`1_...`), where its text form follows the turn and `_`
/// and the two agree.
pub fn parse_autogui(game: &dyn Game, text: &str) -> Option<Position> {
    let rest = text.strip_prefix("1_").or_else(|| text.strip_prefix("2_"))?;
    let p = game.parse_position(rest).ok()?;
    (game.autogui_position(p) == text).then_some(p)
}

/// A value's remoteness as sent: none (-200) for a draw, GamesmanUni's unknown (-100) where the
/// value is not known yet.
pub fn remoteness(vr: Option<ValueRemoteness>) -> JsonValue {
    match vr {
        None => json!(UNKNOWN_REMOTENESS),
        Some(vr) => match vr.remoteness() {
            Some(r) if vr.value() != Value::Draw => json!(r.0),
            _ => json!(DRAW_REMOTENESS),
        },
    }
}

/// A value as sent: its name, or "unsolved" (GamesmanUni's word) where it is not known yet.
pub fn value_name(vr: Option<ValueRemoteness>) -> &'static str {
    vr.map_or(UNSOLVED, |v| v.value().name())
}

/// A whole move as an answer shows it, with its values where they are known.
#[derive(Clone, Debug)]
pub struct Line {
    pub mv: Move,
    pub text: String,
    pub child: Position,
    /// The child's value, from the view of the player to move there.
    pub child_value: Option<ValueRemoteness>,
    /// How much worse than the best move, in remoteness (0 for the best and the unknown).
    pub delta_remoteness: u16,
}

impl Line {
    /// What the move is worth to the player making it.
    fn value(&self) -> Option<ValueRemoteness> {
        self.child_value.map(ValueRemoteness::to_parent)
    }
}

/// A position as an answer shows it: its value and its moves' where known, the moves best
/// first (an unknown move after the known wins, ties and draws, before the known losses).
#[derive(Clone, Debug)]
pub struct Shown {
    pub position: Position,
    pub value: Option<ValueRemoteness>,
    pub lines: Vec<Line>,
}

impl Shown {
    /// A solved position's report.
    pub fn solved(r: &PositionReport) -> Shown {
        let lines = r
            .moves
            .iter()
            .map(|m| Line {
                mv: m.mv,
                text: m.text.clone(),
                child: m.child,
                child_value: Some(m.child_value),
                delta_remoteness: m.delta_remoteness,
            })
            .collect();
        Shown { position: r.position, value: Some(r.value), lines }
    }

    /// A position whose value is not known (a variant not solved, a live search under way): its
    /// moves, each with the child's value where `known` has it or the game ends there. A
    /// position where the game ends has its value.
    pub fn unsolved(
        game: &dyn Game,
        p: Position,
        known: &dyn Fn(Position) -> Option<ValueRemoteness>,
    ) -> Shown {
        let ended = |p: Position| game.primitive(p).map(|v| ValueRemoteness::new(v, Remoteness(0)));
        let mut lines: Vec<Line> = game
            .legal_moves(p)
            .into_iter()
            .map(|mv| {
                let child = game.do_move(p, mv);
                Line {
                    mv,
                    text: game.move_to_string(p, mv),
                    child,
                    child_value: known(child).or_else(|| ended(child)),
                    delta_remoteness: 0,
                }
            })
            .collect();
        // Known wins, ties and draws, then the unknown, then known losses: best first.
        lines.sort_by_key(|l| {
            let v = l.value();
            let class = match v.map(|v| v.value()) {
                Some(Value::Lose) => 0,
                None => 1,
                Some(_) => 2,
            };
            std::cmp::Reverse((class, v))
        });
        Shown { position: p, value: ended(p), lines }
    }
}

/// One step of a move in GamesmanUni's list.
struct Entry<'a> {
    name: String,
    button: String,
    best: &'a Line,
    /// To the real child (else to the state after one more part).
    complete: bool,
    next: String,
}

/// A position's answer: UWAPI's fields (with multipart moves flattened from the state `parts`
/// name, after the real position `real`), and ours (`fullMoves`, each move's `partMoves`).
/// Values not known yet are "unsolved", with remoteness -100. `None` when no move begins with
/// `parts`.
pub fn position_json(
    game: &dyn Game,
    map: &Mapping,
    shown: &Shown,
    real: &str,
    parts: &[String],
) -> Option<JsonValue> {
    let entries = entries(game, map, shown, real, parts);
    // A state inside a move is worth the best move it can complete to, one move further.
    let worth = match entries.first() {
        Some(e) if !parts.is_empty() => e.best.value(),
        None if !parts.is_empty() => return None,
        _ => shown.value,
    };
    let requested =
        std::iter::once(real.to_string()).chain(parts.iter().cloned()).collect::<Vec<_>>();
    let mut o = json!({
        "position": requested.join(";"),
        "autoguiPosition": game.autogui_position(shown.position),
        "turn": game.player_name(game.to_move(shown.position)),
        "positionValue": value_name(worth),
        "remoteness": remoteness(worth),
        "moves": entries.iter().map(|e| {
            let m = e.best;
            let (position, autogui, value) = if e.complete {
                (map.position_text(game, m.child), game.autogui_position(m.child), m.child_value)
            } else {
                // The state after one more part: the mover's still, worth the best completion.
                (e.next.clone(), game.autogui_position(shown.position), m.value())
            };
            json!({
                "move": e.name,
                "autoguiMove": e.button,
                "moveValue": value_name(m.value()),
                "deltaRemoteness": m.delta_remoteness,
                "position": position,
                "autoguiPosition": autogui,
                "positionValue": value_name(value),
                "remoteness": remoteness(value),
            })
        }).collect::<Vec<_>>(),
    });
    if game.is_multipart() {
        o["fullMoves"] =
            shown.lines.iter().map(|m| full_move_json(game, map, shown.position, m)).collect();
    }
    Some(o)
}

/// A whole move as our page reads it: UWAPI's fields and, for a move in parts, `partMoves`.
fn full_move_json(game: &dyn Game, map: &Mapping, parent: Position, m: &Line) -> JsonValue {
    let mut o = json!({
        "move": m.text,
        "autoguiMove": game.autogui_move(parent, m.mv).map(|a| a.to_string()),
        "moveValue": value_name(m.value()),
        "deltaRemoteness": m.delta_remoteness,
        "position": map.position_text(game, m.child),
        "autoguiPosition": game.autogui_position(m.child),
        "positionValue": value_name(m.child_value),
        "remoteness": remoteness(m.child_value),
    });
    let parts = game.move_parts(parent, m.mv);
    if !parts.is_empty() {
        o["partMoves"] = json!(parts.iter().map(ToString::to_string).collect::<Vec<_>>());
    }
    o
}

/// The moves of the state after `parts` (in GamesmanUni's part form), best first.
fn entries<'a>(
    game: &dyn Game,
    map: &Mapping,
    shown: &'a Shown,
    real: &str,
    parts: &[String],
) -> Vec<Entry<'a>> {
    let mut out: Vec<Entry<'a>> = Vec::new();
    let p = shown.position;
    for m in &shown.lines {
        let whole: Vec<String> =
            game.move_parts(p, m.mv).into_iter().map(|p| map.button(p)).collect();
        let (key, complete) = if whole.is_empty() {
            if !parts.is_empty() {
                continue;
            }
            let key = game.autogui_move(p, m.mv).map(|a| map.button(a));
            (key.unwrap_or_else(|| m.text.clone()), true)
        } else {
            if whole.len() <= parts.len() || whole[..parts.len()] != *parts {
                continue;
            }
            (whole[parts.len()].clone(), whole.len() == parts.len() + 1)
        };
        match out.iter_mut().find(|e| e.button == key) {
            // Moves come best first: the first of a group is its best. Parts shared by several
            // moves lead to a state; whole moves sharing a button are one to GamesmanUni.
            Some(e) if !whole.is_empty() => e.complete = false,
            Some(_) => {}
            None => out.push(Entry {
                name: m.text.clone(),
                button: key.clone(),
                best: m,
                complete,
                next: String::new(),
            }),
        }
    }
    for e in &mut out {
        if !e.complete {
            e.name = format!("~{}", e.button);
            e.next = std::iter::once(real)
                .chain(parts.iter().map(String::as_str))
                .chain([e.button.as_str()])
                .collect::<Vec<_>>()
                .join(";");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn coordinates_are_read_off_a_moves_text() {
        assert_eq!(super::coordinates("a7"), ["a7"]);
        assert_eq!(super::coordinates("d7d5d3"), ["d7", "d5", "d3"]);
        assert_eq!(super::coordinates("Ka1b2"), ["a1", "b2"]);
        assert_eq!(super::coordinates("a7-d7xb6"), ["a7", "d7", "b6"]);
        assert!(super::coordinates("c").is_empty());
    }
}

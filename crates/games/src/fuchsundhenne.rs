//! Fuchs und Henne (002, Teufl, 2.2, the version 2.2.5 selects): two foxes against 9 to 20 hens
//! on the 33 points of the cross board, with the hen house, the 3x3 square of c5 to e7 at the
//! bottom. The hens open. A hen steps to an empty neighboring point forward (down the board) or
//! sideways, never back and never diagonally. A fox steps along a line of the board to an empty
//! point: every orthogonal line, and the diagonals drawn on it (those through d4, c3 and the other
//! points whose column and row add up to an even number). A fox jumps along a line over an
//! adjacent hen to the empty point just beyond it, capturing it; it may go on jumping, as one
//! move that may stop after any jump. A hen in the hen house cannot be captured.
//!
//! Capturing is compulsory, with 002's penalty: when the foxes step while one of them could have
//! captured, the hens may take one fox off the board as their next move (or move a hen instead).
//! With one fox left, a capture rescues the other: the hens' next move is to put it back on any
//! empty point. The hens win when the hen house is full (9 hens in it), when the foxes cannot
//! move, and when no fox is left. The foxes win when fewer than 9 hens are left (the capture that
//! leaves 8 ends the game, even in the middle of a chain) and when the hens cannot move. Nothing
//! else ends a game: play that can go on for ever is a draw.
//!
//! The start: 002 shows its layouts only in figures that its text does not carry. Here the hens
//! fill the top arm row by row, then rows 3 and 4, each from the middle out (20 hens fill all four
//! rows), and the foxes stand on c7 and e7, the corners of the hen house. Points are named by
//! column (a to g) and row (1 at the top). The variants `N-hens-goal-G` play the same game with
//! G hens in the hen house winning and fewer than G hens losing (small games for tests).
//!
//! Position code: bits 0-32 the hens (points in reading order from c1), bits 33-38 and 39-44 the
//! foxes' points, the lesser first (33: no fox), bit 45 set when the foxes are to move, bits 46-47
//! what the hens' move must or may be (0 a hen's step, 1 a fox's removal or a step, 2 putting the
//! rescued fox back). Tiers: the number of hens and the sum of their rows; a hen's step forward
//! raises the sum and a capture lowers the count, so a tier holds only sideways steps, the foxes'
//! steps, removals and rescues. Symmetry: the left-right mirror. A tier's index is dense over its
//! eight parts (who is to move, what the hens' move is, how many foxes), the foxes' places up to
//! the mirror, and the hens' sets with the tier's row sum ranked by counting.

use crate::prelude::*;

use crate::cross::jumps::{Chase, JumpTable};
use crate::cross::sets::{fox_mask, sorted, SetRanks, NONE};
use crate::cross::tiers::Counts;
use crate::cross::{Cross, Lines, N};

mod gui;
mod index;
mod kernel;
#[cfg(test)]
mod tests;

// A position's code: the hens' points, the foxes' points (sorted, NONE for a fox off the board),
// the turn, the hens' next move.
const HENS: Field<u64> = Field::first(N as u32);
const FOX_A: Field<u8> = HENS.then(6);
const FOX_B: Field<u8> = FOX_A.then(6);
const FOXES_TO_MOVE: Field<bool> = FOX_B.then(1);
const PENDING: Field<u8> = FOXES_TO_MOVE.then(2);
/// The hens' next move: a step, a removal or a step, or the rescued fox put back.
const STEP: u8 = 0;
const REMOVE: u8 = 1;
const PLACE: u8 = 2;
/// Move code flags: a fox's capture (the rest is its place in [`FuchsUndHenne::captures`]),
/// a fox taken off, a fox put back (the rest is the point).
const CAPTURE: u32 = 1 << 31;
const TAKE_OFF: u32 = 1 << 30;
const PUT_BACK: u32 = 1 << 29;
/// The hen house's size: the hens' goal in 002's game.
const HOUSE_SIZE: u32 = 9;
/// Most hens.
const MAX_HENS: u32 = 20;
/// The order the start's hens fill the board in (see the module's header).
const FILL: [&str; 20] = [
    "d1", "c1", "e1", "d2", "c2", "e2", "d3", "c3", "e3", "b3", "f3", "a3", "g3", "d4", "c4", "e4",
    "b4", "f4", "a4", "g4",
];
const FOX_START: [&str; 2] = ["c7", "e7"];

/// The board and its move tables, and the starts of the parts of a tier's index.
#[derive(Debug)]
struct Layout {
    cross: &'static Cross,
    board: Board,
    /// Per point: the points a line joins it to, as a mask.
    lines: [u64; N],
    /// Per point: the (point jumped over, landing point) pairs along lines.
    jumps: JumpTable,
    /// Per point: where a hen may step (forward, sideways), and where a hen on it may have come
    /// from, as masks.
    hen_steps: [u64; N],
    hen_from: [u64; N],
    house: u64,
    /// The index below the tier: the hens' sets ranked beside the foxes, the foxes' classes.
    ranks: &'static SetRanks,
    /// Per part of an index ([`index::SECTIONS`]) and state: the indices of the parts before it.
    section_start: Vec<u64>,
}

static LAYOUT: std::sync::OnceLock<Layout> = std::sync::OnceLock::new();

impl Layout {
    fn new() -> Layout {
        let cross = Cross::shared();
        // A diagonal line runs through the points whose coordinates add up to an even number;
        // hens step forward or sideways.
        let lines = cross.lines(
            |(x, y), (dx, dy)| dx == 0 || dy == 0 || (x + y) % 2 == 0,
            |(dx, dy)| (dy == 1 && dx == 0) || (dy == 0 && dx != 0),
        );
        let house = cross
            .xy
            .iter()
            .enumerate()
            .filter(|(_, &(x, y))| (2..=4).contains(&x) && y >= 4)
            .fold(0, |m, (p, _)| m | 1 << p);
        let ranks = SetRanks::shared();
        let Lines { board, adjacent: lines, forward: hen_steps, forward_from: hen_from, jumps } =
            lines;
        let section_start = index::section_starts(ranks);
        Layout { cross, board, lines, jumps, hen_steps, hen_from, house, ranks, section_start }
    }

    /// The layout, made on first use.
    fn shared() -> &'static Layout {
        LAYOUT.get_or_init(Layout::new)
    }
}

/// The parts of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Parts {
    hens: u64,
    foxes: [u8; 2],
    foxes_to_move: bool,
    /// The hens' next move: [`STEP`], [`REMOVE`] or [`PLACE`].
    pending: u8,
}

impl Parts {
    fn of(p: Position) -> Parts {
        Parts {
            hens: HENS.get(p.0),
            foxes: [FOX_A.get(p.0), FOX_B.get(p.0)],
            foxes_to_move: FOXES_TO_MOVE.get(p.0),
            pending: PENDING.get(p.0),
        }
    }

    fn code(self) -> Position {
        Position(
            HENS.put(self.hens)
                | FOX_A.put(self.foxes[0])
                | FOX_B.put(self.foxes[1])
                | FOXES_TO_MOVE.put(self.foxes_to_move)
                | PENDING.put(self.pending),
        )
    }

    fn fox_count(self) -> usize {
        self.foxes.iter().filter(|&&f| f != NONE).count()
    }

    fn empty(self) -> u64 {
        HENS.mask() & !self.hens & !fox_mask(self.foxes)
    }

    /// The foxes with `from` moved to `to` (`to` = [`NONE`]: taken off).
    fn fox_moved(self, from: u8, to: u8) -> [u8; 2] {
        let other = if self.foxes[0] == from { self.foxes[1] } else { self.foxes[0] };
        sorted([other, to])
    }
}

/// Fuchs und Henne with a number of hens.
#[derive(Clone, Debug)]
pub struct FuchsUndHenne {
    hens: u32,
    goal: u32,
    layout: &'static Layout,
    variant: String,
    /// The start's hens.
    start_hens: u64,
    /// The tiers' hen counts, and the start's row sum.
    counts: Counts,
}

impl FuchsUndHenne {
    /// The variant `N-hens` (N from 9 to 20), or `N-hens-goal-G` (G from 2 to 9, N from G to 20).
    pub fn from_variant(variant: &str) -> Result<FuchsUndHenne, String> {
        let expected = "N-hens, N from 9 to 20 (e.g. 9-hens), or N-hens-goal-G, G from 2 to 9";
        let (count, goal) = match variant.split_once("-hens") {
            Some((n, "")) => (n.parse::<u32>().ok(), Some(HOUSE_SIZE)),
            Some((n, g)) => (n.parse().ok(), g.strip_prefix("-goal-").and_then(|g| g.parse().ok())),
            None => (None, None),
        };
        let (Some(hens), Some(goal)) = (count, goal) else { return Err(expected.into()) };
        if !(2..=HOUSE_SIZE).contains(&goal) || !(goal..=MAX_HENS).contains(&hens) {
            return Err(expected.into());
        }
        let layout = Layout::shared();
        let start_hens =
            FILL[..hens as usize].iter().fold(0, |m, name| m | 1 << layout.cross.point(name));
        let counts = Counts { goal, most: hens, start_sum: layout.cross.row_sum(start_hens) };
        Ok(FuchsUndHenne { hens, goal, layout, variant: variant.to_string(), start_hens, counts })
    }

    /// The chains of jumps of the fox on `fox`: a hen in the hen house is safe, the other fox
    /// blocks a landing, and the capture that leaves fewer hens than the goal ends the game.
    fn chase(&self, q: Parts, fox: u8) -> Chase<'_> {
        let l = self.layout;
        let other = fox_mask(q.foxes) & !(1 << fox);
        Chase { jumps: &l.jumps, safe: l.house, other, goal: self.goal }
    }

    /// Whether some fox could capture.
    fn can_capture(&self, q: Parts) -> bool {
        q.foxes.iter().filter(|&&f| f != NONE).any(|&f| self.chase(q, f).can_jump(q.hens, f.into()))
    }

    /// Calls `f(fox, path, hens after)` for each of the foxes' captures: the fox that jumps, and
    /// its chain ([`Chase::captures`]).
    fn captures(&self, q: Parts, mut f: impl FnMut(u8, &[u32], u64)) {
        for &fox in q.foxes.iter().filter(|&&f| f != NONE) {
            self.chase(q, fox).captures(q.hens, fox.into(), &mut |path, hens| f(fox, path, hens));
        }
    }

    /// The position after a capture by `fox` that ends on `end` with `hens` left.
    fn after_capture(&self, q: Parts, fox: u8, end: u32, hens: u64) -> Parts {
        let rescue = q.fox_count() == 1 && hens.count_ones() >= self.goal;
        Parts {
            hens,
            foxes: q.fox_moved(fox, end as u8),
            foxes_to_move: false,
            pending: if rescue { PLACE } else { STEP },
        }
    }

    /// Calls `f(from, to)` for each step of the side to move (the foxes' or the hens', not the
    /// captures, removals or rescues).
    fn each_step(&self, q: Parts, mut f: impl FnMut(u8, u8)) {
        let (l, empty) = (self.layout, q.empty());
        if q.foxes_to_move {
            for &fox in q.foxes.iter().filter(|&&f| f != NONE) {
                for to in board::bits(l.lines[fox as usize] & empty) {
                    f(fox, to as u8);
                }
            }
        } else if q.pending != PLACE {
            for from in board::bits(q.hens) {
                for to in board::bits(l.hen_steps[from] & empty) {
                    f(from as u8, to as u8);
                }
            }
        }
    }

    /// Calls `f` with the position after each move (a capture's as [`FuchsUndHenne::captures`]
    /// gives it).
    fn each_child(&self, q: Parts, mut f: impl FnMut(Parts)) {
        if q.foxes_to_move {
            let pending = if self.can_capture(q) { REMOVE } else { STEP };
            self.each_step(q, |from, to| {
                f(Parts { foxes: q.fox_moved(from, to), foxes_to_move: false, pending, ..q })
            });
            self.captures(q, |fox, path, hens| {
                f(self.after_capture(q, fox, path[path.len() - 1], hens))
            });
            return;
        }
        let next = Parts { foxes_to_move: true, pending: STEP, ..q };
        match q.pending {
            PLACE => {
                let fox = q.foxes[0];
                for at in board::bits(q.empty()) {
                    f(Parts { foxes: sorted([fox, at as u8]), ..next });
                }
            }
            pending => {
                if pending == REMOVE {
                    for &fox in q.foxes.iter().filter(|&&f| f != NONE) {
                        f(Parts { foxes: q.fox_moved(fox, NONE), ..next });
                    }
                }
                self.each_step(q, |from, to| {
                    f(Parts { hens: q.hens & !(1 << from) | 1 << to, ..next })
                });
            }
        }
    }

    fn has_move(&self, q: Parts) -> bool {
        let (l, empty) = (self.layout, q.empty());
        if q.foxes_to_move {
            let steps =
                q.foxes.iter().filter(|&&f| f != NONE).any(|&f| l.lines[f as usize] & empty != 0);
            steps || self.can_capture(q)
        } else {
            q.pending != STEP || board::bits(q.hens).any(|h| l.hen_steps[h] & empty != 0)
        }
    }

    /// The capture a move code names: the fox, its path and the hens after it.
    fn capture(&self, q: Parts, k: u32) -> Option<(u8, Vec<u32>, u64)> {
        let mut found = None;
        let mut i = 0;
        self.captures(q, |fox, path, hens| {
            if i == k {
                found = Some((fox, path.to_vec(), hens));
            }
            i += 1;
        });
        found
    }

    fn name(&self, point: u32) -> &str {
        self.layout.board.name(point as usize)
    }

    fn mirrored(&self, q: Parts) -> Parts {
        let l = self.layout;
        let foxes =
            q.foxes.map(|f| if f == NONE { NONE } else { l.cross.mirror[f as usize] as u8 });
        Parts { hens: l.cross.mirror_set(q.hens), foxes: sorted(foxes), ..q }
    }

    /// The position or its mirror image, whichever has the lesser code: the foxes' places in
    /// their class, and where the mirror keeps them, the lesser set of hens.
    fn canonical_parts(&self, q: Parts) -> Parts {
        let m = self.mirrored(q);
        if m.code() < q.code() {
            m
        } else {
            q
        }
    }

    /// Why a position cannot arise, if it cannot.
    fn illegal(&self, q: Parts) -> Option<String> {
        let count = q.hens.count_ones();
        let foxes = q.fox_count();
        if q.foxes.iter().any(|&f| f > NONE) || q.foxes != sorted(q.foxes) {
            return Some("the foxes' points".into());
        }
        if q.foxes[0] != NONE && q.foxes[0] == q.foxes[1] {
            return Some("two foxes on one point".into());
        }
        if fox_mask(q.foxes) & q.hens != 0 {
            return Some("a fox stands on a free point".into());
        }
        if count > self.hens {
            return Some(format!("this game has {} hens", self.hens));
        }
        if count + 1 < self.goal {
            return Some(format!("the game ended when the foxes left {} hens", self.goal - 1));
        }
        if count < self.goal && (q.foxes_to_move || q.pending != STEP || foxes == 0) {
            return Some(format!("the game ended when the foxes left {} hens", self.goal - 1));
        }
        if q.pending > PLACE || (q.foxes_to_move && q.pending != STEP) {
            return Some("only the hens' move can be a removal or a rescue".into());
        }
        let fits = match (q.foxes_to_move, q.pending) {
            (true, _) => true,
            (false, STEP) => foxes >= 1,
            (false, REMOVE) => foxes >= 1,
            _ => foxes == 1,
        };
        if !fits {
            return Some("no fox to take off or to put back, or a fox without a move".into());
        }
        None
    }

    /// The position's points as rows of 3, 3, 7, 7, 7, 3 and 3 characters.
    fn rows(&self, q: Parts) -> String {
        Cross::pieces_text(fox_mask(q.foxes), q.hens, 'H')
    }

    fn turn(q: Parts) -> &'static str {
        match (q.foxes_to_move, q.pending) {
            (true, _) => "F",
            (false, REMOVE) => "Hx",
            (false, PLACE) => "H+",
            _ => "H",
        }
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! {
    ENTRY = FuchsUndHenne::from_variant, "fuchsundhenne.rs",
        "fuchsundhenne", "Fuchs und Henne";
    default "9-hens"; syntax "N-hens, N from 9 to 20 (002's selected rules), or N-hens-goal-G \
        (G hens in the hen house win, fewer than G lose; G from 2 to 9)";
    listed &["9-hens", "13-hens", "20-hens"]; also &["3-hens-goal-2", "5-hens-goal-3"]
}

impl Game for FuchsUndHenne {
    crate::declared!(ENTRY, Large);
    fn variant(&self) -> String {
        self.variant.clone()
    }
    fn variant_description(&self) -> String {
        if self.goal == HOUSE_SIZE {
            format!("{} hens against two foxes, 002's selected rules", self.hens)
        } else {
            format!(
                "{} hens against two foxes; {} hens in the hen house win, fewer than {} lose",
                self.hens, self.goal, self.goal
            )
        }
    }
    fn start(&self) -> Position {
        let l = self.layout;
        let foxes = sorted(FOX_START.map(|name| l.cross.point(name) as u8));
        Parts { hens: self.start_hens, foxes, foxes_to_move: false, pending: STEP }.code()
    }
    fn to_move(&self, p: Position) -> Player {
        Player::second_if(Parts::of(p).foxes_to_move)
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        let q = Parts::of(p);
        // The side that has won, from the view of the side to move.
        let hens_won = if q.foxes_to_move { Value::Lose } else { Value::Win };
        let foxes_won = if q.foxes_to_move { Value::Win } else { Value::Lose };
        if q.hens.count_ones() < self.goal {
            return Some(foxes_won);
        }
        if (q.hens & self.layout.house).count_ones() >= self.goal {
            return Some(hens_won);
        }
        (!self.has_move(q)).then_some(Value::Lose)
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let q = Parts::of(p);
        if !q.foxes_to_move && q.pending == PLACE {
            out.extend(board::bits(q.empty()).map(|at| Move(PUT_BACK | at as u32)));
            return;
        }
        if !q.foxes_to_move && q.pending == REMOVE {
            let foxes = q.foxes.iter().filter(|&&f| f != NONE);
            out.extend(foxes.map(|&f| Move(TAKE_OFF | u32::from(f))));
        }
        self.each_step(q, |from, to| out.push(Move(u32::from(from) << 6 | u32::from(to))));
        if q.foxes_to_move {
            let mut k = 0;
            self.captures(q, |_, _, _| {
                out.push(Move(CAPTURE | k));
                k += 1;
            });
        }
    }
    fn children(&self, p: Position, out: &mut Vec<Position>) {
        self.each_child(Parts::of(p), |child| out.push(child.code()));
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        let q = Parts::of(p);
        let next = Parts { foxes_to_move: !q.foxes_to_move, pending: STEP, ..q };
        if mv.0 & CAPTURE != 0 {
            return match self.capture(q, mv.0 & !CAPTURE) {
                Some((fox, path, hens)) => {
                    self.after_capture(q, fox, path[path.len() - 1], hens).code()
                }
                None => next.code(),
            };
        }
        if mv.0 & TAKE_OFF != 0 {
            return Parts { foxes: q.fox_moved((mv.0 & 63) as u8, NONE), ..next }.code();
        }
        if mv.0 & PUT_BACK != 0 {
            return Parts { foxes: sorted([q.foxes[0], (mv.0 & 63) as u8]), ..next }.code();
        }
        let (from, to) = ((mv.0 >> 6 & 63) as u8, (mv.0 & 63) as u8);
        if q.foxes_to_move {
            let pending = if self.can_capture(q) { REMOVE } else { STEP };
            Parts { foxes: q.fox_moved(from, to), pending, ..next }.code()
        } else {
            Parts { hens: q.hens & !(1 << from) | 1 << to, ..next }.code()
        }
    }
    fn position_to_string(&self, p: Position) -> String {
        let q = Parts::of(p);
        format!("{} {}", self.rows(q), Self::turn(q))
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let expected = format!(
            "7 rows of 3, 3, 7, 7, 7, 3 and 3 points from the top, joined by /, each - (empty), \
             H (hen) or F (fox), then the side to move: H (the hens), Hx (the hens, who may take \
             off a fox that missed a capture), H+ (the hens, who put a rescued fox back) or F \
             (the foxes) (e.g. the start: {})",
            self.position_to_string(self.start())
        );
        let (hens, foxes, turn) = Cross::parse_text(text, 'H', &expected)?;
        let (foxes_to_move, pending) = match turn.as_str() {
            "H" => (false, STEP),
            "HX" => (false, REMOVE),
            "H+" => (false, PLACE),
            "F" => (true, STEP),
            _ => return Err(board::malformed(text, &expected)),
        };
        let foxes = match foxes[..] {
            [] => [NONE, NONE],
            [a] => [a, NONE],
            [a, b] => [a, b],
            _ => return Err(board::illegal(text, "there are two foxes at most")),
        };
        let q = Parts { hens, foxes, foxes_to_move, pending };
        crate::cross::check_parsed(text, self.illegal(q), (q.hens, "hens"), |hens, sum| {
            self.tier_exists(hens, sum)
        })?;
        Ok(q.code())
    }
    fn move_to_string(&self, p: Position, mv: Move) -> String {
        let q = Parts::of(p);
        if mv.0 & CAPTURE != 0 {
            let Some((fox, path, _)) = self.capture(q, mv.0 & !CAPTURE) else {
                return "?".into();
            };
            return crate::cross::chain_text(&self.layout.board, u32::from(fox), &path);
        }
        if mv.0 & TAKE_OFF != 0 {
            return format!("x{}", self.name(mv.0 & 63));
        }
        if mv.0 & PUT_BACK != 0 {
            return format!("+{}", self.name(mv.0 & 63));
        }
        format!("{}{}", self.name(mv.0 >> 6 & 63), self.name(mv.0 & 63))
    }
    fn move_syntax(&self) -> String {
        "a move names its points, from where the piece stands to where it lands, points [a-g][1-7] \
         with row 1 at the top (e.g. d3d4; a capture lands two points away: c7c5, and a chain of \
         captures names each landing: c7c5e5); x and a point takes off the fox there (xc5), + and \
         a point puts the rescued fox back there (+d7)"
            .into()
    }
    fn board_text(&self, p: Position) -> String {
        let q = Parts::of(p);
        let l = self.layout;
        let mut s = l.cross.pieces_grid(fox_mask(q.foxes), q.hens, 'H', l.house);
        s += &format!(
            "hens: {} ({} in the hen house, : marks it); foxes: {}\n",
            q.hens.count_ones(),
            (q.hens & l.house).count_ones(),
            q.fox_count()
        );
        s + match (q.foxes_to_move, q.pending) {
            (true, _) => "foxes to move\n",
            (false, REMOVE) => "hens to move; a fox missed a capture and may be taken off\n",
            (false, PLACE) => "hens to move: put the rescued fox back\n",
            _ => "hens to move\n",
        }
    }
    fn player_names(&self) -> [&'static str; 2] {
        ["hens", "foxes"]
    }
    perfectplay_core::capabilities!(tier_index, symmetry, undo, gui, kernel);
}

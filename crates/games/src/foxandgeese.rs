//! Fox and Geese (002, Teufl, 2.3, the version 2.3.5 selects): one fox against 4 to 15 geese on
//! the 33 points of the cross board (a 7x7 square without its four 2x2 corners). The geese open.
//! A goose steps to an empty neighboring point forward (down the board), sideways or diagonally
//! forward, never back. The fox steps to an empty point in any of the eight directions (every
//! diagonal, not only the ones drawn on a board), or jumps over an adjacent goose to the empty
//! point just beyond it on the same line, capturing it. Capturing is never compulsory; a capture
//! may go on with more jumps, in any direction, as one move that may stop after any jump. The
//! geese win when the fox cannot move. The fox wins when three geese are left: 002's variants
//! count from 4 geese, "the minimum number of geese for this game", so the capture that leaves
//! three ends the game, even in the middle of a chain of jumps. A player without a legal move
//! loses (geese that are all stuck at the bottom too). Nothing else ends a game: play that can go
//! on for ever is a draw.
//!
//! The start: 002 shows its layouts only in figures that its text does not carry. Here the geese
//! fill the top arm row by row, then row 3 from the middle out, then a4 and g4, each row from the
//! middle: 13 geese are the top arm and row 3, and 15 add a4 and g4 (the usual English layouts).
//! The fox starts in the middle, d4. Points are named by column (a to g) and row (1 at the top).
//!
//! Position code: bits 0-32 the geese (points in reading order from c1), bits 33-38 the fox's
//! point, bit 39 set when the fox is to move. Tiers: the number of geese and the sum of their
//! rows; a goose's step forward raises the sum and a capture lowers the count, so a tier holds
//! only sideways steps and the fox's steps. Symmetry: the left-right mirror (002's fingerprint).
//! A tier's index is dense over the fox's 20 points up to the mirror and the geese's sets with
//! the tier's row sum, ranked by counting (no position of another tier takes an index).

use crate::prelude::*;

use crate::cross::jumps::{Chase, JumpTable};
use crate::cross::sets::SetRanks;
use crate::cross::tiers::Counts;
use crate::cross::{Cross, Lines, N};

mod gui;
mod index;
mod kernel;
#[cfg(test)]
mod tests;

// A position's code: the geese's points, the fox's point, the turn.
const GEESE: Field<u64> = Field::first(N as u32);
const FOX: Field<u32> = GEESE.then(6);
const FOX_TO_MOVE: Field<bool> = FOX.then(1);
/// Geese on the board below which the game is over (won by the fox).
const MIN_GEESE: u32 = 4;
/// Most geese.
const MAX_GEESE: u32 = 15;
/// A move code's flag for a fox's capture; the rest is the capture's place in [`FoxAndGeese::captures`].
const CAPTURE: u32 = 1 << 31;
/// The order the start's geese fill the board in (see the module's header).
const FILL: [&str; 15] =
    ["d1", "c1", "e1", "d2", "c2", "e2", "d3", "c3", "e3", "b3", "f3", "a3", "g3", "a4", "g4"];
const FOX_START: &str = "d4";

/// The board and its move tables.
#[derive(Debug)]
struct Layout {
    board: Board,
    /// Per point: its row, 0 at the top, and its mirror image ([`Cross`]'s, kept beside the move
    /// tables that the kernel reads with them).
    row: [u32; N],
    mirror: [usize; N],
    /// Per point: its neighbors in the eight directions, as a mask.
    adjacent: [u64; N],
    /// Per point: where a goose may step (forward, sideways, diagonally forward), as a mask.
    goose_steps: [u64; N],
    /// Per point: the (point jumped over, landing point) pairs.
    jumps: JumpTable,
    /// The index below the tier: the geese's sets ranked beside the fox, the fox's classes.
    ranks: &'static SetRanks,
    cross: &'static Cross,
}

static LAYOUT: std::sync::OnceLock<Layout> = std::sync::OnceLock::new();

impl Layout {
    fn new() -> Layout {
        let cross = Cross::shared();
        // Along every line; geese step forward, sideways or diagonally forward.
        let lines = cross.lines(|_, _| true, |(_, dy)| dy >= 0);
        let Lines { board, adjacent, forward: goose_steps, jumps, .. } = lines;
        let (row, mirror, ranks) = (cross.row, cross.mirror, SetRanks::shared());
        Layout { board, row, mirror, adjacent, goose_steps, jumps, ranks, cross }
    }

    /// The layout, made on first use.
    fn shared() -> &'static Layout {
        LAYOUT.get_or_init(Layout::new)
    }
}

/// The parts of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Parts {
    geese: u64,
    fox: u32,
    fox_to_move: bool,
}

impl Parts {
    fn of(p: Position) -> Parts {
        Parts { geese: GEESE.get(p.0), fox: FOX.get(p.0), fox_to_move: FOX_TO_MOVE.get(p.0) }
    }

    fn code(self) -> Position {
        Position(GEESE.put(self.geese) | FOX.put(self.fox) | FOX_TO_MOVE.put(self.fox_to_move))
    }

    fn empty(self) -> u64 {
        GEESE.mask() & !self.geese & !(1 << self.fox)
    }

    /// The fox's point as the family's pair of foxes' points (the second none).
    fn foxes(self) -> [u8; 2] {
        [self.fox as u8, crate::cross::sets::NONE]
    }
}

/// Fox and Geese with a number of geese.
#[derive(Clone, Debug)]
pub struct FoxAndGeese {
    geese: u32,
    layout: &'static Layout,
    variant: String,
    /// The start's geese.
    start_geese: u64,
    /// The tiers' geese counts, and the start's row sum.
    counts: Counts,
}

impl FoxAndGeese {
    /// The variant `N-geese`, N from 4 to 15.
    pub fn from_variant(variant: &str) -> Result<FoxAndGeese, String> {
        let geese = variant
            .strip_suffix("-geese")
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|n| (MIN_GEESE..=MAX_GEESE).contains(n))
            .ok_or("N-geese, N from 4 to 15 (e.g. 9-geese)")?;
        let layout = Layout::shared();
        let start_geese =
            FILL[..geese as usize].iter().fold(0, |m, name| m | 1 << layout.cross.point(name));
        let counts =
            Counts { goal: MIN_GEESE, most: geese, start_sum: layout.cross.row_sum(start_geese) };
        Ok(FoxAndGeese { geese, layout, variant: variant.to_string(), start_geese, counts })
    }

    /// The fox's chains of jumps: every goose may be taken, and the capture that leaves three
    /// geese ends the game.
    fn chase(&self) -> Chase<'_> {
        Chase { jumps: &self.layout.jumps, safe: 0, other: 0, goal: MIN_GEESE }
    }

    /// Calls `f(from, to)` for each step of the player to move (not the fox's captures).
    fn each_step(&self, q: Parts, mut f: impl FnMut(u32, u32)) {
        let l = self.layout;
        let empty = q.empty();
        if q.fox_to_move {
            for to in board::bits(l.adjacent[q.fox as usize] & empty) {
                f(q.fox, to as u32);
            }
        } else {
            for from in board::bits(q.geese) {
                for to in board::bits(l.goose_steps[from] & empty) {
                    f(from as u32, to as u32);
                }
            }
        }
    }

    /// Calls `f(path, geese after)` for each of the fox's captures ([`Chase::captures`]).
    fn captures(&self, q: Parts, mut f: impl FnMut(&[u32], u64)) {
        self.chase().captures(q.geese, q.fox, &mut f);
    }

    /// Calls `f` with the position after each move (a capture's as [`FoxAndGeese::captures`]
    /// gives it).
    fn each_child(&self, q: Parts, mut f: impl FnMut(Parts)) {
        let flip = Parts { fox_to_move: !q.fox_to_move, ..q };
        self.each_step(q, |from, to| {
            f(if q.fox_to_move {
                Parts { fox: to, ..flip }
            } else {
                Parts { geese: q.geese & !(1 << from) | 1 << to, ..flip }
            })
        });
        if q.fox_to_move {
            self.captures(q, |path, geese| f(Parts { geese, fox: path[path.len() - 1], ..flip }));
        }
    }

    fn has_move(&self, q: Parts) -> bool {
        let l = self.layout;
        let empty = q.empty();
        if q.fox_to_move {
            l.adjacent[q.fox as usize] & empty != 0 || self.chase().can_jump(q.geese, q.fox)
        } else {
            board::bits(q.geese).any(|g| l.goose_steps[g] & empty != 0)
        }
    }

    /// The capture a move code names: its path and the geese after it.
    fn capture(&self, q: Parts, k: u32) -> Option<(Vec<u32>, u64)> {
        let mut found = None;
        let mut i = 0;
        self.captures(q, |path, geese| {
            if i == k {
                found = Some((path.to_vec(), geese));
            }
            i += 1;
        });
        found
    }

    fn mirrored(&self, q: Parts) -> Parts {
        let l = self.layout;
        Parts { geese: l.cross.mirror_set(q.geese), fox: l.mirror[q.fox as usize] as u32, ..q }
    }

    /// Why a position cannot arise, if it cannot.
    fn illegal(&self, q: Parts) -> Option<String> {
        let count = q.geese.count_ones();
        if q.fox as usize >= N || q.geese >> q.fox & 1 == 1 {
            return Some("the fox stands on a free point".into());
        }
        if count > self.geese {
            return Some(format!("this game has {} geese", self.geese));
        }
        if count + 1 < MIN_GEESE || (count < MIN_GEESE && q.fox_to_move) {
            return Some(format!("the game ended when the fox left {} geese", MIN_GEESE - 1));
        }
        None
    }

    /// The position's points as rows of 3, 3, 7, 7, 7, 3 and 3 characters.
    fn rows(&self, q: Parts) -> String {
        Cross::pieces_text(1 << q.fox, q.geese, 'G')
    }

    /// A point's name.
    fn name(&self, point: u32) -> &str {
        self.layout.board.name(point as usize)
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! {
    ENTRY = FoxAndGeese::from_variant, "foxandgeese.rs",
        "foxandgeese", "Fox and Geese";
    default "15-geese"; syntax "N-geese, N from 4 to 15 (002's selected rules; all solved: 4 to 14 \
        draw, 15 the geese win)";
    listed &["4-geese", "6-geese", "8-geese", "9-geese", "13-geese", "14-geese", "15-geese"];
    also &[]
}

impl Game for FoxAndGeese {
    crate::declared!(ENTRY, Large);
    fn variant(&self) -> String {
        self.variant.clone()
    }
    fn variant_description(&self) -> String {
        format!("{} geese against the fox, 002's selected rules", self.geese)
    }
    fn start(&self) -> Position {
        Parts {
            geese: self.start_geese,
            fox: self.layout.cross.point(FOX_START) as u32,
            fox_to_move: false,
        }
        .code()
    }
    fn to_move(&self, p: Position) -> Player {
        Player::second_if(Parts::of(p).fox_to_move)
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        let q = Parts::of(p);
        (q.geese.count_ones() < MIN_GEESE || !self.has_move(q)).then_some(Value::Lose)
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let q = Parts::of(p);
        self.each_step(q, |from, to| out.push(Move(from << 6 | to)));
        if q.fox_to_move {
            let mut k = 0;
            self.captures(q, |_, _| {
                out.push(Move(CAPTURE | k));
                k += 1;
            });
        }
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        let q = Parts::of(p);
        let flip = Parts { fox_to_move: !q.fox_to_move, ..q };
        if mv.0 & CAPTURE != 0 {
            let (path, geese) = self.capture(q, mv.0 & !CAPTURE).unwrap_or((vec![q.fox], q.geese));
            return Parts { geese, fox: *path.last().unwrap_or(&q.fox), ..flip }.code();
        }
        let (from, to) = (mv.0 >> 6, mv.0 & 63);
        if q.fox_to_move {
            Parts { fox: to, ..flip }.code()
        } else {
            Parts { geese: q.geese & !(1 << from) | 1 << to, ..flip }.code()
        }
    }
    fn children(&self, p: Position, out: &mut Vec<Position>) {
        self.each_child(Parts::of(p), |child| out.push(child.code()));
    }
    fn position_to_string(&self, p: Position) -> String {
        let q = Parts::of(p);
        format!("{} {}", self.rows(q), if q.fox_to_move { 'F' } else { 'G' })
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let expected = format!(
            "7 rows of 3, 3, 7, 7, 7, 3 and 3 points from the top, joined by /, each - (empty), \
             G (goose) or F (the fox), then the player to move, G or F (e.g. the start: {})",
            self.position_to_string(self.start())
        );
        let (geese, foxes, turn) = Cross::parse_text(text, 'G', &expected)?;
        let fox_to_move = match turn.as_str() {
            "G" => false,
            "F" => true,
            _ => return Err(board::malformed(text, &expected)),
        };
        let [fox] = foxes[..] else {
            return Err(board::illegal(text, "there is one fox"));
        };
        let q = Parts { geese, fox: u32::from(fox), fox_to_move };
        let exists = |geese, sum| self.tier_exists(geese, sum);
        crate::cross::check_parsed(text, self.illegal(q), (q.geese, "geese"), exists)?;
        Ok(q.code())
    }
    fn move_to_string(&self, p: Position, mv: Move) -> String {
        let q = Parts::of(p);
        if mv.0 & CAPTURE != 0 {
            let path = self.capture(q, mv.0 & !CAPTURE).map(|c| c.0).unwrap_or_default();
            return crate::cross::chain_text(&self.layout.board, q.fox, &path);
        }
        format!("{}{}", self.name(mv.0 >> 6), self.name(mv.0 & 63))
    }
    fn move_syntax(&self) -> String {
        "a move names its points, from where the piece stands to where it lands, points [a-g][1-7] \
         with row 1 at the top (e.g. d1d2; a capture lands two points away: d4d6, and a chain of \
         captures names each landing: d4d6f6)"
            .into()
    }
    fn board_text(&self, p: Position) -> String {
        let q = Parts::of(p);
        let mut s = self.layout.cross.pieces_grid(1 << q.fox, q.geese, 'G', 0);
        s += &format!("geese: {}\n", q.geese.count_ones());
        s + if q.fox_to_move { "fox to move\n" } else { "geese to move\n" }
    }
    fn player_names(&self) -> [&'static str; 2] {
        ["geese", "fox"]
    }
    perfectplay_core::capabilities!(tier_index, symmetry, undo, gui, kernel);
}

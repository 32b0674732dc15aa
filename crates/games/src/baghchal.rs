//! Bagh-Chal (003 section 4.4.1): a 5x5 board of points joined along its rows and columns, and
//! along the diagonals through the points whose row and column sum to an even number (the
//! corners, the center, and every other point). Four tigers start on the corners; 20 goats
//! (the first player's) are placed one per turn on empty points, and only once all are placed do
//! goats move, one step along a line to an empty point. A tiger moves one step along a line to an
//! empty point, or captures: it jumps along a line over an adjacent goat to the empty point just
//! beyond, and the goat leaves the board (one jump per move; capturing is never compulsory).
//! Tigers win when they have captured 5 goats; the player to move without a legal move loses (the
//! goats win when the tigers are trapped; goats that cannot move lose, as in GamesmanClassic).
//! Loopy: a draw where neither side can force its win.
//!
//! Position code: bits 0-24 the goats, 25-49 the tigers (bit `y * 5 + x`, `y` the row from the
//! top), bits 50-54 the goats still to be placed (R), bit 55 set when the tigers are to move. The
//! goats captured (C) are the rest of the 20.
//!
//! Tiers (003 4.4.3): (R, C, the player to move) while goats are placed, (0, C) after, with the
//! player to move in the index: 196 tiers, 291,915,283,550 arrangements. A placement leaves its
//! tier (R falls) and so does a capture (C rises): only moving-phase tiers have moves inside
//! themselves. Each tier is indexed over symmetry classes ([`SetClasses`]: the tigers' points
//! reduced to their least image under the 8 symmetries of the square, times the colex rank of the
//! goats' points among the points the tigers leave), so about an eighth of the arrangements.
//!
//! Variants: `regular` (003's, and GamesmanClassic's default), and small boards for tests and
//! play with GamesmanClassic's boards: `3x3` (the 3x3 board with its two long diagonals, 4 goats;
//! the tigers win by capturing all of them) and `4x4` (the 4x4 board without diagonals, 12 goats,
//! 5 captures win); `gamesman-3x3` and `gamesman-4x4` are GamesmanClassic's presets on those
//! boards (`mbaghchal.c`, options 1 and 2), where the tigers win at 1 and at 3 captures.

use std::sync::{Arc, OnceLock};

use crate::prelude::*;

mod by_move;
mod gui;
mod index;
mod kernel;
#[cfg(test)]
mod tests;

// A position's code: the goats' points, the tigers' (25 bits, every board), the goats in hand,
// the turn.
const GOATS: Field<u32> = Field::first(25);
const TIGERS_AT: Field<u32> = GOATS.then(25);
const HAND: Field<u32> = TIGERS_AT.then(5);
const TIGERS_TO_MOVE: Field<bool> = HAND.then(1);
/// The `from` of a placement's move code.
const PLACE: u32 = 31;
const TIGERS: u32 = 4;

/// One board: its points, lines and symmetry classes (shared by every game on it).
#[derive(Debug)]
struct Layout {
    side: usize,
    board: Board,
    /// Per point: its neighbors along lines, as a mask.
    adjacent: Vec<u32>,
    /// Per point: the (point jumped over, landing point) pairs along lines.
    jumps: Vec<Vec<(u32, u32)>>,
    /// Per pair of points (`32 from + to`): the point a jump between them passes over, as a
    /// mask (0 where no jump joins them): a tiger's move captures it.
    over: Vec<u32>,
    classes: SetClasses,
}

impl Layout {
    fn new(side: usize, diagonals: bool) -> Layout {
        let board = Board::grid(side, side).keep_edges(|a, b| {
            let (ax, ay, bx, by) = (a % side, a / side, b % side, b / side);
            ax == bx || ay == by || (diagonals && (ax + ay) % 2 == 0)
        });
        let n = side * side;
        let adjacent =
            (0..n).map(|p| board.neighbors(p).iter().fold(0u32, |m, &q| m | 1 << q)).collect();
        let jumps: Vec<Vec<(u32, u32)>> = (0..n)
            .map(|p| {
                let mut out = Vec::new();
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        let over = board.step(p, dx, dy).filter(|&o| o != p);
                        let to = board.step(p, 2 * dx, 2 * dy);
                        if let (Some(over), Some(to)) = (over, to) {
                            if board.neighbors(p).contains(&over)
                                && board.neighbors(over).contains(&to)
                            {
                                out.push((over as u32, to as u32));
                            }
                        }
                    }
                }
                out
            })
            .collect();
        let mut over = vec![0u32; 32 * 32];
        for (from, jumps) in jumps.iter().enumerate() {
            for &(o, to) in jumps {
                over[32 * from + to as usize] = 1 << o;
            }
        }
        let square = board.symmetries(&board::SQUARE);
        let perms = (0..square.len()).map(|g| (0..n).map(|c| square.map(g, c)).collect()).collect();
        let classes = SetClasses::new(n, perms, TIGERS as usize).expect("the board's symmetries");
        Layout { side, board, adjacent, jumps, over, classes }
    }

    fn shared(side: usize) -> Arc<Layout> {
        static FIVE: OnceLock<Arc<Layout>> = OnceLock::new();
        static FOUR: OnceLock<Arc<Layout>> = OnceLock::new();
        static THREE: OnceLock<Arc<Layout>> = OnceLock::new();
        let cell = match side {
            5 => &FIVE,
            4 => &FOUR,
            _ => &THREE,
        };
        cell.get_or_init(|| Arc::new(Layout::new(side, side != 4))).clone()
    }

    fn all(&self) -> u32 {
        ((1u64 << (self.side * self.side)) - 1) as u32
    }
}

/// The parts of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Parts {
    goats: u32,
    tigers: u32,
    /// Goats still to be placed.
    hand: u32,
    tigers_to_move: bool,
}

impl Parts {
    fn of(p: Position) -> Parts {
        Parts {
            goats: GOATS.get(p.0),
            tigers: TIGERS_AT.get(p.0),
            hand: HAND.get(p.0),
            tigers_to_move: TIGERS_TO_MOVE.get(p.0),
        }
    }

    /// What stands on a point: 0 nothing, 1 a goat, 2 a tiger.
    fn cell(self, point: usize) -> u8 {
        (self.goats >> point & 1) as u8 + 2 * (self.tigers >> point & 1) as u8
    }

    fn code(self) -> Position {
        Position(
            GOATS.put(self.goats)
                | TIGERS_AT.put(self.tigers)
                | HAND.put(self.hand)
                | TIGERS_TO_MOVE.put(self.tigers_to_move),
        )
    }
}

/// Bagh-Chal.
#[derive(Clone, Debug)]
pub struct BaghChal {
    variant: &'static str,
    layout: Arc<Layout>,
    /// Goats in all.
    goats: u32,
    /// Captures that win for the tigers.
    captures: u32,
}

/// A tier's parts: goats to place, goats captured, and the player to move (`None` in the moving
/// phase, where the index holds it).
type TierParts = (u32, u32, Option<bool>);

impl BaghChal {
    /// The named variant: `regular`, `3x3`, `4x4`, `gamesman-3x3` or `gamesman-4x4`.
    pub fn from_variant(variant: &str) -> Result<BaghChal, String> {
        let (variant, side, goats, captures) = match variant {
            "regular" => ("regular", 5, 20, 5),
            "3x3" => ("3x3", 3, 4, 4),
            "4x4" => ("4x4", 4, 12, 5),
            "gamesman-3x3" => ("gamesman-3x3", 3, 4, 1),
            "gamesman-4x4" => ("gamesman-4x4", 4, 12, 3),
            _ => return Err("regular | 3x3 | 4x4 | gamesman-3x3 | gamesman-4x4".into()),
        };
        Ok(BaghChal { variant, layout: Layout::shared(side), goats, captures })
    }

    fn captured(&self, q: Parts) -> u32 {
        self.goats.saturating_sub(q.hand + q.goats.count_ones())
    }

    /// Tier numbers fall with every move: `16 R + 8 (tigers to move while placing) + 7 - C`.
    fn tier_of(hand: u32, captured: u32, tigers_to_move: Option<bool>) -> Tier {
        let turn = match tigers_to_move {
            None | Some(false) => 0,
            Some(true) => 8,
        };
        Tier(hand * 16 + turn + (7 - captured))
    }

    fn tier_parts(t: Tier) -> TierParts {
        let (hand, turn, captured) = (t.0 / 16, t.0 & 8 != 0, 7 - (t.0 & 7));
        (hand, captured, (hand > 0).then_some(turn))
    }

    /// The tiers reached from the start's, in the order the solver takes them (children first).
    fn all_tiers(&self) -> Vec<Tier> {
        let start = Self::tier_of(self.goats, 0, Some(false));
        let mut seen = vec![start];
        let mut next = vec![start];
        while let Some(t) = next.pop() {
            for c in self.child_tiers_of(t) {
                if !seen.contains(&c) {
                    seen.push(c);
                    next.push(c);
                }
            }
        }
        // Fewer goats to place first; then goats to move before tigers; then more captured.
        seen.sort_by_key(|&t| {
            let (hand, captured, turn) = Self::tier_parts(t);
            (hand, turn == Some(true), std::cmp::Reverse(captured))
        });
        seen
    }

    fn child_tiers_of(&self, t: Tier) -> Vec<Tier> {
        let (hand, captured, turn) = Self::tier_parts(t);
        if captured >= self.captures {
            return Vec::new();
        }
        let on_board = self.goats - hand - captured;
        match turn {
            Some(false) => {
                let next = if hand > 1 { Some(true) } else { None };
                vec![Self::tier_of(hand - 1, captured, next)]
            }
            Some(true) => {
                let mut out = vec![Self::tier_of(hand, captured, Some(false))];
                if on_board > 0 {
                    out.push(Self::tier_of(hand, captured + 1, Some(false)));
                }
                out
            }
            None if on_board > 0 => vec![Self::tier_of(0, captured + 1, None)],
            None => Vec::new(),
        }
    }

    fn pair_size(&self, goats: u32) -> u64 {
        self.layout.classes.pair_size(TIGERS as usize, goats as usize)
    }

    /// Calls `f(from, to)` for each move of the player to move (`from` is [`PLACE`] for a
    /// placement; a tiger's jump is two points long).
    fn each_move(&self, q: Parts, mut f: impl FnMut(u32, u32)) {
        let l = &self.layout;
        let empty = l.all() & !q.goats & !q.tigers;
        if q.tigers_to_move {
            for from in board::bits(u64::from(q.tigers)) {
                for to in board::bits(u64::from(l.adjacent[from] & empty)) {
                    f(from as u32, to as u32);
                }
                for &(over, to) in &l.jumps[from] {
                    if q.goats >> over & 1 == 1 && empty >> to & 1 == 1 {
                        f(from as u32, to);
                    }
                }
            }
        } else if q.hand > 0 {
            for to in board::bits(u64::from(empty)) {
                f(PLACE, to as u32);
            }
        } else {
            for from in board::bits(u64::from(q.goats)) {
                for to in board::bits(u64::from(l.adjacent[from] & empty)) {
                    f(from as u32, to as u32);
                }
            }
        }
    }

    /// Whether the player to move has a move ([`BaghChal::each_move`] has one), found at the
    /// first: asked of every position a solve initialises (a tiger's tier made each position's
    /// moves twice, some 7% of its time).
    fn has_move(&self, q: Parts) -> bool {
        let l = &self.layout;
        let empty = l.all() & !q.goats & !q.tigers;
        if !q.tigers_to_move && q.hand > 0 {
            return empty != 0;
        }
        let movers = if q.tigers_to_move { q.tigers } else { q.goats };
        board::bits(u64::from(movers)).any(|from| {
            l.adjacent[from] & empty != 0
                || q.tigers_to_move
                    && l.jumps[from]
                        .iter()
                        .any(|&(over, to)| q.goats >> over & 1 == 1 && empty >> to & 1 == 1)
        })
    }

    #[inline]
    fn apply(&self, q: Parts, from: u32, to: u32) -> Parts {
        let mut r = q;
        r.tigers_to_move = !q.tigers_to_move;
        if from == PLACE {
            r.goats |= 1 << to;
            r.hand -= 1;
        } else if q.tigers_to_move {
            r.tigers = r.tigers & !(1 << from) | 1 << to;
            r.goats &= !self.layout.over[(32 * from + to) as usize & 1023];
        } else {
            r.goats = r.goats & !(1 << from) | 1 << to;
        }
        r
    }

    fn decode(mv: Move) -> (u32, u32) {
        (mv.0 >> 5, mv.0 & 31)
    }

    fn name(&self, point: u32) -> &str {
        self.layout.board.name(point as usize)
    }

    /// Why a position cannot arise, if it cannot.
    fn illegal(&self, q: Parts) -> Option<&'static str> {
        let n = self.layout.side * self.layout.side;
        if q.tigers.count_ones() != TIGERS {
            return Some("there are 4 tigers");
        }
        if q.goats & q.tigers != 0 || (q.goats | q.tigers) >> n != 0 {
            return Some("a point holds one piece");
        }
        if q.hand + q.goats.count_ones() > self.goats {
            return Some("too many goats");
        }
        let captured = self.captured(q);
        if captured > self.captures {
            return Some("the tigers won when they had captured enough goats");
        }
        if captured == self.captures && q.tigers_to_move {
            return Some("the game ended with the capture that won it");
        }
        if q.hand == self.goats && q.tigers_to_move {
            return Some("goats place first");
        }
        None
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! {
    ENTRY = BaghChal::from_variant, "baghchal.rs", "baghchal", "Bagh-Chal";
    default "regular";
    syntax "regular | 3x3 (4 goats) | 4x4 (12 goats, no diagonals) | gamesman-3x3, \
        gamesman-4x4 (GamesmanClassic's presets: 1 and 3 captures win)";
    listed &["regular", "3x3", "4x4", "gamesman-3x3", "gamesman-4x4"]; also &[]
}

impl Game for BaghChal {
    crate::declared!(ENTRY);
    fn variant(&self) -> String {
        self.variant.into()
    }
    fn variant_description(&self) -> String {
        let board = match self.layout.side {
            3 => "The 3x3 board with its diagonals",
            4 => "The 4x4 board without diagonals",
            _ => "The 5x5 board",
        };
        let preset = if self.variant.starts_with("gamesman") { " (GamesmanClassic's)" } else { "" };
        format!(
            "{board}, {} goats; {} captures win for the tigers{preset}",
            self.goats, self.captures
        )
    }
    fn size_class(&self) -> SizeClass {
        SizeClass::small_if(self.layout.side == 3)
    }
    fn start(&self) -> Position {
        let s = self.layout.side - 1;
        let corners = [0, s, s * self.layout.side, s * self.layout.side + s];
        let tigers = corners.iter().fold(0u32, |m, &c| m | 1 << c);
        Parts { goats: 0, tigers, hand: self.goats, tigers_to_move: false }.code()
    }
    fn to_move(&self, p: Position) -> Player {
        Player::second_if(Parts::of(p).tigers_to_move)
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        let q = Parts::of(p);
        if self.captured(q) >= self.captures {
            return Some(if q.tigers_to_move { Value::Win } else { Value::Lose });
        }
        (!self.has_move(q)).then_some(Value::Lose)
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        self.each_move(Parts::of(p), |from, to| out.push(Move(from << 5 | to)));
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        let (from, to) = Self::decode(mv);
        self.apply(Parts::of(p), from, to).code()
    }
    fn position_to_string(&self, p: Position) -> String {
        let q = Parts::of(p);
        let n = self.layout.side * self.layout.side;
        let cells: Vec<u8> = (0..n).map(|i| q.cell(i)).collect();
        let turn = if q.tigers_to_move { 'T' } else { 'G' };
        format!("{} {}", board::grid_turn_to_string(&cells, self.layout.side, "GT", turn), q.hand)
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let side = self.layout.side;
        let expected = format!(
            "{side} rows of {side} points joined by /, each - (empty), G (goat) or T (tiger), then \
             the player to move, G or T, then the goats still to be placed (e.g. the start: {})",
            self.position_to_string(self.start())
        );
        let t = text.trim();
        let (rest, hand) = t.rsplit_once(' ').ok_or_else(|| board::malformed(text, &expected))?;
        let hand: u32 = hand.parse().map_err(|_| board::malformed(text, &expected))?;
        let (cells, turn) = board::parse_grid_turn(rest, side, side, "GT", "GT", &expected)?;
        let mask =
            |v: u8| cells.iter().enumerate().filter(|c| *c.1 == v).fold(0u32, |m, c| m | 1 << c.0);
        let q = Parts { goats: mask(1), tigers: mask(2), hand, tigers_to_move: turn == 1 };
        if hand > self.goats {
            return Err(board::illegal(text, "there are not that many goats"));
        }
        if let Some(why) = self.illegal(q) {
            return Err(board::illegal(text, why));
        }
        if !self.all_tiers().contains(&self.tier(q.code())) {
            return Err(board::illegal(
                text,
                "no game reaches these counts of goats placed and captured with this side to move",
            ));
        }
        Ok(q.code())
    }
    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        let (from, to) = Self::decode(mv);
        if from == PLACE {
            self.name(to).to_string()
        } else {
            format!("{}{}", self.name(from), self.name(to))
        }
    }
    fn move_syntax(&self) -> String {
        let last = char::from(b'a' + self.layout.side as u8 - 1);
        format!(
            "a placement names the point, a move its two points, points [a-{last}][1-{}] with row \
             1 at the top (e.g. c3, a1b2; a tiger's capture lands two points away: a1c3)",
            self.layout.side
        )
    }
    fn board_text(&self, p: Position) -> String {
        let q = Parts::of(p);
        let side = self.layout.side;
        let mut s = board::grid_text(side, side, |i| char::from(b".GT"[q.cell(i) as usize]));
        s += &format!("goats to place: {}, captured: {}\n", q.hand, self.captured(q));
        s + if q.tigers_to_move { "tigers to move\n" } else { "goats to move\n" }
    }
    fn player_names(&self) -> [&'static str; 2] {
        ["goats", "tigers"]
    }
    perfectplay_core::capabilities!(tier_index, symmetry, undo, gui, kernel);
}

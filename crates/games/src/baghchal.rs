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
//! Variants: `regular` (003's), and two small boards for tests and play: `3x3` (the 3x3 board
//! with its diagonals, 4 goats; tigers win by capturing all of them, or by blocking them) and
//! `4x4` (the 4x4 board without diagonals, 12 goats, 5 captures win), both GamesmanClassic's
//! presets.

use std::sync::{Arc, OnceLock};

use perfectplay_core::{
    AutoGuiMove, Entity, Exchange, Game, ImageAutoGui, ImageGui, KernelCache, LeastCache, Move,
    ParseError, Player, Position, SetClasses, SizeClass, Symmetry, Tier, TierIndex, TierKernel,
    Tiers, UndoMoves, Value,
};

use crate::board::{self, Board};

const TIGER_SHIFT: u32 = 25;
const SET: u64 = (1 << 25) - 1;
const HAND_SHIFT: u32 = 50;
const TIGERS_TO_MOVE: u64 = 1 << 55;
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
        let jumps = (0..n)
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
        let square = board.symmetries(&board::SQUARE);
        let perms = (0..square.len()).map(|g| (0..n).map(|c| square.map(g, c)).collect()).collect();
        let classes = SetClasses::new(n, perms, TIGERS as usize).expect("the board's symmetries");
        Layout { side, board, adjacent, jumps, classes }
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
            goats: (p.0 & SET) as u32,
            tigers: (p.0 >> TIGER_SHIFT & SET) as u32,
            hand: (p.0 >> HAND_SHIFT & 31) as u32,
            tigers_to_move: p.0 & TIGERS_TO_MOVE != 0,
        }
    }

    /// What stands on a point: 0 nothing, 1 a goat, 2 a tiger.
    fn cell(self, point: usize) -> u8 {
        (self.goats >> point & 1) as u8 + 2 * (self.tigers >> point & 1) as u8
    }

    fn code(self) -> Position {
        Position(
            u64::from(self.goats)
                | u64::from(self.tigers) << TIGER_SHIFT
                | u64::from(self.hand) << HAND_SHIFT
                | if self.tigers_to_move { TIGERS_TO_MOVE } else { 0 },
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
    /// The named variant: `regular`, `3x3` or `4x4`.
    pub fn new(variant: &str) -> Result<BaghChal, String> {
        let (variant, side, goats, captures) = match variant {
            "regular" => ("regular", 5, 20, 5),
            "3x3" => ("3x3", 3, 4, 4),
            "4x4" => ("4x4", 4, 12, 5),
            _ => return Err("regular | 3x3 | 4x4".into()),
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

    fn has_move(&self, q: Parts) -> bool {
        let mut any = false;
        self.each_move(q, |_, _| any = true);
        any
    }

    fn apply(&self, q: Parts, from: u32, to: u32) -> Parts {
        let mut r = q;
        r.tigers_to_move = !q.tigers_to_move;
        if from == PLACE {
            r.goats |= 1 << to;
            r.hand -= 1;
        } else if q.tigers_to_move {
            r.tigers = r.tigers & !(1 << from) | 1 << to;
            if let Some(&(over, _)) = self.layout.jumps[from as usize].iter().find(|j| j.1 == to) {
                r.goats &= !(1 << over);
            }
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

impl Game for BaghChal {
    fn id(&self) -> &'static str {
        "baghchal"
    }
    fn name(&self) -> &'static str {
        "Bagh-Chal"
    }
    fn variant(&self) -> String {
        self.variant.into()
    }
    fn variant_description(&self) -> String {
        match self.variant {
            "3x3" => "The 3x3 board with its diagonals and 4 goats; capturing all 4 wins",
            "4x4" => "The 4x4 board without diagonals and 12 goats; 5 captures win",
            _ => "The 5x5 board, 20 goats; 5 captures win for the tigers",
        }
        .into()
    }
    fn size_class(&self) -> SizeClass {
        if self.variant != "3x3" {
            SizeClass::Large
        } else {
            SizeClass::Small
        }
    }
    fn start(&self) -> Position {
        let s = self.layout.side - 1;
        let corners = [0, s, s * self.layout.side, s * self.layout.side + s];
        let tigers = corners.iter().fold(0u32, |m, &c| m | 1 << c);
        Parts { goats: 0, tigers, hand: self.goats, tigers_to_move: false }.code()
    }
    fn to_move(&self, p: Position) -> Player {
        if Parts::of(p).tigers_to_move {
            Player::Second
        } else {
            Player::First
        }
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

impl Tiers for BaghChal {
    fn tier(&self, p: Position) -> Tier {
        let q = Parts::of(p);
        let turn = (q.hand > 0).then_some(q.tigers_to_move);
        Self::tier_of(q.hand, self.captured(q), turn)
    }
    /// 003's (R, C, TURN): goats to place, goats captured, and while goats are placed the side
    /// to move.
    fn tier_name(&self, t: Tier) -> String {
        match Self::tier_parts(t) {
            (hand, captured, Some(tigers)) => {
                format!("({hand},{captured},{})", if tigers { "tigers" } else { "goats" })
            }
            (_, captured, None) => format!("(0,{captured})"),
        }
    }
}

impl TierIndex for BaghChal {
    fn tiers(&self) -> Vec<Tier> {
        self.all_tiers()
    }
    fn canonical_tier(&self, t: Tier) -> Tier {
        t
    }
    fn child_tiers(&self, t: Tier) -> Vec<Tier> {
        self.child_tiers_of(t)
    }
    fn tier_size(&self, t: Tier) -> u64 {
        let (hand, captured, turn) = Self::tier_parts(t);
        let pairs = self.pair_size(self.goats - hand - captured);
        if turn.is_none() {
            2 * pairs
        } else {
            pairs
        }
    }
    fn tier_index(&self, p: Position) -> u64 {
        let q = Parts::of(p);
        let index = self.layout.classes.pair_index(q.tigers, q.goats).unwrap_or(u64::MAX);
        if q.hand == 0 && q.tigers_to_move {
            self.pair_size(q.goats.count_ones()) + index
        } else {
            index
        }
    }
    fn tier_position(&self, t: Tier, index: u64) -> Option<Position> {
        let (hand, captured, turn) = Self::tier_parts(t);
        let goats = self.goats - hand - captured;
        let pairs = self.pair_size(goats).max(1);
        let (index, tigers_to_move) = match turn {
            None => (index % pairs, index >= pairs),
            Some(tigers) => (index, tigers),
        };
        let (tigers, goats) =
            self.layout.classes.pair_at(TIGERS as usize, goats as usize, index)?;
        let q = Parts { goats, tigers, hand, tigers_to_move };
        self.illegal(q).is_none().then(|| q.code())
    }
}

impl Symmetry for BaghChal {
    fn symmetry_count(&self) -> usize {
        self.layout.classes.symmetry_count()
    }
    fn canonical(&self, p: Position) -> Position {
        let q = Parts::of(p);
        let (tigers, goats, _) = self.layout.classes.canonical_pair(q.tigers, q.goats);
        Parts { goats, tigers, ..q }.code()
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        let q = Parts::of(p);
        let classes = &self.layout.classes;
        out.extend((0..classes.symmetry_count()).map(|s| {
            Parts { goats: classes.image(s, q.goats), tigers: classes.image(s, q.tigers), ..q }
                .code()
        }));
    }
    fn exchange(&self) -> Option<&dyn Exchange> {
        None
    }
}

impl BaghChal {
    /// Calls `f` with each position that has a move to `p` (primitive ones included; the caller
    /// filters); with `same_tier`, only those in `p`'s tier.
    fn each_parent(&self, p: Position, same_tier: bool, mut f: impl FnMut(Parts)) {
        let q = Parts::of(p);
        let l = &self.layout;
        let empty = l.all() & !q.goats & !q.tigers;
        let mut parent = q;
        parent.tigers_to_move = !q.tigers_to_move;
        if q.tigers_to_move {
            // The goats moved: a placement (from another tier), or a slide once all are placed.
            if !same_tier && q.hand < self.goats {
                for at in board::bits(u64::from(q.goats)) {
                    f(Parts { goats: q.goats & !(1 << at), hand: q.hand + 1, ..parent });
                }
            }
            if q.hand == 0 {
                for to in board::bits(u64::from(q.goats)) {
                    for from in board::bits(u64::from(l.adjacent[to] & empty)) {
                        f(Parts { goats: q.goats & !(1 << to) | 1 << from, ..parent });
                    }
                }
            }
        } else {
            // The tigers moved: a slide, or a jump over a goat that was captured (another tier).
            if q.hand == self.goats {
                return;
            }
            for to in board::bits(u64::from(q.tigers)) {
                let tigers = q.tigers & !(1 << to);
                for from in board::bits(u64::from(l.adjacent[to] & empty)) {
                    f(Parts { tigers: tigers | 1 << from, ..parent });
                }
                if same_tier {
                    continue;
                }
                for &(over, from) in &l.jumps[to] {
                    if empty >> over & 1 == 1 && empty >> from & 1 == 1 {
                        f(Parts {
                            tigers: tigers | 1 << from,
                            goats: q.goats | 1 << over,
                            ..parent
                        });
                    }
                }
            }
        }
    }
}

impl BaghChal {
    /// The tier and index of a position's canonical form, in one step.
    #[inline]
    fn locate_parts(&self, q: Parts, cache: &mut LeastCache) -> (Tier, u64) {
        let classes = &self.layout.classes;
        let index = classes.canonical_pair_index_cached(q.tigers, q.goats, cache);
        self.located(q, index)
    }

    /// A position's tier, and its index from the index of its canonical pair.
    #[inline]
    fn located(&self, q: Parts, pair: Option<u64>) -> (Tier, u64) {
        let captured = self.captured(q);
        let index = pair.unwrap_or(u64::MAX);
        if q.hand == 0 {
            let index =
                if q.tigers_to_move { self.pair_size(q.goats.count_ones()) + index } else { index };
            (Self::tier_of(0, captured, None), index)
        } else {
            (Self::tier_of(q.hand, captured, Some(q.tigers_to_move)), index)
        }
    }
    /// Calls `emit` with the tier and index of each move's child (repeats allowed), located
    /// from the tigers' set shared by a run of the index ([`SetClasses::neighbours`]).
    #[inline]
    fn run_children(&self, q: Parts, cache: &mut KernelCache, mut emit: impl FnMut(Tier, u64)) {
        let classes = &self.layout.classes;
        classes.neighbours(q.tigers, &mut cache.near);
        let near = &mut cache.near;
        self.each_move(q, |from, to| {
            let child = self.apply(q, from, to);
            let pair = if q.tigers_to_move {
                classes.moved_pair_index(near, from, to, child.goats)
            } else {
                classes.neighbour_pair_index(near, None, child.goats)
            };
            let (t, i) = self.located(child, pair);
            emit(t, i);
        });
    }
}

impl TierKernel for BaghChal {
    /// Walks the index in order: the next pair of sets from the last, unranked only where a run
    /// starts (or the player to move changes in a moving-phase tier).
    fn tier_positions(&self, t: Tier, first: u64, out: &mut [Option<Position>]) {
        let (hand, captured, turn) = Self::tier_parts(t);
        let goats = self.goats - hand - captured;
        let classes = &self.layout.classes;
        let pairs = self.pair_size(goats).max(1);
        let mut previous: Option<(u32, u32)> = None;
        for (k, slot) in out.iter_mut().enumerate() {
            let index = first + k as u64;
            let (local, tigers_to_move) = match turn {
                None => (index % pairs, index >= pairs),
                Some(tigers) => (index, tigers),
            };
            let pair = match previous {
                Some((a, b)) if local != 0 => classes.next_pair(a, b),
                _ => classes.pair_at(TIGERS as usize, goats as usize, local),
            };
            previous = pair;
            *slot = pair.and_then(|(tigers, goats)| {
                let q = Parts { goats, tigers, hand, tigers_to_move };
                self.illegal(q).is_none().then(|| q.code())
            });
        }
    }

    fn locate(&self, p: Position, cache: &mut KernelCache) -> (Tier, u64) {
        self.locate_parts(Parts::of(p), &mut cache.least)
    }

    fn child_locations(&self, p: Position, out: &mut Vec<(Tier, u64)>, cache: &mut KernelCache) {
        out.clear();
        let q = Parts::of(p);
        self.each_move(q, |from, to| {
            out.push(self.locate_parts(self.apply(q, from, to), &mut cache.least));
        });
        out.sort_unstable();
        out.dedup();
    }

    /// Children located from the tigers' set shared by a run of the index ([`SetClasses::
    /// neighbours`]): a goat's move keeps it, a tiger's moves one point of it. Only the
    /// moving phase's children can lie in the position's own tier; those are made distinct.
    fn child_locations_unsorted(
        &self,
        p: Position,
        out: &mut Vec<(Tier, u64)>,
        cache: &mut KernelCache,
    ) {
        out.clear();
        let q = Parts::of(p);
        self.run_children(q, cache, |t, i| out.push((t, i)));
        if q.hand == 0 {
            out.sort_unstable();
            out.dedup();
        }
    }

    /// The children as [`TierKernel::child_locations_unsorted`] finds them, none exchanged
    /// (Bagh-Chal has no exchange): the analysis's search for reachable positions walks these
    /// instead of canonicalizing every child.
    fn child_locations_sided(
        &self,
        p: Position,
        out: &mut Vec<(Tier, u64, bool)>,
        cache: &mut KernelCache,
    ) -> bool {
        out.clear();
        self.run_children(Parts::of(p), cache, |t, i| out.push((t, i, false)));
        true
    }

    /// The symmetries' images of a canonical position: as many as the symmetries less those that
    /// keep both sets.
    fn side_class_size(&self, p: Position) -> Option<u64> {
        let q = Parts::of(p);
        Some(self.layout.classes.pair_orbit_size(q.tigers, q.goats))
    }

    fn parent_indices(&self, tier: Tier, p: Position, out: &mut Vec<u64>, cache: &mut KernelCache) {
        out.clear();
        self.each_parent(p, true, |parent| {
            if self.illegal(parent).is_none() {
                let (t, i) = self.locate_parts(parent, &mut cache.least);
                if t == tier {
                    out.push(i);
                }
            }
        });
        out.sort_unstable();
        out.dedup();
    }
}

impl UndoMoves for BaghChal {
    fn undo_moves(&self, p: Position, out: &mut Vec<Position>) {
        self.each_parent(p, false, |r| {
            if self.illegal(r).is_none() && self.captured(r) < self.captures {
                out.push(r.code());
            }
        });
    }
    fn undo_moves_in_tier(&self, p: Position, out: &mut Vec<Position>) {
        self.each_parent(p, true, |r| {
            if self.illegal(r).is_none() {
                out.push(r.code());
            }
        });
    }
}

/// AutoGUI centers: the board's points, then the counters: goats to place (tens, units) and
/// goats captured, under the board.
impl ImageGui for BaghChal {
    /// The board's points and lines, tigers and goats, and 003 5.5.1's counters as digits.
    fn theme(&self) -> ImageAutoGui {
        let mut entities = vec![
            Entity {
                token: 'T',
                svg: r##"<circle r="0.44" fill="#e8a33a" stroke="#4a2a08" stroke-width="0.05"/><path d="M-0.3,-0.12L-0.12,-0.05M-0.3,0.1L-0.12,0.05M0.3,-0.12L0.12,-0.05M0.3,0.1L0.12,0.05M-0.08,-0.3L0,-0.18L0.08,-0.3" stroke="#2a1605" stroke-width="0.07" fill="none" stroke-linecap="round"/>"##.into(),
            },
            Entity {
                token: 'G',
                svg: r##"<circle r="0.36" fill="#f7f4ea" stroke="#555" stroke-width="0.05"/><circle cx="-0.12" cy="-0.06" r="0.05" fill="#333"/><circle cx="0.12" cy="-0.06" r="0.05" fill="#333"/>"##.into(),
            },
        ];
        entities.extend(crate::themes::digits(0.7, "#333"));
        let mut theme = crate::themes::points_theme(&self.layout.board, entities);
        let (w, h) = theme.size;
        let row = h + 0.5 * crate::themes::CELL;
        theme.centers.extend([(0.25 * w, row), (0.25 * w + 40.0, row), (0.75 * w, row)]);
        theme.size = (w, h + crate::themes::CELL);
        theme.background += &format!(
            r##"<rect y="{h}" width="{w}" height="100" fill="#e4d6b2"/>{}{}"##,
            crate::themes::caption(0.25 * w + 20.0, h + 22.0, "to place"),
            crate::themes::caption(0.75 * w, h + 22.0, "captured")
        );
        theme
    }
    fn autogui_position(&self, p: Position) -> String {
        let q = Parts::of(p);
        let n = self.layout.side * self.layout.side;
        let cells = (0..n).map(|i| char::from(b"-GT"[q.cell(i) as usize]));
        let digit = |d: u32| char::from_digit(d, 10).unwrap_or('-');
        let tens = if q.hand >= 10 { digit(q.hand / 10) } else { '-' };
        let counters = [tens, digit(q.hand % 10), digit(self.captured(q))];
        perfectplay_core::autogui::autogui_position(self.to_move(p), cells.chain(counters))
    }
    /// A placement is one click on its point; a move (a capture too) an arrow.
    fn autogui_move(&self, _p: Position, mv: Move) -> AutoGuiMove {
        let (from, to) = Self::decode(mv);
        if from == PLACE {
            AutoGuiMove::Token { token: 'G', at: to as usize }
        } else {
            AutoGuiMove::Arrow { from: from as usize, to: to as usize }
        }
    }
    fn multipart(&self) -> Option<&dyn perfectplay_core::MultipartMoves> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfectplay_core::GameExt;

    #[test]
    fn the_tiers_and_their_bound_are_003s() {
        let game = BaghChal::new("regular").unwrap();
        let tiers = game.all_tiers();
        assert_eq!(tiers.len(), 196);
        let binomial = |n: u64, k: u64| (0..k).fold(1u64, |c, i| c * (n - i) / (i + 1));
        let bound: u64 = tiers
            .iter()
            .map(|&t| {
                let (hand, captured, turn) = BaghChal::tier_parts(t);
                let arrangements = binomial(25, 4) * binomial(21, u64::from(20 - hand - captured));
                if turn.is_none() {
                    2 * arrangements
                } else {
                    arrangements
                }
            })
            .sum();
        assert_eq!(bound, 291_915_283_550);
        // Children before parents.
        for (i, &t) in tiers.iter().enumerate() {
            for c in game.child_tiers_of(t) {
                assert!(tiers[..i].contains(&c), "{}", Tiers::tier_name(&game, c));
            }
        }
    }

    #[test]
    fn tigers_capture_along_lines_only() {
        let game = BaghChal::new("regular").unwrap();
        // A tiger on b1 (no diagonals there) with goats on c2 and b2.
        let p = game.parse_position("-T--T/-GG--/-----/-----/T---T T 17").unwrap();
        let moves: Vec<String> =
            game.legal_moves(p).iter().map(|&m| game.move_to_string(p, m)).collect();
        assert!(moves.contains(&"b1b3".to_string()), "{moves:?}");
        assert!(!moves.contains(&"b1d3".to_string()), "{moves:?}");
        let child = game.do_move(p, game.parse_move(p, "b1b3").unwrap());
        assert_eq!(game.position_to_string(child), "----T/--G--/-T---/-----/T---T G 17");
    }

    #[test]
    fn the_ends_of_the_game() {
        let game = BaghChal::new("regular").unwrap();
        // Five captured: the tigers have won.
        let won = game.parse_position("T---T/-----/--G--/-----/T---T G 14").unwrap();
        assert_eq!(game.primitive(won), Some(Value::Lose));
        // Tigers that cannot move lose (the 3x3 board: every tiger's point and jump blocked).
        let small = BaghChal::new("3x3").unwrap();
        let trapped = small.parse_position("TGT/GGG/TGT T 0");
        assert!(trapped.is_err(), "more goats than the 3x3 game has");
        let trapped = small.parse_position("TGT/G-G/TGT T 0").unwrap();
        assert_eq!(small.primitive(trapped), None, "the center is free");
        let bad = [
            "T---T/-----/-----/-----/T---T T 20",
            "T---T/-----/-----/-----/T--TT G 20",
            "T---T G 20",
            "T---T/-----/-----/-----/T---T T 19",
        ];
        for bad in bad {
            assert!(game.parse_position(bad).is_err(), "{bad}");
        }
    }
}

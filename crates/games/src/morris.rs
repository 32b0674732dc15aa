//! The Morris family: Nine Men's Morris (003 section 4.3), Six Men's Morris and Three Men's Morris.
//!
//! **Nine Men's Morris, 003 4.3.1.** 24 points on three concentric squares joined at the middles
//! of their sides; 16 mills (the squares' sides and the four joining lines). Each player has 9
//! pieces; white places first. While a player has pieces in hand, a turn places one on an empty
//! point; once both hands are empty, a turn slides a piece along a line to the adjacent empty
//! point, or, for a player with exactly three pieces, flies it to any empty point. A move that
//! forms a mill (three of the mover's pieces on one of the 16 lines, through the point moved to)
//! removes one opposing piece that is not in a mill, unless all of them are in mills. A player
//! reduced to two pieces (on the board and in hand together) loses, and so does a player to move
//! who cannot move.
//!
//! For the solver a mill-forming move and its removal are one move: the child is the position after
//! the removal. **A move that forms two mills at once removes one piece**, as in the rules of play
//! in use today and in the databases the published results come from; 003 does not say otherwise,
//! and its Table 4.3 counts are the check (a second removal would change every count).
//!
//! Variants of Nine Men's Morris: `regular` (the above), `mill-removal` (any opposing piece may be
//! removed, in a mill or not), `no-flying` (three pieces slide like the rest) and
//! `mill-removal-no-flying` (003 4.3.7).
//!
//! **Six Men's Morris** (rules chosen here; the seeds do not give them): 16 points on two
//! concentric squares joined at the middles of their sides, 8 mills (the squares' sides), 6 pieces
//! each, otherwise the rules of `regular` Nine Men's Morris (placing, sliding, flying at three,
//! removals, two pieces lose). **Three Men's Morris**: the 3x3 board with its lines (rows,
//! columns and both diagonals; variant `no-diagonals` draws rows and columns only), 3 pieces each,
//! placing then sliding along the lines; three in a row wins at once, no pieces are removed, and a
//! player who cannot move loses. White moves first in all three games.
//!
//! **Position code** (one `u64`): white's points (bits 0-23), black's (24-47), white's pieces in
//! hand (48-51), black's (52-55), and bit 56 when black is to move.
//!
//! **Tiers** are the engine's unit of work: `(pieces in hand, white on board, black on board)`.
//! While pieces are placed every move leaves its tier (one fewer in hand), so those tiers have no
//! moves inside them. Once all are placed (the moving phase) a tier holds both sides to move.
//!
//! **Symmetries.** The board's: the square's 8 and, on the Nine and Six Men's boards, the exchange
//! of the inner and outer squares (16); and the exchange of colors with the turn, which maps the
//! moving-phase tier (W, B) onto (B, W). A tier's index runs over symmetry classes
//! ([`perfectplay_core::SetClasses`]): white's points reduced to their least image, times the rank
//! of black's points among the rest; a tier (W, B) with W > B holds both turns, (W, W) only white
//! to move (black to move is its exchange). 003 counts canonical positions under the board's
//! symmetries alone, so the exchange does not merge classes in analyses.

use std::sync::{Arc, OnceLock};

use perfectplay_core::autogui::autogui_position;
use perfectplay_core::{
    AutoGuiMove, Exchange, Game, ImageAutoGui, ImageGui, KernelCache, LeastCache, Move,
    MultipartMoves, ParseError, Player, Position, SetClasses, SizeClass, Symmetry, Tier, TierIndex,
    TierKernel, Tiers, UndoMoves, Value,
};

use crate::board::{self, Board};

const BLACK_SHIFT: u32 = 24;
const SET: u64 = (1 << 24) - 1;
const WHITE_HAND_SHIFT: u32 = 48;
const BLACK_HAND_SHIFT: u32 = 52;
const BLACK_TO_MOVE: u64 = 1 << 56;
/// `from` of a placement, and `remove` of a move that removes nothing.
const NONE: u32 = 31;

/// Which opposing pieces a mill may remove.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Removal {
    /// One not in a mill, unless all are in mills (003 4.3.1).
    NotInMill,
    /// Any.
    Any,
}

/// The three boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// 24 points, 9 pieces each.
    Nine,
    /// 16 points, 6 pieces each.
    Six,
    /// 9 points, 3 pieces each; three in a row wins.
    Three,
}

/// A board's fixed data, shared by every variant on it.
#[derive(Debug)]
struct Layout {
    board: Board,
    /// Per point, its neighbors as a bit mask.
    adjacent: Vec<u32>,
    /// The mills as bit masks.
    mills: Vec<u32>,
    /// Per point, the mills through it.
    mills_at: Vec<Vec<u32>>,
    classes: SetClasses,
}

impl Layout {
    /// A board from its point names (with their coordinates on a grid, y down) and its lines of
    /// three (mills); `joins` are lines of two (neighbors that form no mill); `swap` exchanges the
    /// inner and outer squares where the board has that symmetry.
    fn new(
        points: &[(&str, (f64, f64))],
        mills: &[[&str; 3]],
        joins: &[[&str; 2]],
        swap: Option<&[(&str, &str)]>,
        max_pieces: usize,
    ) -> Layout {
        let names: Vec<&str> = points.iter().map(|p| p.0).collect();
        let xy: Vec<(f64, f64)> = points.iter().map(|p| p.1).collect();
        let at = |name: &str| names.iter().position(|&n| n == name).expect("a point of the board");
        let mut edges = Vec::new();
        for m in mills {
            edges.push((at(m[0]), at(m[1])));
            edges.push((at(m[1]), at(m[2])));
        }
        edges.extend(joins.iter().map(|j| (at(j[0]), at(j[1]))));
        let edges: Vec<(usize, usize)> =
            edges.into_iter().map(|(a, b)| (a.min(b), a.max(b))).collect();
        let board = Board::graph(&names, &xy, &edges);
        let n = board.len();
        let adjacent =
            (0..n).map(|c| board.neighbors(c).iter().fold(0u32, |m, &d| m | 1 << d)).collect();
        let mill_masks: Vec<u32> =
            mills.iter().map(|m| m.iter().fold(0u32, |s, &p| s | 1 << at(p))).collect();
        let mills_at = (0..n)
            .map(|c| mill_masks.iter().copied().filter(|m| m >> c & 1 == 1).collect())
            .collect();
        // The square's symmetries, each also composed with the exchange of the squares.
        let square = board.symmetries(&board::SQUARE);
        let mut perms: Vec<Vec<usize>> =
            (0..square.len()).map(|g| (0..n).map(|c| square.map(g, c)).collect()).collect();
        if let Some(pairs) = swap {
            let mut s: Vec<usize> = (0..n).collect();
            for &(a, b) in pairs {
                s[at(a)] = at(b);
                s[at(b)] = at(a);
            }
            let swapped: Vec<Vec<usize>> =
                perms.iter().map(|p| (0..n).map(|c| p[s[c]]).collect()).collect();
            perms.extend(swapped);
        }
        let classes = SetClasses::new(n, perms, max_pieces).expect("the board's symmetries");
        Layout { board, adjacent, mills: mill_masks, mills_at, classes }
    }

    fn nine() -> Layout {
        let p = |name, x: f64, y: f64| (name, (x, y));
        let points = [
            p("a7", 0., 0.),
            p("d7", 3., 0.),
            p("g7", 6., 0.),
            p("b6", 1., 1.),
            p("d6", 3., 1.),
            p("f6", 5., 1.),
            p("c5", 2., 2.),
            p("d5", 3., 2.),
            p("e5", 4., 2.),
            p("a4", 0., 3.),
            p("b4", 1., 3.),
            p("c4", 2., 3.),
            p("e4", 4., 3.),
            p("f4", 5., 3.),
            p("g4", 6., 3.),
            p("c3", 2., 4.),
            p("d3", 3., 4.),
            p("e3", 4., 4.),
            p("b2", 1., 5.),
            p("d2", 3., 5.),
            p("f2", 5., 5.),
            p("a1", 0., 6.),
            p("d1", 3., 6.),
            p("g1", 6., 6.),
        ];
        let mills = [
            ["a7", "d7", "g7"],
            ["b6", "d6", "f6"],
            ["c5", "d5", "e5"],
            ["a4", "b4", "c4"],
            ["e4", "f4", "g4"],
            ["c3", "d3", "e3"],
            ["b2", "d2", "f2"],
            ["a1", "d1", "g1"],
            ["a7", "a4", "a1"],
            ["b6", "b4", "b2"],
            ["c5", "c4", "c3"],
            ["d7", "d6", "d5"],
            ["d3", "d2", "d1"],
            ["e5", "e4", "e3"],
            ["f6", "f4", "f2"],
            ["g7", "g4", "g1"],
        ];
        let swap = [
            ("a7", "c5"),
            ("d7", "d5"),
            ("g7", "e5"),
            ("a4", "c4"),
            ("g4", "e4"),
            ("a1", "c3"),
            ("d1", "d3"),
            ("g1", "e3"),
        ];
        Layout::new(&points, &mills, &[], Some(&swap), 9)
    }

    fn six() -> Layout {
        let p = |name, x: f64, y: f64| (name, (x, y));
        let points = [
            p("a5", 0., 0.),
            p("c5", 2., 0.),
            p("e5", 4., 0.),
            p("b4", 1., 1.),
            p("c4", 2., 1.),
            p("d4", 3., 1.),
            p("a3", 0., 2.),
            p("b3", 1., 2.),
            p("d3", 3., 2.),
            p("e3", 4., 2.),
            p("b2", 1., 3.),
            p("c2", 2., 3.),
            p("d2", 3., 3.),
            p("a1", 0., 4.),
            p("c1", 2., 4.),
            p("e1", 4., 4.),
        ];
        let mills = [
            ["a5", "c5", "e5"],
            ["b4", "c4", "d4"],
            ["b2", "c2", "d2"],
            ["a1", "c1", "e1"],
            ["a5", "a3", "a1"],
            ["b4", "b3", "b2"],
            ["d4", "d3", "d2"],
            ["e5", "e3", "e1"],
        ];
        let joins = [["c5", "c4"], ["c2", "c1"], ["a3", "b3"], ["d3", "e3"]];
        let swap = [
            ("a5", "b4"),
            ("c5", "c4"),
            ("e5", "d4"),
            ("a3", "b3"),
            ("e3", "d3"),
            ("a1", "b2"),
            ("c1", "c2"),
            ("e1", "d2"),
        ];
        Layout::new(&points, &mills, &joins, Some(&swap), 6)
    }

    fn three(diagonals: bool) -> Layout {
        let names = ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"];
        let points: Vec<(&str, (f64, f64))> =
            names.iter().enumerate().map(|(i, &n)| (n, ((i % 3) as f64, (i / 3) as f64))).collect();
        let mut mills = vec![
            ["a3", "b3", "c3"],
            ["a2", "b2", "c2"],
            ["a1", "b1", "c1"],
            ["a3", "a2", "a1"],
            ["b3", "b2", "b1"],
            ["c3", "c2", "c1"],
        ];
        if diagonals {
            mills.extend([["a3", "b2", "c1"], ["c3", "b2", "a1"]]);
        }
        Layout::new(&points, &mills, &[], None, 3)
    }

    fn shared(kind: Kind, diagonals: bool) -> Arc<Layout> {
        static NINE: OnceLock<Arc<Layout>> = OnceLock::new();
        static SIX: OnceLock<Arc<Layout>> = OnceLock::new();
        static THREE: OnceLock<Arc<Layout>> = OnceLock::new();
        static THREE_PLAIN: OnceLock<Arc<Layout>> = OnceLock::new();
        match (kind, diagonals) {
            (Kind::Nine, _) => NINE.get_or_init(|| Arc::new(Layout::nine())).clone(),
            (Kind::Six, _) => SIX.get_or_init(|| Arc::new(Layout::six())).clone(),
            (Kind::Three, true) => THREE.get_or_init(|| Arc::new(Layout::three(true))).clone(),
            (Kind::Three, false) => {
                THREE_PLAIN.get_or_init(|| Arc::new(Layout::three(false))).clone()
            }
        }
    }
}

/// A position taken apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Parts {
    white: u32,
    black: u32,
    white_hand: u32,
    black_hand: u32,
    black_to_move: bool,
}

impl Parts {
    #[inline]
    fn of(p: Position) -> Parts {
        Parts {
            white: (p.0 & SET) as u32,
            black: (p.0 >> BLACK_SHIFT & SET) as u32,
            white_hand: (p.0 >> WHITE_HAND_SHIFT & 15) as u32,
            black_hand: (p.0 >> BLACK_HAND_SHIFT & 15) as u32,
            black_to_move: p.0 & BLACK_TO_MOVE != 0,
        }
    }

    #[inline]
    fn code(self) -> Position {
        Position(
            u64::from(self.white)
                | u64::from(self.black) << BLACK_SHIFT
                | u64::from(self.white_hand) << WHITE_HAND_SHIFT
                | u64::from(self.black_hand) << BLACK_HAND_SHIFT
                | if self.black_to_move { BLACK_TO_MOVE } else { 0 },
        )
    }

    /// (mover's points, opponent's, mover's hand, opponent's hand).
    #[inline]
    fn sides(self) -> (u32, u32, u32, u32) {
        if self.black_to_move {
            (self.black, self.white, self.black_hand, self.white_hand)
        } else {
            (self.white, self.black, self.white_hand, self.black_hand)
        }
    }

    /// The position with the mover's and opponent's parts given, and the turn passed or kept.
    #[inline]
    fn with_sides(self, mover: u32, other: u32, mover_hand: u32, other_hand: u32) -> Parts {
        if self.black_to_move {
            Parts {
                white: other,
                black: mover,
                white_hand: other_hand,
                black_hand: mover_hand,
                ..self
            }
        } else {
            Parts {
                white: mover,
                black: other,
                white_hand: mover_hand,
                black_hand: other_hand,
                ..self
            }
        }
    }

    #[inline]
    fn passed(self) -> Parts {
        Parts { black_to_move: !self.black_to_move, ..self }
    }

    /// Colors exchanged, with the turn.
    #[inline]
    fn exchanged(self) -> Parts {
        Parts {
            white: self.black,
            black: self.white,
            white_hand: self.black_hand,
            black_hand: self.white_hand,
            black_to_move: !self.black_to_move,
        }
    }

    fn in_hand(self) -> u32 {
        self.white_hand + self.black_hand
    }

    /// Whether the canonical form has the colors exchanged: the side to move does not match the
    /// hands (an exchanged image of a placement position), or in the moving phase black has more
    /// pieces, or as many and is to move.
    #[inline]
    fn exchanged_is_canonical(self) -> bool {
        if self.in_hand() > 0 {
            !self.turn_matches_hands()
        } else {
            let (w, b) = (self.white.count_ones(), self.black.count_ones());
            w < b || (w == b && self.black_to_move)
        }
    }

    /// While pieces are placed: white to move with as many in hand as black, black with one more.
    #[inline]
    fn turn_matches_hands(self) -> bool {
        if self.black_to_move {
            self.black_hand == self.white_hand + 1
        } else {
            self.black_hand == self.white_hand
        }
    }
}

/// A Morris game.
#[derive(Clone, Debug)]
pub struct Morris {
    kind: Kind,
    layout: Arc<Layout>,
    pieces: u32,
    flying: bool,
    removal: Removal,
    diagonals: bool,
    /// The largest pieces per side on the board in the moving phase (restricted variants solve
    /// only the moving phase up to this many; the full game has `pieces`).
    moving_only: Option<u32>,
}

/// Variant names of Nine Men's Morris.
pub const NINE_VARIANTS: &str =
    "regular, mill-removal, no-flying or mill-removal-no-flying, optionally followed by \
     /moving-N (the moving phase alone, at most N pieces a side, 3 <= N <= 9)";

impl Morris {
    /// Nine Men's Morris: `variant` is one of [`NINE_VARIANTS`].
    pub fn nine(variant: &str) -> Result<Morris, String> {
        let (rules, moving) = match variant.split_once("/moving-") {
            Some((rules, n)) => {
                let n: u32 = n.parse().map_err(|_| NINE_VARIANTS.to_string())?;
                if !(3..=9).contains(&n) {
                    return Err(NINE_VARIANTS.into());
                }
                (rules, Some(n))
            }
            None => (variant, None),
        };
        let (flying, removal) = match rules {
            "regular" => (true, Removal::NotInMill),
            "mill-removal" => (true, Removal::Any),
            "no-flying" => (false, Removal::NotInMill),
            "mill-removal-no-flying" => (false, Removal::Any),
            _ => return Err(NINE_VARIANTS.into()),
        };
        Ok(Morris {
            kind: Kind::Nine,
            layout: Layout::shared(Kind::Nine, true),
            pieces: 9,
            flying,
            removal,
            diagonals: true,
            moving_only: moving,
        })
    }

    /// Six Men's Morris (variant `regular`).
    pub fn six(variant: &str) -> Result<Morris, String> {
        if variant != "regular" {
            return Err("regular".into());
        }
        Ok(Morris {
            kind: Kind::Six,
            layout: Layout::shared(Kind::Six, true),
            pieces: 6,
            flying: true,
            removal: Removal::NotInMill,
            diagonals: true,
            moving_only: None,
        })
    }

    /// Three Men's Morris (variants `regular`, `no-diagonals`).
    pub fn three(variant: &str) -> Result<Morris, String> {
        let diagonals = match variant {
            "regular" => true,
            "no-diagonals" => false,
            _ => return Err("regular or no-diagonals".into()),
        };
        Ok(Morris {
            kind: Kind::Three,
            layout: Layout::shared(Kind::Three, diagonals),
            pieces: 3,
            flying: false,
            removal: Removal::NotInMill,
            diagonals,
            moving_only: None,
        })
    }

    fn n(&self) -> usize {
        self.layout.board.len()
    }

    fn all(&self) -> u32 {
        ((1u64 << self.n()) - 1) as u32
    }

    /// Three in a row wins (Three Men's Morris) instead of removing a piece.
    fn mill_wins(&self) -> bool {
        self.kind == Kind::Three
    }

    #[inline]
    fn forms_mill(&self, set: u32, at: usize) -> bool {
        self.layout.mills_at[at].iter().any(|&m| m & !set == 0)
    }

    fn has_mill(&self, set: u32) -> bool {
        self.layout.mills.iter().any(|&m| m & !set == 0)
    }

    /// The points of `set` that lie in one of its mills.
    #[inline]
    fn in_mills(&self, set: u32) -> u32 {
        self.layout.mills.iter().fold(0, |acc, &m| if set & m == m { acc | m } else { acc })
    }

    /// The pieces of `set` a mill may remove.
    #[inline]
    fn removable(&self, set: u32) -> u32 {
        match self.removal {
            Removal::Any => set,
            Removal::NotInMill => {
                let free = set & !self.in_mills(set);
                if free == 0 {
                    set
                } else {
                    free
                }
            }
        }
    }

    /// Where a piece of the mover at `from` may go (the mover has `count` on the board).
    #[inline]
    fn targets(&self, from: usize, count: u32, empty: u32) -> u32 {
        if self.flying && count == 3 {
            empty
        } else {
            self.layout.adjacent[from] & empty
        }
    }

    /// Pieces placed so far by white and by black.
    fn placed(&self, q: Parts) -> (u32, u32) {
        (self.pieces - q.white_hand, self.pieces - q.black_hand)
    }

    /// Why a code is not a position of the game, if it is not.
    fn illegal(&self, q: Parts) -> Option<&'static str> {
        let all = self.all();
        if q.white & !all != 0 || q.black & !all != 0 || q.white & q.black != 0 {
            return Some("a point holds two pieces, or a point is off the board");
        }
        if q.white_hand > self.pieces || q.black_hand > self.pieces {
            return Some("more pieces in hand than a player has");
        }
        let turn_ok = if q.black_to_move {
            q.black_hand == q.white_hand + 1 || q.in_hand() == 0
        } else {
            q.black_hand == q.white_hand
        };
        if !turn_ok {
            return Some(
                "white places first: white is to move when both have as many in hand, black when \
                 it has one more (once both hands are empty, either)",
            );
        }
        let (wp, bp) = self.placed(q);
        let (w, b) = (q.white.count_ones(), q.black.count_ones());
        if w > wp || b > bp {
            return Some("more pieces on the board than placed");
        }
        if self.mill_wins() {
            if w != wp || b != bp {
                return Some("no pieces are removed in Three Men's Morris");
            }
            let (mover, other, _, _) = q.sides();
            if self.has_mill(mover) {
                return Some("play stops at the first three in a row");
            }
            if self.has_mill(mover) && self.has_mill(other) {
                return Some("only one side can have three in a row");
            }
            return None;
        }
        // The k-th removal needs a mill, and the first mill three pieces.
        if wp - w > bp.saturating_sub(2) || bp - b > wp.saturating_sub(2) {
            return Some("more pieces removed than the other side could have formed mills");
        }
        let (_, other, _, other_hand) = q.sides();
        if other.count_ones() + other_hand < 3 {
            return Some("the side not to move has fewer than three pieces: the game is over");
        }
        if let Some(limit) = self.moving_only {
            if q.in_hand() > 0 || w > limit || b > limit {
                return Some("this variant is the moving phase with fewer pieces");
            }
        }
        None
    }

    /// Whether the mover (with `mover` on the board and `mover_hand` in hand) cannot move.
    #[inline]
    fn blocked(&self, mover: u32, mover_hand: u32, empty: u32) -> bool {
        if mover_hand > 0 {
            return empty == 0;
        }
        let count = mover.count_ones();
        if self.flying && count == 3 {
            return empty == 0;
        }
        let mut rest = mover;
        while rest != 0 {
            let from = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if self.layout.adjacent[from] & empty != 0 {
                return false;
            }
        }
        true
    }

    /// Every move as (from, to, removed), `from` NONE for a placement and `removed` NONE when no
    /// mill forms.
    #[inline]
    fn each_move(&self, p: Position, mut f: impl FnMut(u32, u32, u32)) {
        let q = Parts::of(p);
        let (mover, other, mover_hand, _) = q.sides();
        let empty = self.all() & !(mover | other);
        let removable = if self.mill_wins() { 0 } else { self.removable(other) };
        let mut each_target = |from: u32, after: u32, mut targets: u32| {
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                if removable != 0 && self.forms_mill(after | 1 << to, to as usize) {
                    let mut r = removable;
                    while r != 0 {
                        let x = r.trailing_zeros();
                        r &= r - 1;
                        f(from, to, x);
                    }
                } else {
                    f(from, to, NONE);
                }
            }
        };
        if mover_hand > 0 {
            each_target(NONE, mover, empty);
            return;
        }
        let count = mover.count_ones();
        let mut rest = mover;
        while rest != 0 {
            let from = rest.trailing_zeros();
            rest &= rest - 1;
            each_target(from, mover & !(1 << from), self.targets(from as usize, count, empty));
        }
    }

    #[inline]
    fn apply(&self, p: Position, from: u32, to: u32, removed: u32) -> Position {
        let q = Parts::of(p);
        let (mut mover, mut other, mut mover_hand, other_hand) = q.sides();
        if from == NONE {
            mover_hand -= 1;
        } else {
            mover &= !(1 << from);
        }
        mover |= 1 << to;
        if removed != NONE {
            other &= !(1 << removed);
        }
        q.with_sides(mover, other, mover_hand, other_hand).passed().code()
    }

    fn decode(mv: Move) -> (u32, u32, u32) {
        (mv.0 & 31, mv.0 >> 5 & 31, mv.0 >> 10 & 31)
    }

    fn encode(from: u32, to: u32, removed: u32) -> Move {
        Move(from | to << 5 | removed << 10)
    }

    /// Whether the tiers are those of the moving phase alone.
    fn tier_parts(&self, t: Tier) -> (u32, u32, u32, bool) {
        // t = flip * 10000 + in_hand * 400 + (w + b) * 20 + w
        let flip = t.0 >= 10_000;
        let r = t.0 % 10_000;
        let in_hand = r / 400;
        let sum = r % 400 / 20;
        let w = r % 20;
        (in_hand, w, sum - w, flip)
    }

    fn tier_of(in_hand: u32, w: u32, b: u32, flip: bool) -> Tier {
        Tier(u32::from(flip) * 10_000 + in_hand * 400 + (w + b) * 20 + w)
    }

    /// The placement phase's turn for `in_hand` pieces still to place: black when odd.
    fn hands(&self, in_hand: u32) -> (u32, u32, bool) {
        let black_to_move = in_hand % 2 == 1;
        let white_hand = in_hand / 2;
        (white_hand, in_hand - white_hand, black_to_move)
    }

    /// Whether a tier of the placement phase has positions (the side not to move keeps three
    /// pieces, and removals are bounded by mills).
    fn tier_exists(&self, in_hand: u32, w: u32, b: u32) -> bool {
        let (white_hand, black_hand, black_to_move) =
            if in_hand > 0 { self.hands(in_hand) } else { (0, 0, false) };
        let (wp, bp) = (self.pieces - white_hand, self.pieces - black_hand);
        if w > wp || b > bp || w as usize + b as usize > self.n() {
            return false;
        }
        if self.mill_wins() {
            return w == wp && b == bp;
        }
        if wp - w > bp.saturating_sub(2) || bp - b > wp.saturating_sub(2) {
            return false;
        }
        if in_hand == 0 {
            // Moving phase: either side may be to move; one of them has three or more.
            return w.max(b) >= 3;
        }
        let (other, other_hand) = if black_to_move { (w, white_hand) } else { (b, black_hand) };
        other + other_hand >= 3
    }

    fn all_tiers(&self) -> Vec<Tier> {
        let mut tiers = Vec::new();
        let top = if self.moving_only.is_some() { 0 } else { 2 * self.pieces };
        let limit = self.moving_only.unwrap_or(self.pieces);
        for in_hand in 0..=top {
            for w in 0..=self.pieces {
                for b in 0..=self.pieces {
                    if in_hand == 0 && (w < b || w > limit) {
                        continue;
                    }
                    if self.tier_exists(in_hand, w, b) {
                        tiers.push(Self::tier_of(in_hand, w, b, false));
                    }
                }
            }
        }
        tiers.sort();
        tiers
    }

    fn pair_size(&self, w: u32, b: u32) -> u64 {
        self.layout.classes.pair_size(w as usize, b as usize)
    }
}

impl Game for Morris {
    fn id(&self) -> &'static str {
        match self.kind {
            Kind::Nine => "ninemensmorris",
            Kind::Six => "sixmensmorris",
            Kind::Three => "threemensmorris",
        }
    }

    fn name(&self) -> &'static str {
        match self.kind {
            Kind::Nine => "Nine Men's Morris",
            Kind::Six => "Six Men's Morris",
            Kind::Three => "Three Men's Morris",
        }
    }

    fn variant(&self) -> String {
        let rules = match (self.kind, self.flying, self.removal) {
            (Kind::Three, _, _) => {
                return if self.diagonals { "regular" } else { "no-diagonals" }.into()
            }
            (_, true, Removal::NotInMill) => "regular",
            (_, true, Removal::Any) => "mill-removal",
            (_, false, Removal::NotInMill) => "no-flying",
            (_, false, Removal::Any) => "mill-removal-no-flying",
        };
        match self.moving_only {
            Some(n) => format!("{rules}/moving-{n}"),
            None => rules.into(),
        }
    }

    fn variant_description(&self) -> String {
        if self.kind == Kind::Three {
            return if self.diagonals {
                "Three in a row, column or diagonal forms a mill"
            } else {
                "Rows and columns only: the diagonals form no mill"
            }
            .into();
        }
        let removal = match self.removal {
            Removal::NotInMill => "a piece in a mill is safe unless all are",
            Removal::Any => "any piece may be removed, in a mill or not",
        };
        let flying =
            if self.flying { "three pieces fly" } else { "three pieces slide like the rest" };
        let rules = format!("Removal: {removal}; {flying}");
        match self.moving_only {
            Some(n) => format!("{rules}; the moving phase alone, up to {n} pieces a side"),
            None => rules,
        }
    }

    fn size_class(&self) -> SizeClass {
        match self.kind {
            Kind::Nine => SizeClass::Large,
            Kind::Six | Kind::Three => SizeClass::Small,
        }
    }

    fn start(&self) -> Position {
        match self.moving_only {
            // The moving phase alone starts from its largest tier's first position.
            Some(n) => {
                let t = Self::tier_of(0, n, n, false);
                (0..self.tier_size(t))
                    .find_map(|i| self.tier_position(t, i).filter(|&p| self.canonical(p) == p))
                    .unwrap_or(Position(0))
            }
            None => Parts {
                white: 0,
                black: 0,
                white_hand: self.pieces,
                black_hand: self.pieces,
                black_to_move: false,
            }
            .code(),
        }
    }

    fn to_move(&self, p: Position) -> Player {
        if Parts::of(p).black_to_move {
            Player::Second
        } else {
            Player::First
        }
    }

    fn primitive(&self, p: Position) -> Option<Value> {
        let q = Parts::of(p);
        let (mover, other, mover_hand, _) = q.sides();
        if self.mill_wins() {
            if self.has_mill(other) {
                return Some(Value::Lose);
            }
        } else if mover.count_ones() + mover_hand < 3 {
            return Some(Value::Lose);
        }
        let empty = self.all() & !(mover | other);
        self.blocked(mover, mover_hand, empty).then_some(Value::Lose)
    }

    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        self.each_move(p, |from, to, removed| out.push(Self::encode(from, to, removed)));
    }

    fn do_move(&self, p: Position, mv: Move) -> Position {
        let (from, to, removed) = Self::decode(mv);
        self.apply(p, from, to, removed)
    }

    fn children(&self, p: Position, out: &mut Vec<Position>) {
        self.each_move(p, |from, to, removed| out.push(self.apply(p, from, to, removed)));
    }

    /// The points in order (top row first, left to right) as `w`, `b` or `-`, then the side to
    /// move (`w` or `b`) and the pieces white and black have in hand:
    /// `------------------------ w 9 9`.
    fn position_to_string(&self, p: Position) -> String {
        let q = Parts::of(p);
        let cells: String = (0..self.n())
            .map(|c| {
                if q.white >> c & 1 == 1 {
                    'w'
                } else if q.black >> c & 1 == 1 {
                    'b'
                } else {
                    '-'
                }
            })
            .collect();
        let turn = if q.black_to_move { 'b' } else { 'w' };
        format!("{cells} {turn} {} {}", q.white_hand, q.black_hand)
    }

    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let expected = format!(
            "{} points (w, b or -, top row first), the side to move (w or b) and the pieces white \
             and black have in hand, e.g. {}",
            self.n(),
            self.position_to_string(self.start_of_game())
        );
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [cells, turn, wh, bh] = fields[..] else {
            return Err(board::malformed(text, &expected));
        };
        if cells.chars().count() != self.n() {
            return Err(board::malformed(text, &expected));
        }
        let mut q =
            Parts { white: 0, black: 0, white_hand: 0, black_hand: 0, black_to_move: false };
        for (c, ch) in cells.chars().enumerate() {
            match ch {
                'w' | 'W' => q.white |= 1 << c,
                'b' | 'B' => q.black |= 1 << c,
                '-' | '.' => {}
                _ => return Err(board::malformed(text, &expected)),
            }
        }
        q.black_to_move = match turn {
            "w" | "W" => false,
            "b" | "B" => true,
            _ => return Err(board::malformed(text, &expected)),
        };
        let hand = |s: &str| s.parse::<u32>().ok().filter(|&h| h <= 15);
        match (hand(wh), hand(bh)) {
            (Some(w), Some(b)) => (q.white_hand, q.black_hand) = (w, b),
            _ => return Err(board::malformed(text, &expected)),
        }
        if let Some(why) = self.illegal(q) {
            return Err(board::illegal(text, why));
        }
        Ok(q.code())
    }

    /// `d7` to place, `a1-a4` to slide or fly, then `xg7` to remove a piece when a mill forms.
    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        let (from, to, removed) = Self::decode(mv);
        let name = |c: u32| self.layout.board.name(c as usize);
        let mut s = String::new();
        if from != NONE {
            s.push_str(name(from));
            s.push('-');
        }
        s.push_str(name(to));
        if removed != NONE {
            s.push('x');
            s.push_str(name(removed));
        }
        s
    }

    fn move_syntax(&self) -> String {
        let removal = if self.mill_wins() {
            ""
        } else {
            "; a move that forms a mill adds x and the piece to remove (d7xa1, a1-a4xg7)"
        };
        format!(
            "a point (d7) to place, from-to (a1-a4) to slide{}{removal}",
            if self.flying { " or fly" } else { "" }
        )
    }

    fn board_text(&self, p: Position) -> String {
        let q = Parts::of(p);
        let piece = |c: usize| {
            if q.white >> c & 1 == 1 {
                'W'
            } else if q.black >> c & 1 == 1 {
                'B'
            } else {
                '+'
            }
        };
        let b = &self.layout.board;
        let (w, h) = (0..b.len()).fold((0usize, 0usize), |(w, h), c| {
            let (x, y) = b.xy(c);
            (w.max(x as usize), h.max(y as usize))
        });
        // A character grid: points 4 columns and 2 rows apart, lines drawn between neighbors.
        let (cols, rows) = (4 * w + 1, 2 * h + 1);
        let mut grid = vec![vec![' '; cols]; rows];
        for &(a, c) in b.edges() {
            let ((x1, y1), (x2, y2)) = (b.xy(a), b.xy(c));
            let (x1, y1, x2, y2) =
                (4 * x1 as usize, 2 * y1 as usize, 4 * x2 as usize, 2 * y2 as usize);
            if y1 == y2 {
                for cell in &mut grid[y1][x1.min(x2)..=x1.max(x2)] {
                    *cell = '-';
                }
            } else if x1 == x2 {
                for row in grid.iter_mut().take(y1.max(y2) + 1).skip(y1.min(y2)) {
                    row[x1] = '|';
                }
            } else {
                // A diagonal (Three Men's Morris): its midpoint.
                let (mx, my) = ((x1 + x2) / 2, (y1 + y2) / 2);
                grid[my][mx] = if (x2 > x1) == (y2 > y1) { '\\' } else { '/' };
            }
        }
        for c in 0..b.len() {
            let (x, y) = b.xy(c);
            grid[2 * y as usize][4 * x as usize] = piece(c);
        }
        let mut s = String::new();
        for (r, row) in grid.iter().enumerate() {
            let label = if r % 2 == 0 { format!("{} ", h + 1 - r / 2) } else { "  ".into() };
            s.push_str(&label);
            s.push_str(row.iter().collect::<String>().trim_end());
            s.push('\n');
        }
        s.push_str("  ");
        for x in 0..=w {
            s.push((b'a' + x as u8) as char);
            if x < w {
                s.push_str("   ");
            }
        }
        s.push('\n');
        if q.in_hand() > 0 {
            s.push_str(&format!("in hand: white {}, black {}\n", q.white_hand, q.black_hand));
        }
        s
    }

    fn player_names(&self) -> [&'static str; 2] {
        ["white", "black"]
    }

    perfectplay_core::capabilities!(tier_index, symmetry, undo, gui, kernel);
}

impl Morris {
    /// The full game's start (for messages; restricted variants start elsewhere).
    fn start_of_game(&self) -> Position {
        Parts {
            white: 0,
            black: 0,
            white_hand: self.pieces,
            black_hand: self.pieces,
            black_to_move: false,
        }
        .code()
    }
}

impl Tiers for Morris {
    fn tier(&self, p: Position) -> Tier {
        let q = Parts::of(p);
        let in_hand = q.in_hand();
        // Exchanged images of placement positions (the wrong side to move for the hands) are
        // kept apart from the positions of the game.
        let flip = in_hand > 0 && !q.turn_matches_hands();
        Self::tier_of(in_hand, q.white.count_ones(), q.black.count_ones(), flip)
    }

    fn tier_name(&self, t: Tier) -> String {
        let (in_hand, w, b, flip) = self.tier_parts(t);
        let flip = if flip { " exchanged" } else { "" };
        format!("({in_hand},{w},{b}){flip}")
    }
}

impl TierIndex for Morris {
    /// Tiers (pieces in hand, white on the board, black on the board) that have positions; in
    /// the moving phase those with white's count at least black's.
    fn tiers(&self) -> Vec<Tier> {
        self.all_tiers()
    }

    fn canonical_tier(&self, t: Tier) -> Tier {
        let (in_hand, w, b, flip) = self.tier_parts(t);
        if flip {
            Self::tier_of(in_hand, b, w, false)
        } else if in_hand == 0 && w < b {
            Self::tier_of(0, b, w, false)
        } else {
            t
        }
    }

    /// Only the moving phase has moves within a tier: a placement lowers the pieces in hand.
    fn moves_within(&self, t: Tier) -> bool {
        self.tier_parts(t).0 == 0
    }

    fn child_tiers(&self, t: Tier) -> Vec<Tier> {
        let (in_hand, w, b, _) = self.tier_parts(t);
        let tiers = self.all_tiers();
        let mut out = Vec::new();
        let mut add = |h: u32, w: u32, b: u32| {
            let c = self.canonical_tier(Self::tier_of(h, w, b, false));
            if c != t && tiers.binary_search(&c).is_ok() {
                out.push(c);
            }
        };
        if in_hand > 0 {
            let (_, _, black_to_move) = self.hands(in_hand);
            // A capture takes one of the opponent's pieces, where there is one (a count that
            // would go below zero names no tier).
            if black_to_move {
                add(in_hand - 1, w, b + 1);
                if let Some(w) = w.checked_sub(1) {
                    add(in_hand - 1, w, b + 1);
                }
            } else {
                add(in_hand - 1, w + 1, b);
                if let Some(b) = b.checked_sub(1) {
                    add(in_hand - 1, w + 1, b);
                }
            }
        } else {
            if let Some(b) = b.checked_sub(1) {
                add(0, w, b);
            }
            if let Some(w) = w.checked_sub(1) {
                add(0, w, b);
            }
        }
        out.sort();
        out.dedup();
        out
    }

    fn tier_size(&self, t: Tier) -> u64 {
        let (in_hand, w, b, _) = self.tier_parts(t);
        let pairs = self.pair_size(w, b);
        if in_hand == 0 && w != b {
            2 * pairs
        } else {
            pairs
        }
    }

    fn tier_index(&self, p: Position) -> u64 {
        let q = Parts::of(p);
        let pairs = self.pair_size(q.white.count_ones(), q.black.count_ones());
        let index = self.layout.classes.pair_index(q.white, q.black).unwrap_or(u64::MAX);
        if q.in_hand() == 0 && q.black_to_move {
            pairs + index
        } else {
            index
        }
    }

    fn tier_position(&self, t: Tier, index: u64) -> Option<Position> {
        let (in_hand, w, b, flip) = self.tier_parts(t);
        if flip {
            return None;
        }
        let pairs = self.pair_size(w, b);
        let (index, black_to_move) = if in_hand == 0 {
            (index % pairs.max(1), index >= pairs)
        } else {
            (index, self.hands(in_hand).2)
        };
        let (white, black) = self.layout.classes.pair_at(w as usize, b as usize, index)?;
        let (white_hand, black_hand) =
            if in_hand == 0 { (0, 0) } else { (self.hands(in_hand).0, self.hands(in_hand).1) };
        let q = Parts { white, black, white_hand, black_hand, black_to_move };
        self.illegal(q).is_none().then(|| q.code())
    }
}

impl Symmetry for Morris {
    fn symmetry_count(&self) -> usize {
        2 * self.layout.classes.symmetry_count()
    }

    fn canonical(&self, p: Position) -> Position {
        self.canonical_exchanged(p).0
    }

    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        let classes = &self.layout.classes;
        for q in [Parts::of(p), Parts::of(p).exchanged()] {
            out.extend((0..classes.symmetry_count()).map(|s| {
                Parts { white: classes.image(s, q.white), black: classes.image(s, q.black), ..q }
                    .code()
            }));
        }
    }

    fn exchange(&self) -> Option<&dyn Exchange> {
        Some(self)
    }
}

impl Exchange for Morris {
    fn exchanged(&self, p: Position) -> Position {
        Parts::of(p).exchanged().code()
    }

    /// Exchanged when the side to move does not match the hands (an exchanged image of a
    /// placement position), or in the moving phase when black has more pieces, or as many and is
    /// to move.
    #[inline]
    fn canonical_exchanged(&self, p: Position) -> (Position, bool) {
        let mut q = Parts::of(p);
        let exchanged = q.exchanged_is_canonical();
        if exchanged {
            q = q.exchanged();
        }
        let (white, black, _) = self.layout.classes.canonical_pair(q.white, q.black);
        (Parts { white, black, ..q }.code(), exchanged)
    }

    /// 003 counts Nine Men's Morris's canonical positions under the board's symmetries alone.
    fn merges_classes(&self) -> bool {
        false
    }
}

impl Morris {
    /// Parents of `p`; with `same_tier`, only those in `p`'s tier (no placements, no removals).
    fn parents(&self, p: Position, same_tier: bool, out: &mut Vec<Position>) {
        self.each_parent(p, same_tier, |parent| out.push(parent.code()));
    }

    /// Each parent of `p` (see [`Morris::parents`]).
    #[inline]
    fn each_parent(&self, p: Position, same_tier: bool, mut f: impl FnMut(Parts)) {
        let q = Parts::of(p);
        // The last mover is the side not to move now.
        let last = q.passed();
        let (y, x, y_hand, x_hand) = last.sides();
        let empty = self.all() & !(x | y);
        let mut push = |parent: Parts| {
            if self.illegal(parent).is_none() && self.primitive(parent.code()).is_none() {
                f(parent);
            }
        };
        let mut each_removal = |y_before: u32, y_hand_before: u32, to: u32, from_point: u32| {
            // Whether the move formed a mill: then one of x's pieces was removed.
            if !self.mill_wins() && self.forms_mill(y, to as usize) {
                if same_tier {
                    return;
                }
                let mut candidates = empty & !from_point;
                while candidates != 0 {
                    let r = candidates.trailing_zeros();
                    candidates &= candidates - 1;
                    let x_before = x | 1 << r;
                    if self.removable(x_before) >> r & 1 == 1 {
                        push(last.with_sides(y_before, x_before, y_hand_before, x_hand));
                    }
                }
            } else {
                push(last.with_sides(y_before, x, y_hand_before, x_hand));
            }
        };
        let mut pieces = y;
        // Placements: y had one more in hand (a placement parent is in another tier).
        if !same_tier && y_hand < self.pieces && self.moving_only.is_none() {
            while pieces != 0 {
                let to = pieces.trailing_zeros();
                pieces &= pieces - 1;
                each_removal(y & !(1 << to), y_hand + 1, to, 0);
            }
        }
        // Slides and flights: both hands empty before and after.
        if q.in_hand() == 0 {
            let count = y.count_ones();
            let mut pieces = y;
            while pieces != 0 {
                let to = pieces.trailing_zeros();
                pieces &= pieces - 1;
                let mut froms = self.targets(to as usize, count, empty);
                while froms != 0 {
                    let from = froms.trailing_zeros();
                    froms &= froms - 1;
                    each_removal(y & !(1 << to) | 1 << from, 0, to, 1 << from);
                }
            }
        }
    }
}

impl Morris {
    /// The tier and index of a position's canonical form, in one step (see [`TierKernel`]).
    #[inline]
    fn locate_parts(&self, q: Parts, cache: &mut LeastCache) -> (Tier, u64) {
        let in_hand = q.in_hand();
        let q = if q.exchanged_is_canonical() { q.exchanged() } else { q };
        let (w, b) = (q.white.count_ones(), q.black.count_ones());
        let index = self
            .layout
            .classes
            .canonical_pair_index_cached(q.white, q.black, cache)
            .unwrap_or(u64::MAX);
        let index =
            if in_hand == 0 && q.black_to_move { self.pair_size(w, b) + index } else { index };
        (Self::tier_of(in_hand, w, b, false), index)
    }
}

impl Morris {
    /// Each child of a position as (tier, index, exchanged) of its canonical form, from what a
    /// run of the tier's index shares: `false` where that does not apply (the caller locates each
    /// child; Three Men's Morris, or a placement position with the wrong side to move).
    #[inline]
    fn run_children(
        &self,
        q: Parts,
        cache: &mut KernelCache,
        emit: impl FnMut(Tier, u64, bool),
    ) -> bool {
        let in_hand = q.in_hand();
        if self.mill_wins() || in_hand > 0 && !q.turn_matches_hands() {
            return false;
        }
        if in_hand == 0 {
            self.moving_children(q, cache, emit);
        } else {
            self.placement_children(q, cache, emit);
        }
        true
    }

    /// `f(None)` for a move that forms no mill; else `f(Some(x))` for each removable point `x`
    /// (none to remove: as if no mill formed).
    #[inline]
    fn each_removal(mill: bool, removable: u32, mut f: impl FnMut(Option<u32>)) {
        if mill && removable != 0 {
            let mut r = removable;
            while r != 0 {
                let x = r.trailing_zeros();
                r &= r - 1;
                f(Some(x));
            }
        } else {
            f(None);
        }
    }

    /// The location of a moving-phase child whose canonical form has colors exchanged.
    #[inline]
    fn exchanged_child(
        &self,
        white: u32,
        black: u32,
        black_to_move: bool,
        least: &mut LeastCache,
    ) -> (Tier, u64) {
        self.locate_parts(
            Parts { white, black, white_hand: 0, black_hand: 0, black_to_move },
            least,
        )
    }

    /// A placement's children. The white set's neighbours (a point added by white's placement,
    /// or removed by black's mill) are canonicalized once per set ([`SetClasses::neighbours`]);
    /// each child then costs the image of its black set and a colex rank.
    fn placement_children(
        &self,
        q: Parts,
        cache: &mut KernelCache,
        mut emit: impl FnMut(Tier, u64, bool),
    ) {
        let classes = &self.layout.classes;
        let KernelCache { near, .. } = cache;
        classes.neighbours(q.white, near);
        let (w, b) = (q.white.count_ones(), q.black.count_ones());
        let hand = q.in_hand() - 1;
        let empty = self.all() & !(q.white | q.black);
        let index = |point: Option<u32>, black: u32| {
            classes.neighbour_pair_index(near, point, black).unwrap_or(u64::MAX)
        };
        if !q.black_to_move {
            // White places (both hands were equal, so one is left to place): black to move, in
            // the placement phase still, colors as they are.
            let removable = self.removable(q.black);
            let (plain, removed) = (
                Self::tier_of(hand, w + 1, b, false),
                // Used only where a mill removes a black piece, so where black has one.
                Self::tier_of(hand, w + 1, b.saturating_sub(1), false),
            );
            let mut targets = empty;
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                let mill = self.forms_mill(q.white | 1 << to, to as usize);
                Self::each_removal(mill, removable, |gone| match gone {
                    Some(x) => emit(removed, index(Some(to), q.black & !(1 << x)), false),
                    None => emit(plain, index(Some(to), q.black), false),
                });
            }
            return;
        }
        // Black places: white to move. After black's last placement the child is in the moving
        // phase, where it is canonical with colors exchanged when black has more pieces.
        let removable = self.removable(q.white);
        // Where children are exchanged, black's set leads their canonical forms: its least-image
        // entries (random in a large table) are all loaded first, so that the loads overlap.
        let mut entries = [None; 32];
        if hand == 0 && w.saturating_sub(1) < b + 1 {
            let mut targets = empty;
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                entries[to as usize] = classes.table_entry(q.black | 1 << to);
            }
        }
        let mut targets = empty;
        while targets != 0 {
            let to = targets.trailing_zeros();
            targets &= targets - 1;
            let black = q.black | 1 << to;
            let mill = self.forms_mill(black, to as usize);
            Self::each_removal(mill, removable, |gone| {
                let white_count = if gone.is_some() { w - 1 } else { w };
                if hand == 0 && white_count < b + 1 {
                    // Colors exchanged: black's set first, black to move.
                    let white = gone.map_or(q.white, |x| q.white & !(1 << x));
                    let entry = entries[to as usize];
                    let i = classes.canonical_pair_index_from(black, entry, white);
                    let i = self.pair_size(b + 1, white_count) + i.unwrap_or(u64::MAX);
                    emit(Self::tier_of(0, b + 1, white_count, false), i, true);
                } else {
                    emit(Self::tier_of(hand, white_count, b + 1, false), index(gone, black), false);
                }
            });
        }
    }

    /// A moving-phase position's children: the white set's neighbours again. A white move's
    /// result is found once per white set and move ([`SetClasses::moved_pair_index`]), a black
    /// mill's removal once per white set and point; children canonical with colors exchanged are
    /// located in full.
    fn moving_children(
        &self,
        q: Parts,
        cache: &mut KernelCache,
        mut emit: impl FnMut(Tier, u64, bool),
    ) {
        let classes = &self.layout.classes;
        let KernelCache { least, near } = cache;
        classes.neighbours(q.white, near);
        let (w, b) = (q.white.count_ones(), q.black.count_ones());
        let empty = self.all() & !(q.white | q.black);
        let each_piece = |set: u32, count: u32, f: &mut dyn FnMut(u32, u32)| {
            let mut pieces = set;
            while pieces != 0 {
                let from = pieces.trailing_zeros();
                pieces &= pieces - 1;
                let mut targets = self.targets(from as usize, count, empty);
                while targets != 0 {
                    let to = targets.trailing_zeros();
                    targets &= targets - 1;
                    f(from, to);
                }
            }
        };
        if !q.black_to_move {
            // White moves; the child has black to move, colors kept while white has more.
            let removable = self.removable(q.black);
            each_piece(q.white, w, &mut |from, to| {
                let white = q.white ^ (1 << from | 1 << to);
                let mill = self.forms_mill(white, to as usize);
                Self::each_removal(mill, removable, |gone| {
                    let black = gone.map_or(q.black, |x| q.black & !(1 << x));
                    let bc = black.count_ones();
                    if w > bc {
                        let i = classes.moved_pair_index(near, from, to, black).unwrap_or(u64::MAX);
                        emit(Self::tier_of(0, w, bc, false), self.pair_size(w, bc) + i, false);
                    } else {
                        let (t, i) = self.exchanged_child(white, black, true, least);
                        emit(t, i, true);
                    }
                });
            });
        } else {
            // Black moves; the child has white to move, colors kept unless black has more.
            let removable = self.removable(q.white);
            each_piece(q.black, b, &mut |from, to| {
                let black = q.black ^ (1 << from | 1 << to);
                let mill = self.forms_mill(black, to as usize);
                Self::each_removal(mill, removable, |gone| {
                    let wc = if gone.is_some() { w - 1 } else { w };
                    if wc >= b {
                        let i = classes.neighbour_pair_index(near, gone, black).unwrap_or(u64::MAX);
                        emit(Self::tier_of(0, wc, b, false), i, false);
                    } else {
                        let white = gone.map_or(q.white, |x| q.white & !(1 << x));
                        let (t, i) = self.exchanged_child(white, black, false, least);
                        emit(t, i, true);
                    }
                });
            });
        }
    }
}

impl TierKernel for Morris {
    /// Walks the index in order: the next pair of sets from the last, unranked only where a run
    /// starts (or the turn changes in a moving-phase tier).
    fn tier_positions(&self, t: Tier, first: u64, out: &mut [Option<Position>]) {
        let (in_hand, w, b, flip) = self.tier_parts(t);
        if flip {
            out.fill(None);
            return;
        }
        let classes = &self.layout.classes;
        let pairs = self.pair_size(w, b).max(1);
        let (white_hand, black_hand, placing_black) = self.hands(in_hand);
        let mut previous: Option<(u32, u32)> = None;
        for (k, slot) in out.iter_mut().enumerate() {
            let index = first + k as u64;
            let (local, black_to_move) =
                if in_hand == 0 { (index % pairs, index >= pairs) } else { (index, placing_black) };
            let pair = match previous {
                Some((a, b)) if local != 0 => classes.next_pair(a, b),
                _ => classes.pair_at(w as usize, b as usize, local),
            };
            previous = pair;
            *slot = pair.and_then(|(white, black)| {
                let (white_hand, black_hand) =
                    if in_hand == 0 { (0, 0) } else { (white_hand, black_hand) };
                let q = Parts { white, black, white_hand, black_hand, black_to_move };
                self.illegal(q).is_none().then(|| q.code())
            });
        }
    }

    fn locate(&self, p: Position, cache: &mut KernelCache) -> (Tier, u64) {
        self.locate_parts(Parts::of(p), &mut cache.least)
    }

    fn child_locations(&self, p: Position, out: &mut Vec<(Tier, u64)>, cache: &mut KernelCache) {
        out.clear();
        self.each_move(p, |from, to, removed| {
            out.push(
                self.locate_parts(Parts::of(self.apply(p, from, to, removed)), &mut cache.least),
            );
        });
        out.sort_unstable();
        out.dedup();
    }

    /// Placements' and moves' children from what the positions of a run of the tier's index
    /// share (see [`Morris::placement_children`] and [`Morris::moving_children`]). Every child of
    /// a placement is in a lower tier; a move's children in the position's own tier are distinct.
    fn child_locations_unsorted(
        &self,
        p: Position,
        out: &mut Vec<(Tier, u64)>,
        cache: &mut KernelCache,
    ) {
        out.clear();
        let emit = |t: Tier, i: u64, _exchanged: bool| out.push((t, i));
        if !self.run_children(Parts::of(p), cache, emit) {
            return self.child_locations(p, out, cache);
        }
        if Parts::of(p).in_hand() == 0 {
            out.sort_unstable();
            out.dedup();
        }
    }

    fn child_locations_sided(
        &self,
        p: Position,
        out: &mut Vec<(Tier, u64, bool)>,
        cache: &mut KernelCache,
    ) -> bool {
        out.clear();
        self.run_children(Parts::of(p), cache, |t, i, exchanged| out.push((t, i, exchanged)))
    }

    /// The board symmetries' images of a canonical position: as many as the symmetries less
    /// those that keep both sets.
    fn side_class_size(&self, p: Position) -> Option<u64> {
        let q = Parts::of(p);
        Some(self.layout.classes.pair_orbit_size(q.white, q.black))
    }

    fn parent_indices(&self, tier: Tier, p: Position, out: &mut Vec<u64>, cache: &mut KernelCache) {
        out.clear();
        self.each_parent(p, true, |parent| {
            let (t, i) = self.locate_parts(parent, &mut cache.least);
            if t == tier {
                out.push(i);
            }
        });
        out.sort_unstable();
        out.dedup();
    }
}

impl UndoMoves for Morris {
    /// The side not to move placed, slid or flew the piece now on a point; if that point is in
    /// one of its mills, a piece of the side to move was removed from a point now empty.
    fn undo_moves(&self, p: Position, out: &mut Vec<Position>) {
        self.parents(p, false, out);
    }

    /// Within a tier only slides and flights that form no mill lead here.
    fn undo_moves_in_tier(&self, p: Position, out: &mut Vec<Position>) {
        self.parents(p, true, out);
    }
}

impl ImageGui for Morris {
    /// The board's points and lines; white and black stones, and a red mark on a piece a mill
    /// may remove.
    fn theme(&self) -> ImageAutoGui {
        let mut entities = crate::themes::stones(("#f4f1e8", "#3c3c3c"), ("#262626", "#000000"));
        for e in &mut entities {
            e.token = if e.token == 'x' { 'w' } else { 'b' };
        }
        entities.push(perfectplay_core::Entity {
            token: 'r',
            svg: r##"<circle r="0.22" fill="#c0392b" stroke="#fff" stroke-width="0.05"/>"##.into(),
        });
        crate::themes::points_theme(&self.layout.board, entities)
    }

    fn autogui_position(&self, p: Position) -> String {
        let q = Parts::of(p);
        let cells = (0..self.n()).map(|c| {
            if q.white >> c & 1 == 1 {
                'w'
            } else if q.black >> c & 1 == 1 {
                'b'
            } else {
                '-'
            }
        });
        autogui_position(self.to_move(p), cells)
    }

    /// A placement is a stone on its point, a slide an arrow (a flight is two clicks, see
    /// [`MultipartMoves::move_parts`]).
    fn autogui_move(&self, p: Position, mv: Move) -> AutoGuiMove {
        let (from, to, _) = Self::decode(mv);
        let token = if Parts::of(p).black_to_move { 'b' } else { 'w' };
        if from == NONE {
            AutoGuiMove::Token { token, at: to as usize }
        } else {
            AutoGuiMove::Arrow { from: from as usize, to: to as usize }
        }
    }

    fn multipart(&self) -> Option<&dyn MultipartMoves> {
        if self.mill_wins() {
            None
        } else {
            Some(self)
        }
    }
}

impl MultipartMoves for Morris {
    /// 003 6.4.4: a move that forms a mill is its placement or arrow, then a click on the piece
    /// to remove.
    /// A flight (its arrows would lie on top of each other along a line) is the piece, then
    /// where it goes.
    fn move_parts(&self, p: Position, mv: Move) -> Vec<AutoGuiMove> {
        let (from, to, removed) = Self::decode(mv);
        let q = Parts::of(p);
        let (mover, _, mover_hand, _) = q.sides();
        let flight = from != NONE && self.flying && mover_hand == 0 && mover.count_ones() == 3;
        let mut parts = if flight {
            vec![
                AutoGuiMove::Token { token: 's', at: from as usize },
                AutoGuiMove::Token { token: 't', at: to as usize },
            ]
        } else if removed != NONE {
            vec![self.autogui_move(p, mv)]
        } else {
            return Vec::new();
        };
        if removed != NONE {
            parts.push(AutoGuiMove::Token { token: 'r', at: removed as usize });
        }
        parts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfectplay_core::GameExt;

    #[test]
    fn the_boards_have_their_symmetries_and_mills() {
        let nine = Morris::nine("regular").unwrap();
        assert_eq!(nine.layout.mills.len(), 16);
        assert_eq!(nine.layout.classes.symmetry_count(), 16);
        assert_eq!(nine.layout.board.edges().len(), 32);
        let six = Morris::six("regular").unwrap();
        assert_eq!((six.layout.mills.len(), six.layout.classes.symmetry_count()), (8, 16));
        assert_eq!(six.layout.board.edges().len(), 20);
        let three = Morris::three("regular").unwrap();
        assert_eq!((three.layout.mills.len(), three.layout.classes.symmetry_count()), (8, 8));
        // Every symmetry takes mills to mills and neighbors to neighbors.
        for game in [&nine, &six, &three] {
            let l = &game.layout;
            for s in 0..l.classes.symmetry_count() {
                for &m in &l.mills {
                    assert!(l.mills.contains(&l.classes.image(s, m)));
                }
                for &(a, b) in l.board.edges() {
                    let (a, b) = (l.classes.permutation(s)[a], l.classes.permutation(s)[b]);
                    assert!(l.board.neighbors(a).contains(&b));
                }
            }
        }
        // 003's 3-3 tier: 2 turns x C(24,3) x C(21,3) arrangements.
        assert_eq!(2 * 2024 * 1330, 5_383_840);
    }

    #[test]
    fn a_mill_removes_a_piece_not_in_a_mill() {
        let g = Morris::nine("regular").unwrap();
        // White a7 d7 c3 e3, black a1 d1 g1 (a mill) and b6; white places g7: a mill.
        let p =
            g.parse_position("ww-b-----------w-w---bbb w 5 5").unwrap_or_else(|e| panic!("{e}"));
        let moves: Vec<String> = g.legal_moves(p).iter().map(|&m| g.move_to_string(p, m)).collect();
        assert!(moves.contains(&"g7xb6".to_string()), "{moves:?}");
        assert!(!moves.iter().any(|m| m.starts_with("g7xa1")));
        let any = Morris::nine("mill-removal").unwrap();
        let moves: Vec<String> =
            any.legal_moves(p).iter().map(|&m| any.move_to_string(p, m)).collect();
        assert!(moves.contains(&"g7xa1".to_string()));
    }

    #[test]
    fn bad_positions_are_refused_with_a_reason() {
        let g = Morris::nine("regular").unwrap();
        for bad in [
            "wwwwwwwwww-------------- b 0 0",
            "------------------------ b 9 9",
            "ww---------------------- b 0 0",
            "------------------------ w 9",
            "x----------------------- w 9 9",
        ] {
            assert!(g.parse_position(bad).is_err(), "{bad}");
        }
        let start = g.start();
        assert_eq!(g.parse_position(&g.position_to_string(start)), Ok(start));
    }
}

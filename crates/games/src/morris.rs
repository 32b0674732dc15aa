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

use std::sync::Arc;

use crate::prelude::*;

mod boards;
mod by_move;
mod gui;
mod index;
mod kernel;
#[cfg(test)]
mod tests;
mod variants;
pub use variants::NINE_VARIANTS;

use boards::Layout;

// A position's code: each side's points (24 bits, every board), pieces in hand, the turn.
const WHITE: Field<u32> = Field::first(24);
const BLACK: Field<u32> = WHITE.then(24);
const WHITE_HAND: Field<u32> = BLACK.then(4);
const BLACK_HAND: Field<u32> = WHITE_HAND.then(4);
const BLACK_TO_MOVE: Field<bool> = BLACK_HAND.then(1);
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
    /// A point's character: `w`, `b`, or `-` where it is empty.
    fn cell(self, c: usize) -> char {
        if self.white >> c & 1 == 1 {
            'w'
        } else if self.black >> c & 1 == 1 {
            'b'
        } else {
            '-'
        }
    }

    #[inline]
    fn of(p: Position) -> Parts {
        Parts {
            white: WHITE.get(p.0),
            black: BLACK.get(p.0),
            white_hand: WHITE_HAND.get(p.0),
            black_hand: BLACK_HAND.get(p.0),
            black_to_move: BLACK_TO_MOVE.get(p.0),
        }
    }

    #[inline]
    fn code(self) -> Position {
        Position(
            WHITE.put(self.white)
                | BLACK.put(self.black)
                | WHITE_HAND.put(self.white_hand)
                | BLACK_HAND.put(self.black_hand)
                | BLACK_TO_MOVE.put(self.black_to_move),
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

impl Morris {
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
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! {
    NINE = Morris::nine, "morris.rs", "ninemensmorris", "Nine Men's Morris";
    default "regular"; syntax NINE_VARIANTS;
    listed &["regular", "mill-removal", "no-flying", "mill-removal-no-flying"];
    also &["regular/moving-3", "no-flying/moving-4"]
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! {
    SIX = Morris::six, "morris.rs", "sixmensmorris", "Six Men's Morris";
    default "regular"; syntax "regular"; listed &["regular"]; also &[]
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! {
    THREE = Morris::three, "morris.rs", "threemensmorris", "Three Men's Morris";
    default "regular"; syntax "regular (rows, columns and diagonals) or no-diagonals";
    listed &["regular", "no-diagonals"]; also &[]
}

impl Game for Morris {
    fn id(&self) -> &'static str {
        self.entry().id
    }
    fn name(&self) -> &'static str {
        self.entry().name
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
        Player::second_if(Parts::of(p).black_to_move)
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
        let cells: String = (0..self.n()).map(|c| q.cell(c)).collect();
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
        // The text's pieces, in capitals, and `+` for an empty point.
        let piece = |c: usize| match q.cell(c) {
            '-' => '+',
            piece => piece.to_ascii_uppercase(),
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

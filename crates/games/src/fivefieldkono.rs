//! Five Field Kono (000): a 5x5 board of points, seven pebbles each. Player 1 (`x`, white) starts on
//! rank 1 and the ends of rank 2, player 2 (`o`, black) on rank 5 and the ends of rank 4; `x` moves
//! first. A move takes one of your pebbles one step diagonally to an empty point. You win by
//! occupying every starting point of the opponent. A player who cannot move ties (`regular`), loses
//! (`lose-if-stuck`, 000's variant 1) or wins (`win-if-stuck`, variant 2). Loopy: pebbles move back
//! and forth, nothing is ever captured.
//!
//! **Position code (000 section 3.3).** Diagonal moves never change the colour of a point (the
//! parity of x + y), so the board is two separate networks, the *even component* of 12 points
//! (x + y odd; 4 pebbles of each side) and the *odd component* of 13 points (x + y even; 3 each).
//! Each component's arrangement is ranked by the rearranger hash: its place in the alphabetical
//! order of all arrangements, points in reading order from the top left, blank before `o` before
//! `x`. The code is `odd * 2 * E + turn * E + even` with `E` = 34,650 even arrangements and turn 1
//! when `o` is to move: 2 x 34,650 x 34,320 = 2,378,376,000 codes, every one a position.
//!
//! **Tables.** Moves never cross components, so a move changes one component's rank only: per
//! component, per side and per rank, the ranks one move away are precomputed, which makes
//! children and undo-moves (the same steps backwards: a diagonal step is its own reverse) table
//! lookups. Symmetries (000 section 3.1.4): the left-right flip of each component on its own, and
//! the top-bottom flip of both with the colours and the turn swapped; 8 in all. The canonical form
//! is the least code of the 8 images, which the tables give with four lookups.
//!
//! A 4x4 board (`4x4-regular` and so on; 6 pebbles each, 627,200 codes) exists for fast tests.
//! Its left-right flip exchanges the two components, so it is solved without symmetries.

mod component;
use component::{build_component, start_cells, Component};

use crate::prelude::*;

/// What happens to a player who cannot move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StuckRule {
    /// The game is a tie (000's standard rules).
    Tie,
    /// The player who cannot move loses (000's variant 1).
    Lose,
    /// The player who cannot move wins (000's variant 2).
    Win,
}

impl StuckRule {
    fn name(self) -> &'static str {
        match self {
            StuckRule::Tie => "regular",
            StuckRule::Lose => "lose-if-stuck",
            StuckRule::Win => "win-if-stuck",
        }
    }

    fn value(self) -> Value {
        match self {
            StuckRule::Tie => Value::Tie,
            StuckRule::Lose => Value::Lose,
            StuckRule::Win => Value::Win,
        }
    }
}

/// Side index: 0 is `x` (player 1), 1 is `o`.
const X: usize = 0;
const O: usize = 1;

/// One Five Field Kono variant.
#[derive(Clone, Debug)]
pub struct FiveFieldKono {
    n: usize,
    rule: StuckRule,
    /// The even component (x + y odd), whose rank is the low part of the code, and the odd one.
    even: Component,
    odd: Component,
    /// Whether the 8 symmetries are used (5x5 only).
    symmetric: bool,
}

impl FiveFieldKono {
    /// The game on an `n` x `n` board (4 or 5) with the given rule for a player who cannot move.
    pub fn new(n: usize, rule: StuckRule) -> Result<FiveFieldKono, String> {
        if !(4..=5).contains(&n) {
            return Err(format!("a board of 4x4 or 5x5, got {n}x{n}"));
        }
        Ok(FiveFieldKono {
            n,
            rule,
            even: build_component(n, 1),
            odd: build_component(n, 0),
            symmetric: n == 5,
        })
    }

    /// Builds a variant from its name: `regular`, `lose-if-stuck`, `win-if-stuck`, optionally
    /// prefixed by `4x4-` for the small board.
    pub fn from_variant(variant: &str) -> Result<FiveFieldKono, String> {
        let (n, rule) = match variant.strip_prefix("4x4-") {
            Some(rest) => (4, rest),
            None => (5, variant),
        };
        let rule = [StuckRule::Tie, StuckRule::Lose, StuckRule::Win]
            .into_iter()
            .find(|r| r.name() == rule)
            .ok_or_else(|| {
                "regular | lose-if-stuck | win-if-stuck, optionally prefixed by 4x4-".to_string()
            })?;
        FiveFieldKono::new(n, rule)
    }

    fn evens(&self) -> u64 {
        self.even.len() as u64
    }

    /// The code's parts: odd rank, side to move, even rank.
    #[inline]
    fn split(&self, p: Position) -> (usize, usize, usize) {
        let e = self.evens();
        let (odd, rest) = (p.0 / (2 * e), p.0 % (2 * e));
        (odd as usize, (rest / e) as usize, (rest % e) as usize)
    }

    #[inline]
    fn join(&self, odd: usize, turn: usize, even: usize) -> Position {
        let e = self.evens();
        Position(odd as u64 * 2 * e + turn as u64 * e + even as u64)
    }

    /// The board as cell masks of `x` and `o`, and the side to move.
    fn board(&self, p: Position) -> ([u32; 2], usize) {
        let (odd, turn, even) = self.split(p);
        let mut board = [0u32; 2];
        for (c, r) in [(&self.even, even), (&self.odd, odd)] {
            for side in [X, O] {
                for (s, &cell) in c.cells.iter().enumerate() {
                    if c.masks[r][side] >> s & 1 == 1 {
                        board[side] |= 1 << cell;
                    }
                }
            }
        }
        (board, turn)
    }

    /// The code of a board, if each side has the right number of pebbles in each component.
    fn encode_board(&self, board: [u32; 2], turn: usize) -> Result<Position, String> {
        let mut ranks = [0usize; 2];
        for (k, c) in [&self.even, &self.odd].into_iter().enumerate() {
            let mut m = [0u32; 2];
            for side in [X, O] {
                for (s, &cell) in c.cells.iter().enumerate() {
                    if board[side] >> cell & 1 == 1 {
                        m[side] |= 1 << s;
                    }
                }
                if m[side].count_ones() != c.pieces[side] {
                    return Err(format!(
                        "{} needs {} pebbles on the {} points of the {} network and {} on the {} of \
                         the {} (pebbles never leave their diagonal network)",
                        ["x", "o"][side],
                        self.even.pieces[side],
                        self.even.cells.len(),
                        "even",
                        self.odd.pieces[side],
                        self.odd.cells.len(),
                        "odd",
                    ));
                }
            }
            ranks[k] = c.rank(m[X], m[O]);
        }
        Ok(self.join(ranks[1], turn, ranks[0]))
    }

    fn cell_name(&self, cell: usize) -> String {
        let (x, y) = (cell % self.n, cell / self.n);
        format!("{}{}", (b'a' + x as u8) as char, self.n - y)
    }

    fn rule_primitive(&self, odd: usize, turn: usize, even: usize) -> Option<Value> {
        let opponent = 1 - turn;
        let done = 1u8 << opponent;
        if self.even.goal[even] & done != 0 && self.odd.goal[odd] & done != 0 {
            return Some(Value::Lose);
        }
        if self.even.successors(turn, even).is_empty() && self.odd.successors(turn, odd).is_empty()
        {
            return Some(self.rule.value());
        }
        None
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! {
    ENTRY = FiveFieldKono::from_variant, "fivefieldkono.rs",
        "fivefieldkono", "Five Field Kono";
    default "regular";
    syntax "regular | lose-if-stuck | win-if-stuck, optionally prefixed by 4x4- (a small board)";
    listed &["regular", "lose-if-stuck", "win-if-stuck", "4x4-regular", "4x4-lose-if-stuck",
        "4x4-win-if-stuck"];
    also &[]
}

impl Game for FiveFieldKono {
    crate::declared!(ENTRY);
    fn variant(&self) -> String {
        if self.n == 5 {
            self.rule.name().to_string()
        } else {
            format!("{n}x{n}-{}", self.rule.name(), n = self.n)
        }
    }
    fn variant_description(&self) -> String {
        let board = if self.n == 5 {
            "000's 5x5 board, 7 pebbles each".to_string()
        } else {
            format!("A {n}x{n} board, {} pebbles each", start_cells(self.n, X).len(), n = self.n)
        };
        let stuck = match self.rule {
            StuckRule::Tie => "ties",
            StuckRule::Lose => "loses",
            StuckRule::Win => "wins",
        };
        format!("{board}; a player who cannot move {stuck}")
    }

    fn start(&self) -> Position {
        let mut board = [0u32; 2];
        for side in [X, O] {
            for (x, y) in start_cells(self.n, side) {
                board[side] |= 1 << (y * self.n + x);
            }
        }
        self.encode_board(board, X).expect("the start has the right pebbles")
    }

    /// The 4x4 boards solve at once; 5x5 takes minutes.
    fn size_class(&self) -> SizeClass {
        SizeClass::small_if(self.n != 5)
    }

    fn space(&self) -> PositionSpace<'_> {
        PositionSpace::Dense { size: 2 * self.evens() * self.odd.len() as u64 }
    }

    fn symmetry(&self) -> Option<&dyn Symmetry> {
        self.symmetric.then_some(self as &dyn Symmetry)
    }

    fn undo(&self) -> Option<&dyn UndoMoves> {
        Some(self)
    }

    fn gui(&self) -> Option<&dyn ImageGui> {
        Some(self)
    }

    fn primitive(&self, p: Position) -> Option<Value> {
        let (odd, turn, even) = self.split(p);
        self.rule_primitive(odd, turn, even)
    }

    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let (board, turn) = self.board(p);
        let occupied = board[X] | board[O];
        let n = self.n as i32;
        for from in 0..self.n * self.n {
            if board[turn] >> from & 1 == 0 {
                continue;
            }
            let (x, y) = ((from % self.n) as i32, (from / self.n) as i32);
            for (dx, dy) in [(-1, -1), (1, -1), (-1, 1), (1, 1)] {
                let (tx, ty) = (x + dx, y + dy);
                if (0..n).contains(&tx) && (0..n).contains(&ty) {
                    let to = (ty * n + tx) as usize;
                    if occupied >> to & 1 == 0 {
                        out.push(Move((from * 32 + to) as u32));
                    }
                }
            }
        }
    }

    fn do_move(&self, p: Position, mv: Move) -> Position {
        let (mut board, turn) = self.board(p);
        let (from, to) = (mv.0 / 32, mv.0 % 32);
        board[turn] ^= 1 << from | 1 << to;
        self.encode_board(board, 1 - turn).unwrap_or(p)
    }

    fn children(&self, p: Position, out: &mut Vec<Position>) {
        let (odd, turn, even) = self.split(p);
        for &e in self.even.successors(turn, even) {
            out.push(self.join(odd, 1 - turn, e as usize));
        }
        for &o in self.odd.successors(turn, odd) {
            out.push(self.join(o as usize, 1 - turn, even));
        }
    }

    fn to_move(&self, p: Position) -> Player {
        if self.split(p).1 == X {
            Player::First
        } else {
            Player::Second
        }
    }

    fn position_to_string(&self, p: Position) -> String {
        let (board, turn) = self.board(p);
        let mut s = String::new();
        for y in 0..self.n {
            if y > 0 {
                s.push('/');
            }
            s.extend((0..self.n).map(|x| piece(board, y * self.n + x, "xo.")));
        }
        s.push(' ');
        s.push(if turn == X { 'x' } else { 'o' });
        s
    }

    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let n = self.n;
        let malformed = || ParseError::Malformed {
            what: "position",
            text: text.to_string(),
            expected: format!(
                "{n} rows of {n} points from the top (x, o or .) separated by '/', a space and the \
                 side to move (x or o), like {}",
                self.position_to_string(self.start())
            ),
        };
        let (rows, turn) = text.trim().split_once(' ').ok_or_else(malformed)?;
        let turn = match turn.trim() {
            "x" => X,
            "o" => O,
            _ => return Err(malformed()),
        };
        let rows: Vec<&str> = rows.split('/').collect();
        if rows.len() != n || rows.iter().any(|r| r.chars().count() != n) {
            return Err(malformed());
        }
        let mut board = [0u32; 2];
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                match ch {
                    'x' => board[X] |= 1 << (y * n + x),
                    'o' => board[O] |= 1 << (y * n + x),
                    '.' => {}
                    _ => return Err(malformed()),
                }
            }
        }
        self.encode_board(board, turn)
            .map_err(|reason| ParseError::IllegalPosition { text: text.to_string(), reason })
    }

    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        format!("{}{}", self.cell_name((mv.0 / 32) as usize), self.cell_name((mv.0 % 32) as usize))
    }

    fn move_syntax(&self) -> String {
        let last = (b'a' + self.n as u8 - 1) as char;
        format!("[a-{last}][1-{n}][a-{last}][1-{n}] (from, to)", n = self.n)
    }

    /// The board as 000 Figure 4.2 draws it: rank 5 at the top, files a-e at the bottom.
    fn board_text(&self, p: Position) -> String {
        let (board, _) = self.board(p);
        let n = self.n;
        let mut s = String::new();
        for y in 0..n {
            s.push_str(&format!("{}  ", n - y));
            for x in 0..n {
                s.push_str(&format!("({})", piece(board, y * n + x, "xo ")));
                if x + 1 < n {
                    s.push(' ');
                }
            }
            s.push('\n');
            if y + 1 < n {
                // Diagonals from just right of one point to just left of the next.
                s.push_str(&format!("     {}\n", vec!["\\ /"; n - 1].join(" ")));
                s.push_str(&format!("     {}\n", vec!["/ \\"; n - 1].join(" ")));
            }
        }
        s.push_str("   ");
        for x in 0..n {
            s.push_str(&format!(" {} ", (b'a' + x as u8) as char));
            if x + 1 < n {
                s.push(' ');
            }
        }
        s.push_str("\n(x) white, (o) black\n");
        s
    }

    fn player_names(&self) -> [&'static str; 2] {
        ["white", "black"]
    }
}

impl Symmetry for FiveFieldKono {
    fn symmetry_count(&self) -> usize {
        8
    }

    #[inline]
    fn canonical(&self, p: Position) -> Position {
        let (odd, turn, even) = self.split(p);
        let same =
            self.join(self.odd.min_flip[odd] as usize, turn, self.even.min_flip[even] as usize);
        let swapped =
            self.join(self.odd.min_swap[odd] as usize, 1 - turn, self.even.min_swap[even] as usize);
        same.min(swapped)
    }

    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        let (odd, turn, even) = self.split(p);
        for (odd, turn, even) in [
            (odd, turn, even),
            (self.odd.swap[odd] as usize, 1 - turn, self.even.swap[even] as usize),
        ] {
            for odd in [odd, self.odd.flip[odd] as usize] {
                for even in [even, self.even.flip[even] as usize] {
                    out.push(self.join(odd, turn, even));
                }
            }
        }
    }
}

impl UndoMoves for FiveFieldKono {
    fn undo_moves(&self, p: Position, out: &mut Vec<Position>) {
        let (odd, turn, even) = self.split(p);
        let mover = 1 - turn;
        for &e in self.even.successors(mover, even) {
            if self.rule_primitive(odd, mover, e as usize).is_none() {
                out.push(self.join(odd, mover, e as usize));
            }
        }
        for &o in self.odd.successors(mover, odd) {
            if self.rule_primitive(o as usize, mover, even).is_none() {
                out.push(self.join(o as usize, mover, even));
            }
        }
    }
}

impl ImageGui for FiveFieldKono {
    /// 000 Figure 4.2's board: points joined by their diagonals; x white (player 1, below), o
    /// black.
    fn theme(&self) -> ImageAutoGui {
        use std::fmt::Write;
        let n = self.n;
        let centers = perfectplay_core::autogui::grid_centers(n, n, 100.0);
        let size = n as f64 * 100.0;
        let mut background = format!(r##"<rect width="{size}" height="{size}" fill="#e9dcc0"/>"##);
        for c in 0..n * n {
            let (x, y) = (c % n, c / n);
            for dx in [-1i32, 1] {
                let (nx, ny) = (x as i32 + dx, y + 1);
                if nx >= 0 && (nx as usize) < n && ny < n {
                    let (a, b) = (centers[c], centers[ny * n + nx as usize]);
                    let _ = write!(
                        background,
                        r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#6b5a3c" stroke-width="4"/>"##,
                        a.0, a.1, b.0, b.1
                    );
                }
            }
        }
        for (x, y) in &centers {
            let _ = write!(background, r##"<circle cx="{x}" cy="{y}" r="9" fill="#6b5a3c"/>"##);
        }
        ImageAutoGui {
            theme: "pebbles",
            size: (size, size),
            centers,
            background,
            entities: crate::themes::stones(("#f7f4ea", "#555"), ("#2a2a2a", "#000")),
            piece_size: 70.0,
            arrow_width: 12.0,
        }
    }

    fn autogui_position(&self, p: Position) -> String {
        let (board, turn) = self.board(p);
        let cells = (0..self.n * self.n).map(|c| piece(board, c, "xo-"));
        perfectplay_core::autogui::autogui_position(
            if turn == X { Player::First } else { Player::Second },
            cells,
        )
    }

    fn autogui_move(&self, _p: Position, mv: Move) -> AutoGuiMove {
        AutoGuiMove::Arrow { from: (mv.0 / 32) as usize, to: (mv.0 % 32) as usize }
    }
}

/// What stands on cell `c` of a board (X's and O's masks), by `chars`: X's, O's, empty.
fn piece(board: [u32; 2], c: usize, chars: &str) -> char {
    let i = if board[X] >> c & 1 == 1 {
        0
    } else if board[O] >> c & 1 == 1 {
        1
    } else {
        2
    };
    chars.chars().nth(i).expect("three characters")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn space_matches_000() {
        let g = FiveFieldKono::new(5, StuckRule::Tie).unwrap();
        assert_eq!(g.even.len(), 34_650);
        assert_eq!(g.odd.len(), 34_320);
        assert_eq!(g.space().dense_size(), Some(2_378_376_000));
        for c in [&g.even, &g.odd] {
            for (r, m) in c.masks.iter().enumerate() {
                assert_eq!(c.rank(m[X], m[O]), r);
            }
        }
    }

    #[test]
    fn first_even_arrangements_are_000s() {
        // 000 section 3.3.1 lists the even component in order: 0 is ----OOOOXXXX, 34649 XXXXOOOO----.
        let g = FiveFieldKono::new(5, StuckRule::Tie).unwrap();
        let text = |m: [u32; 2]| -> String { (0..12).map(|s| piece(m, s, "XO-")).collect() };
        assert_eq!(text(g.even.masks[0]), "----OOOOXXXX");
        assert_eq!(text(g.even.masks[1]), "----OOOXOXXX");
        assert_eq!(text(g.even.masks[17_570]), "OOOXX-O-XX--");
        assert_eq!(text(g.even.masks[34_649]), "XXXXOOOO----");
    }
}

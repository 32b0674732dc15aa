//! Tac Tix (003 Appendix A; Image AutoGUI 003 section 5.5.11): coins fill an n x n square.
//! Players take turns removing a set of coins that are next to one another in one row or one
//! column (one coin or more, no gaps). Normal play, as 003 states it and as GamesmanClassic's
//! standard game has it: the first player unable to move (no coins left) loses. Piet Hein's
//! original is misère, GamesmanClassic's reverse game: taking the last coin loses
//! (`NxN-misere`). Normal play on a square is settled by mirroring: the second player wins on
//! even sides, the first on odd ones (take the center, then mirror).
//!
//! Position code: the coins (bit `i` for cell `i`, reading order from the top left), shifted
//! left one bit for the player to move (1: the second). Tac Tix is impartial, so the turn is
//! carried only to name the player to move; symmetries: the 8 of the square and the exchange of
//! players. Tier: the coins left. A move is the set of coins it removes. Sides go up to 4 (4x4
//! solves in about 0.3 s; 5x5 in about 40 s, but counting its 67 million positions takes minutes).

use crate::prelude::*;

use crate::themes::CELL;

// A position's code: whether the second player is to move, the coins left (a bit per cell).
const SECOND: Field<bool> = Field::first(1);
const COINS: Field<u64> = SECOND.then(63);

/// Tac Tix on an n x n square.
#[derive(Clone, Debug)]
pub struct TacTix {
    n: usize,
    misere: bool,
    board: Board,
    symmetries: Symmetries,
    /// Every removable run of coins as a mask; runs of one coin once.
    runs: Vec<u64>,
}

impl TacTix {
    /// The largest side.
    pub const MAX: usize = 4;

    /// An `n` x `n` square (1 to [`TacTix::MAX`]), misère or normal play.
    pub fn new(n: usize, misere: bool) -> Result<TacTix, String> {
        if !(1..=Self::MAX).contains(&n) {
            return Err(format!("a side from 1 to {}", Self::MAX));
        }
        let board = Board::grid(n, n);
        let mut runs: Vec<u64> = Vec::new();
        for (dx, dy, min) in [(1, 0, 1), (0, 1, 2)] {
            for start in 0..n * n {
                for len in min..=n as i32 {
                    let cells: Option<Vec<usize>> =
                        (0..len).map(|i| board.step(start, i * dx, i * dy)).collect();
                    runs.extend(cells.map(|c| c.iter().fold(0u64, |m, &i| m | 1 << i)));
                }
            }
        }
        let symmetries = board.symmetries(&board::SQUARE);
        Ok(TacTix { n, misere, board, symmetries, runs })
    }

    /// Reads a variant name: `NxN`, optionally followed by `-misere` (e.g. `4x4-misere`).
    pub fn from_variant(variant: &str) -> Result<TacTix, String> {
        let expected = format!("NxN or NxN-misere, a side from 1 to {} (e.g. 4x4)", Self::MAX);
        let (dims, misere) = match variant.strip_suffix("-misere") {
            Some(d) => (d, true),
            None => (variant, false),
        };
        match dims.split_once('x').map(|(a, b)| (a.parse::<usize>(), b.parse::<usize>())) {
            Some((Ok(a), Ok(b))) if a == b => {
                TacTix::new(a, misere).map_err(|e| format!("{expected}: {e}"))
            }
            _ => Err(expected),
        }
    }

    /// The coins left and whether the second player is to move.
    fn parts(p: Position) -> (u64, bool) {
        (COINS.get(p.0), SECOND.get(p.0))
    }
    fn code(coins: u64, second: bool) -> Position {
        Position(COINS.put(coins) | SECOND.put(second))
    }
    /// The runs of more than one coin, numbered: run `k`'s line joins centers n² + 2k and
    /// n² + 2k + 1.
    fn long_runs(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        self.runs.iter().copied().filter(|r| r.count_ones() > 1).enumerate()
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! {
    ENTRY = TacTix::from_variant, "tactix.rs", "tactix", "Tac Tix";
    default "4x4"; syntax "NxN (normal play: no move loses) or NxN-misere (taking the last coin \
        loses), a side from 1 to 4";
    listed &["3x3", "4x4", "3x3-misere", "4x4-misere"]; also &["1x1", "2x2", "2x2-misere"]
}

impl Game for TacTix {
    crate::declared!(ENTRY, Small);
    fn variant(&self) -> String {
        format!("{0}x{0}{1}", self.n, if self.misere { "-misere" } else { "" })
    }
    fn variant_description(&self) -> String {
        let last = if self.misere { "loses (misère)" } else { "wins (normal play)" };
        format!("A {0}x{0} square of coins; taking the last coin {last}", self.n)
    }
    fn start(&self) -> Position {
        Self::code((1 << (self.n * self.n)) - 1, false)
    }
    fn to_move(&self, p: Position) -> Player {
        Player::second_if(Self::parts(p).1)
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        let value = if self.misere { Value::Win } else { Value::Lose };
        (Self::parts(p).0 == 0).then_some(value)
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let coins = Self::parts(p).0;
        out.extend(self.runs.iter().filter(|&&r| coins & r == r).map(|&r| Move(r as u32)));
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        let (coins, second) = Self::parts(p);
        Self::code(coins & !u64::from(mv.0), !second)
    }
    fn position_to_string(&self, p: Position) -> String {
        let (coins, second) = Self::parts(p);
        let cells = board::unpack(coins, self.n * self.n, 2);
        board::grid_turn_to_string(&cells, self.n, "o", if second { '2' } else { '1' })
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let expected = format!(
            "{0} rows of {0} cells separated by '/', each o (a coin) or -, then a space and the \
             player to move (1 or 2), e.g. {1}",
            self.n,
            self.position_to_string(self.start())
        );
        let (cells, turn) = board::parse_grid_turn(text, self.n, self.n, "o", "12", &expected)?;
        Ok(Self::code(board::pack(&cells, 2), turn == 1))
    }
    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        let (first, last) = (mv.0.trailing_zeros(), 31 - mv.0.leading_zeros());
        let name = |c: u32| self.board.name(c as usize).to_string();
        if first == last {
            name(first)
        } else {
            format!("{}-{}", name(first), name(last))
        }
    }
    fn move_syntax(&self) -> String {
        let last = (b'a' + self.n as u8 - 1) as char;
        format!("[a-{last}][1-{0}] (one coin) or [a-{last}][1-{0}]-[a-{last}][1-{0}] (the ends of a run in a row or column; row 1 at the top)", self.n)
    }
    fn board_text(&self, p: Position) -> String {
        let coins = Self::parts(p).0;
        board::grid_text(self.n, self.n, |c| if coins >> c & 1 == 1 { 'O' } else { '.' })
    }
    perfectplay_core::capabilities!(tiers, symmetry, gui);
}

impl Tiers for TacTix {
    /// A tier is the number of coins left.
    fn tier(&self, p: Position) -> Tier {
        Tier(Self::parts(p).0.count_ones())
    }
}

impl Symmetry for TacTix {
    fn symmetry_count(&self) -> usize {
        2 * self.symmetries.len()
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        let (coins, second) = Self::parts(p);
        for turn in [second, !second] {
            let images = (0..self.symmetries.len()).map(|g| self.symmetries.map_mask(g, coins));
            out.extend(images.map(|c| Self::code(c, turn)));
        }
    }
    fn exchange(&self) -> Option<&dyn Exchange> {
        Some(self)
    }
}

impl Exchange for TacTix {
    fn exchanged(&self, p: Position) -> Position {
        Position(p.0 ^ SECOND.mask())
    }
    /// The least image has the first player to move; it is the exchange's when the second is.
    fn canonical_exchanged(&self, p: Position) -> (Position, bool) {
        let (coins, second) = Self::parts(p);
        let least = (0..self.symmetries.len()).map(|g| self.symmetries.map_mask(g, coins)).min();
        (Self::code(least.unwrap_or(coins), false), second)
    }
}

impl ImageGui for TacTix {
    /// Coins on a grid; a token on a coin removes it alone, a line along a row or column removes
    /// the run it covers. Each run of a row (column) has its own lane across the row's cells, so
    /// no two lines lie on one another.
    fn theme(&self) -> ImageAutoGui {
        let coin = r##"<circle r="0.38" fill="#d9a93a" stroke="#8a6416" stroke-width="0.05"/><circle r="0.26" fill="none" stroke="#8a6416" stroke-width="0.03"/>"##;
        let mut theme = crate::themes::grid_theme(
            self.n,
            self.n,
            vec![Entity { token: 'o', svg: coin.into() }],
        );
        let lanes = (self.n * (self.n - 1) / 2) as f64;
        for (_, run) in self.long_runs() {
            let (first, last) = (run.trailing_zeros() as usize, 63 - run.leading_zeros() as usize);
            let in_row = last - first < self.n;
            // The lane: the run's place among its line's runs, by start then length.
            let start = if in_row { first % self.n } else { first / self.n };
            let lane =
                (0..start).map(|s| self.n - s - 1).sum::<usize>() + run.count_ones() as usize - 2;
            let offset = 0.7 * ((lane as f64 + 1.0) / (lanes + 1.0) - 0.5);
            let (dx, dy) = if in_row { (0.0, offset) } else { (offset, 0.0) };
            for c in [first, last] {
                let (x, y) = theme.centers[c];
                theme.centers.push((x + dx * CELL, y + dy * CELL));
            }
        }
        theme.arrow_width = (0.4 * CELL / (lanes + 1.0)).min(10.0);
        theme
    }
    fn autogui_position(&self, p: Position) -> String {
        let coins = Self::parts(p).0;
        let cells = (0..self.n * self.n).map(|c| if coins >> c & 1 == 1 { 'o' } else { '-' });
        let extra = std::iter::repeat_n('-', 2 * self.long_runs().count());
        autogui_position(self.to_move(p), cells.chain(extra))
    }
    fn autogui_move(&self, _p: Position, mv: Move) -> AutoGuiMove {
        let run = u64::from(mv.0);
        match self.long_runs().find(|&(_, r)| r == run) {
            Some((k, _)) => {
                let from = self.n * self.n + 2 * k;
                AutoGuiMove::Line { from, to: from + 1 }
            }
            None => AutoGuiMove::Token { token: 'x', at: run.trailing_zeros() as usize },
        }
    }
}

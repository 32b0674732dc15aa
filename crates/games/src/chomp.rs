//! Chomp (003 Appendix A; Image AutoGUI 003 section 5.5.3): a bar of chocolate of R rows and C
//! columns with the poisoned square at the bottom left. A move picks any remaining square other
//! than the poisoned one and eats it with every square on or to the right of its column and on or
//! above its row. The player to move when only the poisoned square is left loses.
//!
//! Position code: the row lengths from the bottom row up (4 bits each, the bottom row lowest),
//! shifted left one bit for the player to move (1: the second player). Chomp is
//! impartial, so the turn is carried only to name the player to move: exchanging the players is a
//! symmetry, and on a square bar so is the reflection in the diagonal through the poisoned square.
//! Tier: the squares left. Cells are named as on every grid here (`a1` top left), so the
//! poisoned square is `a<R>`.

use crate::prelude::*;

use crate::board;

// A position's code: whether the second player is to move, then each row's length from the
// bottom up (row r's field is `ROW.nth(r)`).
const SECOND: Field<bool> = Field::first(1);
const ROW: Field<u8> = SECOND.then(4);

/// Chomp on an R x C bar.
#[derive(Clone, Debug)]
pub struct Chomp {
    rows: usize,
    cols: usize,
}

impl Chomp {
    /// The largest number of rows or columns (row lengths are 4-bit digits).
    pub const MAX: usize = 15;

    /// A bar of `rows` x `cols` squares, each from 1 to [`Chomp::MAX`].
    pub fn new(rows: usize, cols: usize) -> Result<Chomp, String> {
        if !(1..=Self::MAX).contains(&rows) || !(1..=Self::MAX).contains(&cols) {
            return Err(format!("rows and columns from 1 to {}", Self::MAX));
        }
        Ok(Chomp { rows, cols })
    }

    /// Reads a variant name `RxC` (rows x columns, e.g. `4x5`).
    pub fn from_variant(variant: &str) -> Result<Chomp, String> {
        let expected = format!("RxC (rows x columns, 1 to {} each, e.g. 4x5)", Self::MAX);
        let (r, c) = variant.split_once('x').ok_or_else(|| expected.clone())?;
        match (r.parse(), c.parse()) {
            (Ok(r), Ok(c)) => Chomp::new(r, c).map_err(|e| format!("{expected}: {e}")),
            _ => Err(expected),
        }
    }

    /// Row lengths from the bottom row up, and whether the second player is to move.
    fn parts(&self, p: Position) -> ([u8; 16], bool) {
        let mut lens = [0u8; 16];
        (0..self.rows).for_each(|r| lens[r] = ROW.nth(r as u32).get(p.0));
        (lens, SECOND.get(p.0))
    }
    fn code(&self, lens: &[u8], second: bool) -> Position {
        let rows = lens[..self.rows].iter().enumerate();
        let rows = rows.fold(0, |code, (r, &l)| code | ROW.nth(r as u32).put(l));
        Position(rows | SECOND.put(second))
    }
    /// The grid cell (`a1` top left) of the square in row `r` from the bottom, column `c`.
    fn cell(&self, r: usize, c: usize) -> usize {
        (self.rows - 1 - r) * self.cols + c
    }
    /// What is at a grid cell: 0 nothing (eaten), 1 a square, 2 the poisoned square.
    fn square(&self, lens: &[u8], cell: usize) -> usize {
        let left = cell % self.cols < lens[self.rows - 1 - cell / self.cols] as usize;
        usize::from(left) + usize::from(cell == self.cell(0, 0))
    }
    /// The reflection in the diagonal through the poisoned square (square bars only).
    fn transpose(&self, lens: &[u8]) -> [u8; 16] {
        let mut t = [0u8; 16];
        (0..self.cols).for_each(|j| t[j] = lens.iter().filter(|&&l| l as usize > j).count() as u8);
        t
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! {
    ENTRY = Chomp::from_variant, "chomp.rs", "chomp", "Chomp";
    default "4x5"; syntax "RxC (rows x columns, 1 to 15 each)";
    listed &["2x2", "2x3", "3x3", "3x4", "4x4", "4x5", "5x5", "5x6", "6x6", "6x7", "7x7", "8x8",
        "10x10", "11x11"];
    also &["1x1", "1x4", "5x2", "3x15", "15x15"]
}

impl Game for Chomp {
    crate::declared!(ENTRY);
    fn variant(&self) -> String {
        format!("{}x{}", self.rows, self.cols)
    }
    fn variant_description(&self) -> String {
        format!("A bar of {} rows and {} columns", self.rows, self.cols)
    }
    fn size_class(&self) -> SizeClass {
        // Positions: (R + C choose R) staircases; 8x8 has 12,870, 10x10 184,756.
        SizeClass::small_if(self.rows + self.cols <= 16)
    }
    fn start(&self) -> Position {
        self.code(&vec![self.cols as u8; self.rows], false)
    }
    fn to_move(&self, p: Position) -> Player {
        if self.parts(p).1 {
            Player::Second
        } else {
            Player::First
        }
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        let (lens, _) = self.parts(p);
        (lens[0] == 1 && lens[1..].iter().all(|&l| l == 0)).then_some(Value::Lose)
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let (lens, _) = self.parts(p);
        for (r, &len) in lens.iter().enumerate() {
            let first = usize::from(r == 0);
            out.extend((first..len as usize).map(|c| Move(self.cell(r, c) as u32)));
        }
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        let (mut lens, second) = self.parts(p);
        let cell = mv.0 as usize;
        let (r, c) = (self.rows - 1 - cell / self.cols, cell % self.cols);
        lens[r..].iter_mut().for_each(|l| *l = (*l).min(c as u8));
        self.code(&lens, !second)
    }
    fn position_to_string(&self, p: Position) -> String {
        let (lens, second) = self.parts(p);
        let cells: Vec<u8> =
            (0..self.rows * self.cols).map(|c| self.square(&lens, c).min(1) as u8).collect();
        board::grid_turn_to_string(&cells, self.cols, "o", if second { '2' } else { '1' })
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let expected = format!(
            "{} rows of {} squares separated by '/', top row first, each o (left) or - (eaten), \
             then a space and the player to move (1 or 2), e.g. {}",
            self.rows,
            self.cols,
            self.position_to_string(self.start())
        );
        let (cells, turn) =
            board::parse_grid_turn(text, self.cols, self.rows, "o", "12", &expected)?;
        let mut lens = vec![0u8; self.rows];
        for (y, row) in cells.chunks(self.cols).enumerate() {
            let len = row.iter().take_while(|&&c| c == 1).count();
            if row[len..].contains(&1) {
                return Err(board::illegal(text, "each row's squares are left from the left edge"));
            }
            lens[self.rows - 1 - y] = len as u8;
        }
        if lens[0] == 0 {
            return Err(board::illegal(text, "the poisoned square (bottom left) is never eaten"));
        }
        if lens.windows(2).any(|w| w[1] > w[0]) {
            return Err(board::illegal(text, "no row is longer than the row below it"));
        }
        Ok(self.code(&lens, turn == 1))
    }
    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        board::cell_name(self.cols, mv.0 as usize)
    }
    fn move_syntax(&self) -> String {
        let last = (b'a' + self.cols as u8 - 1) as char;
        format!(
            "[a-{last}][1-{}]: the square to eat from (row 1 at the top; a{} is poisoned)",
            self.rows, self.rows
        )
    }
    fn board_text(&self, p: Position) -> String {
        let (lens, _) = self.parts(p);
        board::grid_text(self.cols, self.rows, |c| ['.', '#', '*'][self.square(&lens, c)])
    }
    perfectplay_core::capabilities!(tiers, symmetry, gui);
}

impl Tiers for Chomp {
    /// A tier is the number of squares left.
    fn tier(&self, p: Position) -> Tier {
        Tier(self.parts(p).0.iter().map(|&l| u32::from(l)).sum())
    }
}

impl Symmetry for Chomp {
    fn symmetry_count(&self) -> usize {
        2 + 2 * usize::from(self.rows == self.cols)
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        let (lens, second) = self.parts(p);
        for turn in [second, !second] {
            out.push(self.code(&lens, turn));
            if self.rows == self.cols {
                out.push(self.code(&self.transpose(&lens), turn));
            }
        }
    }
    fn exchange(&self) -> Option<&dyn Exchange> {
        Some(self)
    }
}

impl Exchange for Chomp {
    fn exchanged(&self, p: Position) -> Position {
        Position(p.0 ^ SECOND.mask())
    }
    /// The least image has the first player to move; it is the exchange's when the second is.
    fn canonical_exchanged(&self, p: Position) -> (Position, bool) {
        let (lens, second) = self.parts(p);
        let mut c = self.code(&lens, false);
        if self.rows == self.cols {
            c = c.min(self.code(&self.transpose(&lens), false));
        }
        (c, second)
    }
}

impl ImageGui for Chomp {
    fn theme(&self) -> ImageAutoGui {
        let square = |fill: &str, mark: &str| {
            format!(
                r##"<rect x="-0.46" y="-0.46" width="0.92" height="0.92" rx="0.06" fill="{fill}" stroke="#3b2314" stroke-width="0.03"/><rect x="-0.34" y="-0.34" width="0.68" height="0.68" rx="0.04" fill="none" stroke="#ffffff" stroke-opacity="0.18" stroke-width="0.04"/>{mark}"##
            )
        };
        let skull = r##"<path d="M-0.2,-0.2L0.2,0.2M0.2,-0.2L-0.2,0.2" stroke="#e8d44d" stroke-width="0.08" stroke-linecap="round"/>"##;
        let entities = vec![
            Entity { token: 'c', svg: square("#7b4a2a", "") },
            Entity { token: 'p', svg: square("#5b2a3a", skull) },
        ];
        crate::themes::grid_theme(self.cols, self.rows, entities)
    }
    fn autogui_position(&self, p: Position) -> String {
        let (lens, second) = self.parts(p);
        let cells = (0..self.rows * self.cols).map(|c| ['-', 'c', 'p'][self.square(&lens, c)]);
        autogui_position(if second { Player::Second } else { Player::First }, cells)
    }
    fn autogui_move(&self, _p: Position, mv: Move) -> AutoGuiMove {
        AutoGuiMove::Token { token: 't', at: mv.0 as usize }
    }
}

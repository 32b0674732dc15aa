//! Tic-Tac-Two (003 section 4.5.1): a 5x5 board with a 3x3 grid on it, centered first on the
//! middle cell; four marks each, X first. A turn places a mark on an empty cell inside the grid;
//! once both players have at least two marks on the board, a turn may instead move the grid one
//! step (its center to one of the 8 neighboring cells, staying on the board) or move one of one's
//! marks from anywhere to an empty cell inside the grid. A three-in-a-row inside the grid wins for
//! the player who has it; if both have one (a grid move can do that), the game is a tie.
//!
//! Position code: bits 0-24 X's marks, 25-49 O's (bit `y * 5 + x`, y the row from the top),
//! 50-53 the grid center as `(cx - 1) + 3 * (cy - 1)`, bit 54 set when O is to move. Tier: the
//! marks on the board, `(4 - X's) * 5 + (4 - O's)`, so that a placement leads to a lower tier as
//! the engine wants (003 4.5.3 numbers them `(X's, O's)`: 13 tiers).
//!
//! Symmetries: the 8 of the square, applied to marks and grid together, and the exchange of the
//! players (X's marks become O's and the other is to move): the rules treat both alike, so a
//! position and its exchange have the same value for the player to move. 16 in all; 003's
//! "unique under symmetry" counts are classes under these 16. The exchange maps tier (x, o) onto
//! (o, x), so only the 10 tiers with `x >= o` are solved; in a tier with `x == o` the canonical
//! form has X to move.
//!
//! Dense index of a canonical tier (x, o): the colex rank of X's cells among the 25, the colex rank
//! of O's among the `25 - x` cells X leaves, the grid center's class (a canonical form's center is
//! the least of its orbit: b2, c2 or c3), and the player to move when `x > o`. Tier (4,4) has
//! 227,130,750 indices, all ten 358,101,603 (one byte each while solving).

use crate::prelude::*;

mod gui;
mod index;

const N: usize = 5;
const CELLS: usize = 25;
const BOARD: u64 = (1 << CELLS) - 1;
// A position's code: X's marks, O's, the grid's center, whether O is to move.
const X_MARKS: Field<u64> = Field::first(CELLS as u32);
const O_MARKS: Field<u64> = X_MARKS.then(CELLS as u32);
const GRID: Field<usize> = O_MARKS.then(4);
const O_TO_MOVE: Field<bool> = GRID.then(1);
/// Marks per player in the regular game.
const MARKS: u32 = 4;
/// The grid centers a canonical form can have (the least of each orbit) and their class.
const CANONICAL_CENTERS: [usize; 3] = [0, 1, 4];
/// The grid centered on the middle cell.
const START_GRID: usize = 4;

/// Move codes: a placement is the cell, a grid move `GRID_MOVE + center`, a mark move
/// `MARK_MOVE + from * 32 + to`.
const GRID_MOVE: u32 = 32;
const MARK_MOVE: u32 = 64;

/// AutoGUI centers: the 25 cells, then the 9 places the grid can be centered (drawn at their
/// cells), then the "move the grid" button under the board.
const GUI_GRID: usize = CELLS;
const GUI_MOVE_GRID: usize = CELLS + 9;
/// The size of a cell in the AutoGUI drawing space.
const GUI_CELL: f64 = 100.0;
/// The size of a mark (and of the unit box entities are drawn in).
const GUI_PIECE: f64 = 80.0;

/// The game.
#[derive(Clone, Debug)]
pub struct TicTacTwo {
    /// Per grid center: its nine cells.
    grid_cells: [u64; 9],
    /// Per grid center: its eight three-in-a-rows.
    lines: [[u64; 8]; 9],
    /// Per grid center: the centers one step away.
    neighbors: [Vec<usize>; 9],
    /// Per symmetry, per row, per 5-bit row pattern: the image cells.
    sym_rows: Vec<[[u32; 32]; N]>,
    /// Per symmetry, per grid center: the image center.
    sym_grid: [[usize; 9]; 8],
    /// Per grid center: the symmetries that map it to the least center (the canonical form's
    /// center), so only those are tried.
    best_syms: [Vec<usize>; 9],
    /// Marks per player (4; fewer for the small versions tests use).
    marks: u32,
    /// `binomial[n][k]` for `n <= 25`, `k <= 4`.
    binomial: [[u64; 5]; CELLS + 1],
    /// Per `k`, the `k`-subsets of the cells by colex rank.
    subsets: [Vec<u32>; 5],
}

/// The colex rank of a set of cells among the sets of as many cells: `sum C(c_i, i + 1)` over its
/// cells `c_0 < c_1 < ...`.
fn colex_rank(binomial: &[[u64; 5]; CELLS + 1], mut cells: u64) -> u64 {
    let mut rank = 0;
    let mut i = 1;
    while cells != 0 {
        rank += binomial[cells.trailing_zeros() as usize][i];
        cells &= cells - 1;
        i += 1;
    }
    rank
}

fn cell(x: usize, y: usize) -> usize {
    y * N + x
}

fn center_cell(g: usize) -> usize {
    cell(g % 3 + 1, g / 3 + 1)
}

fn cell_name(c: usize) -> String {
    format!("{}{}", (b'a' + (c % N) as u8) as char, c / N + 1)
}

/// The 8 symmetries of the square as maps of `(x, y)`.
fn symmetry(s: usize, x: usize, y: usize) -> (usize, usize) {
    let m = N - 1;
    match s {
        0 => (x, y),
        1 => (m - y, x),
        2 => (m - x, m - y),
        3 => (y, m - x),
        4 => (m - x, y),
        5 => (x, m - y),
        6 => (y, x),
        _ => (m - y, m - x),
    }
}

impl Default for TicTacTwo {
    fn default() -> Self {
        Self::with_marks(MARKS)
    }
}

impl TicTacTwo {
    /// The variant `regular` (003's, 4 marks each), or `3-marks` and `2-marks`: smaller games for
    /// tests and benchmarks of the tier solver, not published variants.
    pub fn from_variant(variant: &str) -> Result<TicTacTwo, String> {
        match variant {
            "regular" => Ok(Self::with_marks(MARKS)),
            "3-marks" => Ok(Self::with_marks(3)),
            "2-marks" => Ok(Self::with_marks(2)),
            _ => Err("regular | 3-marks | 2-marks".into()),
        }
    }

    /// The game with `marks` marks per player (2 to 4).
    fn with_marks(marks: u32) -> TicTacTwo {
        assert!((2..=MARKS).contains(&marks), "Tic-Tac-Two has 2 to 4 marks per player");
        let mut grid_cells = [0u64; 9];
        let mut lines = [[0u64; 8]; 9];
        let mut neighbors: [Vec<usize>; 9] = Default::default();
        for g in 0..9 {
            let (cx, cy) = (g % 3 + 1, g / 3 + 1);
            let at = |dx: i32, dy: i32| {
                1u64 << cell((cx as i32 + dx) as usize, (cy as i32 + dy) as usize)
            };
            for dy in -1..=1 {
                for dx in -1..=1 {
                    grid_cells[g] |= at(dx, dy);
                }
            }
            let mut k = 0;
            for d in -1..=1 {
                lines[g][k] = at(-1, d) | at(0, d) | at(1, d);
                lines[g][k + 1] = at(d, -1) | at(d, 0) | at(d, 1);
                k += 2;
            }
            lines[g][6] = at(-1, -1) | at(0, 0) | at(1, 1);
            lines[g][7] = at(1, -1) | at(0, 0) | at(-1, 1);
            for h in 0..9 {
                let (hx, hy) = (h % 3 + 1, h / 3 + 1);
                if h != g && hx.abs_diff(cx) <= 1 && hy.abs_diff(cy) <= 1 {
                    neighbors[g].push(h);
                }
            }
        }
        let sym_grid: [[usize; 9]; 8] = std::array::from_fn(|s| {
            std::array::from_fn(|g| {
                let (ix, iy) = symmetry(s, g % 3 + 1, g / 3 + 1);
                (ix - 1) + 3 * (iy - 1)
            })
        });
        let mut sym_rows = Vec::with_capacity(8);
        for s in 0..8 {
            let mut rows = [[0u32; 32]; N];
            for (y, row) in rows.iter_mut().enumerate() {
                for (pattern, image) in row.iter_mut().enumerate() {
                    for x in 0..N {
                        if pattern >> x & 1 == 1 {
                            let (ix, iy) = symmetry(s, x, y);
                            *image |= 1 << cell(ix, iy);
                        }
                    }
                }
            }
            sym_rows.push(rows);
        }
        let best_syms = std::array::from_fn(|g| {
            let least = (0..8).map(|s| sym_grid[s][g]).min().unwrap_or(g);
            (0..8).filter(|&s| sym_grid[s][g] == least).collect()
        });
        let mut binomial = [[0u64; 5]; CELLS + 1];
        for n in 0..=CELLS {
            binomial[n][0] = 1;
            for k in 1..5 {
                binomial[n][k] =
                    if n == 0 { 0 } else { binomial[n - 1][k - 1] + binomial[n - 1][k] };
            }
        }
        // Colex order is the masks' numeric order: Gosper's next-combination step walks it.
        let subsets = std::array::from_fn(|k| {
            let mut all = Vec::new();
            let mut m: u32 = (1 << k) - 1;
            while m < 1 << CELLS {
                all.push(m);
                if m == 0 {
                    break;
                }
                let low = m & m.wrapping_neg();
                let ripple = m + low;
                m = (((ripple ^ m) >> 2) / low) | ripple;
            }
            all
        });
        TicTacTwo {
            grid_cells,
            lines,
            neighbors,
            sym_rows,
            sym_grid,
            best_syms,
            marks,
            binomial,
            subsets,
        }
    }

    /// The tier of `x` and `o` marks.
    fn tier_of(&self, x: u32, o: u32) -> Tier {
        Tier((self.marks - x) * (self.marks + 1) + (self.marks - o))
    }

    /// The marks of a tier, X's and O's.
    fn tier_marks(&self, t: Tier) -> (u32, u32) {
        (self.marks - t.0 / (self.marks + 1), self.marks - t.0 % (self.marks + 1))
    }

    /// Whether a tier's positions have both players to move (else X: the canonical form of a
    /// tier with as many X as O has X to move).
    fn both_turns(x: u32, o: u32) -> bool {
        x != o
    }

    /// X's marks, O's marks, the grid center and whether O is to move.
    fn parts(p: Position) -> (u64, u64, usize, bool) {
        (X_MARKS.get(p.0), O_MARKS.get(p.0), GRID.get(p.0), O_TO_MOVE.get(p.0))
    }

    /// The code where one side (O where `o`, else X) has `marks` and the other `other`.
    fn code_sided(o: bool, marks: u64, other: u64, grid: usize, o_to_move: bool) -> Position {
        let (x, o_marks) = if o { (other, marks) } else { (marks, other) };
        Self::code(x, o_marks, grid, o_to_move)
    }

    fn code(x: u64, o: u64, grid: usize, o_to_move: bool) -> Position {
        Position(X_MARKS.put(x) | O_MARKS.put(o) | GRID.put(grid) | O_TO_MOVE.put(o_to_move))
    }

    fn map_marks(&self, s: usize, marks: u64) -> u64 {
        let rows = &self.sym_rows[s];
        let mut image = 0u32;
        for (y, row) in rows.iter().enumerate() {
            image |= row[(marks >> (y * N) & 31) as usize];
        }
        u64::from(image)
    }

    /// The position's image under board symmetry `s`.
    fn image(&self, s: usize, x: u64, o: u64, grid: usize, o_to_move: bool) -> Position {
        Self::code(self.map_marks(s, x), self.map_marks(s, o), self.sym_grid[s][grid], o_to_move)
    }

    fn has_line(&self, grid: usize, marks: u64) -> bool {
        self.lines[grid].iter().any(|&l| l & !marks == 0)
    }

    /// Whether a code is a position of the game: counts within four each, the placement phase's
    /// constraints (grid at the middle, marks inside it, turns alternating from X), and a grid
    /// center on the board.
    fn legal(&self, p: Position) -> Result<(), String> {
        let (x, o, grid, o_to_move) = Self::parts(p);
        if p.0 >> O_TO_MOVE.end() != 0 || grid >= 9 || x & o != 0 {
            return Err("not a position code".into());
        }
        let (nx, no) = (x.count_ones(), o.count_ones());
        if nx > self.marks || no > self.marks {
            return Err(format!("each player has {} marks", self.marks));
        }
        if nx < 2 || no < 2 {
            // Placement only, X first: (0,0) (1,0) (1,1) (2,1) with the grid where it started.
            let expected_o = match (nx, no) {
                (0, 0) | (1, 1) => false,
                (1, 0) | (2, 1) => true,
                _ => {
                    return Err(format!(
                        "{nx} X and {no} O: until both have two marks, turns alternate placing \
                         from X"
                    ))
                }
            };
            if grid != START_GRID || (x | o) & !self.grid_cells[START_GRID] != 0 {
                return Err("until both have two marks the grid has not moved".into());
            }
            if o_to_move != expected_o {
                return Err("until both have two marks, turns alternate from X".into());
            }
        }
        Ok(())
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! {
    ENTRY = TicTacTwo::from_variant, "tictactwo.rs", "tictactwo", "Tic-Tac-Two";
    default "regular"; syntax "regular | 3-marks | 2-marks (small versions with fewer marks each)";
    listed &["regular", "2-marks"]; also &["3-marks"]
}

impl Game for TicTacTwo {
    crate::declared!(ENTRY);
    fn variant(&self) -> String {
        if self.marks == MARKS {
            "regular".into()
        } else {
            format!("{}-marks", self.marks)
        }
    }
    fn variant_description(&self) -> String {
        if self.marks == MARKS {
            "003's game: four marks each".into()
        } else {
            format!("A short version: {} marks each", self.marks)
        }
    }

    fn start(&self) -> Position {
        Self::code(0, 0, START_GRID, false)
    }

    fn primitive(&self, p: Position) -> Option<Value> {
        let (x, o, grid, o_to_move) = Self::parts(p);
        let (mine, theirs) = if o_to_move { (o, x) } else { (x, o) };
        match (self.has_line(grid, mine), self.has_line(grid, theirs)) {
            (true, true) => Some(Value::Tie),
            (true, false) => Some(Value::Win),
            (false, true) => Some(Value::Lose),
            (false, false) => None,
        }
    }

    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        if self.primitive(p).is_some() {
            return;
        }
        let (x, o, grid, o_to_move) = Self::parts(p);
        let mine = if o_to_move { o } else { x };
        let empty_in_grid = self.grid_cells[grid] & !(x | o);
        if mine.count_ones() < self.marks {
            let mut e = empty_in_grid;
            while e != 0 {
                out.push(Move(e.trailing_zeros()));
                e &= e - 1;
            }
        }
        if x.count_ones() >= 2 && o.count_ones() >= 2 {
            out.extend(self.neighbors[grid].iter().map(|&g| Move(GRID_MOVE + g as u32)));
            let mut from = mine;
            while from != 0 {
                let a = from.trailing_zeros();
                from &= from - 1;
                let mut to = empty_in_grid;
                while to != 0 {
                    out.push(Move(MARK_MOVE + a * 32 + to.trailing_zeros()));
                    to &= to - 1;
                }
            }
        }
    }

    fn do_move(&self, p: Position, mv: Move) -> Position {
        let (mut x, mut o, mut grid, o_to_move) = Self::parts(p);
        let mine = if o_to_move { &mut o } else { &mut x };
        match mv.0 {
            c if c < GRID_MOVE => *mine |= 1 << c,
            g if g < MARK_MOVE => grid = (g - GRID_MOVE) as usize,
            m => {
                let (a, b) = ((m - MARK_MOVE) / 32, (m - MARK_MOVE) % 32);
                *mine = (*mine & !(1 << a)) | 1 << b;
            }
        }
        Self::code(x, o, grid, !o_to_move)
    }

    fn children(&self, p: Position, out: &mut Vec<Position>) {
        if self.primitive(p).is_some() {
            return;
        }
        let (x, o, grid, o_to_move) = Self::parts(p);
        let (mine, theirs) = if o_to_move { (o, x) } else { (x, o) };
        let child = |m: u64, g: usize| Self::code_sided(o_to_move, m, theirs, g, !o_to_move);
        let empty_in_grid = self.grid_cells[grid] & !(x | o);
        if mine.count_ones() < self.marks {
            let mut e = empty_in_grid;
            while e != 0 {
                out.push(child(mine | 1 << e.trailing_zeros(), grid));
                e &= e - 1;
            }
        }
        if x.count_ones() >= 2 && o.count_ones() >= 2 {
            out.extend(self.neighbors[grid].iter().map(|&g| child(mine, g)));
            let mut from = mine;
            while from != 0 {
                let a = from & from.wrapping_neg();
                from &= from - 1;
                let mut to = empty_in_grid;
                while to != 0 {
                    let b = to & to.wrapping_neg();
                    to &= to - 1;
                    out.push(child(mine ^ a ^ b, grid));
                }
            }
        }
    }

    fn to_move(&self, p: Position) -> Player {
        if O_TO_MOVE.get(p.0) {
            Player::Second
        } else {
            Player::First
        }
    }

    /// Two marks each: 0.1 s; three: seconds; four (003's game): ten minutes.
    fn size_class(&self) -> SizeClass {
        SizeClass::small_if(self.marks <= 3)
    }

    perfectplay_core::capabilities!(tier_index, symmetry, undo, gui);

    fn position_to_string(&self, p: Position) -> String {
        let (x, o, grid, o_to_move) = Self::parts(p);
        let mut s = String::new();
        for y in 0..N {
            if y > 0 {
                s.push('/');
            }
            for c in (0..N).map(|x| cell(x, y)) {
                s.push(if x >> c & 1 == 1 {
                    'x'
                } else if o >> c & 1 == 1 {
                    'o'
                } else {
                    '.'
                });
            }
        }
        format!("{s} {} {}", cell_name(center_cell(grid)), if o_to_move { 'o' } else { 'x' })
    }

    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let malformed = || ParseError::Malformed {
            what: "position",
            text: text.to_string(),
            expected: format!(
                "5 rows of 5 cells from the top (x, o or .) separated by '/', the grid's center \
                 (b2 to d4) and the player to move (x or o), like {}",
                self.position_to_string(self.start())
            ),
        };
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [rows, center, turn] = fields[..] else { return Err(malformed()) };
        let rows: Vec<&str> = rows.split('/').collect();
        if rows.len() != N || rows.iter().any(|r| r.chars().count() != N) {
            return Err(malformed());
        }
        let (mut x, mut o) = (0u64, 0u64);
        for (y, row) in rows.iter().enumerate() {
            for (cx, ch) in row.chars().enumerate() {
                match ch.to_ascii_lowercase() {
                    'x' => x |= 1 << cell(cx, y),
                    'o' => o |= 1 << cell(cx, y),
                    '.' | '-' => {}
                    _ => return Err(malformed()),
                }
            }
        }
        let grid = (0..9).find(|&g| cell_name(center_cell(g)) == center.to_ascii_lowercase());
        let Some(grid) = grid else { return Err(malformed()) };
        let o_to_move = match turn {
            "x" | "X" => false,
            "o" | "O" => true,
            _ => return Err(malformed()),
        };
        let p = Self::code(x, o, grid, o_to_move);
        self.legal(p)
            .map_err(|reason| ParseError::IllegalPosition { text: text.to_string(), reason })?;
        Ok(p)
    }

    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        match mv.0 {
            c if c < GRID_MOVE => cell_name(c as usize),
            g if g < MARK_MOVE => format!("g{}", cell_name(center_cell((g - GRID_MOVE) as usize))),
            m => format!(
                "{}{}",
                cell_name(((m - MARK_MOVE) / 32) as usize),
                cell_name(((m - MARK_MOVE) % 32) as usize)
            ),
        }
    }

    fn move_syntax(&self) -> String {
        "c3 (place a mark), a1c3 (move a mark: from, to) or gb2 (move the grid's center to b2); \
         files a-e, row 1 at the top"
            .into()
    }

    fn board_text(&self, p: Position) -> String {
        let (x, o, grid, _) = Self::parts(p);
        let inside = self.grid_cells[grid];
        let mut s = String::from("    a  b  c  d  e\n");
        for y in 0..N {
            s.push_str(&format!("{}  ", y + 1));
            for c in (0..N).map(|cx| cell(cx, y)) {
                let mark = if x >> c & 1 == 1 {
                    'X'
                } else if o >> c & 1 == 1 {
                    'O'
                } else {
                    '.'
                };
                if inside >> c & 1 == 1 {
                    s.push_str(&format!("[{mark}]"));
                } else {
                    s.push_str(&format!(" {mark} "));
                }
            }
            s.push('\n');
        }
        s.push_str("(the grid's cells are in brackets)\n");
        s
    }

    fn player_names(&self) -> [&'static str; 2] {
        ["X", "O"]
    }
}

//! Konane (001, Norvig): on an R x C board filled in a checkerboard, black on the cells whose
//! x + y is even, two adjacent marbles removed; black moves first; a move jumps one of your marbles
//! over an adjacent opponent marble into the empty cell beyond, removing it, and may go on jumping
//! in the same direction (a single, double or triple jump are distinct moves); a player who cannot
//! jump loses. Loop-free: every move removes at least one marble.
//!
//! Position code: bit `y * C + x` set where a marble stands (x = column, y = row from the top),
//! bit `R * C` (just above the board) set when white is to move, so that codes stay dense. Tier:
//! the number of marbles. Symmetries: the flips of the rectangle, and on a square board also the
//! transposes and quarter turns; a symmetry that moves black cells onto white cells swaps the
//! colors and so the player to move.

use crate::prelude::*;

/// Which two marbles the start removes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KonaneStart {
    /// The marbles at (0, 0) and (1, 0).
    Corner,
    /// The marbles at (C/2, R/2) and (C/2 - 1, R/2).
    Center,
}

/// Direction of a jump: right, left, down, up.
#[derive(Clone, Copy, Debug)]
struct Direction {
    dx: i32,
    dy: i32,
}

const DIRECTIONS: [Direction; 4] = [
    Direction { dx: 1, dy: 0 },
    Direction { dx: -1, dy: 0 },
    Direction { dx: 0, dy: 1 },
    Direction { dx: 0, dy: -1 },
];

/// A map of board cells `(x, y)` to their images under a symmetry.
type CellMap = dyn Fn(usize, usize) -> (usize, usize);

/// One Konane variant.
#[derive(Clone, Debug)]
pub struct Konane {
    rows: usize,
    cols: usize,
    start: KonaneStart,
    full: u64,
    /// The bit that says white is to move.
    white_to_move: u64,
    /// Cells of black (x + y even) and white.
    color_mask: [u64; 2],
    /// `reach[d][k]`: cells from which `k` jumps in direction `d` stay on the board.
    reach: [[u64; 4]; 4],
    /// Bit distance of one step in each direction (negative: towards lower bits).
    step: [i32; 4],
    /// `flips[(d * 4 + k) * 64 + from]`: the bits a jump of `k` steps in direction `d` flips.
    flips: Vec<u64>,
    /// The number of symmetries (4 on a rectangle, 8 on a square).
    symmetries: usize,
    /// Per byte of the board, per byte value: the image bits under every symmetry, side by side
    /// (a rectangle's four repeated), so that a canonical form reads one row a byte.
    sym_rows: Vec<[[u64; 8]; 256]>,
    /// Per symmetry: the turn bit where it swaps the colors (and so the player to move), else 0.
    sym_swaps: [u64; 8],
}

/// The largest number of cells: the board and the turn bit share one 64-bit code.
pub const MAX_CELLS: usize = 63;

impl Konane {
    /// The marble at (x, y), `x` (black) or `o` (white) by the cell's colour, else `empty`.
    fn marble(&self, board: u64, x: usize, y: usize, empty: char) -> char {
        if board & self.cell(x, y) == 0 {
            empty
        } else if (x + y).is_multiple_of(2) {
            'x'
        } else {
            'o'
        }
    }
    /// A board of `rows` x `cols` (each 3..=8, at most [`MAX_CELLS`] cells).
    pub fn new(rows: usize, cols: usize, start: KonaneStart) -> Result<Konane, String> {
        if !(3..=8).contains(&rows) || !(3..=8).contains(&cols) {
            return Err(format!("rows and columns from 3 to 8, got {rows}x{cols}"));
        }
        if rows * cols > MAX_CELLS {
            return Err(format!(
                "at most {MAX_CELLS} cells (the board and the turn share a 64-bit code), got {rows}x{cols}"
            ));
        }
        let n = rows * cols;
        let full = (1u64 << n) - 1;
        let mut color_mask = [0u64; 2];
        for y in 0..rows {
            for x in 0..cols {
                color_mask[(x + y) % 2] |= 1 << (y * cols + x);
            }
        }
        let mut reach = [[0u64; 4]; 4];
        for (reach_d, dir) in reach.iter_mut().zip(DIRECTIONS.iter()) {
            for (k, reach_dk) in reach_d.iter_mut().enumerate().skip(1) {
                for y in 0..rows as i32 {
                    for x in 0..cols as i32 {
                        let (ex, ey) = (x + 2 * k as i32 * dir.dx, y + 2 * k as i32 * dir.dy);
                        if (0..cols as i32).contains(&ex) && (0..rows as i32).contains(&ey) {
                            *reach_dk |= 1 << (y as usize * cols + x as usize);
                        }
                    }
                }
            }
        }
        let step = DIRECTIONS.map(|d| d.dx + d.dy * cols as i32);
        let mut maps: Vec<Box<CellMap>> = vec![
            Box::new(|x, y| (x, y)),
            Box::new(move |x, y| (cols - 1 - x, y)),
            Box::new(move |x, y| (x, rows - 1 - y)),
            Box::new(move |x, y| (cols - 1 - x, rows - 1 - y)),
        ];
        if rows == cols {
            maps.push(Box::new(|x, y| (y, x)));
            maps.push(Box::new(move |x, y| (cols - 1 - y, rows - 1 - x)));
            maps.push(Box::new(move |x, y| (y, rows - 1 - x)));
            maps.push(Box::new(move |x, y| (cols - 1 - y, x)));
        }
        let bytes = n.div_ceil(8);
        let mut sym_rows = vec![[[0u64; 8]; 256]; bytes];
        let mut sym_swaps = [0u64; 8];
        for (g, map) in maps.iter().cycle().take(8).enumerate() {
            let mut images = vec![0u64; n];
            for y in 0..rows {
                for x in 0..cols {
                    let (ix, iy) = map(x, y);
                    images[y * cols + x] = 1 << (iy * cols + ix);
                }
            }
            let (ix, iy) = map(0, 0);
            sym_swaps[g] = if (ix + iy) % 2 == 1 { 1 << n } else { 0 };
            for (b, rows) in sym_rows.iter_mut().enumerate() {
                for (v, row) in rows.iter_mut().enumerate() {
                    for bit in 0..8 {
                        let cell = b * 8 + bit;
                        if v >> bit & 1 == 1 && cell < n {
                            row[g] |= images[cell];
                        }
                    }
                }
            }
        }
        let mut konane = Konane {
            rows,
            cols,
            start,
            full,
            white_to_move: 1 << n,
            color_mask,
            reach,
            step,
            flips: vec![0; 4 * 4 * 64],
            symmetries: maps.len(),
            sym_rows,
            sym_swaps,
        };
        for d in 0..4 {
            for k in 1..4 {
                let mut from_cells = konane.reach[d][k];
                while from_cells != 0 {
                    let from = from_cells.trailing_zeros();
                    from_cells &= from_cells - 1;
                    konane.flips[(d * 4 + k) * 64 + from as usize] = konane.jump_mask(from, d, k);
                }
            }
        }
        Ok(konane)
    }

    /// Parses a variant name `RxC-corner` or `RxC-center`.
    pub fn from_variant(variant: &str) -> Result<Konane, String> {
        let expected = "RxC-corner or RxC-center, rows and columns from 3 to 8 (e.g. 6x6-corner)";
        let (dims, start) = variant.split_once('-').ok_or_else(|| expected.to_string())?;
        let start = match start {
            "corner" => KonaneStart::Corner,
            "center" => KonaneStart::Center,
            _ => return Err(expected.into()),
        };
        let (r, c) = dims.split_once('x').ok_or_else(|| expected.to_string())?;
        let rows: usize = r.parse().map_err(|_| expected.to_string())?;
        let cols: usize = c.parse().map_err(|_| expected.to_string())?;
        Konane::new(rows, cols, start).map_err(|e| format!("{expected}: {e}"))
    }

    fn cell(&self, x: usize, y: usize) -> u64 {
        1 << (y * self.cols + x)
    }

    /// Color index (0 black, 1 white) of the player to move.
    fn mover(&self, p: Position) -> usize {
        usize::from(p.0 & self.white_to_move != 0)
    }

    fn board(&self, p: Position) -> u64 {
        p.0 & self.full
    }

    fn shift(bits: u64, by: i32) -> u64 {
        if by >= 0 {
            bits >> by
        } else {
            bits << -by
        }
    }

    /// Cells from which the player to move can make a jump of exactly `k` steps in direction `d`.
    fn jump_starts(&self, p: Position, d: usize, k: usize) -> u64 {
        let board = self.board(p);
        let own = board & self.color_mask[self.mover(p)];
        let opp = board & self.color_mask[1 - self.mover(p)];
        let empty = !board & self.full;
        let s = self.step[d];
        let mut starts = own & self.reach[d][k];
        for i in 1..=k as i32 {
            starts &= Self::shift(opp, (2 * i - 1) * s) & Self::shift(empty, 2 * i * s);
            if starts == 0 {
                break;
            }
        }
        starts
    }

    /// The bits a jump of `k` steps in direction `d` from `from` flips: the start, the jumped
    /// marbles and the final landing (intermediate landings are passed through and stay empty).
    fn jump_mask(&self, from: u32, d: usize, k: usize) -> u64 {
        let s = self.step[d];
        let mut mask = 1u64 << (from as i32 + 2 * k as i32 * s);
        for i in 0..2 * k as i32 {
            if i == 0 || i % 2 == 1 {
                mask |= 1u64 << (from as i32 + i * s);
            }
        }
        mask
    }

    /// Every cell of a jump's path, start and final landing included.
    fn path_mask(&self, from: u32, d: usize, k: usize) -> u64 {
        let s = self.step[d];
        (0..=2 * k as i32).fold(0u64, |mask, i| mask | 1u64 << (from as i32 + i * s))
    }

    fn max_jumps(&self) -> usize {
        (self.rows.max(self.cols) - 1) / 2
    }

    /// The cells a move jumps from and lands on.
    fn move_cells(&self, mv: Move) -> (usize, usize) {
        let (from, d, k) = (mv.0 & 63, (mv.0 >> 6 & 3) as usize, (mv.0 >> 8) as i32);
        (from as usize, (from as i32 + 2 * k * self.step[d]) as usize)
    }

    fn name_cell(&self, cell: usize) -> String {
        format!("{}{}", (b'a' + (cell % self.cols) as u8) as char, cell / self.cols + 1)
    }

    /// The images of a position under every symmetry (a rectangle's four twice over).
    fn images(&self, p: Position) -> [u64; 8] {
        let board = self.board(p);
        let mut images = [p.0 & self.white_to_move; 8];
        for (i, s) in images.iter_mut().zip(self.sym_swaps) {
            *i ^= s;
        }
        for (b, rows) in self.sym_rows.iter().enumerate() {
            let row = &rows[(board >> (8 * b)) as usize & 0xff];
            for (i, r) in images.iter_mut().zip(row) {
                *i |= r;
            }
        }
        images
    }
}

/// The variants listed.
const VARIANTS: &[&str] = &[
    "4x4-corner",
    "4x4-center",
    "5x5-corner",
    "5x5-center",
    "5x6-corner",
    "6x5-corner",
    "6x6-corner",
    "6x6-center",
];

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! {
    ENTRY = Konane::from_variant, "konane.rs", "konane", "Konane";
    default "5x5-corner";
    syntax "RxC-corner | RxC-center (rows x columns, 3 to 8 each, at most 63 cells)";
    listed VARIANTS; also &["3x3-corner", "4x5-center", "7x8-corner", "7x8-center"]
}

impl Game for Konane {
    crate::declared!(ENTRY);
    fn variant(&self) -> String {
        let start = match self.start {
            KonaneStart::Corner => "corner",
            KonaneStart::Center => "center",
        };
        format!("{}x{}-{start}", self.rows, self.cols)
    }
    fn variant_description(&self) -> String {
        let removed = match self.start {
            KonaneStart::Corner => "at the top left corner",
            KonaneStart::Center => "in the middle",
        };
        format!(
            "{} rows of {} cells; the two marbles {removed} are removed first",
            self.rows, self.cols
        )
    }
    /// Up to 25 cells (5x5: 1.3 s) solves at once; 5x6 takes a minute.
    fn size_class(&self) -> SizeClass {
        SizeClass::small_if(self.rows * self.cols <= 25)
    }
    perfectplay_core::capabilities!(tiers, symmetry, undo, gui);

    fn start(&self) -> Position {
        let removed = match self.start {
            KonaneStart::Corner => self.cell(0, 0) | self.cell(1, 0),
            KonaneStart::Center => {
                self.cell(self.cols / 2, self.rows / 2)
                    | self.cell(self.cols / 2 - 1, self.rows / 2)
            }
        };
        Position(self.full & !removed)
    }

    fn primitive(&self, p: Position) -> Option<Value> {
        (0..4).all(|d| self.jump_starts(p, d, 1) == 0).then_some(Value::Lose)
    }

    fn primitive_only_without_moves(&self) -> bool {
        true
    }

    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        for d in 0..4 {
            for k in 1..=self.max_jumps() {
                let mut starts = self.jump_starts(p, d, k);
                if starts == 0 {
                    break;
                }
                while starts != 0 {
                    let from = starts.trailing_zeros();
                    starts &= starts - 1;
                    out.push(Move(from | (d as u32) << 6 | (k as u32) << 8));
                }
            }
        }
    }

    fn do_move(&self, p: Position, mv: Move) -> Position {
        let (from, d, k) = (mv.0 & 63, (mv.0 >> 6 & 3) as usize, (mv.0 >> 8) as usize);
        Position((p.0 ^ self.jump_mask(from, d, k)) ^ self.white_to_move)
    }

    fn children(&self, p: Position, out: &mut Vec<Position>) {
        let board = self.board(p);
        let mover = self.mover(p);
        let own = board & self.color_mask[mover];
        let opp = board & self.color_mask[1 - mover];
        let empty = !board & self.full;
        let flipped = p.0 ^ self.white_to_move;
        for d in 0..4 {
            let s = self.step[d];
            let mut starts = own;
            for k in 1..=self.max_jumps() {
                let ki = k as i32;
                starts &= self.reach[d][k]
                    & Self::shift(opp, (2 * ki - 1) * s)
                    & Self::shift(empty, 2 * ki * s);
                if starts == 0 {
                    break;
                }
                let flips = &self.flips[(d * 4 + k) * 64..(d * 4 + k + 1) * 64];
                let mut it = starts;
                while it != 0 {
                    let from = it.trailing_zeros() as usize;
                    it &= it - 1;
                    out.push(Position(flipped ^ flips[from]));
                }
            }
        }
    }

    fn to_move(&self, p: Position) -> Player {
        if self.mover(p) == 0 {
            Player::First
        } else {
            Player::Second
        }
    }

    fn position_to_string(&self, p: Position) -> String {
        let board = self.board(p);
        let mut s = String::new();
        for y in 0..self.rows {
            if y > 0 {
                s.push('/');
            }
            s.extend((0..self.cols).map(|x| self.marble(board, x, y, '.')));
        }
        s.push_str(if self.mover(p) == 0 { " x" } else { " o" });
        s
    }

    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let malformed = || ParseError::Malformed {
            what: "position",
            text: text.to_string(),
            expected: format!(
                "{} rows of {} cells separated by '/', each x (black), o (white) or '.', then a \
                 space and the player to move (x or o), e.g. {}",
                self.rows,
                self.cols,
                self.position_to_string(self.start())
            ),
        };
        let (cells, turn) = text.trim().rsplit_once(' ').ok_or_else(malformed)?;
        let rows: Vec<&str> = cells.trim().split('/').collect();
        if rows.len() != self.rows || rows.iter().any(|r| r.chars().count() != self.cols) {
            return Err(malformed());
        }
        let mut code = match turn {
            "x" | "X" => 0,
            "o" | "O" => self.white_to_move,
            _ => return Err(malformed()),
        };
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let black_cell = (x + y) % 2 == 0;
                match ch.to_ascii_lowercase() {
                    '.' | '-' => {}
                    'x' | 'o' if (ch.eq_ignore_ascii_case(&'x')) == black_cell => {
                        code |= self.cell(x, y)
                    }
                    'x' | 'o' => {
                        return Err(ParseError::IllegalPosition {
                            text: text.to_string(),
                            reason: format!(
                                "{} stands on a cell of the other color (black x sits where \
                                 column + row is even)",
                                self.name_cell(y * self.cols + x)
                            ),
                        })
                    }
                    _ => return Err(malformed()),
                }
            }
        }
        Ok(Position(code))
    }

    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        let (from, to) = self.move_cells(mv);
        format!("{}{}", self.name_cell(from), self.name_cell(to))
    }

    fn move_syntax(&self) -> String {
        let last = (b'a' + self.cols as u8 - 1) as char;
        format!("[a-{last}][1-{r}][a-{last}][1-{r}] (from, to; row 1 at the top)", r = self.rows)
    }

    fn board_text(&self, p: Position) -> String {
        let board = self.board(p);
        let mut s = String::from("   ");
        for x in 0..self.cols {
            s.push(' ');
            s.push((b'a' + x as u8) as char);
        }
        s.push('\n');
        for y in 0..self.rows {
            s.push_str(&format!("{:>2} ", y + 1));
            for x in 0..self.cols {
                s.push(' ');
                s.push(self.marble(board, x, y, '·'));
            }
            s.push('\n');
        }
        s.push_str("x black, o white\n");
        s
    }

    fn player_names(&self) -> [&'static str; 2] {
        ["black", "white"]
    }
}

impl Tiers for Konane {
    /// A tier is the number of marbles.
    fn tier(&self, p: Position) -> Tier {
        Tier(self.board(p).count_ones())
    }
}

impl Symmetry for Konane {
    fn symmetry_count(&self) -> usize {
        self.symmetries
    }

    fn canonical(&self, p: Position) -> Position {
        Position(self.images(p).into_iter().fold(u64::MAX, u64::min))
    }

    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        out.extend(self.images(p)[..self.symmetries].iter().map(|&i| Position(i)));
    }
}

impl UndoMoves for Konane {
    fn undo_moves(&self, p: Position, out: &mut Vec<Position>) {
        // The player who just moved landed a marble somewhere; walk back along each direction.
        let board = self.board(p);
        let last_mover = 1 - self.mover(p);
        let empty = !board & self.full;
        let mut landed = board & self.color_mask[last_mover];
        while landed != 0 {
            let end = landed.trailing_zeros() as i32;
            landed &= landed - 1;
            let (ex, ey) = (end % self.cols as i32, end / self.cols as i32);
            for (d, dir) in DIRECTIONS.iter().enumerate() {
                for k in 1..=self.max_jumps() as i32 {
                    let (sx, sy) = (ex - 2 * k * dir.dx, ey - 2 * k * dir.dy);
                    if !(0..self.cols as i32).contains(&sx) || !(0..self.rows as i32).contains(&sy)
                    {
                        break;
                    }
                    let start = end - 2 * k * self.step[d];
                    let passed = self.path_mask(start as u32, d, k as usize) & !(1u64 << end);
                    if passed & empty != passed {
                        break;
                    }
                    let parent =
                        (p.0 ^ self.white_to_move) ^ self.jump_mask(start as u32, d, k as usize);
                    out.push(Position(parent));
                }
            }
        }
    }
}

impl ImageGui for Konane {
    fn theme(&self) -> ImageAutoGui {
        let centers = grid_centers(self.cols, self.rows, 100.0);
        let (w, h) = (self.cols as f64 * 100.0, self.rows as f64 * 100.0);
        ImageAutoGui {
            theme: "koa",
            size: (w, h),
            background: crate::themes::hole_board(&centers, w, h),
            centers,
            entities: crate::themes::stones(("#222", "#000"), ("#f4f1e8", "#777")),
            piece_size: 90.0,
            arrow_width: 14.0,
        }
    }

    fn autogui_position(&self, p: Position) -> String {
        let board = self.board(p);
        let cells = (0..self.rows * self.cols).map(|c| {
            if board >> c & 1 == 0 {
                '-'
            } else if (c % self.cols + c / self.cols) & 1 == 0 {
                'x'
            } else {
                'o'
            }
        });
        autogui_position(if self.mover(p) == 0 { Player::First } else { Player::Second }, cells)
    }

    fn autogui_move(&self, _p: Position, mv: Move) -> AutoGuiMove {
        let (from, to) = self.move_cells(mv);
        AutoGuiMove::Arrow { from, to }
    }

    fn multipart(&self) -> Option<&dyn MultipartMoves> {
        Some(self)
    }
}

impl MultipartMoves for Konane {
    /// Jumps are two clicks: the jumping stone, then where it lands (a double jump's arrow would
    /// hide the single jump's under it).
    fn move_parts(&self, _p: Position, mv: Move) -> Vec<AutoGuiMove> {
        let (from, to) = self.move_cells(mv);
        vec![AutoGuiMove::Token { token: 's', at: from }, AutoGuiMove::Token { token: 't', at: to }]
    }
}

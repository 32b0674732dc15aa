//! QuickCross (003 Appendix A; Image AutoGUI 003 section 5.5.8): a 4x4 board of crosses; a turn
//! either places a chip, vertical or horizontal, on an empty cross, or turns a chip on the board
//! by 90 degrees. The chips belong to nobody: the player who makes a full row, column or diagonal
//! of chips all facing the same way wins (the mover, since play stops at the first such line, and
//! only the move just made can have made it). The game is impartial and can go on forever (chips
//! turned back and forth): such positions are draws. Variants: `4x4` (the game, four in a line)
//! and `3x3` (three in a line, GamesmanClassic's small board, mqx.c).
//!
//! Position code: two bits per cell in reading order (bit 0 a horizontal chip, bit 1 a vertical
//! one), then a bit set when the second player is to move. Symmetries: the square's 8 maps of the
//! cells, each with or without turning every chip (a quarter turn of the board turns the chips;
//! turning all chips keeps lines of one direction lines of one direction): 16 in all. Undo-moves:
//! take any chip off, or turn it back. `4x4` is Large: 85 million positions (5.4 million
//! canonical), about 45 s here; `3x3` is Small.

use crate::prelude::*;

use crate::themes::{self, CELL};

/// The game on an `n` x `n` board.
#[derive(Clone, Debug)]
pub struct QuickCross {
    n: usize,
    board: Board,
    /// Per line: the bits of its cells' horizontal chips (the vertical ones are these shifted by
    /// one).
    lines: Vec<u64>,
    /// Per symmetry of the square, per row, per row pattern: the pattern's image.
    rows: Vec<Vec<Vec<u64>>>,
}

/// Every cell's horizontal-chip bit (bit 0 of each pair).
const H_BITS: u64 = 0x5555_5555;

impl QuickCross {
    /// The game on an `n` x `n` board (3 or 4), `n` in a line to win.
    pub fn new(n: usize) -> Result<QuickCross, String> {
        if !(3..=4).contains(&n) {
            return Err("4x4 | 3x3".into());
        }
        let board = Board::grid(n, n);
        let lines =
            board.lines(n).iter().map(|l| l.iter().fold(0, |m, &c| m | 1 << (2 * c))).collect();
        let s = board.symmetries(&board::SQUARE);
        let rows = (0..s.len())
            .map(|g| {
                (0..n)
                    .map(|y| {
                        (0..1u64 << (2 * n))
                            .map(|pattern| {
                                (0..2 * n)
                                    .filter(|b| pattern >> b & 1 == 1)
                                    .fold(0, |m, b| m | 1 << (2 * s.map(g, y * n + b / 2) + b % 2))
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        Ok(QuickCross { n, board, lines, rows })
    }

    /// A variant by name.
    pub fn from_variant(v: &str) -> Result<QuickCross, String> {
        match v {
            "4x4" => QuickCross::new(4),
            "3x3" => QuickCross::new(3),
            _ => Err("4x4 | 3x3".into()),
        }
    }

    fn cells(&self) -> usize {
        self.n * self.n
    }
    fn turn_bit(&self) -> u64 {
        1 << (2 * self.cells())
    }
    fn chips(&self, p: Position) -> u64 {
        p.0 & (self.turn_bit() - 1)
    }
    /// Per cell: 0 empty, 1 horizontal, 2 vertical.
    fn contents(&self, p: Position) -> Vec<u8> {
        (0..self.cells()).map(|c| (p.0 >> (2 * c) & 3) as u8).collect()
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! {
    ENTRY = QuickCross::from_variant, "quickcross.rs", "quickcross", "QuickCross";
    default "3x3"; syntax "4x4 (four in a line) | 3x3 (three in a line)";
    listed &["3x3", "4x4"]; also &[]
}

impl Game for QuickCross {
    crate::declared!(ENTRY);
    fn variant(&self) -> String {
        format!("{0}x{0}", self.n)
    }
    fn variant_description(&self) -> String {
        format!("A {0}x{0} board; {0} in a line wins", self.n)
    }
    fn size_class(&self) -> SizeClass {
        SizeClass::small_if(self.n == 3)
    }
    fn start(&self) -> Position {
        Position(0)
    }
    fn to_move(&self, p: Position) -> Player {
        if p.0 & self.turn_bit() == 0 {
            Player::First
        } else {
            Player::Second
        }
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        let line = |&l: &u64| p.0 & l == l || p.0 & l << 1 == l << 1;
        self.lines.iter().any(line).then_some(Value::Lose)
    }
    /// Move `3 * cell` places a horizontal chip, `+ 1` a vertical one, `+ 2` turns the chip.
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        for c in 0..self.cells() as u32 {
            if p.0 >> (2 * c) & 3 == 0 {
                out.extend([Move(3 * c), Move(3 * c + 1)]);
            } else {
                out.push(Move(3 * c + 2));
            }
        }
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        let (c, kind) = (mv.0 / 3, mv.0 % 3);
        let chip = if kind == 2 { 3 } else { 1 << kind };
        Position((p.0 ^ chip << (2 * c)) ^ self.turn_bit())
    }
    /// As the moves do them, without a list of moves.
    fn children(&self, p: Position, out: &mut Vec<Position>) {
        let after = p.0 ^ self.turn_bit();
        for at in (0..2 * self.cells()).step_by(2) {
            if p.0 >> at & 3 == 0 {
                out.extend([Position(after | 1 << at), Position(after | 2 << at)]);
            } else {
                out.push(Position(after ^ 3 << at));
            }
        }
    }
    fn position_to_string(&self, p: Position) -> String {
        let text = board::cells_to_string(&self.contents(p), "hv");
        let rows: Vec<&str> = (0..self.n).map(|y| &text[y * self.n..][..self.n]).collect();
        format!("{} {}", rows.join("/"), if p.0 & self.turn_bit() == 0 { 1 } else { 2 })
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let expected = format!(
            "{0} rows of {0} cells from the top separated by '/', each h (horizontal chip), v \
             (vertical) or -, then the player to move (1 or 2), e.g. {1}",
            self.n,
            self.position_to_string(self.start())
        );
        let malformed = || board::malformed(text, &expected);
        let (rows, turn) = text.trim().rsplit_once(' ').ok_or_else(malformed)?;
        let rows: Vec<&str> = rows.trim().split('/').collect();
        if rows.len() != self.n || rows.iter().any(|r| r.chars().count() != self.n) {
            return Err(malformed());
        }
        let cells = board::parse_cells(&rows.concat(), self.cells(), "hv", &expected)?;
        let turn = match turn {
            "1" => 0,
            "2" => self.turn_bit(),
            _ => return Err(malformed()),
        };
        Ok(Position(cells.iter().rev().fold(0, |k, &c| k << 2 | u64::from(c)) | turn))
    }
    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        format!("{}{}", ['h', 'v', 'r'][(mv.0 % 3) as usize], self.board.name((mv.0 / 3) as usize))
    }
    fn move_syntax(&self) -> String {
        let last = (b'a' + self.n as u8 - 1) as char;
        format!("[h|v|r][a-{last}][1-{}] (place a chip horizontal or vertical, or turn it)", self.n)
    }
    fn board_text(&self, p: Position) -> String {
        let c = self.contents(p);
        board::grid_text(self.n, self.n, |i| ['.', '-', '|'][c[i] as usize])
    }
    fn space(&self) -> PositionSpace<'_> {
        PositionSpace::Sparse(None)
    }
    perfectplay_core::capabilities!(symmetry, undo, gui);
}

impl Symmetry for QuickCross {
    fn symmetry_count(&self) -> usize {
        2 * self.rows.len()
    }
    /// On the 4x4 board, the least of the 16 images by bit operations on the rows (a byte each):
    /// the 8 maps of the square are a transpose or not, a mirror or not, a flip or not.
    fn canonical(&self, p: Position) -> Position {
        if self.n != 4 {
            let mut images = Vec::with_capacity(self.symmetry_count());
            self.symmetry_images(p, &mut images);
            return images.into_iter().min().unwrap_or(p);
        }
        let least = |a: u64, b: u64| a.min(b).min(turned(a)).min(turned(b));
        let mut best = u64::MAX;
        for square in [self.chips(p), transposed(self.chips(p))] {
            let mirrored = mirrored(square);
            best = best.min(least(square, mirrored)).min(least(flipped(square), flipped(mirrored)));
        }
        Position(best | p.0 & self.turn_bit())
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        let (chips, turn) = (self.chips(p), p.0 & self.turn_bit());
        let row_mask = (1 << (2 * self.n)) - 1;
        for table in &self.rows {
            let image = (0..self.n)
                .fold(0, |m, y| m | table[y][(chips >> (2 * self.n * y) & row_mask) as usize]);
            let turned = (image & H_BITS) << 1 | (image >> 1 & H_BITS);
            out.extend([Position(image | turn), Position(turned | turn)]);
        }
    }
}

/// Every chip turned: horizontal and vertical exchanged.
fn turned(chips: u64) -> u64 {
    (chips & H_BITS) << 1 | (chips >> 1 & H_BITS)
}

/// The 4x4 board upside down: its four rows (a byte each) in reverse order.
fn flipped(chips: u64) -> u64 {
    u64::from((chips as u32).swap_bytes())
}

/// The 4x4 board left to right: the four cells (two bits each) of every row in reverse order.
fn mirrored(chips: u64) -> u64 {
    (chips & 0x0303_0303) << 6
        | (chips & 0x0c0c_0c0c) << 2
        | (chips >> 2 & 0x0c0c_0c0c)
        | (chips >> 6 & 0x0303_0303)
}

/// The 4x4 board about its main diagonal (cell `(y, x)` to `(x, y)`): the cells of each 2x2 block
/// swapped across its diagonal, then the two blocks off the diagonal swapped.
fn transposed(chips: u64) -> u64 {
    let swap = |c: u64, mask: u64, shift: u32| {
        let t = (c >> shift ^ c) & mask;
        c ^ t ^ t << shift
    };
    swap(swap(chips, 0x00cc_00cc, 6), 0x0000_f0f0, 12)
}

impl UndoMoves for QuickCross {
    /// Any chip was the last placed, or was the last turned.
    fn undo_moves(&self, p: Position, out: &mut Vec<Position>) {
        let before = p.0 ^ self.turn_bit();
        for c in (0..self.cells()).filter(|&c| p.0 >> (2 * c) & 3 != 0) {
            let chip = p.0 & 3 << (2 * c);
            for parent in [before ^ chip, before ^ 3 << (2 * c)] {
                if self.primitive(Position(parent)).is_none() {
                    out.push(Position(parent));
                }
            }
        }
    }
}

/// AutoGUI centers (003 Figure 5.22): each cross's center (its chip, or the button that turns
/// it), then per cross the ends of its two placing lines: top, bottom, left, right.
impl ImageGui for QuickCross {
    fn theme(&self) -> ImageAutoGui {
        let mut theme = themes::grid_theme(self.n, self.n, Vec::new());
        let ends: Vec<(f64, f64)> = theme
            .centers
            .iter()
            .flat_map(|&(x, y)| {
                let d = 0.36 * CELL;
                [(x, y - d), (x, y + d), (x - d, y), (x + d, y)]
            })
            .collect();
        theme.centers.extend(ends);
        let chip = |w: f64, h: f64| {
            format!(
                r##"<rect x="{}" y="{}" width="{w}" height="{h}" rx="0.06" fill="#2f3b52"/>"##,
                -w / 2.0,
                -h / 2.0
            )
        };
        theme.entities = vec![
            Entity { token: 'h', svg: chip(0.9, 0.22) },
            Entity { token: 'v', svg: chip(0.22, 0.9) },
        ];
        theme
    }
    fn autogui_position(&self, p: Position) -> String {
        let cells = board::cells_to_string(&self.contents(p), "hv");
        let ends = (0..4 * self.cells()).map(|_| '-');
        autogui_position(self.to_move(p), cells.chars().chain(ends))
    }
    fn autogui_move(&self, _p: Position, mv: Move) -> AutoGuiMove {
        let (c, kind) = ((mv.0 / 3) as usize, mv.0 % 3);
        let end = self.cells() + 4 * c;
        match kind {
            0 => AutoGuiMove::Line { from: end + 2, to: end + 3 },
            1 => AutoGuiMove::Line { from: end, to: end + 1 },
            _ => AutoGuiMove::Token { token: 'r', at: c },
        }
    }
}

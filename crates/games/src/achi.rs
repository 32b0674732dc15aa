//! Achi (003 Appendix A; its Image AutoGUI is 003 section 5.2): nine points in a 3x3 square,
//! joined along the rows, the columns and the two long diagonals. Each player has 3 pieces (the
//! seed's count); `o` moves first, as in 003 section 5.2's example. First the players take turns
//! placing a piece on an empty point; once all six are down, a move slides one of your pieces
//! along a line to the adjacent empty point. The first to have three in a row (a row, a column or a long diagonal) wins.
//!
//! Rules the seed leaves open, chosen as GamesmanClassic's `machi.c` (standard diagonals): pieces
//! slide only along the drawn lines (orthogonal steps, and corner to center or back), and a
//! player who cannot slide loses (GamesmanClassic counts a position without moves as lost).
//! Loopy: pieces can slide back and forth forever, which is a draw.
//!
//! Position code: the board in base 3 (cell `i` is digit `i`: 0 empty, 1 o, 2 x), plus 3^9 when
//! `x` is to move (the turn is not implied by the counts once all pieces are down). Tier: the
//! number of empty points. Symmetries: the 8 of the square.

use crate::prelude::*;

/// Pieces per player.
const PIECES: usize = 3;
/// 3^9: the code's turn digit.
const TURN: u64 = 19_683;

/// Achi with three pieces each.
#[derive(Clone, Debug)]
pub struct Achi {
    grid: InARow,
}

impl Default for Achi {
    fn default() -> Self {
        // Orthogonal steps, and the center to each corner.
        let board = Board::grid(3, 3)
            .keep_edges(|a, b| a == 4 || b == 4 || a % 3 == b % 3 || a / 3 == b / 3);
        Achi { grid: InARow::new(board, 3, &board::SQUARE) }
    }
}

impl Achi {
    /// The cells (0 empty, 1 o, 2 x) and the mark to move.
    fn split(p: Position) -> (Vec<u8>, u8) {
        (board::unpack(p.0 % TURN, 9, 3), 1 + (p.0 / TURN) as u8)
    }
    fn encode(cells: &[u8], mover: u8) -> Position {
        Position(board::pack(cells, 3) + u64::from(mover - 1) * TURN)
    }
    fn count(cells: &[u8], mark: u8) -> usize {
        cells.iter().filter(|&&c| c == mark).count()
    }
    fn has_line(&self, cells: &[u8], mark: u8) -> bool {
        self.grid.has_line(|c| cells[c] == mark)
    }
    fn placing(cells: &[u8]) -> bool {
        Self::count(cells, 0) > 9 - 2 * PIECES
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! { ENTRY = Achi, "achi.rs", "achi", "Achi" }

impl Game for Achi {
    crate::declared!(ENTRY, Small);
    fn start(&self) -> Position {
        Position(0)
    }
    fn to_move(&self, p: Position) -> Player {
        Player::second_if(Self::split(p).1 == 2)
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        let (c, mover) = Self::split(p);
        if self.has_line(&c, 3 - mover) {
            return Some(Value::Lose);
        }
        let mut moves = Vec::new();
        self.moves(p, &mut moves);
        moves.is_empty().then_some(Value::Lose)
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let (c, mover) = Self::split(p);
        if Self::placing(&c) {
            out.extend((0..9).filter(|&i| c[i] == 0).map(|i| Move(i as u32)));
            return;
        }
        for from in (0..9).filter(|&i| c[i] == mover) {
            for &to in self.grid.board.neighbors(from) {
                if c[to] == 0 {
                    out.push(Move((from * 16 + to) as u32));
                }
            }
        }
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        let (mut c, mover) = Self::split(p);
        if Self::placing(&c) {
            c[mv.0 as usize] = mover;
        } else {
            c[mv.0 as usize / 16] = 0;
            c[mv.0 as usize % 16] = mover;
        }
        Self::encode(&c, 3 - mover)
    }
    fn position_to_string(&self, p: Position) -> String {
        let (c, mover) = Self::split(p);
        board::cells_turn_to_string(&c, "ox", "ox", mover as usize - 1)
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let expected = "9 points row by row from the top left (o, x or -), a space and the side \
                        to move (o or x), e.g. o---x---- o";
        let (c, turn) = board::parse_cells_turn(text, 9, "ox", "ox", expected)?;
        let (o, x, mover) = (Self::count(&c, 1), Self::count(&c, 2), turn as u8 + 1);
        if o > PIECES || (o != x && o != x + 1) {
            return Err(board::illegal(text, "o places first: as many o as x or one more, 3 each"));
        }
        if Self::placing(&c) && mover != if o == x { 1 } else { 2 } {
            return Err(board::illegal(text, "while placing, the counts decide the side to move"));
        }
        if self.has_line(&c, mover) {
            return Err(board::illegal(text, "play stops at the first three in a row"));
        }
        Ok(Self::encode(&c, mover))
    }
    fn move_to_string(&self, p: Position, mv: Move) -> String {
        let (c, _) = Self::split(p);
        let m = mv.0 as usize;
        if Self::placing(&c) {
            self.grid.board.name(m).to_string()
        } else {
            format!("{}{}", self.grid.board.name(m / 16), self.grid.board.name(m % 16))
        }
    }
    fn move_syntax(&self) -> String {
        "[a-c][1-3] to place (column, row; row 1 at the top), then [a-c][1-3][a-c][1-3] to slide \
         (from, to)"
            .into()
    }
    fn board_text(&self, p: Position) -> String {
        let (c, _) = Self::split(p);
        let piece = |i: usize| ['.', 'O', 'X'][c[i] as usize];
        let row = |y: usize| {
            format!("{}   {} - {} - {}\n", y + 1, piece(3 * y), piece(3 * y + 1), piece(3 * y + 2))
        };
        format!("    a   b   c\n{}    | \\ | / |\n{}    | / | \\ |\n{}", row(0), row(1), row(2))
    }
    fn player_names(&self) -> [&'static str; 2] {
        ["o", "x"]
    }
    perfectplay_core::capabilities!(tiers, symmetry, gui);
}

impl Tiers for Achi {
    /// A tier is the number of empty points (3 once all pieces are placed).
    fn tier(&self, p: Position) -> Tier {
        Tier(Self::count(&Self::split(p).0, 0) as u32)
    }
}

impl Symmetry for Achi {
    fn symmetry_count(&self) -> usize {
        self.grid.symmetries.len()
    }
    fn canonical(&self, p: Position) -> Position {
        let (c, mover) = Self::split(p);
        self.grid.symmetries.least(&c, |c| Self::encode(c, mover))
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        let (c, mover) = Self::split(p);
        self.grid.symmetries.images(&c, |c| Self::encode(c, mover), out)
    }
}

impl ImageGui for Achi {
    /// 003 Figure 5.1's board: points joined by lines, X and O marks.
    fn theme(&self) -> ImageAutoGui {
        crate::themes::points_theme(&self.grid.board, crate::themes::marks())
    }
    fn autogui_position(&self, p: Position) -> String {
        let (c, _) = Self::split(p);
        autogui_position(self.to_move(p), board::cells_to_string(&c, "ox").chars())
    }
    fn autogui_move(&self, p: Position, mv: Move) -> AutoGuiMove {
        let (c, mover) = Self::split(p);
        let m = mv.0 as usize;
        if Self::placing(&c) {
            AutoGuiMove::Token { token: ['o', 'x'][mover as usize - 1], at: m }
        } else {
            AutoGuiMove::Arrow { from: m / 16, to: m % 16 }
        }
    }
}

//! Tic-Tac-Toe (004): X moves first; three in a row wins; a full board without one is a tie.
//!
//! Position code: the board in base 3 (cell `i` is digit `i`: 0 empty, 1 X, 2 O), cells in
//! reading order from the top left. X is to move when the counts are equal. Tier: the number of
//! empty cells. Symmetries: the 8 of the square.

use crate::prelude::*;

/// Tic-Tac-Toe on the 3x3 board.
#[derive(Clone, Debug)]
pub struct TicTacToe {
    grid: InARow,
}

impl Default for TicTacToe {
    fn default() -> Self {
        TicTacToe { grid: InARow::new(Board::grid(3, 3), 3, &board::SQUARE) }
    }
}

const POW3: [u64; 9] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561];

impl TicTacToe {
    fn cells(p: Position) -> Vec<u8> {
        board::unpack(p.0, 9, 3)
    }
    fn encode(cells: &[u8]) -> Position {
        Position(board::pack(cells, 3))
    }
    /// The mark to move (1 X, 2 O) and the one that moved last.
    fn marks(cells: &[u8]) -> (u8, u8) {
        let count = |m| cells.iter().filter(|&&c| c == m).count();
        if count(1) == count(2) {
            (1, 2)
        } else {
            (2, 1)
        }
    }
    fn has_line(&self, cells: &[u8], mark: u8) -> bool {
        self.grid.has_line(|c| cells[c] == mark)
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! { ENTRY = TicTacToe, "tictactoe.rs", "tictactoe", "Tic-Tac-Toe" }

impl Game for TicTacToe {
    crate::declared!(ENTRY, Small);
    fn start(&self) -> Position {
        Position(0)
    }
    fn to_move(&self, p: Position) -> Player {
        Player::second_if(Self::marks(&Self::cells(p)).0 == 2)
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        let c = Self::cells(p);
        if self.has_line(&c, Self::marks(&c).1) {
            Some(Value::Lose)
        } else {
            (!c.contains(&0)).then_some(Value::Tie)
        }
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let c = Self::cells(p);
        out.extend((0..9).filter(|&i| c[i] == 0).map(|i| Move(i as u32)));
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        Position(p.0 + u64::from(Self::marks(&Self::cells(p)).0) * POW3[mv.0 as usize])
    }
    fn position_to_string(&self, p: Position) -> String {
        board::cells_to_string(&Self::cells(p), "xo")
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let expected = "9 cells, row by row from the top left, each x, o or - (e.g. x---o----)";
        let c = board::parse_cells(text, 9, "xo", expected)?;
        let (x, o) = (c.iter().filter(|&&m| m == 1).count(), c.iter().filter(|&&m| m == 2).count());
        if x != o && x != o + 1 {
            return Err(board::illegal(
                text,
                "X moves first, so X has as many marks as O or one more",
            ));
        }
        let (xl, ol) = (self.has_line(&c, 1), self.has_line(&c, 2));
        if (xl && x != o + 1) || (ol && x != o) {
            return Err(board::illegal(text, "play stops at the first three in a row"));
        }
        Ok(Self::encode(&c))
    }
    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        self.grid.board.name(mv.0 as usize).to_string()
    }
    fn move_syntax(&self) -> String {
        "[a-c][1-3] (column, row; row 1 at the top)".into()
    }
    fn board_text(&self, p: Position) -> String {
        let c = Self::cells(p);
        board::grid_text(3, 3, |i| [' ', 'X', 'O'][c[i] as usize])
    }
    fn player_names(&self) -> [&'static str; 2] {
        ["X", "O"]
    }
    perfectplay_core::capabilities!(tiers, symmetry, undo, gui);
}

impl Tiers for TicTacToe {
    /// A tier is the number of empty cells.
    fn tier(&self, p: Position) -> Tier {
        Tier(Self::cells(p).iter().filter(|&&c| c == 0).count() as u32)
    }
}

impl Symmetry for TicTacToe {
    fn symmetry_count(&self) -> usize {
        self.grid.symmetries.len()
    }
    fn canonical(&self, p: Position) -> Position {
        self.grid.symmetries.least(&Self::cells(p), Self::encode)
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        self.grid.symmetries.images(&Self::cells(p), Self::encode, out)
    }
}

impl UndoMoves for TicTacToe {
    fn undo_moves(&self, p: Position, out: &mut Vec<Position>) {
        let c = Self::cells(p);
        let last = Self::marks(&c).1;
        let parents =
            (0..9).filter(|&i| c[i] == last).map(|i| Position(p.0 - u64::from(last) * POW3[i]));
        out.extend(parents.filter(|&q| self.primitive(q).is_none()));
    }
}

impl ImageGui for TicTacToe {
    fn theme(&self) -> ImageAutoGui {
        crate::themes::grid_theme(3, 3, crate::themes::marks())
    }
    fn autogui_position(&self, p: Position) -> String {
        autogui_position(self.to_move(p), self.position_to_string(p).chars())
    }
    fn autogui_move(&self, p: Position, mv: Move) -> AutoGuiMove {
        let token = if self.to_move(p) == Player::First { 'x' } else { 'o' };
        AutoGuiMove::Token { token, at: mv.0 as usize }
    }
}

//! Tic-Tac-Toe (004): X moves first; three in a row wins; a full board without one is a tie.
//!
//! Position code: the board in base 3 (cell `i` is digit `i`: 0 empty, 1 X, 2 O), cells numbered
//! row by row from the top left. The player to move follows from the counts (X when they are
//! equal). Tier: the number of empty cells. Symmetries: the 8 of the square.

use perfectplay_core::autogui::{autogui_position, grid_centers};
use perfectplay_core::{
    AutoGuiMove, Entity, Game, ImageAutoGui, Move, ParseError, Player, Position, Tier, Value,
};

const CELLS: usize = 9;
const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
const POW3: [u64; CELLS] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561];

/// The 8 symmetries of the square as cell permutations: `SYMMETRIES[g][i]` is where cell `i` goes.
const SYMMETRIES: [[usize; CELLS]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8],
    [2, 5, 8, 1, 4, 7, 0, 3, 6],
    [8, 7, 6, 5, 4, 3, 2, 1, 0],
    [6, 3, 0, 7, 4, 1, 8, 5, 2],
    [2, 1, 0, 5, 4, 3, 8, 7, 6],
    [6, 7, 8, 3, 4, 5, 0, 1, 2],
    [0, 3, 6, 1, 4, 7, 2, 5, 8],
    [8, 5, 2, 7, 4, 1, 6, 3, 0],
];

/// Tic-Tac-Toe on the 3x3 board.
#[derive(Clone, Copy, Debug, Default)]
pub struct TicTacToe;

fn cells(p: Position) -> [u8; CELLS] {
    let mut out = [0u8; CELLS];
    let mut code = p.0;
    for c in &mut out {
        *c = (code % 3) as u8;
        code /= 3;
    }
    out
}

fn encode(cells: &[u8; CELLS]) -> Position {
    Position(cells.iter().zip(POW3).map(|(&c, w)| u64::from(c) * w).sum())
}

fn count(cells: &[u8; CELLS], mark: u8) -> usize {
    cells.iter().filter(|&&c| c == mark).count()
}

fn has_line(cells: &[u8; CELLS], mark: u8) -> bool {
    LINES.iter().any(|line| line.iter().all(|&i| cells[i] == mark))
}

fn mark_to_move(cells: &[u8; CELLS]) -> u8 {
    if count(cells, 1) == count(cells, 2) {
        1
    } else {
        2
    }
}

fn cell_name(i: usize) -> String {
    format!("{}{}", (b'a' + (i % 3) as u8) as char, i / 3 + 1)
}

impl Game for TicTacToe {
    fn id(&self) -> &'static str {
        "tictactoe"
    }
    fn name(&self) -> &'static str {
        "Tic-Tac-Toe"
    }
    fn variant(&self) -> String {
        "regular".into()
    }
    fn start(&self) -> Position {
        Position(0)
    }

    fn primitive(&self, p: Position) -> Option<Value> {
        let c = cells(p);
        let last = 3 - mark_to_move(&c);
        if has_line(&c, last) {
            Some(Value::Lose)
        } else if count(&c, 0) == 0 {
            Some(Value::Tie)
        } else {
            None
        }
    }

    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let c = cells(p);
        out.extend((0..CELLS).filter(|&i| c[i] == 0).map(|i| Move(i as u32)));
    }

    fn do_move(&self, p: Position, mv: Move) -> Position {
        let c = cells(p);
        Position(p.0 + u64::from(mark_to_move(&c)) * POW3[mv.0 as usize])
    }

    fn to_move(&self, p: Position) -> Player {
        if mark_to_move(&cells(p)) == 1 {
            Player::First
        } else {
            Player::Second
        }
    }

    fn tier(&self, p: Position) -> Tier {
        Tier(count(&cells(p), 0) as u32)
    }

    fn symmetry_count(&self) -> usize {
        SYMMETRIES.len()
    }

    fn canonical(&self, p: Position) -> Position {
        let mut images = Vec::with_capacity(SYMMETRIES.len());
        self.symmetry_images(p, &mut images);
        images.into_iter().min().unwrap_or(p)
    }

    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        let c = cells(p);
        out.extend(SYMMETRIES.iter().map(|perm| {
            let mut image = [0u8; CELLS];
            for i in 0..CELLS {
                image[perm[i]] = c[i];
            }
            encode(&image)
        }));
    }

    fn has_undo_moves(&self) -> bool {
        true
    }

    fn undo_moves(&self, p: Position, out: &mut Vec<Position>) {
        let c = cells(p);
        let last = 3 - mark_to_move(&c);
        for i in (0..CELLS).filter(|&i| c[i] == last) {
            let parent = Position(p.0 - u64::from(last) * POW3[i]);
            if self.primitive(parent).is_none() {
                out.push(parent);
            }
        }
    }

    fn position_to_string(&self, p: Position) -> String {
        cells(p).iter().map(|&c| ['-', 'x', 'o'][c as usize]).collect()
    }

    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let malformed = || ParseError::Malformed {
            what: "position",
            text: text.to_string(),
            expected: "9 cells, row by row from the top left, each x, o or - (e.g. x---o----)"
                .into(),
        };
        let t = text.trim();
        if t.chars().count() != CELLS {
            return Err(malformed());
        }
        let mut c = [0u8; CELLS];
        for (cell, ch) in c.iter_mut().zip(t.chars()) {
            *cell = match ch.to_ascii_lowercase() {
                '-' | '.' | '_' => 0,
                'x' => 1,
                'o' => 2,
                _ => return Err(malformed()),
            };
        }
        let illegal = |reason: &str| ParseError::IllegalPosition {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let (x, o) = (count(&c, 1), count(&c, 2));
        if x != o && x != o + 1 {
            return Err(illegal("X moves first, so X has as many marks as O or one more"));
        }
        let (xl, ol) = (has_line(&c, 1), has_line(&c, 2));
        if (xl && x != o + 1) || (ol && x != o) || (xl && ol) {
            return Err(illegal("play stops at the first three in a row"));
        }
        Ok(encode(&c))
    }

    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        cell_name(mv.0 as usize)
    }

    fn move_syntax(&self) -> String {
        "[a-c][1-3] (column, row; row 1 at the top)".into()
    }

    fn board_text(&self, p: Position) -> String {
        let c = cells(p);
        let mut s = String::from("    a   b   c\n");
        for row in 0..3 {
            let marks: Vec<String> =
                (0..3).map(|col| [" ", "X", "O"][c[row * 3 + col] as usize].to_string()).collect();
            s.push_str(&format!("{}   {} | {} | {}\n", row + 1, marks[0], marks[1], marks[2]));
            if row < 2 {
                s.push_str("   ---+---+---\n");
            }
        }
        s
    }

    fn player_names(&self) -> [&'static str; 2] {
        ["X", "O"]
    }

    fn image_autogui(&self) -> Option<ImageAutoGui> {
        Some(ImageAutoGui {
            theme: "paper",
            size: (300.0, 300.0),
            centers: grid_centers(3, 3, 100.0),
            background: crate::themes::grid_board(3, 3, 100.0, "#fbf8ef", "#333"),
            entities: vec![
                Entity { token: 'x', svg: crate::themes::cross() },
                Entity { token: 'o', svg: crate::themes::ring() },
            ],
            piece_size: 100.0,
            arrow_width: 0.0,
        })
    }

    fn autogui_position(&self, p: Position) -> String {
        autogui_position(self.to_move(p), cells(p).iter().map(|&c| ['-', 'x', 'o'][c as usize]))
    }

    fn autogui_move(&self, p: Position, mv: Move) -> Option<AutoGuiMove> {
        let token = if self.to_move(p) == Player::First { 'x' } else { 'o' };
        Some(AutoGuiMove::Token { token, at: mv.0 as usize })
    }
}

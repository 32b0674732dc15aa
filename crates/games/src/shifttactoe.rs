//! Shift-Tac-Toe (003 Appendix A; Image AutoGUI 003 section 5.5.9): three horizontal sliders of
//! five slots each, seen through a 3x3 window that is filled like Connect 4. A turn either drops
//! one's piece into one of the window's three columns (it falls to the lowest empty cell) or
//! shifts one slider one step left or right; a piece shifted out of the window disappears, and
//! pieces above a cell left empty fall down. A slider starts centered and moves at most one step
//! either way from the center (its five slots show three at a time: left, center, right). Three
//! in a row of one's color in the window (row, column or diagonal) wins, whoever made it: a move
//! may make the opponent's line. Play never gets stuck (every slider can always move), so games
//! can go on forever: such positions are draws (ties).
//!
//! Rules chosen where 003 is silent, as in GamesmanClassic's Shift-Tac-Toe (mstt.c, its default
//! vertical board): a shift moves the row's pieces, not just the window; gravity applies after
//! every shift; a slider's three positions bound the shifts (no wrapping). Where a move makes both
//! players' lines at once, the game is a tie, as 003 says (GamesmanClassic gives it to the mover).
//! X moves first.
//!
//! Position code: `(cells * 27 + sliders) * 2 + turn`: the cells in base 3 (0 empty, 1 X, 2 O,
//! row by row from the top left), the sliders in base 3 (0 left, 1 center, 2 right; the top row's
//! lowest), then 1 when O is to move. Symmetry: the left-right mirror (which also mirrors each
//! slider's position).

use crate::prelude::*;

use crate::themes::{self, CELL};

/// Move codes: a drop is the column (0 to 2); a shift is `3 + 2 * row + (0 left | 1 right)`.
const SHIFT: u32 = 3;

/// The game.
#[derive(Clone, Debug)]
pub struct ShiftTacToe {
    grid: InARow,
}

impl Default for ShiftTacToe {
    fn default() -> Self {
        ShiftTacToe { grid: InARow::new(Board::grid(3, 3), 3, &board::MIRROR) }
    }
}

// A position's code: whether O is to move, then the cells in base 3 and the sliders' offsets in
// base 3, as one number.
const O_TO_MOVE: Field<bool> = Field::first(1);
const BOARD: Field<u64> = O_TO_MOVE.then(63);

/// A position: the window's cells, the sliders, whether O is to move.
struct State {
    cells: Vec<u8>,
    sliders: [u8; 3],
    o_to_move: bool,
}

impl State {
    fn of(p: Position) -> State {
        let board = BOARD.get(p.0);
        State {
            cells: board::unpack(board / 27, 9, 3),
            sliders: [0, 1, 2].map(|r| (board % 27 / 3u64.pow(r) % 3) as u8),
            o_to_move: O_TO_MOVE.get(p.0),
        }
    }
    fn code(&self) -> Position {
        let sliders = self.sliders.iter().rev().fold(0, |k, &s| k * 3 + u64::from(s));
        let board = board::pack(&self.cells, 3) * 27 + sliders;
        Position(BOARD.put(board) | O_TO_MOVE.put(self.o_to_move))
    }
    /// Pieces fall into the empty cells under them.
    fn settle(&mut self) {
        for x in 0..3 {
            let column: Vec<u8> =
                (0..3).map(|y| self.cells[3 * y + x]).filter(|&c| c != 0).collect();
            for y in 0..3 {
                self.cells[3 * y + x] =
                    if y + column.len() >= 3 { column[y + column.len() - 3] } else { 0 };
            }
        }
    }
}

impl ShiftTacToe {
    fn has_line(&self, cells: &[u8], mark: u8) -> bool {
        self.grid.has_line(|c| cells[c] == mark)
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! { ENTRY = ShiftTacToe, "shifttactoe.rs", "shifttactoe", "Shift-Tac-Toe" }

impl Game for ShiftTacToe {
    crate::declared!(ENTRY, Small);
    fn start(&self) -> Position {
        State { cells: vec![0; 9], sliders: [1; 3], o_to_move: false }.code()
    }
    fn to_move(&self, p: Position) -> Player {
        if !O_TO_MOVE.get(p.0) {
            Player::First
        } else {
            Player::Second
        }
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        let s = State::of(p);
        let (mine, theirs) = if s.o_to_move { (2, 1) } else { (1, 2) };
        match (self.has_line(&s.cells, mine), self.has_line(&s.cells, theirs)) {
            (true, true) => Some(Value::Tie),
            (true, false) => Some(Value::Win),
            (false, true) => Some(Value::Lose),
            (false, false) => None,
        }
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let s = State::of(p);
        out.extend((0..3u32).filter(|&x| s.cells[x as usize] == 0).map(Move));
        for (r, &slider) in s.sliders.iter().enumerate() {
            let r = r as u32;
            out.extend((slider > 0).then_some(Move(SHIFT + 2 * r)));
            out.extend((slider < 2).then_some(Move(SHIFT + 2 * r + 1)));
        }
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        let mut s = State::of(p);
        if mv.0 < SHIFT {
            let x = mv.0 as usize;
            let y = (0..3).rev().find(|&y| s.cells[3 * y + x] == 0).unwrap_or(0);
            s.cells[3 * y + x] = if s.o_to_move { 2 } else { 1 };
        } else {
            let (r, right) = (((mv.0 - SHIFT) / 2) as usize, (mv.0 - SHIFT) & 1 == 1);
            let row = &mut s.cells[3 * r..3 * r + 3];
            if right {
                row.rotate_right(1);
                row[0] = 0;
                s.sliders[r] += 1;
            } else {
                row.rotate_left(1);
                row[2] = 0;
                s.sliders[r] -= 1;
            }
            s.settle();
        }
        s.o_to_move = !s.o_to_move;
        s.code()
    }
    fn position_to_string(&self, p: Position) -> String {
        let s = State::of(p);
        let cells = board::cells_to_string(&s.cells, "xo");
        let sliders: String = s.sliders.iter().map(|&v| ['l', 'c', 'r'][v as usize]).collect();
        let turn = if s.o_to_move { 'o' } else { 'x' };
        format!("{}/{}/{} {sliders} {turn}", &cells[..3], &cells[3..6], &cells[6..])
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let expected = "3 rows of the window from the top separated by '/' (x, o or -), the \
                        sliders top to bottom (l, c or r: left, center, right), the player to move \
                        (x or o), e.g. ---/---/x-- ccc o";
        let malformed = || board::malformed(text, expected);
        let parts: Vec<&str> = text.split_whitespace().collect();
        let [rows, sliders, turn] = parts[..] else { return Err(malformed()) };
        let rows: Vec<&str> = rows.split('/').collect();
        if rows.len() != 3 {
            return Err(malformed());
        }
        let cells = board::parse_cells(&rows.concat(), 9, "xo", expected)?;
        let sliders = board::parse_cells(sliders, 3, "lcr", expected)?;
        let o_to_move = match turn.to_ascii_lowercase().as_str() {
            "x" => false,
            "o" => true,
            _ => return Err(malformed()),
        };
        if sliders.contains(&0) {
            return Err(malformed());
        }
        let s = State { cells, sliders: [0, 1, 2].map(|r| sliders[r] - 1), o_to_move };
        if (3..9).any(|c| s.cells[c] == 0 && s.cells[c - 3] != 0) {
            return Err(board::illegal(text, "a piece floats above an empty cell"));
        }
        Ok(s.code())
    }
    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        match mv.0 {
            x if x < SHIFT => self.grid.board.name(x as usize)[..1].to_string(),
            m => format!("{}{}", ['l', 'r'][((m - SHIFT) & 1) as usize], (m - SHIFT) / 2 + 1),
        }
    }
    fn move_syntax(&self) -> String {
        "[a-c] (drop in a column) | [l|r][1-3] (shift a row left or right; row 1 at the top)".into()
    }
    fn board_text(&self, p: Position) -> String {
        let s = State::of(p);
        let grid = board::grid_text(3, 3, |i| ['.', 'X', 'O'][s.cells[i] as usize]);
        let sliders = ["left", "center", "right"];
        let lines: Vec<String> = grid.lines().map(String::from).collect();
        let rows = (0..3)
            .map(|y| format!("{}   slider {}\n", lines[y + 1], sliders[s.sliders[y] as usize]));
        format!("{}\n{}", lines[0], rows.collect::<String>())
    }
    fn player_names(&self) -> [&'static str; 2] {
        ["X", "O"]
    }
    fn space(&self) -> PositionSpace<'_> {
        PositionSpace::Sparse(None)
    }
    perfectplay_core::capabilities!(symmetry, gui);
    fn undo(&self) -> Option<&dyn UndoMoves> {
        None
    }
}

impl Symmetry for ShiftTacToe {
    fn symmetry_count(&self) -> usize {
        self.grid.symmetries.len()
    }
    /// The mirror maps the cells and turns each slider's left into right.
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        let s = State::of(p);
        out.extend((0..self.grid.symmetries.len()).map(|g| {
            let mirrored = self.grid.symmetries.map(g, 0) != 0;
            let sliders = s.sliders.map(|v| if mirrored { 2 - v } else { v });
            State {
                cells: self.grid.symmetries.map_cells(g, &s.cells),
                sliders,
                o_to_move: s.o_to_move,
            }
            .code()
        }));
    }
}

/// AutoGUI centers (003 Figure 5.24): the sliders' three places per row, the window's cells, the
/// drop arrows' ends above the window, the shift arrows' ends at both sides.
const GUI_DROPS: usize = 18;
const GUI_SHIFTS: usize = 24;

impl ImageGui for ShiftTacToe {
    fn theme(&self) -> ImageAutoGui {
        let row_y = |r: usize| (r as f64 + 1.5) * CELL;
        // A slider's three places are where its middle slot shows: the window's cells.
        let cells: Vec<(f64, f64)> =
            (0..9).map(|i| ((i % 3) as f64 * CELL + 3.5 * CELL, row_y(i / 3))).collect();
        let mut centers = [cells.clone(), cells].concat();
        for x in 0..3 {
            let cx = (x as f64 + 3.5) * CELL;
            centers.extend([(cx, 0.15 * CELL), (cx, 0.85 * CELL)]);
        }
        for r in 0..3 {
            let y = row_y(r);
            centers.extend([
                (0.85 * CELL, y),
                (0.15 * CELL, y),
                (8.15 * CELL, y),
                (8.85 * CELL, y),
            ]);
        }
        let piece = 0.85 * CELL;
        let mut entities = themes::stones(("#d62828", "#8a1010"), ("#222", "#000"));
        entities.push(Entity { token: 's', svg: themes::slider(5, piece) });
        let background = format!(
            r##"<rect width="{w}" height="{h}" fill="#efe4c8"/><rect x="{x}" y="{y}" width="{s}" height="{s}" fill="none" stroke="#2a5db0" stroke-width="10"/>"##,
            w = 9.0 * CELL,
            h = 4.0 * CELL,
            x = 3.0 * CELL,
            y = CELL,
            s = 3.0 * CELL
        );
        ImageAutoGui {
            theme: "sliders",
            size: (9.0 * CELL, 4.0 * CELL),
            centers,
            background,
            entities,
            piece_size: piece,
            arrow_width: 14.0,
        }
    }
    fn autogui_position(&self, p: Position) -> String {
        let s = State::of(p);
        let sliders = (0..9).map(|i| if s.sliders[i / 3] as usize == i % 3 { 's' } else { '-' });
        let cells: Vec<char> = board::cells_to_string(&s.cells, "xo").chars().collect();
        let arrows = (GUI_DROPS..GUI_SHIFTS + 12).map(|_| '-');
        autogui_position(self.to_move(p), sliders.chain(cells).chain(arrows))
    }
    fn autogui_move(&self, _p: Position, mv: Move) -> AutoGuiMove {
        let from = match mv.0 {
            x if x < SHIFT => GUI_DROPS + 2 * x as usize,
            m => GUI_SHIFTS + 2 * (m - SHIFT) as usize,
        };
        AutoGuiMove::Arrow { from, to: from + 1 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_push_pieces_out_and_let_pieces_fall() {
        let g = ShiftTacToe::default();
        let p = g.parse_position("---/o--/xxo ccc x").unwrap();
        // Shifting the bottom row right pushes its o out; the o above the emptied cell falls.
        let q = g.do_move(p, Move(SHIFT + 2 * 2 + 1));
        assert_eq!(g.position_to_string(q), "---/---/oxx ccr o");
        // The bottom row can now only go left; a column is full only when its top cell is.
        let mut moves = Vec::new();
        g.moves(q, &mut moves);
        assert!(!moves.contains(&Move(SHIFT + 5)) && moves.contains(&Move(SHIFT + 4)));
        assert_eq!(moves.len(), 3 + 6 - 1);
        assert!(g.parse_position("x--/---/--- ccc o").is_err());
    }
}

//! Chung-Toi (003 Appendix A, multipart moves 003 section 6.4.6): a tic-tac-toe board, three
//! red pieces (the first player's) and three white ones, each standing either `+` or `x`. First
//! the players take turns placing a piece on an empty cell in either orientation; once all six
//! are down, a turn slides one of one's pieces (a `+` along its row or column, an `x` along a
//! diagonal, any distance into an empty cell, jumping over whatever lies between) and sets its
//! orientation, or turns a piece in place, or passes. Three of one color in a row wins.
//!
//! As in GamesmanClassic's `mctoi.c` (and 003 6.4.6's interface), turning in place and passing are
//! both "set a piece's orientation where it stands": choosing the orientation it has is a pass, so
//! a pass can be made with any of one's pieces (the same child). Loopy (a draw where neither side
//! can force a line).
//!
//! Position code: the cells in base 5 (cell `i` is digit `i`: 0 empty, 1 red `+`, 2 red `x`,
//! 3 white `+`, 4 white `x`), plus `2^21` when white is to move. Tier: the pieces still to be
//! placed. Symmetries: the 8 of the square (a quarter turn keeps `+` and `x` as they are).
//! Move code: `from << 5 | to << 1 | orientation` (1 for `x`), `from` 9 for a placement.

use crate::prelude::*;

// A position's code: the cells in base 5 (5^9 < 2^21), whether white is to move.
const CELLS: Field<u64> = Field::first(21);
const WHITE_TO_MOVE: Field<bool> = CELLS.then(1);
const PLACE: usize = 9;
/// Rows of `+` (orthogonal) and `x` (diagonal) steps.
const STEPS: [[(i32, i32); 4]; 2] =
    [[(1, 0), (-1, 0), (0, 1), (0, -1)], [(1, 1), (1, -1), (-1, 1), (-1, -1)]];
const CELL_TEXT: [&str; 5] = ["--", "R+", "Rx", "W+", "Wx"];

/// Chung-Toi.
#[derive(Clone, Debug)]
pub struct ChungToi {
    grid: InARow,
}

impl Default for ChungToi {
    fn default() -> Self {
        ChungToi { grid: InARow::new(Board::grid(3, 3), 3, &board::SQUARE) }
    }
}

/// The color of a cell's content: 0 red, 1 white (`None` when empty).
fn color(c: u8) -> Option<usize> {
    (c != 0).then(|| usize::from(c - 1) / 2)
}

fn encode(cells: &[u8], turn: usize) -> Position {
    Position(CELLS.put(board::pack(cells, 5)) | WHITE_TO_MOVE.put(turn == 1))
}

fn split(p: Position) -> (Vec<u8>, usize) {
    (board::unpack(CELLS.get(p.0), 9, 5), usize::from(WHITE_TO_MOVE.get(p.0)))
}

fn split_move(mv: Move) -> (usize, usize, u8) {
    ((mv.0 >> 5) as usize, (mv.0 >> 1 & 15) as usize, (mv.0 & 1) as u8)
}

impl ChungToi {
    fn has_line(&self, cells: &[u8], who: usize) -> bool {
        self.grid.has_line(|c| color(cells[c]) == Some(who))
    }
    /// The empty cells a piece at `from` slides to.
    fn slides<'a>(&'a self, cells: &'a [u8], from: usize) -> impl Iterator<Item = usize> + 'a {
        let steps = STEPS[usize::from(cells[from] - 1) % 2];
        steps
            .into_iter()
            .flat_map(move |(dx, dy)| {
                (1..3).filter_map(move |k| self.grid.board.step(from, k * dx, k * dy))
            })
            .filter(|&to| cells[to] == 0)
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! { ENTRY = ChungToi, "chungtoi.rs", "chungtoi", "Chung-Toi" }

impl Game for ChungToi {
    crate::declared!(ENTRY, Small);
    fn start(&self) -> Position {
        Position(0)
    }
    fn to_move(&self, p: Position) -> Player {
        Player::of(split(p).1)
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        let (cells, turn) = split(p);
        self.has_line(&cells, 1 - turn).then_some(Value::Lose)
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let (cells, turn) = split(p);
        let code = |from: usize, to: usize, o: u32| Move((from as u32) << 5 | (to as u32) << 1 | o);
        let mine: Vec<usize> = (0..9).filter(|&i| color(cells[i]) == Some(turn)).collect();
        if mine.len() < 3 {
            for to in (0..9).filter(|&i| cells[i] == 0) {
                out.extend([code(PLACE, to, 0), code(PLACE, to, 1)]);
            }
            return;
        }
        for from in mine {
            for to in std::iter::once(from).chain(self.slides(&cells, from)) {
                out.extend([code(from, to, 0), code(from, to, 1)]);
            }
        }
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        let (mut cells, turn) = split(p);
        let (from, to, o) = split_move(mv);
        if from != PLACE {
            cells[from] = 0;
        }
        cells[to] = 1 + 2 * turn as u8 + o;
        encode(&cells, 1 - turn)
    }
    fn position_to_string(&self, p: Position) -> String {
        let (cells, turn) = split(p);
        let rows: Vec<String> =
            cells.chunks(3).map(|r| r.iter().map(|&c| CELL_TEXT[c as usize]).collect()).collect();
        format!("{} {}", rows.join("/"), ['R', 'W'][turn])
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let expected = "3 rows of 3 cells, each -- (empty), R+, Rx, W+ or Wx, joined by /, then \
                        the player to move, R or W (e.g. R+--Wx/------/------ R)";
        let malformed = || board::malformed(text, expected);
        let t = text.trim().to_ascii_uppercase();
        let (rows, turn) = t.split_once(' ').ok_or_else(malformed)?;
        let turn = ["R", "W"].iter().position(|w| *w == turn.trim()).ok_or_else(malformed)?;
        let rows: Vec<&str> = rows.split('/').collect();
        if rows.len() != 3 || rows.iter().any(|r| r.len() != 6 || !r.is_ascii()) {
            return Err(malformed());
        }
        let pairs = rows.iter().flat_map(|r| (0..3).map(move |i| &r[2 * i..2 * i + 2]));
        let cells = pairs
            .map(|c| CELL_TEXT.iter().position(|t| *t == c.replace('X', "x")).map(|i| i as u8))
            .collect::<Option<Vec<u8>>>()
            .ok_or_else(malformed)?;
        let count = |who| cells.iter().filter(|&&c| color(c) == Some(who)).count();
        let (red, white) = (count(0), count(1));
        if red > 3 || white > 3 || !(red == white || red == white + 1) {
            return Err(board::illegal(text, "three pieces each, red placing first"));
        }
        if red + white < 6 && turn != red - white {
            return Err(board::illegal(text, "while placing, red moves when the counts are equal"));
        }
        if self.has_line(&cells, turn) {
            return Err(board::illegal(text, "play stops at the first three in a row"));
        }
        Ok(encode(&cells, turn))
    }
    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        let (from, to, o) = split_move(mv);
        let o = ['+', 'x'][o as usize];
        match from {
            f if f == PLACE || f == to => format!("{}{o}", self.grid.board.name(to)),
            f => format!("{}{}{o}", self.grid.board.name(f), self.grid.board.name(to)),
        }
    }
    fn move_syntax(&self) -> String {
        "[<from>]<to><orientation>: cells [a-c][1-3] (row 1 at the top), orientation + or x; \
         a placement or a piece set in place (its own orientation: a pass) names one cell, a slide \
         two (e.g. b2x, a1c3+)"
            .into()
    }
    fn board_text(&self, p: Position) -> String {
        let (cells, turn) = split(p);
        let mut s = String::from("    a  b  c\n");
        for (y, row) in cells.chunks(3).enumerate() {
            let row: Vec<&str> = row.iter().map(|&c| CELL_TEXT[c as usize]).collect();
            s += &format!("{:>2}  {}\n", y + 1, row.join(" ").replace("--", ". "));
        }
        s + &format!("{} to move\n", ["red", "white"][turn])
    }
    fn player_names(&self) -> [&'static str; 2] {
        ["red", "white"]
    }
    perfectplay_core::capabilities!(tiers, symmetry, gui);
}

impl Tiers for ChungToi {
    /// A tier is the pieces still to be placed.
    fn tier(&self, p: Position) -> Tier {
        Tier(split(p).0.iter().filter(|&&c| c == 0).count() as u32 - 3)
    }
}

impl Symmetry for ChungToi {
    fn symmetry_count(&self) -> usize {
        self.grid.symmetries.len()
    }
    fn canonical(&self, p: Position) -> Position {
        let (cells, turn) = split(p);
        self.grid.symmetries.least(&cells, |c| encode(c, turn))
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        let (cells, turn) = split(p);
        self.grid.symmetries.images(&cells, |c| encode(c, turn), out)
    }
}

/// AutoGUI: the 9 cells, then the control panel's `+` and `x` buttons under the board; pieces
/// `P` and `Q` (red `+` and `x`), `p` and `q` (white).
const CELL: f64 = 100.0;
const PANEL: usize = 9;
const TOKENS: [char; 5] = ['-', 'P', 'Q', 'p', 'q'];

/// A Chung-Toi piece: a disc with its orientation's arrows.
fn piece(fill: &str, rim: &str, cross: bool) -> String {
    let arms = if cross {
        "M-0.25,-0.25L0.25,0.25M0.25,-0.25L-0.25,0.25"
    } else {
        "M0,-0.34V0.34M-0.34,0H0.34"
    };
    format!(
        r##"<circle r="0.42" fill="{fill}" stroke="{rim}" stroke-width="0.04"/><path d="{arms}" stroke="{rim}" stroke-width="0.08" stroke-linecap="round"/>"##
    )
}

fn mark(cross: bool) -> String {
    let arms = if cross {
        "M-0.22,-0.22L0.22,0.22M0.22,-0.22L-0.22,0.22"
    } else {
        "M0,-0.3V0.3M-0.3,0H0.3"
    };
    format!(r##"<path d="{arms}" stroke="#222" stroke-width="0.1" stroke-linecap="round"/>"##)
}

impl ImageGui for ChungToi {
    fn theme(&self) -> ImageAutoGui {
        let mut centers = grid_centers(3, 3, CELL);
        centers.extend([(100.0, 350.0), (200.0, 350.0)]);
        let mut background = crate::themes::grid_board(3, 3, CELL, "#fbf8ef", "#333");
        background += r##"<rect y="300" width="300" height="100" fill="#ece6d6"/>"##;
        ImageAutoGui {
            theme: "paper",
            size: (3.0 * CELL, 4.0 * CELL),
            centers,
            background,
            entities: vec![
                Entity { token: 'P', svg: piece("#c0392b", "#5a1a12", false) },
                Entity { token: 'Q', svg: piece("#c0392b", "#5a1a12", true) },
                Entity { token: 'p', svg: piece("#f4f1e8", "#555", false) },
                Entity { token: 'q', svg: piece("#f4f1e8", "#555", true) },
                Entity { token: '+', svg: mark(false) },
                Entity { token: 'x', svg: mark(true) },
            ],
            piece_size: 0.9 * CELL,
            arrow_width: 12.0,
        }
    }
    fn autogui_position(&self, p: Position) -> String {
        let (cells, turn) = split(p);
        let chars = cells.iter().map(|&c| TOKENS[c as usize]).chain(['-', '-']);
        autogui_position(Player::of(turn), chars)
    }
    fn autogui_move(&self, _p: Position, mv: Move) -> AutoGuiMove {
        let (from, to, _) = split_move(mv);
        match from {
            PLACE => AutoGuiMove::Token { token: 't', at: to },
            f if f == to => AutoGuiMove::Token { token: 's', at: f },
            f => AutoGuiMove::Arrow { from: f, to },
        }
    }
    fn multipart(&self) -> Option<&dyn MultipartMoves> {
        Some(self)
    }
}

impl MultipartMoves for ChungToi {
    /// 003 6.4.6's clicks, with the slide's arrow split in two (arrows of one piece along a line
    /// would lie on top of each other): where to place (the cell), or which piece (the piece) and
    /// where it goes (the cell; its own cell to turn it in place or pass), then its orientation on
    /// the panel.
    fn move_parts(&self, _p: Position, mv: Move) -> Vec<AutoGuiMove> {
        let (from, to, o) = split_move(mv);
        let orientation =
            AutoGuiMove::Token { token: ['+', 'x'][usize::from(o)], at: PANEL + usize::from(o) };
        let target = AutoGuiMove::Token { token: 't', at: to };
        if from == PLACE {
            vec![target, orientation]
        } else {
            vec![AutoGuiMove::Token { token: 's', at: from }, target, orientation]
        }
    }
}

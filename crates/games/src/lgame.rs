//! L-game (de Bono; 003 Appendix A, multipart moves 003 section 6.4.1): a 4x4 board, a red and
//! a blue L (each covering four cells) and two neutral pieces; red moves first. A move puts the
//! mover's L down anywhere it fits (turned or flipped as wanted) so that it covers a different set
//! of cells, then optionally moves one neutral piece to an empty cell. A player who cannot move
//! their L loses. Loopy: play can go on forever (a draw).
//!
//! Start (de Bono's): the Ls side by side in the middle columns, the neutral pieces in the top left
//! and bottom right corners. An L is named by its corner cell (where the foot meets the long arm),
//! the direction of its long arm and that of its foot (`b4ne`: corner b4, arm up to b2, foot c4).
//!
//! Position code: bits 0-5 the red L (index among the 48 placements), 6-11 the blue L, 12-15 and
//! 16-19 the neutral pieces' cells (lower first), bit 20 set when blue is to move. Symmetries: the
//! 8 of the square. Move code: the L's index `<< 8`, then the neutral piece's cells `from << 4 |
//! to`; `from == to` (the lower neutral piece kept where it is) when no neutral piece moves, which
//! the interface plays as 003 describes: select that neutral piece and put it back.

use crate::prelude::*;

/// North, east, south, west as `(dx, dy)` (y down), and their letters.
const DIRS: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];
const DIR_NAMES: [char; 4] = ['n', 'e', 's', 'w'];
/// The 8 orientations (arm, foot); the AutoGUI draws orientation `o`'s button as `A` + `o`.
const ORIENTATIONS: [(usize, usize); 8] =
    [(0, 1), (0, 3), (1, 0), (1, 2), (2, 1), (2, 3), (3, 0), (3, 2)];

/// One way to put an L on the board.
#[derive(Clone, Debug)]
struct Placement {
    mask: u64,
    corner: usize,
    orientation: usize,
}

/// The L-game.
#[derive(Clone, Debug)]
pub struct LGame {
    board: Board,
    ls: Vec<Placement>,
    /// The Ls' numbers by their cells, and their images.
    index: Placements,
    symmetries: Symmetries,
}

impl Default for LGame {
    fn default() -> Self {
        let board = Board::grid(4, 4);
        let mut ls = Vec::new();
        for corner in 0..16 {
            for (orientation, &(arm, foot)) in ORIENTATIONS.iter().enumerate() {
                let (a, f) = (DIRS[arm], DIRS[foot]);
                let cells = [
                    board.step(corner, a.0, a.1),
                    board.step(corner, 2 * a.0, 2 * a.1),
                    board.step(corner, f.0, f.1),
                ];
                if let [Some(x), Some(y), Some(z)] = cells {
                    let mask = 1 << corner | 1 << x | 1 << y | 1 << z;
                    ls.push(Placement { mask, corner, orientation });
                }
            }
        }
        let symmetries = board.symmetries(&board::SQUARE);
        let index = Placements::new(&ls.iter().map(|l| l.mask).collect::<Vec<_>>(), &symmetries);
        LGame { board, ls, index, symmetries }
    }
}

// A position's code: the Ls' placements (red's, blue's), the neutral cells (the lower first),
// the turn.
const L: Field<usize> = Field::first(6);
const NEUTRAL: Field<usize> = L.nth(1).then(4);
const TURN: Field<usize> = NEUTRAL.nth(1).then(1);

/// A position's parts: the Ls (red's, blue's), the neutral cells, the player to move (0 red).
struct Parts {
    ls: [usize; 2],
    neutral: [usize; 2],
    turn: usize,
}

impl Parts {
    fn of(p: Position) -> Parts {
        let (ls, neutral) =
            ([0, 1].map(|i| L.nth(i).get(p.0)), [0, 1].map(|i| NEUTRAL.nth(i).get(p.0)));
        Parts { ls, neutral, turn: TURN.get(p.0) }
    }
    fn code(&self) -> Position {
        let ([r, b], [m, n]) = (self.ls, self.neutral);
        let neutral = NEUTRAL.put(m.min(n)) | NEUTRAL.nth(1).put(m.max(n));
        Position(L.put(r) | L.nth(1).put(b) | neutral | TURN.put(self.turn))
    }
    fn neutral_mask(&self) -> u64 {
        1 << self.neutral[0] | 1 << self.neutral[1]
    }
}

impl LGame {
    /// The placements the mover's L can go to.
    fn l_moves(&self, s: &Parts) -> impl Iterator<Item = usize> + '_ {
        let (mine, blocked) = (s.ls[s.turn], self.ls[s.ls[1 - s.turn]].mask | s.neutral_mask());
        (0..self.ls.len()).filter(move |&q| q != mine && self.ls[q].mask & blocked == 0)
    }
    fn l_name(&self, q: usize) -> String {
        let (arm, foot) = ORIENTATIONS[self.ls[q].orientation];
        format!("{}{}{}", self.board.name(self.ls[q].corner), DIR_NAMES[arm], DIR_NAMES[foot])
    }
    /// Per cell: 0 empty, 1 red, 2 blue, 3 neutral.
    fn cells(&self, s: &Parts) -> Vec<u8> {
        let masks = [self.ls[s.ls[0]].mask, self.ls[s.ls[1]].mask, s.neutral_mask()];
        (0..16)
            .map(|c| masks.iter().position(|m| m >> c & 1 == 1).map_or(0, |i| i as u8 + 1))
            .collect()
    }
    fn split_move(mv: Move) -> (usize, usize, usize) {
        ((mv.0 >> 8) as usize, (mv.0 >> 4 & 15) as usize, (mv.0 & 15) as usize)
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! { ENTRY = LGame, "lgame.rs", "lgame", "L-game" }

impl Game for LGame {
    crate::declared!(ENTRY, Small);
    fn start(&self) -> Position {
        self.parse_position("nbb-/-rb-/-rb-/-rrn r").expect("the start is legal")
    }
    fn to_move(&self, p: Position) -> Player {
        Player::of(Parts::of(p).turn)
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        self.l_moves(&Parts::of(p)).next().is_none().then_some(Value::Lose)
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let s = Parts::of(p);
        let other = self.ls[s.ls[1 - s.turn]].mask;
        for q in self.l_moves(&s) {
            let l = (q as u32) << 8;
            let [a, b] = s.neutral.map(|n| n as u32);
            out.push(Move(l | a << 4 | a));
            let free = 0xffff & !(self.ls[q].mask | other | s.neutral_mask());
            for n in [a, b] {
                out.extend(board::bits(free).map(|to| Move(l | n << 4 | to as u32)));
            }
        }
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        let mut s = Parts::of(p);
        let (q, from, to) = Self::split_move(mv);
        s.ls[s.turn] = q;
        s.neutral = s.neutral.map(|n| if n == from { to } else { n });
        s.turn = 1 - s.turn;
        s.code()
    }
    fn position_to_string(&self, p: Position) -> String {
        let s = Parts::of(p);
        board::grid_turn_to_string(&self.cells(&s), 4, "rbn", ['r', 'b'][s.turn])
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let expected = "4 rows of r (red L), b (blue L), n (neutral) or -, joined by /, then the \
                        player to move, r or b (e.g. nbb-/-rb-/-rb-/-rrn r)";
        let (c, turn) = board::parse_grid_turn(text, 4, 4, "rbn", "rb", expected)?;
        let l = |m: u8, who: &str| {
            let cells = board::cells_holding(&c, m);
            let why = format!("the {who} cells must form an L");
            self.index.of(cells).ok_or_else(|| board::illegal(text, &why))
        };
        let ls = [l(1, "red")?, l(2, "blue")?];
        match board::bits(board::cells_holding(&c, 3)).collect::<Vec<_>>()[..] {
            [a, b] => Ok(Parts { ls, neutral: [a, b], turn }.code()),
            _ => Err(board::illegal(text, "there are two neutral pieces")),
        }
    }
    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        let (q, from, to) = Self::split_move(mv);
        if from == to {
            self.l_name(q)
        } else {
            format!("{} {}{}", self.l_name(q), self.board.name(from), self.board.name(to))
        }
    }
    fn move_syntax(&self) -> String {
        "<corner><arm><foot>[ <from><to>]: the L's corner cell ([a-d][1-4], row 1 at the top), \
         the directions (n, e, s, w) of its long arm and of its foot, then optionally a neutral \
         piece's move (e.g. b4ne, or c1sw a1d3)"
            .into()
    }
    fn board_text(&self, p: Position) -> String {
        let c = self.cells(&Parts::of(p));
        board::grid_text(4, 4, |i| ['.', 'R', 'B', 'o'][c[i] as usize])
    }
    fn player_names(&self) -> [&'static str; 2] {
        ["red", "blue"]
    }
    perfectplay_core::capabilities!(symmetry, gui);
}

impl LGame {
    fn image(&self, s: &Parts, g: usize) -> Position {
        let ls = s.ls.map(|q| self.index.image(g, q));
        let neutral = s.neutral.map(|n| self.symmetries.map(g, n));
        Parts { ls, neutral, turn: s.turn }.code()
    }
}

impl Symmetry for LGame {
    fn symmetry_count(&self) -> usize {
        self.symmetries.len()
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        let s = Parts::of(p);
        out.extend((0..self.symmetries.len()).map(|g| self.image(&s, g)));
    }
}

/// The AutoGUI's cell size, and the first of the 48 L buttons' centers (after the 16 cells).
const CELL: f64 = 100.0;
const L_BUTTONS: usize = 16;

fn button(orientation: usize) -> char {
    (b'A' + orientation as u8) as char
}

/// An L button: the L drawn small in the orientation it puts the L in.
fn l_glyph(orientation: usize) -> String {
    let (a, f) = (DIRS[ORIENTATIONS[orientation].0], DIRS[ORIENTATIONS[orientation].1]);
    // The cells around their mean, (3a + f) / 4 from the corner.
    let (cx, cy) = (f64::from(3 * a.0 + f.0) / 4.0, f64::from(3 * a.1 + f.1) / 4.0);
    let rect = |(x, y): (i32, i32)| {
        let (x, y) = ((f64::from(x) - cx) * 0.085 - 0.0375, (f64::from(y) - cy) * 0.085 - 0.0375);
        format!(r##"<rect x="{x:.4}" y="{y:.4}" width="0.075" height="0.075" fill="#222"/>"##)
    };
    [(0, 0), a, (2 * a.0, 2 * a.1), f].into_iter().map(rect).collect()
}

impl ImageGui for LGame {
    /// The 4x4 board, then one button per L placement beside its corner cell's center, pushed
    /// toward its arm and foot so that the 8 orientations at a corner lie apart.
    fn theme(&self) -> ImageAutoGui {
        let mut centers = grid_centers(4, 4, CELL);
        for l in &self.ls {
            let (arm, foot) = ORIENTATIONS[l.orientation];
            let (x, y) = centers[l.corner];
            let (a, f) = (DIRS[arm], DIRS[foot]);
            let dx = 0.3 * f64::from(a.0) + 0.15 * f64::from(f.0);
            let dy = 0.3 * f64::from(a.1) + 0.15 * f64::from(f.1);
            centers.push((x + dx * CELL, y + dy * CELL));
        }
        let square = |fill: &str| {
            format!(r#"<rect x="-0.48" y="-0.48" width="0.96" height="0.96" fill="{fill}"/>"#)
        };
        let mut entities = vec![
            Entity { token: 'r', svg: square("#c0392b") },
            Entity { token: 'b', svg: square("#2e5fa8") },
            Entity { token: 'n', svg: crate::themes::stone("#777", "#333") },
        ];
        entities.extend((0..8).map(|o| Entity { token: button(o), svg: l_glyph(o) }));
        ImageAutoGui {
            theme: "paper",
            size: (4.0 * CELL, 4.0 * CELL),
            centers,
            background: crate::themes::grid_board(4, 4, CELL, "#fbf8ef", "#333"),
            entities,
            piece_size: CELL,
            arrow_width: 12.0,
        }
    }
    fn autogui_position(&self, p: Position) -> String {
        let s = Parts::of(p);
        let cells = self.cells(&s).into_iter().map(|c| ['-', 'r', 'b', 'n'][c as usize]);
        let turn = self.to_move(p);
        autogui_position(turn, cells.chain(std::iter::repeat_n('-', self.ls.len())))
    }
    fn autogui_move(&self, _p: Position, mv: Move) -> AutoGuiMove {
        let q = Self::split_move(mv).0;
        AutoGuiMove::Token { token: button(self.ls[q].orientation), at: L_BUTTONS + q }
    }
    fn multipart(&self) -> Option<&dyn MultipartMoves> {
        Some(self)
    }
}

impl MultipartMoves for LGame {
    /// 003 6.4.1: the L button, then the neutral piece to move, then its cell (its own cell to
    /// leave both neutral pieces where they are).
    fn move_parts(&self, p: Position, mv: Move) -> Vec<AutoGuiMove> {
        let (_, from, to) = Self::split_move(mv);
        vec![
            self.autogui_move(p, mv),
            AutoGuiMove::Token { token: 's', at: from },
            AutoGuiMove::Token { token: 't', at: to },
        ]
    }
}

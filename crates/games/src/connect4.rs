//! Connect 4 (003 Appendix A; Image AutoGUI 003 section 5.5.4): a vertical grid of `W` columns and
//! `H` rows; the players take turns dropping a piece of their color into a column that is not
//! full, where it falls to the lowest empty slot. Four in a row of one's color (horizontal,
//! vertical or diagonal) wins; a full board without one is a tie. 003 plays 7x6; the variants here
//! are the small boards `WxH` (4 to 6 each, at most 30 slots) whose strong solutions fit in memory.
//!
//! Position code: the kit's [`Stacks`] (John Tromp's code: per column, its pieces under a 1 that
//! marks its height), content bit 1 for the first player's pieces. The player to move follows
//! from the number of pieces. Tier: the empty slots. Symmetry: the left-right mirror.

use crate::prelude::*;

use crate::themes;

const SIZES: &str = "WxH: columns x rows, 4 to 6 each, at most 30 slots (e.g. 5x4)";

/// Connect 4 on a `cols` x `rows` board.
#[derive(Clone, Debug)]
pub struct Connect4 {
    cols: usize,
    rows: usize,
    stacks: Stacks,
}

impl Connect4 {
    /// The game on `cols` columns and `rows` rows (4 to 6 each, at most 30 slots: 6x5 and 5x6,
    /// about 2.8 and 1.0 billion positions, are benchmarks for `perfectplay solve`).
    pub fn new(cols: usize, rows: usize) -> Result<Connect4, String> {
        if !(4..=6).contains(&cols) || !(4..=6).contains(&rows) || cols * rows > 30 {
            return Err(SIZES.into());
        }
        let stacks = Stacks::new(cols, rows);
        Ok(Connect4 { cols, rows, stacks })
    }

    /// A variant named `WxH`.
    pub fn from_variant(v: &str) -> Result<Connect4, String> {
        let err = || SIZES.to_string();
        let (w, h) = v.split_once('x').ok_or_else(err)?;
        Connect4::new(w.parse().map_err(|_| err())?, h.parse().map_err(|_| err())?)
    }

    /// The first player's pieces and the occupied slots.
    fn split(&self, key: u64) -> (u64, u64) {
        let occupied = self.stacks.occupied(key);
        (key & occupied, occupied)
    }
    fn has_line(&self, stones: u64) -> bool {
        self.stacks.has_four(stones)
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! {
    ENTRY = Connect4::from_variant, "connect4.rs", "connect4", "Connect 4";
    default "4x5"; syntax "WxH (columns x rows, 4 to 6 each, at most 30 slots)";
    listed &["4x4", "4x5", "5x4", "4x6", "5x5", "6x4"]; also &["6x5", "5x6"]
}

impl Game for Connect4 {
    crate::declared!(ENTRY);
    fn variant(&self) -> String {
        format!("{}x{}", self.cols, self.rows)
    }
    fn variant_description(&self) -> String {
        format!("{} columns of {} slots; four in a line wins", self.cols, self.rows)
    }
    fn size_class(&self) -> SizeClass {
        // Measured: 4x4 and 4x5 solve in under half a second (161,029 and 1,706,255 positions).
        SizeClass::small_if(self.cols == 4 && self.rows <= 5)
    }
    fn start(&self) -> Position {
        Position(self.stacks.empty())
    }
    fn to_move(&self, p: Position) -> Player {
        if self.stacks.pieces(p.0) & 1 == 0 {
            Player::First
        } else {
            Player::Second
        }
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        let (first, occupied) = self.split(p.0);
        let last = if occupied.count_ones() & 1 == 1 { first } else { occupied & !first };
        if self.has_line(last) {
            Some(Value::Lose)
        } else {
            (occupied.count_ones() as usize == self.cols * self.rows).then_some(Value::Tie)
        }
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let open = (0..self.cols).filter(|&x| self.stacks.height(p.0, x) < self.rows);
        out.extend(open.map(|x| Move(x as u32)));
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        Position(self.stacks.drop(p.0, mv.0 as usize, self.to_move(p) == Player::First))
    }
    /// A drop in each open column, the mover found once.
    fn children(&self, p: Position, out: &mut Vec<Position>) {
        let first = self.to_move(p) == Player::First;
        out.extend(self.stacks.drops(p.0, first).map(Position));
    }
    fn position_to_string(&self, p: Position) -> String {
        self.stacks.to_text(p.0, "xo")
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let expected = format!(
            "{} rows of {} cells from the top, separated by '/', each x (red, the first player), o (yellow) or - \
             (e.g. {})",
            self.rows,
            self.cols,
            self.position_to_string(self.start())
        );
        let key = self.stacks.parse_text(text, "xo", &expected)?;
        let (first, occupied) = self.split(key);
        let (x, o) = (first.count_ones(), (occupied & !first).count_ones());
        if x != o && x != o + 1 {
            return Err(board::illegal(text, "x moves first: as many pieces as o or one more"));
        }
        let (xl, ol) = (self.has_line(first), self.has_line(occupied & !first));
        if (xl && x != o + 1) || (ol && x != o) {
            return Err(board::illegal(text, "play stops at the first four in a row"));
        }
        Ok(Position(key))
    }
    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        ((b'a' + mv.0 as u8) as char).to_string()
    }
    fn move_syntax(&self) -> String {
        format!("[a-{}] (the column to drop a piece in)", (b'a' + self.cols as u8 - 1) as char)
    }
    fn board_text(&self, p: Position) -> String {
        let c = self.stacks.cells(p.0);
        board::grid_text(self.cols, self.rows, |i| ['.', 'R', 'Y'][c[i] as usize])
    }
    fn player_names(&self) -> [&'static str; 2] {
        ["red", "yellow"]
    }
    perfectplay_core::capabilities!(tiers, symmetry, undo, gui);
}

impl Tiers for Connect4 {
    /// A tier is the number of empty slots.
    fn tier(&self, p: Position) -> Tier {
        Tier((self.cols * self.rows - self.stacks.pieces(p.0)) as u32)
    }
}

impl Symmetry for Connect4 {
    fn symmetry_count(&self) -> usize {
        2
    }
    /// The position and its mirror image.
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        out.extend([p, Position(self.stacks.mirrored(p.0))]);
    }
    /// The lesser of the code and its mirror image.
    fn canonical(&self, p: Position) -> Position {
        Position(p.0.min(self.stacks.mirrored(p.0)))
    }
}

impl UndoMoves for Connect4 {
    /// The last mover's piece on top of a column comes off.
    fn undo_moves(&self, p: Position, out: &mut Vec<Position>) {
        let first_moved_last = self.to_move(p) == Player::Second;
        for x in (0..self.cols).filter(|&x| self.stacks.height(p.0, x) > 0) {
            let (parent, first_on_top) = self.stacks.lift(p.0, x);
            if first_on_top == first_moved_last && self.primitive(Position(parent)).is_none() {
                out.push(Position(parent));
            }
        }
    }
}

/// The AutoGUI: a row above the frame for the drop arrows (two centers per column, 003 Figure
/// 5.14), then the frame's holes.
impl ImageGui for Connect4 {
    fn theme(&self) -> ImageAutoGui {
        let (w, h) = (self.cols as f64 * themes::CELL, self.rows as f64 * themes::CELL);
        let mut centers =
            themes::shifted(grid_centers(self.cols, self.rows, themes::CELL), 0.0, themes::CELL);
        for x in 0..self.cols {
            let cx = (x as f64 + 0.5) * themes::CELL;
            centers.extend([(cx, 0.15 * themes::CELL), (cx, 0.85 * themes::CELL)]);
        }
        ImageAutoGui {
            theme: "frame",
            size: (w, h + themes::CELL),
            centers,
            background: themes::drop_frame(self.cols, self.rows, 0.0, themes::CELL),
            entities: themes::stones(("#d62828", "#8a1010"), ("#f6c915", "#a07d00")),
            piece_size: 0.85 * themes::CELL,
            arrow_width: 14.0,
        }
    }
    fn autogui_position(&self, p: Position) -> String {
        let cells = board::cells_to_string(&self.stacks.cells(p.0), "xo");
        let arrows = (0..2 * self.cols).map(|_| '-');
        autogui_position(self.to_move(p), cells.chars().chain(arrows))
    }
    fn autogui_move(&self, _p: Position, mv: Move) -> AutoGuiMove {
        let from = self.cols * self.rows + 2 * mv.0 as usize;
        AutoGuiMove::Arrow { from, to: from + 1 }
    }
}

//! Dawson's Chess (003 Appendix A; Image AutoGUI 003 section 5.5.5): a 1 x n board. Players take
//! turns placing a king on a cell that no king already placed attacks (the cell itself and its
//! two neighbors are then taken); a player who cannot place a king loses.
//!
//! A run of k free cells between taken ones plays as a heap of k in the octal game 0.137 (a king
//! takes its cell and the free neighbors: the whole run of 1 or 2, 2 cells from the end of a run,
//! or 3 cells splitting the rest into up to two runs), so the empty board of n cells is a heap of
//! n. Kings are all one kind and every move places one, so the player to move is told by the
//! number of kings: the position code is the set of kings (bit `i` for cell `i`, from the left).
//! Tier: the free cells left. Symmetry: the mirror of the row.

use crate::prelude::*;

/// Dawson's Chess on a 1 x n board.
#[derive(Clone, Debug)]
pub struct DawsonsChess {
    n: usize,
    full: u64,
    symmetries: Symmetries,
}

impl DawsonsChess {
    /// The longest board.
    pub const MAX: usize = 34;

    /// A board of `n` cells, 1 to [`DawsonsChess::MAX`].
    pub fn new(n: usize) -> Result<DawsonsChess, String> {
        if !(1..=Self::MAX).contains(&n) {
            return Err(format!("a board length from 1 to {}", Self::MAX));
        }
        let symmetries = Board::grid(n, 1).symmetries(&board::MIRROR);
        Ok(DawsonsChess { n, full: (1 << n) - 1, symmetries })
    }

    /// Reads a variant name: the board length (`9`).
    pub fn from_variant(variant: &str) -> Result<DawsonsChess, String> {
        let expected = format!("the board length, 1 to {} (e.g. 9)", Self::MAX);
        let n = variant.parse().map_err(|_| expected.clone())?;
        DawsonsChess::new(n).map_err(|e| format!("{expected}: {e}"))
    }

    /// The cells no king attacks or occupies.
    fn free(&self, kings: u64) -> u64 {
        !(kings | kings << 1 | kings >> 1) & self.full
    }
    /// Per cell: 0 free, 1 a king, 2 attacked.
    fn cells(&self, kings: u64) -> Vec<u8> {
        let free = self.free(kings);
        (0..self.n)
            .map(|i| if kings >> i & 1 == 1 { 1 } else { 2 * (!free >> i & 1) as u8 })
            .collect()
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! {
    ENTRY = DawsonsChess::from_variant, "dawsonschess.rs",
        "dawsonschess", "Dawson's Chess";
    default "9"; syntax "n (the board length, 1 to 34)";
    listed &["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16",
        "17", "18", "19", "20", "24", "30"];
    also &["34"]
}

impl Game for DawsonsChess {
    crate::declared!(ENTRY);
    fn variant(&self) -> String {
        self.n.to_string()
    }
    fn variant_description(&self) -> String {
        format!("A row of {} cells", self.n)
    }
    fn size_class(&self) -> SizeClass {
        // Positions: the sets of kings no two adjacent, Fibonacci(n + 2): 121,393 for n = 24.
        SizeClass::small_if(self.n <= 24)
    }
    fn start(&self) -> Position {
        Position(0)
    }
    fn to_move(&self, p: Position) -> Player {
        Player::of(p.0.count_ones() as usize % 2)
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        (self.free(p.0) == 0).then_some(Value::Lose)
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        out.extend(board::bits(self.free(p.0)).map(|i| Move(i as u32)));
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        Position(p.0 | 1 << mv.0)
    }
    fn position_to_string(&self, p: Position) -> String {
        board::cells_to_string(&board::unpack(p.0, self.n, 2), "k")
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let expected = format!("{} cells from the left, each k (a king) or - (e.g. -k--k)", self.n);
        let kings = board::pack(&board::parse_cells(text, self.n, "k", &expected)?, 2);
        if kings & kings << 1 != 0 {
            return Err(board::illegal(
                text,
                "no king stands next to another (it would be attacked)",
            ));
        }
        Ok(Position(kings))
    }
    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        (mv.0 + 1).to_string()
    }
    fn move_syntax(&self) -> String {
        format!("[1-{}]: the cell to place a king on, from the left", self.n)
    }
    fn board_text(&self, p: Position) -> String {
        let cells = self.cells(p.0);
        let numbers: String = (1..=self.n).map(|i| format!("{i:>3}")).collect();
        let marks: String =
            cells.iter().map(|&c| format!("{:>3}", ['.', 'K', 'x'][c as usize])).collect();
        format!("{numbers}\n{marks}\n")
    }
    perfectplay_core::capabilities!(tiers, symmetry, gui);
}

impl Tiers for DawsonsChess {
    /// A tier is the number of free cells.
    fn tier(&self, p: Position) -> Tier {
        Tier(self.free(p.0).count_ones())
    }
}

impl Symmetry for DawsonsChess {
    fn symmetry_count(&self) -> usize {
        self.symmetries.len()
    }
    fn canonical(&self, p: Position) -> Position {
        (0..self.symmetries.len())
            .map(|g| Position(self.symmetries.map_mask(g, p.0)))
            .min()
            .unwrap()
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        out.extend((0..self.symmetries.len()).map(|g| Position(self.symmetries.map_mask(g, p.0))));
    }
}

impl ImageGui for DawsonsChess {
    /// A row of cells; kings, and attacked cells shaded; a button on every free cell.
    fn theme(&self) -> ImageAutoGui {
        let king = r##"<path d="M-0.3,0.3L-0.34,-0.16L-0.16,0.02L0,-0.3L0.16,0.02L0.34,-0.16L0.3,0.3Z" fill="#2b2b2b" stroke="#000" stroke-width="0.03"/><circle cy="-0.34" r="0.06" fill="#2b2b2b"/>"##;
        let attacked = r##"<rect x="-0.47" y="-0.47" width="0.94" height="0.94" fill="#b8b0a0" fill-opacity="0.6"/>"##;
        let entities = vec![
            Entity { token: 'k', svg: king.into() },
            Entity { token: 'a', svg: attacked.into() },
        ];
        crate::themes::grid_theme(self.n, 1, entities)
    }
    fn autogui_position(&self, p: Position) -> String {
        let cells = self.cells(p.0).into_iter().map(|c| ['-', 'k', 'a'][c as usize]);
        autogui_position(self.to_move(p), cells)
    }
    fn autogui_move(&self, _p: Position, mv: Move) -> AutoGuiMove {
        AutoGuiMove::Token { token: 'k', at: mv.0 as usize }
    }
}

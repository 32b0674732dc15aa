//! Mū Tōrere (003 Appendix A; its Image AutoGUI is 003 section 5.5.7): the wheel graph W9, eight
//! rim points (kewai, named 1 to 8 clockwise from the upper left) around the center (pūtahi,
//! `p`). Black has four pieces on neighboring rim points (1-4, the upper half), white the other
//! four; the center is empty and black moves first. A move takes one of your pieces to an
//! adjacent empty point: along the rim, from the center to the rim, or from the rim to the
//! center. A player who cannot move loses. Loopy; draws exist.
//!
//! The seed's text puts no condition on moving to the center; the usual rule (Bell, Ascher; the
//! `regular` variant) lets a piece move to the center only if an opponent's piece stands on one of
//! its two rim neighbors. Without it (`no-putahi-rule`, the seed's text taken literally) black
//! wins at once: an inner black piece moves to the center and white has no move.
//!
//! Position code: a perfect hash, the rearranger rank of the nine points (rim points 0-7, then the
//! center 8: 0 empty, 1 black, 2 white; one empty, four of each) times two, plus one when white is
//! to move: 1,260 codes, every one a position, solved as a dense space. Symmetries: the 16 of the
//! octagon.

use crate::prelude::*;

/// The center.
const PUTAHI: usize = 8;

/// Mū Tōrere, with or without the rule for moving to the center.
#[derive(Clone, Debug)]
pub struct MuTorere {
    board: Board,
    symmetries: Symmetries,
    putahi_rule: bool,
    /// Ranks the arrangements of one empty point, four black and four white pieces.
    rearranger: Rearranger,
}

impl MuTorere {
    /// `regular` or `no-putahi-rule`.
    pub fn from_variant(variant: &str) -> Result<MuTorere, String> {
        let putahi_rule = match variant {
            "regular" => true,
            "no-putahi-rule" => false,
            _ => return Err("regular | no-putahi-rule".into()),
        };
        let mut xy: Vec<(f64, f64)> = (0..8)
            .map(|k| {
                let a = std::f64::consts::TAU * (k as f64 - 1.5) / 8.0;
                (1.5 * a.sin(), -1.5 * a.cos())
            })
            .collect();
        xy.push((0.0, 0.0));
        let edges: Vec<(usize, usize)> = (0..8).flat_map(|k| [(k, (k + 1) % 8), (k, 8)]).collect();
        let names = ["1", "2", "3", "4", "5", "6", "7", "8", "p"];
        let board = Board::graph(&names, &xy, &edges);
        let symmetries = board.symmetries(&board::dihedral(8));
        let rearranger = Rearranger::new(&[1, 4, 4]).expect("630 arrangements");
        Ok(MuTorere { board, symmetries, putahi_rule, rearranger })
    }

    /// The points (0 empty, 1 black, 2 white) and the color to move.
    fn split(&self, p: Position) -> (Vec<u8>, u8) {
        let mut cells = Vec::with_capacity(9);
        self.rearranger.unrank(p.0 / 2, &mut cells).expect("a code below the space's size");
        (cells, 1 + (p.0 % 2) as u8)
    }
    /// The code of an arrangement with four of each and one empty point.
    fn encode(&self, cells: &[u8], mover: u8) -> Position {
        let rank = self.rearranger.rank(cells).expect("four of each and one empty point");
        Position(rank * 2 + u64::from(mover - 1))
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! {
    ENTRY = MuTorere::from_variant, "mutorere.rs", "mutorere", "Mū Tōrere";
    default "regular";
    syntax "regular (a piece moves to the center only beside an opponent's) | no-putahi-rule";
    listed &["regular", "no-putahi-rule"]; also &[]
}

impl Game for MuTorere {
    crate::declared!(ENTRY, Small);
    fn variant(&self) -> String {
        if self.putahi_rule { "regular" } else { "no-putahi-rule" }.into()
    }
    fn variant_description(&self) -> String {
        if self.putahi_rule {
            "A piece moves to the center only next to an opposing piece (the usual rule)".into()
        } else {
            "Any piece next to the empty center may move there (the seed taken literally)".into()
        }
    }
    fn start(&self) -> Position {
        self.encode(&[1, 1, 1, 1, 2, 2, 2, 2, 0], 1)
    }
    fn to_move(&self, p: Position) -> Player {
        Player::second_if(self.split(p).1 == 2)
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        let mut moves = Vec::new();
        self.moves(p, &mut moves);
        moves.is_empty().then_some(Value::Lose)
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let (c, mover) = self.split(p);
        for from in (0..9).filter(|&i| c[i] == mover) {
            for &to in self.board.neighbors(from).iter().filter(|&&to| c[to] == 0) {
                let beside_opponent =
                    [(from + 1) % 8, (from + 7) % 8].iter().any(|&n| c[n] == 3 - mover);
                if to != PUTAHI || !self.putahi_rule || beside_opponent {
                    out.push(Move((from * 16 + to) as u32));
                }
            }
        }
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        let (mut c, mover) = self.split(p);
        c.swap(mv.0 as usize / 16, mv.0 as usize % 16);
        self.encode(&c, 3 - mover)
    }
    fn position_to_string(&self, p: Position) -> String {
        let (c, mover) = self.split(p);
        board::cells_turn_to_string(&c, "bw", "bw", mover as usize - 1)
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let expected = "the rim points 1-8 then the center (b, w or -), a space and the side to \
                        move (b or w), e.g. bbbbwwww- b";
        let (c, turn) = board::parse_cells_turn(text, 9, "bw", "bw", expected)?;
        if (1..=2).any(|m| c.iter().filter(|&&x| x == m).count() != 4) {
            return Err(board::illegal(text, "each side has four pieces"));
        }
        // Four of each on nine points leave one empty: the rearranger ranks it.
        Ok(self.encode(&c, turn as u8 + 1))
    }
    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        let (from, to) = (mv.0 as usize / 16, mv.0 as usize % 16);
        format!("{}{}", self.board.name(from), self.board.name(to))
    }
    fn move_syntax(&self) -> String {
        "from and to, each a rim point 1-8 or p for the center (4p, p5, 45)".into()
    }
    /// The wheel, with the points' names beside it.
    fn board_text(&self, p: Position) -> String {
        // Capitals stand for the points 0-8 (the rim from the upper left, then the center).
        const PICTURE: &str =
            "    B   C          2   3\n  A       D      1       4\n      I              \
                               p\n  H       E      8       5\n    G   F          7   6\n";
        let (c, _) = self.split(p);
        let point = |ch: char| ['.', 'B', 'W'][c[ch as usize - 'A' as usize] as usize];
        PICTURE.chars().map(|ch| if ch.is_ascii_uppercase() { point(ch) } else { ch }).collect()
    }
    fn player_names(&self) -> [&'static str; 2] {
        ["black", "white"]
    }
    fn space(&self) -> PositionSpace<'_> {
        PositionSpace::Dense { size: 2 * self.rearranger.size() }
    }
    perfectplay_core::capabilities!(symmetry, gui);
}

impl Symmetry for MuTorere {
    fn symmetry_count(&self) -> usize {
        self.symmetries.len()
    }
    fn canonical(&self, p: Position) -> Position {
        let (c, mover) = self.split(p);
        self.symmetries.least(&c, |c| self.encode(c, mover))
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        let (c, mover) = self.split(p);
        self.symmetries.images(&c, |c| self.encode(c, mover), out)
    }
}

impl ImageGui for MuTorere {
    /// The wheel: the rim and the spokes to the center, black and white stones.
    fn theme(&self) -> ImageAutoGui {
        let stones = crate::themes::stones(("#222", "#000"), ("#f4f1e8", "#555"));
        crate::themes::points_theme(&self.board, stones)
    }
    fn autogui_position(&self, p: Position) -> String {
        let (c, _) = self.split(p);
        autogui_position(self.to_move(p), board::cells_to_string(&c, "xo").chars())
    }
    fn autogui_move(&self, _p: Position, mv: Move) -> AutoGuiMove {
        AutoGuiMove::Arrow { from: mv.0 as usize / 16, to: mv.0 as usize % 16 }
    }
}

//! Quarto (003 chapter 3): 16 pieces, each a nibble of four binary attributes (bit 3 light, bit 2
//! square, bit 1 filled, bit 0 tall; 003 3.1), and the 4x4 board. The first player begins by
//! choosing the piece the second places; from then on a turn is "place the piece you were given
//! on an empty slot, then choose the piece your opponent places". Placing the fourth piece of a
//! row, column or diagonal whose four pieces share an attribute (a *win quartet*: a bit set in all
//! four, or clear in all four) wins; a full board without one is a tie. A placement that wins or
//! fills the board chooses no piece. Levels (003 3.3): the first player moves when the number of
//! pieces on the board is odd, and at the start.
//!
//! Variants: `regular` (003's), and `3x3` for tests: the 3x3 board, its rows, columns and two
//! diagonals of three, and 8 pieces of three attributes; the game is a tie when the pieces run
//! out (8 placed, one slot empty) or the board fills without three in a line sharing an
//! attribute.
//!
//! Position code: bits 46-61 the occupied slots (slot `y * side + x`, `y` the row from the top);
//! below them one mixed-radix number: the pieces in slot order as an arrangement of distinct
//! pieces (each piece's rank among those not yet used, radix 16, 15, ...), then the piece to
//! place as its rank among the pieces left, or their count for none (under 2^46: a board with
//! 15 pieces and one to place has 16! x 2 codes). The occupied slots come first in the order of
//! codes, so a position's least image has the least image of its occupied slots. A board whose
//! code names no piece to place is over (it has a win quartet, or nothing can be placed), but
//! for the start, the empty board.
//!
//! Symmetries (003 3.7): the board's (every permutation of the slots that maps lines onto lines,
//! found by search: for 4x4 the 32 that 003 3.7.1 generates by rotation, transposition and the
//! inner and outer swaps; for 3x3 the square's 8), times the pieces' (a permutation of the
//! attribute bits and a flip of some of them: 24 x 16 = 384 for four attributes), 12,288 in all.
//! A tier in 003's sense (3.3: the occupied slots, the pieces placed and the piece to place) has
//! a canonical form with piece 0 to place (`Quarto::canonical_tiers`, 003 Table 3.2).

use crate::prelude::*;

use std::sync::{Arc, OnceLock};

mod counting;
mod gui;
mod proof;
mod search;

pub use counting::TierCount;
use search::KeyTables;

/// Where a position code holds the occupied slots.
// A position's code: the pieces' ranks and the piece to give in mixed radix, then the occupied
// slots.
const RANKS: Field<u64> = Field::first(46);
const OCCUPIED: Field<u16> = RANKS.then(16);

/// The `from` slot of a move that only chooses a piece (the first move).
const NO_SLOT: u32 = 31;
/// The piece of a move that chooses none.
const NO_PIECE: u32 = 31;

/// Quarto on a square board.
#[derive(Clone, Debug)]
pub struct Quarto {
    variant: &'static str,
    board: Board,
    side: usize,
    /// Attribute bits per piece; `1 << attributes` pieces.
    attributes: u32,
    /// The lines, as slot masks.
    lines: Vec<u16>,
    /// The board's symmetries, as slot permutations (the identity first).
    board_group: Vec<Vec<u8>>,
    /// The pieces' symmetries, as permutations of the pieces (the identity first): number
    /// `perm * (1 << attributes) + flip` flips the bits of `flip`, then permutes the bits.
    piece_group: Vec<Vec<u8>>,
    /// The live search's symmetry tables, built when first needed.
    keys: Arc<OnceLock<KeyTables>>,
    /// Per pair of attribute sets (bits 0-3 set in all of some pieces, bits 4-7 clear in all),
    /// the pieces sharing one of them.
    matching: Vec<u16>,
    /// Per slot, the lines through it (0 after the last).
    through: Vec<[u16; 4]>,
}

/// A position taken apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// Occupied slots.
    pub occupied: u16,
    /// The piece on each occupied slot (bits `4s..4s+4`); zero elsewhere.
    pub board: u64,
    /// The piece to place, if any.
    pub give: Option<u8>,
}

impl State {
    /// The piece on slot `s` (meaningful where occupied).
    #[inline]
    pub fn piece(&self, s: usize) -> u8 {
        (self.board >> (4 * s) & 15) as u8
    }
    /// The pieces on the board, as a set (bit `u` for piece `u`).
    pub fn placed(&self) -> u16 {
        board::bits(u64::from(self.occupied)).fold(0, |m, s| m | 1 << self.piece(s))
    }
    /// The number of pieces on the board (003's level).
    pub fn level(&self) -> u32 {
        self.occupied.count_ones()
    }
    /// The board after `piece` is placed on the empty `slot`, with no piece to place yet.
    #[inline]
    pub fn placing(&self, slot: usize, piece: u8) -> State {
        State {
            occupied: self.occupied | 1 << slot,
            board: self.board | u64::from(piece) << (4 * slot),
            give: None,
        }
    }
}

impl Quarto {
    /// The named variant: `regular` or `3x3`.
    pub fn from_variant(variant: &str) -> Result<Quarto, String> {
        let (variant, side, attributes) = match variant {
            "regular" => ("regular", 4, 4),
            "3x3" => ("3x3", 3, 3),
            _ => {
                return Err(
                    "regular (the 4x4 board) or 3x3 (3x3, pieces of three attributes)".into()
                )
            }
        };
        let board = Board::grid(side, side);
        let lines: Vec<u16> =
            board.lines(side).iter().map(|l| l.iter().fold(0u16, |m, &s| m | 1 << s)).collect();
        let board_group = line_automorphisms(side * side, &lines);
        let piece_group = piece_symmetries(attributes);
        let with: Vec<u16> = (0..attributes)
            .map(|b| (0..1u16 << attributes).filter(|u| u >> b & 1 == 1).fold(0, |m, u| m | 1 << u))
            .collect();
        let every = (1u32 << (1 << attributes)) - 1;
        let matching = (0..256usize)
            .map(|m| {
                let (set, clear) = (m as u64 & 15, m as u64 >> 4);
                let set = board::bits(set).filter(|&a| a < with.len()).fold(0, |p, a| p | with[a]);
                let clear = board::bits(clear).filter(|&a| a < with.len());
                clear.fold(set, |p, a| p | (every as u16 & !with[a]))
            })
            .collect();
        let through = (0..side * side)
            .map(|slot| {
                let mut out = [0u16; 4];
                for (o, &l) in out.iter_mut().zip(lines.iter().filter(|&&l| l >> slot & 1 == 1)) {
                    *o = l;
                }
                out
            })
            .collect();
        Ok(Quarto {
            variant,
            board,
            side,
            attributes,
            lines,
            board_group,
            piece_group,
            keys: Arc::default(),
            matching,
            through,
        })
    }

    fn slots(&self) -> usize {
        self.side * self.side
    }

    fn pieces(&self) -> u32 {
        1 << self.attributes
    }

    /// The board's symmetries (slot permutations, the identity first).
    pub fn board_group(&self) -> &[Vec<u8>] {
        &self.board_group
    }

    /// The pieces' symmetries (piece permutations, the identity first).
    pub fn piece_group(&self) -> &[Vec<u8>] {
        &self.piece_group
    }

    /// The lines, as slot masks.
    pub fn lines(&self) -> &[u16] {
        &self.lines
    }

    /// The lines of the board whose pieces share an attribute, as a mask of line numbers.
    pub fn win_lines(&self, s: &State) -> u32 {
        let mut wins = 0;
        for (k, &line) in self.lines.iter().enumerate() {
            if s.occupied & line == line && self.shares(s.board, line) {
                wins |= 1 << k;
            }
        }
        wins
    }

    /// The attribute bits set in every piece on `slots`, and those clear in every one.
    #[inline]
    fn shared(&self, board: u64, slots: u16) -> (u8, u8) {
        let all = (self.pieces() - 1) as u8;
        let (mut and, mut nand) = (all, all);
        for q in board::bits(u64::from(slots)) {
            let u = (board >> (4 * q) & 15) as u8;
            and &= u;
            nand &= !u;
        }
        (and, nand)
    }

    /// Whether the pieces on `slots` share an attribute.
    #[inline]
    fn shares(&self, board: u64, slots: u16) -> bool {
        let (and, nand) = self.shared(board, slots);
        and | nand != 0
    }

    /// Whether a board's win quartets could all have been made by one placement: none, or all
    /// through one slot (003 3.6; a board where they cannot is unreachable).
    pub fn quartets_coexist(&self, wins: u32) -> bool {
        let common = board::bits(u64::from(wins)).fold(u16::MAX, |m, k| m & self.lines[k]);
        wins == 0 || common != 0
    }

    /// Takes a position code apart.
    pub fn state(&self, p: Position) -> State {
        let (occupied, mut rest) = (OCCUPIED.get(p.0), RANKS.get(p.0));
        let k = occupied.count_ones();
        let n = self.pieces();
        let left = n - k;
        let g = (rest % u64::from(left + 1)) as u32;
        rest /= u64::from(left + 1);
        let mut ranks = [0u32; 16];
        for i in (0..k).rev() {
            let radix = u64::from(n - i);
            ranks[i as usize] = (rest % radix) as u32;
            rest /= radix;
        }
        let mut avail: u32 = (1 << n) - 1;
        let mut board = 0u64;
        for (i, s) in board::bits(u64::from(occupied)).enumerate() {
            let u = select(avail, ranks[i]);
            avail &= !(1 << u);
            board |= u64::from(u) << (4 * s);
        }
        let give = (g < left).then(|| select(avail, g) as u8);
        State { occupied, board, give }
    }

    /// A position's code.
    pub fn code(&self, s: &State) -> Position {
        let n = self.pieces();
        let mut avail: u32 = (1 << n) - 1;
        let mut rest = 0u64;
        for slot in board::bits(u64::from(s.occupied)) {
            let u = u32::from(s.piece(slot));
            rest = rest * u64::from(avail.count_ones())
                + u64::from((avail & ((1 << u) - 1)).count_ones());
            avail &= !(1 << u);
        }
        let left = avail.count_ones();
        let g = match s.give {
            Some(u) => (avail & ((1 << u) - 1)).count_ones(),
            None => left,
        };
        rest = rest * u64::from(left + 1) + u64::from(g);
        Position(RANKS.put(rest) | OCCUPIED.put(s.occupied))
    }

    /// Why a state is not a position of the game, if it is not.
    pub fn illegal(&self, s: &State) -> Option<&'static str> {
        let n = self.pieces();
        if u32::from(s.occupied) >> self.slots() != 0 {
            return Some("a slot off the board");
        }
        let placed = s.placed();
        if placed.count_ones() != s.level() {
            return Some("each piece is on the board once at most");
        }
        if u32::from(placed) >> n != 0 || s.give.is_some_and(|u| u32::from(u) >= n) {
            return Some("no such piece");
        }
        if s.give.is_some_and(|u| placed >> u & 1 == 1) {
            return Some("the piece to place is on the board already");
        }
        let wins = self.win_lines(s);
        if !self.quartets_coexist(wins) {
            return Some("no one placement makes all of its win quartets");
        }
        let full = s.level() as usize == self.slots() || s.level() == n;
        match s.give {
            Some(_) if wins != 0 => Some("a placement that makes a win quartet ends the game"),
            Some(_) if full => Some("nothing is left to place"),
            None if s.occupied != 0 && wins == 0 && !full => {
                Some("a placement that does not end the game chooses the next piece")
            }
            _ => None,
        }
    }

    /// Whether a placement on `slot` ends the game (a win quartet, or nothing left to place).
    fn ends(&self, s: &State, slot: usize, u: u8) -> bool {
        let after = s.placing(slot, u);
        let k = after.level();
        k as usize == self.slots() || k == self.pieces() || self.lines_through(&after, slot)
    }

    /// Whether a line through `slot` is a win quartet.
    fn lines_through(&self, s: &State, slot: usize) -> bool {
        self.lines.iter().any(|&line| {
            line >> slot & 1 == 1 && s.occupied & line == line && self.shares(s.board, line)
        })
    }

    fn encode_move(slot: u32, piece: u32) -> Move {
        Move(slot | piece << 5)
    }

    fn decode_move(mv: Move) -> (u32, u32) {
        (mv.0 & 31, mv.0 >> 5 & 31)
    }

    fn piece_char(u: u8) -> char {
        char::from_digit(u32::from(u), 16).map_or('?', |c| c.to_ascii_uppercase())
    }

    /// The image of a state under board symmetry `b` and piece symmetry `g`.
    pub fn image(&self, s: &State, b: usize, g: usize) -> State {
        let (bp, gp) = (&self.board_group[b], &self.piece_group[g]);
        let mut out = State { occupied: 0, board: 0, give: s.give.map(|u| gp[usize::from(u)]) };
        for slot in board::bits(u64::from(s.occupied)) {
            let to = usize::from(bp[slot]);
            out.occupied |= 1 << to;
            out.board |= u64::from(gp[usize::from(s.piece(slot))]) << (4 * to);
        }
        out
    }
}

/// The `k`-th (from 0) set bit of `mask`.
fn select(mut mask: u32, k: u32) -> u32 {
    for _ in 0..k {
        mask &= mask - 1;
    }
    mask.trailing_zeros()
}

/// Every permutation of `n` slots that maps each line (a slot mask) onto a line, the identity
/// first: found by extending partial maps slot by slot, refusing any that sends a line whose
/// slots are all mapped to a set that is not a line.
pub fn line_automorphisms(n: usize, lines: &[u16]) -> Vec<Vec<u8>> {
    fn extend(n: usize, lines: &[u16], perm: &mut Vec<u8>, used: u16, out: &mut Vec<Vec<u8>>) {
        let k = perm.len();
        if k == n {
            out.push(perm.clone());
            return;
        }
        for to in 0..n as u8 {
            if used >> to & 1 == 1 {
                continue;
            }
            perm.push(to);
            let done = (1u32 << (k + 1)) - 1;
            let fine = lines.iter().all(|&line| {
                // Lines through slot k: the image of their slots mapped so far lies in a line,
                // and is a line once all are mapped.
                if line >> k & 1 == 0 {
                    return true;
                }
                let mapped = u32::from(line) & done;
                let image = board::bits(u64::from(mapped)).fold(0u16, |m, s| m | 1 << perm[s]);
                if mapped == u32::from(line) {
                    lines.contains(&image)
                } else {
                    lines.iter().any(|&l| image & !l == 0)
                }
            });
            if fine {
                extend(n, lines, perm, used | 1 << to, out);
            }
            perm.pop();
        }
    }
    let mut out = Vec::new();
    extend(n, lines, &mut Vec::with_capacity(n), 0, &mut out);
    out
}

/// The symmetries of pieces of `a` attribute bits: a permutation of the bits after a flip of some
/// of them (003 3.7.2), as permutations of the `1 << a` pieces, the identity first.
pub fn piece_symmetries(a: u32) -> Vec<Vec<u8>> {
    let mut bit_perms: Vec<Vec<u32>> = vec![vec![]];
    for _ in 0..a {
        let mut longer = Vec::new();
        for p in &bit_perms {
            for b in (0..a).filter(|b| !p.contains(b)) {
                let mut q = p.clone();
                q.push(b);
                longer.push(q);
            }
        }
        bit_perms = longer;
    }
    let mut out = Vec::new();
    for perm in &bit_perms {
        for flip in 0..1u32 << a {
            out.push(
                (0..1u32 << a)
                    .map(|u| {
                        let v = u ^ flip;
                        (0..a).fold(0u8, |m, b| m | ((v >> b & 1) as u8) << perm[b as usize])
                    })
                    .collect(),
            );
        }
    }
    out
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! {
    ENTRY = Quarto::from_variant, "quarto.rs", "quarto", "Quarto";
    default "regular"; syntax "regular (searched live) | 3x3 (8 pieces of three attributes)";
    listed &["regular", "3x3"]; also &[]
}

impl Game for Quarto {
    crate::declared!(ENTRY);
    fn variant(&self) -> String {
        self.variant.into()
    }
    fn variant_description(&self) -> String {
        match self.variant {
            "3x3" => {
                "The 3x3 board and 8 pieces of three attributes; three in a line sharing one wins"
            }
            _ => "The 4x4 board and 16 pieces of four attributes; four in a line sharing one wins",
        }
        .into()
    }
    fn size_class(&self) -> SizeClass {
        SizeClass::small_if(self.variant == "3x3")
    }
    fn start(&self) -> Position {
        self.code(&State { occupied: 0, board: 0, give: None })
    }
    fn to_move(&self, p: Position) -> Player {
        let s = self.state(p);
        if s.occupied == 0 && s.give.is_none() || s.level() % 2 == 1 {
            Player::First
        } else {
            Player::Second
        }
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        let s = self.state(p);
        if s.give.is_some() || s.occupied == 0 {
            return None;
        }
        Some(if self.win_lines(&s) != 0 { Value::Lose } else { Value::Tie })
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let s = self.state(p);
        let n = self.pieces();
        let placed = u32::from(s.placed());
        let Some(u) = s.give else {
            if s.occupied == 0 {
                out.extend((0..n).map(|u| Self::encode_move(NO_SLOT, u)));
            }
            return;
        };
        let empty = !u32::from(s.occupied) & ((1 << self.slots()) - 1);
        for slot in board::bits(u64::from(empty)) {
            if self.ends(&s, slot, u) {
                out.push(Self::encode_move(slot as u32, NO_PIECE));
                continue;
            }
            let left = !(placed | 1 << u) & ((1 << n) - 1);
            out.extend(
                board::bits(u64::from(left)).map(|q| Self::encode_move(slot as u32, q as u32)),
            );
        }
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        let mut s = self.state(p);
        let (slot, piece) = Self::decode_move(mv);
        if slot != NO_SLOT {
            let u = s.give.unwrap_or(0);
            s.occupied |= 1 << slot;
            s.board |= u64::from(u) << (4 * slot);
        }
        s.give = (piece != NO_PIECE).then_some(piece as u8);
        self.code(&s)
    }
    /// 003 3.2's string: a character per slot in reading order, a hex digit for the piece on it
    /// or `-`, then the piece to place or `-`.
    fn position_to_string(&self, p: Position) -> String {
        let s = self.state(p);
        let mut out: String = (0..self.slots())
            .map(|i| if s.occupied >> i & 1 == 1 { Self::piece_char(s.piece(i)) } else { '-' })
            .collect();
        out.push(s.give.map_or('-', Self::piece_char));
        out
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let n = self.slots();
        let last = char::from_digit(self.pieces() - 1, 16).unwrap_or('F').to_ascii_uppercase();
        let expected = format!(
            "{} characters: one per slot in reading order from the top left, a piece 0-{last} or - \
             (empty), then the piece to place or - (e.g. the start: {})",
            n + 1,
            "-".repeat(n + 1)
        );
        let chars: Vec<char> = text.trim().chars().collect();
        if chars.len() != n + 1 {
            return Err(board::malformed(text, &expected));
        }
        let piece = |c: char| -> Result<Option<u8>, ParseError> {
            if c == '-' {
                return Ok(None);
            }
            match c.to_digit(16) {
                Some(d) if d < self.pieces() => Ok(Some(d as u8)),
                _ => Err(board::malformed(text, &expected)),
            }
        };
        let mut s = State { occupied: 0, board: 0, give: piece(chars[n])? };
        for (i, &c) in chars[..n].iter().enumerate() {
            if let Some(u) = piece(c)? {
                s.occupied |= 1 << i;
                s.board |= u64::from(u) << (4 * i);
            }
        }
        if let Some(reason) = self.illegal(&s) {
            return Err(board::illegal(text, reason));
        }
        Ok(self.code(&s))
    }
    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        let (slot, piece) = Self::decode_move(mv);
        let mut out = String::new();
        if slot != NO_SLOT {
            out.push_str(self.board.name(slot as usize));
        }
        if piece != NO_PIECE {
            out.push(Self::piece_char(piece as u8));
        }
        out
    }
    fn move_syntax(&self) -> String {
        let last = char::from_digit(self.pieces() - 1, 16).unwrap_or('F').to_ascii_uppercase();
        let col = char::from(b'a' + self.side as u8 - 1);
        format!(
            "the slot [a-{col}][1-{}] (column, row; row 1 at the top) where the given piece goes, \
             then the piece [0-{last}] the opponent places (none when the placement ends the game; \
             the first move is a piece alone), e.g. b2{last}",
            self.side
        )
    }
    fn board_text(&self, p: Position) -> String {
        let s = self.state(p);
        let grid = board::grid_text(self.side, self.side, |i| {
            if s.occupied >> i & 1 == 1 {
                Self::piece_char(s.piece(i))
            } else {
                ' '
            }
        });
        match s.give {
            Some(u) => format!("{grid}\nto place: {}", Self::piece_char(u)),
            None => grid,
        }
    }
    perfectplay_core::capabilities!(symmetry, search_kernel, gui);
}

impl Symmetry for Quarto {
    fn symmetry_count(&self) -> usize {
        self.board_group.len() * self.piece_group.len()
    }
    /// The least image: its occupied slots are the least image of the position's (they lead
    /// the code), so only the board symmetries that take them there are tried, each with every
    /// piece symmetry.
    fn canonical(&self, p: Position) -> Position {
        let s = self.state(p);
        let mask =
            |b: &Vec<u8>| board::bits(u64::from(s.occupied)).fold(0u16, |m, slot| m | 1 << b[slot]);
        let least = self.board_group.iter().map(mask).min().unwrap_or(s.occupied);
        let mut best = Position(u64::MAX);
        for (b, perm) in self.board_group.iter().enumerate() {
            if mask(perm) != least {
                continue;
            }
            for g in 0..self.piece_group.len() {
                best = best.min(self.code(&self.image(&s, b, g)));
            }
        }
        best
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        let s = self.state(p);
        for b in 0..self.board_group.len() {
            for g in 0..self.piece_group.len() {
                out.push(self.code(&self.image(&s, b, g)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfectplay_core::GameExt;

    #[test]
    fn the_board_groups_are_003s() {
        let game = Quarto::from_variant("regular").unwrap();
        assert_eq!(game.board_group().len(), 32);
        assert_eq!(game.piece_group().len(), 384);
        // 003 3.7.1's generators, each a line automorphism found by the search.
        let cycles = |cs: &[&[u8]]| {
            let mut p: Vec<u8> = (0..16).collect();
            for c in cs {
                for (i, &a) in c.iter().enumerate() {
                    p[usize::from(a)] = c[(i + 1) % c.len()];
                }
            }
            p
        };
        let generators = [
            cycles(&[&[0, 3, 15, 12], &[1, 7, 14, 8], &[2, 11, 13, 4], &[5, 6, 10, 9]]),
            cycles(&[&[1, 4], &[2, 8], &[3, 12], &[6, 9], &[7, 13], &[11, 14]]),
            cycles(&[&[1, 2], &[4, 8], &[5, 10], &[6, 9], &[7, 11], &[13, 14]]),
            cycles(&[&[0, 5], &[1, 4], &[2, 7], &[3, 6], &[8, 13], &[9, 12], &[10, 15], &[11, 14]]),
        ];
        for g in &generators {
            assert!(game.board_group().contains(g), "{g:?}");
        }
        // And they generate all 32.
        let mut group = vec![(0..16).collect::<Vec<u8>>()];
        let mut i = 0;
        while i < group.len() {
            for g in &generators {
                let next: Vec<u8> = group[i].iter().map(|&s| g[usize::from(s)]).collect();
                if !group.contains(&next) {
                    group.push(next);
                }
            }
            i += 1;
        }
        assert_eq!(group.len(), 32);
        assert_eq!(Quarto::from_variant("3x3").unwrap().board_group().len(), 8);
    }

    #[test]
    fn codes_round_trip_and_text_reads_back() {
        let game = Quarto::from_variant("regular").unwrap();
        for text in
            ["-----------------", "-B--0D56-8-7-F---", "CFE092B468137D5A-", "----0-----------1"]
        {
            let p = game.parse_position(text).unwrap();
            assert_eq!(game.position_to_string(p), text);
            assert_eq!(game.code(&game.state(p)), p);
        }
        // 003 Figure 3.4: a primitive lose and a primitive tie.
        let lose = game.parse_position("-B--0D56-8-7-F---").unwrap();
        assert_eq!(game.primitive(lose), Some(Value::Lose));
        let tie = game.parse_position("CFE092B468137D5A-").unwrap();
        assert_eq!(game.primitive(tie), Some(Value::Tie));
        // 62 bits: the largest mixed-radix number has 15 pieces and one to place.
        let most: u64 = (2..=16u64).product::<u64>() * 2;
        assert!(most << 16 <= 1 << 62);
        let fifteen = game.parse_position("CFE092B468137D5-A").unwrap();
        assert!(fifteen.0 < 1 << 62);
        assert_eq!(game.position_to_string(fifteen), "CFE092B468137D5-A");
    }

    #[test]
    fn bad_boards_are_refused() {
        let game = Quarto::from_variant("regular").unwrap();
        let bad = [
            "",
            "----------------",
            "0---------------0",
            "00--------------1",
            "0123------------",
            "0123------------4",
            "-B--0D56-8-7-F--1",
            "0123456789AB----C",
            "01--------------G",
        ];
        crate::assert_refused(&game, &bad);
        // Two rows of win quartets cannot be made by one placement.
        assert!(game.parse_position("01234567--------8").is_err());
        assert!(game.parse_position("02468ACE---------").is_err());
    }

    #[test]
    fn moves_place_then_choose() {
        let game = Quarto::from_variant("regular").unwrap();
        let play = |p: Position, text: &str| game.do_move(p, game.parse_move(p, text).unwrap());
        let start = game.start();
        let mut moves = Vec::new();
        game.moves(start, &mut moves);
        assert_eq!(moves.len(), 16);
        let p = play(start, "5");
        assert_eq!(game.position_to_string(p), "----------------5");
        assert_eq!(game.to_move(p), Player::Second);
        moves.clear();
        game.moves(p, &mut moves);
        assert_eq!(moves.len(), 16 * 15);
        let q = play(p, "a1F");
        assert_eq!(game.position_to_string(q), "5---------------F");
        // A placement that completes a quartet chooses no piece and ends the game.
        let r = game.parse_position("135-------------7").unwrap();
        let win = play(r, "d1");
        assert_eq!(game.primitive(win), Some(Value::Lose));
    }

    #[test]
    fn canonical_tiers_are_003s_table_3_2() {
        let game = Quarto::from_variant("regular").unwrap();
        let table = reference("quarto-canonical-tiers.tsv");
        let mut tiers = 0;
        for row in &table {
            let count = game.tier_count(row[0] as u32);
            assert_eq!(
                [count.pieces_placed, count.occupied_slots, count.tiers, count.positions_per_tier],
                [row[1], row[2], row[3], row[4]],
                "level {}",
                row[0]
            );
            assert_eq!(count.tiers * count.positions_per_tier, row[5]);
            tiers += count.tiers;
        }
        assert_eq!(table.len(), 17);
        assert_eq!(tiers, 649_026);
    }

    #[test]
    fn reachable_positions_per_level_are_003s_table_b1_to_level_6() {
        let game = Quarto::from_variant("regular").unwrap();
        let table = reference("quarto-levels.tsv");
        for row in table.iter().take(7) {
            assert_eq!(game.level_positions(row[0] as u32), row[1], "level {}", row[0]);
        }
    }

    /// Level 7 (754,236,000 arrangements in 149,650 canonical tiers; a minute or so): with
    /// `--ignored`, recorded in BENCHMARKS.md.
    #[test]
    #[ignore = "a minute of counting"]
    fn reachable_positions_at_level_7_are_003s_table_b1() {
        let game = Quarto::from_variant("regular").unwrap();
        let table = reference("quarto-levels.tsv");
        let t = std::time::Instant::now();
        assert_eq!(game.level_positions(7), table[7][1]);
        println!("level 7: {} in {:.1} s", table[7][1], t.elapsed().as_secs_f64());
    }

    /// The rows of a reference table of numbers (`#` lines left out).
    fn reference(name: &str) -> Vec<Vec<u64>> {
        let path = format!("{}/../../reference/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("level"))
            .map(|l| l.split('\t').map(|f| f.parse().unwrap()).collect())
            .collect()
    }
}

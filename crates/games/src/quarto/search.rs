//! Quarto's live search kernel: positions as sliced search nodes, the pieces that would complete
//! a line, and the keys of the search's table (003 3.7.3-3.7.4).

use perfectplay_core::{
    Node, Position, Remoteness, SearchKernel, Value, ValueProver, ValueRemoteness,
};

use super::{Quarto, State};
use crate::board;

/// The tables that choose a search key's symmetry (003 3.7.4's symmetry tables) and apply it.
#[derive(Debug)]
pub(super) struct KeyTables {
    /// Per set of slots, the first board symmetry taking it to its least image.
    slots: Vec<u8>,
    /// Per set of pieces, the first bit permutation (of those that keep piece 0) doing so.
    pieces: Vec<u8>,
    /// Per board symmetry, the images of a slot set's low byte (`0..256`) and high byte
    /// (`256..512`).
    images: Vec<Vec<u16>>,
    /// Per bit permutation, where each attribute bit goes.
    bits: Vec<[u8; 4]>,
}

impl KeyTables {
    /// The image of a set of slots under board symmetry `b`.
    #[inline]
    fn image(&self, b: usize, m: u16) -> u16 {
        let t = &self.images[b];
        t[usize::from(m & 255)] | t[256 + usize::from(m >> 8)]
    }
}

impl Quarto {
    pub(super) fn key_tables(&self) -> &KeyTables {
        self.keys.get_or_init(|| {
            let image =
                |perm: &[u8], m: u32| board::bits(u64::from(m)).fold(0u32, |i, x| i | 1 << perm[x]);
            let first_least = |group: &[&Vec<u8>], m: u32| {
                let least = group.iter().map(|p| image(p, m)).min().unwrap_or(m);
                group.iter().position(|p| image(p, m) == least).unwrap_or(0) as u8
            };
            let boards: Vec<&Vec<u8>> = self.board_group.iter().collect();
            let flips = 1usize << self.attributes;
            let perms: Vec<&Vec<u8>> = self.piece_group.iter().step_by(flips).collect();
            let n = self.slots();
            let images = boards
                .iter()
                .map(|p| {
                    let on_board = |m: u32| if m >> n == 0 { image(p, m) as u16 } else { 0 };
                    let low = (0..256u32).map(on_board);
                    low.chain((0..256u32).map(|m| on_board(m << 8))).collect()
                })
                .collect();
            let bits = perms
                .iter()
                .map(|p| {
                    let mut to = [0u8; 4];
                    for (a, t) in to.iter_mut().enumerate().take(self.attributes as usize) {
                        *t = p[1 << a].trailing_zeros() as u8;
                    }
                    to
                })
                .collect();
            KeyTables {
                slots: (0..1u32 << self.slots()).map(|m| first_least(&boards, m)).collect(),
                pieces: (0..1u32 << self.pieces()).map(|m| first_least(&perms, m)).collect(),
                images,
                bits,
            }
        })
    }
}

/// A search node's bits: 16 per attribute bit `a` (bits `16a..16a + 16`), the slots whose pieces
/// have it set; 64-79 the occupied slots; 80-95 the pieces placed; 96-100 the piece to place (16
/// for none). With the attributes sliced so, a symmetry of the pieces is an exchange of slices
/// and a flip of some (an exclusive or with the occupied slots).
#[derive(Clone, Copy, Debug)]
pub(super) struct Sliced {
    pub(super) with: [u16; 4],
    pub(super) occupied: u16,
    pub(super) placed: u16,
    pub(super) give: u8,
}

impl Sliced {
    fn pack(&self) -> Node {
        let w = &self.with;
        let slices = u64::from(w[0]) | u64::from(w[1]) << 16 | u64::from(w[2]) << 32;
        Node::from(slices | u64::from(w[3]) << 48)
            | Node::from(self.occupied) << 64
            | Node::from(self.placed) << 80
            | Node::from(self.give) << 96
    }

    fn unpack(n: Node) -> Sliced {
        Sliced {
            with: [n as u16, (n >> 16) as u16, (n >> 32) as u16, (n >> 48) as u16],
            occupied: (n >> 64) as u16,
            placed: (n >> 80) as u16,
            give: (n >> 96) as u8 & 31,
        }
    }

    fn of(s: &State) -> Sliced {
        let mut out = Sliced {
            with: [0; 4],
            occupied: s.occupied,
            placed: s.placed(),
            give: s.give.unwrap_or(16),
        };
        for slot in board::bits(u64::from(s.occupied)) {
            out.place(slot, s.piece(slot));
        }
        out
    }

    fn state(&self) -> State {
        let mut board = 0u64;
        for slot in board::bits(u64::from(self.occupied)) {
            let u = (0..4).fold(0u64, |u, a| u | u64::from(self.with[a] >> slot & 1) << a);
            board |= u << (4 * slot);
        }
        State { occupied: self.occupied, board, give: (self.give < 16).then_some(self.give) }
    }

    /// Puts piece `u` on the empty `slot` (the pieces placed are left as they are).
    #[inline]
    fn place(&mut self, slot: usize, u: u8) {
        self.occupied |= 1 << slot;
        for (a, w) in self.with.iter_mut().enumerate() {
            *w |= u16::from(u >> a & 1) << slot;
        }
    }

    /// Whether the pieces on the full `line` share one of the first `attributes` attributes.
    #[inline]
    fn shares(&self, line: u16, attributes: u32) -> bool {
        let slices = self.with.iter().take(attributes as usize);
        slices.into_iter().any(|&w| w & line == line || w & line == 0)
    }
}

/// The set of pieces `{u ^ g : u in m}`, for sets of 16 pieces.
#[inline]
fn xor_set(mut m: u16, g: u8) -> u16 {
    if g & 1 != 0 {
        m = (m & 0x5555) << 1 | (m >> 1) & 0x5555;
    }
    if g & 2 != 0 {
        m = (m & 0x3333) << 2 | (m >> 2) & 0x3333;
    }
    if g & 4 != 0 {
        m = (m & 0x0f0f) << 4 | (m >> 4) & 0x0f0f;
    }
    if g & 8 != 0 {
        m = m.rotate_left(8);
    }
    m
}

impl Quarto {
    /// A node's image under a symmetry chosen from its tier alone (see
    /// [`SearchKernel::search_key`]), with the piece to place made 0; `s` has a piece to place.
    #[inline]
    pub(super) fn key_of(&self, s: &Sliced) -> Sliced {
        let t = self.key_tables();
        let b = usize::from(t.slots[usize::from(s.occupied)]);
        let bits = &t.bits[usize::from(t.pieces[usize::from(xor_set(s.placed, s.give))])];
        let mut out = Sliced { with: [0; 4], occupied: t.image(b, s.occupied), placed: 0, give: 0 };
        for (a, (&with, &to)) in s.with.iter().zip(bits).take(self.attributes as usize).enumerate()
        {
            let flipped = if s.give >> a & 1 == 1 { with ^ s.occupied } else { with };
            out.with[usize::from(to)] = t.image(b, flipped);
        }
        out
    }

    /// The pieces that would complete a win quartet if placed on the board now: per line with
    /// one empty slot, those sharing a set bit with all the pieces in it or a clear one.
    pub fn deadly(&self, s: &State) -> u16 {
        self.deadly_sliced(&Sliced::of(s))
    }

    #[inline]
    fn deadly_sliced(&self, s: &Sliced) -> u16 {
        let mut out = 0u16;
        for &line in &self.lines {
            if (s.occupied & line).count_ones() + 1 == line.count_ones() {
                out |= self.matching[usize::from(self.shared_sliced(s, line))];
            }
        }
        out
    }

    /// The value of `s` with piece `q` to place, when `q` completes no line and `rest` are the
    /// pieces left after it, searched through without a table (the last few pieces).
    fn endgame(&self, s: &Sliced, q: u8, rest: u16) -> ValueRemoteness {
        match self.endgame_score(s, q, rest) {
            0 => ValueRemoteness::new(Value::Tie, Remoteness(1 + rest.count_ones() as u16)),
            x if x > 0 => ValueRemoteness::new(Value::Win, Remoteness((ENDGAME_BASE - x) as u16)),
            x => ValueRemoteness::new(Value::Lose, Remoteness((ENDGAME_BASE + x) as u16)),
        }
    }

    /// [`Quarto::endgame`] as a score: a win in `r` is `BASE - r`, a loss `r - BASE`, a tie 0
    /// (every tie below comes when the pieces run out, so its remoteness is known).
    fn endgame_score(&self, s: &Sliced, q: u8, rest: u16) -> i32 {
        if rest == 0 {
            return 0;
        }
        let empty = !s.occupied & ((1u32 << self.slots()) - 1) as u16;
        // The best a piece that completes no line can do: the opponent loses in 2, or with one
        // piece after it (which the opponent places last), a tie.
        let top = if rest.count_ones() == 1 { 0 } else { ENDGAME_BASE - 3 };
        let mut best = 2 - ENDGAME_BASE;
        for f in board::bits(u64::from(empty)) {
            let mut after = *s;
            after.place(f, q);
            let open = empty & !(1 << f);
            for r in board::bits(u64::from(rest)) {
                if self.completes_on(&after, open, r as u8) {
                    continue;
                }
                let child = self.endgame_score(&after, r as u8, rest & !(1 << r));
                let worth = -child + child.signum();
                if worth > best {
                    best = worth;
                    if best == top {
                        return best;
                    }
                }
            }
        }
        best
    }

    /// Whether piece `u` placed on one of the empty slots `open` of `s` completes a quartet.
    #[inline]
    fn completes_on(&self, s: &Sliced, open: u16, u: u8) -> bool {
        // Per attribute, the occupied slots whose pieces agree with `u` on it.
        let mut agree = [0u16; 4];
        for (a, (g, &w)) in agree.iter_mut().zip(&s.with).enumerate() {
            *g = if (a as u32) < self.attributes {
                if u >> a & 1 == 1 {
                    w
                } else {
                    s.occupied & !w
                }
            } else {
                0
            };
        }
        board::bits(u64::from(open)).any(|slot| {
            self.through[slot].iter().take_while(|&&l| l != 0).any(|&line| {
                let others = line & !(1 << slot);
                s.occupied & others == others && agree.iter().any(|&g| g & others == others)
            })
        })
    }

    /// The attributes the pieces on `line` share: bits 0-3 set in all, bits 4-7 clear in all.
    #[inline]
    fn shared_sliced(&self, s: &Sliced, line: u16) -> u8 {
        let filled = s.occupied & line;
        let mut out = 0u8;
        for (a, &w) in s.with.iter().enumerate().take(self.attributes as usize) {
            out |= u8::from(w & line == filled) << a | u8::from(w & line == 0) << (a + 4);
        }
        out
    }
}

impl SearchKernel for Quarto {
    /// A piece to give, then a placement per slot or piece, whichever runs out first.
    fn longest_game(&self) -> u16 {
        1 + self.slots().min(self.pieces() as usize) as u16
    }

    fn prover(&self, table_bits: u32) -> Option<Box<dyn ValueProver + '_>> {
        Some(Box::new(super::proof::Prover::new(self, table_bits)))
    }

    /// Ties come when the pieces run out (or, on the 4x4 board, the slots with them): a piece
    /// placed a move, and at the start one move more to give the first.
    fn tie_remoteness(&self, node: Node) -> Option<u16> {
        let s = Sliced::unpack(node);
        let last = self.slots().min(self.pieces() as usize) as u16;
        Some(last - s.occupied.count_ones() as u16 + u16::from(s.give >= 16))
    }

    fn search_node(&self, p: Position) -> Node {
        Sliced::of(&self.state(p)).pack()
    }

    fn search_position(&self, node: Node) -> Position {
        self.code(&Sliced::unpack(node).state())
    }

    /// The node's image under a symmetry chosen from its tier alone (003 3.7.3: the board
    /// symmetry that least the occupied slots, the flip that makes the piece to place 0, the bit
    /// permutation that least the pieces placed), so positions whose tiers are images of one
    /// another mostly share a key. Cheaper than [`Symmetry::canonical`], which also orders the
    /// positions within a tier.
    ///
    /// [`Symmetry::canonical`]: perfectplay_core::Symmetry::canonical
    fn search_key(&self, node: Node) -> Node {
        let s = Sliced::unpack(node);
        if s.give >= 16 {
            return node;
        }
        self.key_of(&s).pack()
    }

    /// A placement's children are computed from the board after it: pieces that would complete
    /// a quartet there are wins in 1 for the opponent who is given one.
    fn search_children(&self, node: Node, out: &mut Vec<(Node, Option<ValueRemoteness>)>) {
        let s = Sliced::unpack(node);
        let known = |v: Value, r: u16| Some(ValueRemoteness::new(v, Remoteness(r)));
        let n = self.pieces();
        if s.give >= 16 {
            // The start: a piece to give.
            for u in 0..n as u8 {
                out.push((Sliced { give: u, ..s }.pack(), None));
            }
            return;
        }
        let give = s.give;
        let empty = !s.occupied & ((1u32 << self.slots()) - 1) as u16;
        let placed = s.placed | 1 << give;
        if self.deadly_sliced(&s) >> give & 1 == 1 {
            for e in board::bits(u64::from(empty)) {
                let mut after = Sliced { placed, give: 16, ..s };
                after.place(e, give);
                let through = self.through[e].iter().take_while(|&&l| l != 0);
                if through
                    .filter(|&&l| after.occupied & l == l)
                    .any(|&l| after.shares(l, self.attributes))
                {
                    out.push((after.pack(), known(Value::Lose, 0)));
                    return;
                }
            }
        }
        let left = !placed & ((1u32 << n) - 1) as u16;
        let full = placed.count_ones() as usize == self.slots() || placed.count_ones() == n;
        // Per line, the pieces that complete it while it has one empty slot, and what its
        // pieces share while it has two (with the given piece, what they will share).
        let (mut completing, mut shared) = ([0u16; 16], [0u8; 16]);
        for (k, &line) in self.lines.iter().enumerate() {
            let empty_in = line.count_ones() - (s.occupied & line).count_ones();
            if empty_in == 1 {
                completing[k] = self.matching[usize::from(self.shared_sliced(&s, line))];
            } else if empty_in == 2 {
                shared[k] = self.shared_sliced(&s, line) & (give | !give << 4);
            }
        }
        if full {
            for e in board::bits(u64::from(empty)) {
                let mut after = Sliced { placed, give: 16, ..s };
                after.place(e, give);
                out.push((after.pack(), known(Value::Tie, 0)));
            }
            return;
        }
        // Per slot, the pieces that would complete a line after the placement there: lines
        // through the slot complete with what their pieces share now, the others as they did.
        let mut placements = [(0usize, 0u16); 16];
        let mut count = 0;
        for (slot, e) in placements.iter_mut().zip(board::bits(u64::from(empty)).map(|e| {
            let mut deadly = 0u16;
            for (k, &line) in self.lines.iter().enumerate() {
                deadly |= if line >> e & 1 == 1 {
                    if shared[k] != 0 {
                        self.matching[usize::from(shared[k])]
                    } else {
                        0
                    }
                } else {
                    completing[k]
                };
            }
            (e, deadly)
        })) {
            *slot = e;
            count += 1;
        }
        let placements = &mut placements[..count];
        // The placements that leave the most pieces deadly first: the fewer pieces are safe to
        // give, the sooner a player runs out of them.
        placements.sort_by_key(|&(_, deadly)| std::cmp::Reverse((deadly & left).count_ones()));
        // With few pieces left, each child's value is searched through here, without a table.
        let endgame = left.count_ones() <= ENDGAME_PIECES;
        let start = out.len();
        let quick_win = ValueRemoteness::new(Value::Lose, Remoteness(2));
        for &mut (e, deadly) in placements {
            let mut after = Sliced { placed, give: 16, ..s };
            after.place(e, give);
            for q in board::bits(u64::from(left)) {
                let value = if deadly >> q & 1 == 1 {
                    known(Value::Win, 1)
                } else if endgame {
                    let value = self.endgame(&after, q as u8, left & !(1 << q));
                    if value == quick_win {
                        // No placement wins at once, so a win in 3 is the best there is.
                        out.truncate(start);
                        out.push((Sliced { give: q as u8, ..after }.pack(), Some(value)));
                        return;
                    }
                    Some(value)
                } else {
                    None
                };
                out.push((Sliced { give: q as u8, ..after }.pack(), value));
            }
        }
    }
}

/// The pieces left to place at most, after the mover's placement, for which the kernel searches
/// its children's values itself (fewer nodes, in a table that then holds the larger searches).
const ENDGAME_PIECES: u32 = 3;

/// The endgame search's score of a win in 0.
const ENDGAME_BASE: i32 = 100;

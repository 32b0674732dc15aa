//! Quarto's prover: a position's value alone (win, tie or lose for the player to move), by
//! alpha-beta on those three scores over a node made for it. A node is the board's attribute
//! planes (for the table's keys), per line the attributes its pieces share, and the lines with one
//! empty slot, updated on a placement for the two or three lines through the slot only; the pieces
//! that would complete a line are then the union of those lines'. A placement that
//! leaves no piece safe to give is a loss and never searched; a piece to give that completes a
//! line is never given. Positions with few pieces left are searched through without the table,
//! and without computing a symmetry key.

use perfectplay_core::{Bound, Position, ValueProver};

use super::search::Sliced;
use super::Quarto;
use crate::board;

/// Lines of the 4x4 board (rows, columns, two diagonals), the most there are.
const LINES: usize = 10;

/// A position for the prover, without the piece to place.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Attribute planes, occupied slots and pieces placed.
    planes: Sliced,
    /// Per line, the attributes of all its pieces: bits 0-3 set in each, 4-7 clear in each.
    shared: [u8; LINES],
    /// The lines with one empty slot.
    almost: u16,
}

/// How an entry's score bounds the true score ([`Bound`]; 0: an empty slot).
const EXACT: u64 = Bound::Exact as u64;
const LOWER: u64 = Bound::Lower as u64;

/// The table holds positions with at least this many pieces left besides the one to place:
/// below, the search goes on without it (a key costs more than the few nodes it would spare).
const TABLE_FROM: u32 = 6;

/// The table's first size: 2^12 entries (64 KiB).
const FIRST_BITS: u32 = 12;

/// Quarto's prover, with its table of positions proven (16 bytes an entry, two to a bucket,
/// the entry whose proof took less work replaced first).
#[derive(Debug)]
pub struct Prover<'q> {
    game: &'q Quarto,
    /// Per slot, the numbers of the lines through it, and how many there are.
    through: [[u8; 4]; 16],
    through_count: [u8; 16],
    /// Per piece, its attributes as a line's `shared` byte would hold them alone.
    code: [u8; 16],
    /// The slots of the board and the pieces of the game, as masks.
    slots: u16,
    pieces: u16,
    /// Pieces on a line with one empty slot.
    almost: u32,
    table: Vec<[u64; 2]>,
    /// The most entries the table grows to.
    most: usize,
    nodes: u64,
    /// Told to give up: the search unwinds, storing nothing more.
    stopped: bool,
    /// Per number of pieces on the board, the boards after a node's placements (reused).
    buffers: Vec<Vec<Node>>,
}

impl<'q> Prover<'q> {
    /// A prover with an empty table that grows to 2^`bits` entries (from 2^12, four times
    /// larger each time a proof has expanded four times its entries: a short proof touches
    /// few pages).
    pub fn new(game: &'q Quarto, bits: u32) -> Prover<'q> {
        let (mut through, mut through_count) = ([[0u8; 4]; 16], [0u8; 16]);
        for (k, &line) in game.lines.iter().enumerate() {
            for slot in board::bits(u64::from(line)) {
                through[slot][usize::from(through_count[slot])] = k as u8;
                through_count[slot] += 1;
            }
        }
        let attributes = (1u8 << game.attributes) - 1;
        let mut code = [0u8; 16];
        for (u, c) in code.iter_mut().enumerate().take(game.pieces() as usize) {
            *c = u as u8 | (!(u as u8) & attributes) << 4;
        }
        Prover {
            game,
            through,
            through_count,
            code,
            slots: ((1u32 << game.slots()) - 1) as u16,
            pieces: ((1u32 << game.pieces()) - 1) as u16,
            almost: game.side as u32 - 1,
            table: vec![[0; 2]; 1usize << bits.clamp(1, FIRST_BITS)],
            most: 1usize << bits.clamp(1, 36),
            nodes: 0,
            stopped: false,
            buffers: (0..17).map(|_| Vec::with_capacity(16)).collect(),
        }
    }

    /// The board of a state, with no piece to place.
    fn node(&self, occupied: u16, piece: impl Fn(usize) -> u8) -> Node {
        let attributes = self.code[0] >> 4;
        let mut node = Node {
            planes: Sliced { with: [0; 4], occupied: 0, placed: 0, give: 16 },
            shared: [attributes | attributes << 4; LINES],
            almost: 0,
        };
        for slot in board::bits(u64::from(occupied)) {
            node = self.place(&node, slot, piece(slot));
        }
        node
    }

    /// `node` with piece `u` placed on the empty `slot`.
    #[inline(always)]
    fn place(&self, node: &Node, slot: usize, u: u8) -> Node {
        let mut out = *node;
        out.planes.occupied |= 1 << slot;
        out.planes.placed |= 1 << u;
        for (a, w) in out.planes.with.iter_mut().enumerate() {
            *w |= u16::from(u >> a & 1) << slot;
        }
        let code = self.code[usize::from(u)];
        for &k in &self.through[slot][..usize::from(self.through_count[slot])] {
            let k = usize::from(k);
            out.shared[k] &= code;
            let filled = (out.planes.occupied & self.game.lines[k]).count_ones();
            out.almost = out.almost & !(1 << k) | u16::from(filled == self.almost) << k;
        }
        out
    }

    /// The pieces that would complete a win quartet on `node`'s board.
    #[inline(always)]
    fn deadly(&self, node: &Node) -> u16 {
        let lines = board::bits(u64::from(node.almost));
        lines.fold(0, |m, k| m | self.game.matching[usize::from(node.shared[k])])
    }

    /// The score of `node` with piece `q` to place, which completes no line, and `left` the
    /// pieces not placed besides it; exact strictly inside `(alpha, beta)`, else a bound on the
    /// side it falls.
    fn search(&mut self, at: At<'_>, q: u8, left: u16, mut alpha: i8, mut beta: i8) -> i8 {
        let (node, stop) = at;
        if left == 0 {
            // The last piece: placed anywhere it ends the game, completing nothing.
            return 0;
        }
        let key = (left.count_ones() >= TABLE_FROM).then(|| {
            let k = self.game.key_of(&Sliced { give: q, ..node.planes });
            let w = &k.with;
            let planes = u64::from(w[0])
                | u64::from(w[1]) << 16
                | u64::from(w[2]) << 32
                | u64::from(w[3]) << 48;
            [planes, u64::from(k.occupied)]
        });
        if let Some(key) = key {
            if let Some((bound, score)) = self.probe(key) {
                match bound {
                    EXACT => return score,
                    LOWER => alpha = alpha.max(score),
                    _ => beta = beta.min(score),
                }
                if alpha >= beta {
                    return score;
                }
            }
        }
        self.nodes += 1;
        if self.nodes & 0xfff == 0 {
            self.stopped |= stop();
            if self.nodes >= 4 * self.table.len() as u64 && self.table.len() < self.most {
                self.grow();
            }
        }
        if self.stopped {
            return 0;
        }
        let nodes_before = self.nodes;
        let alpha0 = alpha;
        // The placements that leave a piece safe to give, those leaving the fewest first (by
        // an insertion into a list kept in order: sixteen at most).
        let depth = node.planes.occupied.count_ones() as usize;
        let mut after = std::mem::take(&mut self.buffers[depth]);
        after.clear();
        let mut order = [(0u8, 0u16); 16];
        let empty = !node.planes.occupied & self.slots;
        for e in board::bits(u64::from(empty)) {
            let placed = self.place(node, e, q);
            let safe = left & !self.deadly(&placed);
            if safe != 0 {
                let mut i = after.len();
                while i > 0 && order[i - 1].1.count_ones() > safe.count_ones() {
                    order[i] = order[i - 1];
                    i -= 1;
                }
                order[i] = (after.len() as u8, safe);
                after.push(placed);
            }
        }
        let mut best = -1;
        'placements: for &(i, safe) in &order[..after.len()] {
            let after = &after[usize::from(i)];
            for r in board::bits(u64::from(safe)) {
                let rest = left & !(1 << r);
                // With no piece after it, the piece given is placed last, completing nothing.
                let v = if rest == 0 {
                    0
                } else {
                    -self.search((after, stop), r as u8, rest, -beta, -alpha)
                };
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            break 'placements;
                        }
                    }
                }
            }
        }
        self.buffers[depth] = after;
        if self.stopped {
            return 0;
        }
        if let Some(key) = key {
            let bound = Bound::of(best, alpha0, beta) as u64;
            let work = u64::from(64 - (self.nodes - nodes_before + 1).leading_zeros());
            self.store(key, bound, best, work);
        }
        best
    }

    /// The table four times larger (at most [`Prover::most`]), its entries kept.
    #[cold]
    fn grow(&mut self) {
        let larger = vec![[0; 2]; (self.table.len() * 4).min(self.most)];
        let old = std::mem::replace(&mut self.table, larger);
        for e in old.into_iter().filter(|e| e[1] >> 16 & 3 != 0) {
            let b = self.bucket([e[0], e[1] & 0xffff]);
            let slot = if self.table[b][1] >> 16 & 3 == 0 { b } else { b + 1 };
            self.table[slot] = e;
        }
    }

    /// The bucket of a key: two entries side by side.
    #[inline]
    fn bucket(&self, key: [u64; 2]) -> usize {
        let h = (key[0] ^ key[1].wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .wrapping_mul(0xff51_afd7_ed55_8ccd);
        let h = h ^ h >> 29;
        (h as usize) & (self.table.len() - 1) & !1
    }

    #[inline]
    fn probe(&self, key: [u64; 2]) -> Option<(u64, i8)> {
        let b = self.bucket(key);
        self.table[b..b + 2]
            .iter()
            .find(|e| e[0] == key[0] && e[1] & 0xffff == key[1] && e[1] >> 16 & 3 != 0)
            .map(|e| (e[1] >> 16 & 3, (e[1] >> 18 & 3) as i8 - 1))
    }

    /// Stores a result: over the same key, else over the empty entry or the one of less work.
    #[inline]
    fn store(&mut self, key: [u64; 2], bound: u64, score: i8, work: u64) {
        let b = self.bucket(key);
        let entry = [key[0], key[1] | bound << 16 | ((score + 1) as u64) << 18 | work << 20];
        let same = |e: &[u64; 2]| e[0] == key[0] && e[1] & 0xffff == key[1];
        let work_of = |e: &[u64; 2]| if e[1] >> 16 & 3 == 0 { 0 } else { 1 + (e[1] >> 20 & 63) };
        let slot = if same(&self.table[b]) {
            b
        } else if same(&self.table[b + 1]) {
            b + 1
        } else if work_of(&self.table[b]) <= work_of(&self.table[b + 1]) {
            b
        } else {
            b + 1
        };
        self.table[slot] = entry;
    }
}

impl ValueProver for Prover<'_> {
    fn bound(
        &mut self,
        p: Position,
        mut alpha: i8,
        beta: i8,
        stop: &dyn Fn() -> bool,
    ) -> Option<i8> {
        use perfectplay_core::Game;
        if let Some(v) = self.game.primitive(p) {
            return Some(v.score());
        }
        self.stopped = false;
        let s = self.game.state(p);
        let node = self.node(s.occupied, |slot| s.piece(slot));
        let placed = node.planes.placed;
        let score = match s.give {
            Some(q) if self.deadly(&node) >> q & 1 == 1 => 1,
            Some(q) => {
                let left = self.pieces & !placed & !(1 << q);
                self.search((&node, stop), q, left, alpha, beta)
            }
            None => {
                // The start: the mover gives a piece.
                let mut best = -1;
                for r in board::bits(u64::from(self.pieces & !placed)) {
                    let left = self.pieces & !placed & !(1 << r);
                    best = best.max(-self.search((&node, stop), r as u8, left, -beta, -alpha));
                    alpha = alpha.max(best);
                    if alpha >= beta {
                        break;
                    }
                }
                best
            }
        };
        (!self.stopped).then_some(score)
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// Where a search is: its node, and what it asks now and then whether to give up.
type At<'a> = (&'a Node, &'a dyn Fn() -> bool);

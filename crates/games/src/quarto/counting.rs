//! Counting Quarto through its canonical tiers: 003 Table 3.2 (canonical tiers per level) and
//! Table B.1's reachable positions per level, from the symmetry groups.

use super::{Quarto, State};
use crate::board;

/// 003 Table 3.2 for one level: the canonical sets of pieces placed (with piece 0 to place, up to
/// the attribute-bit permutations, which keep piece 0), the canonical sets of occupied slots (up
/// to the board's symmetries), and the canonical tiers (every pair of the two: the group is their
/// product). Level 16 (the full board, nothing to place) is one tier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TierCount {
    /// Pieces on the board.
    pub level: u32,
    /// Canonical sets of pieces placed.
    pub pieces_placed: u64,
    /// Canonical sets of occupied slots.
    pub occupied_slots: u64,
    /// Canonical tiers.
    pub tiers: u64,
    /// Positions per tier (`level!`).
    pub positions_per_tier: u64,
}

impl Quarto {
    /// The sets of `k` occupied slots that are least among their images under the board's
    /// symmetries.
    pub fn canonical_slot_sets(&self, k: u32) -> Vec<u16> {
        let n = self.slots();
        (0..1u32 << n)
            .filter(|m| m.count_ones() == k)
            .map(|m| m as u16)
            .filter(|&m| {
                self.board_group
                    .iter()
                    .all(|p| board::bits(u64::from(m)).fold(0u16, |i, s| i | 1 << p[s]) >= m)
            })
            .collect()
    }

    /// The sets of `k` pieces placed, with piece 0 to place (so 0 is not among them, but for the
    /// full board), that are least among their images under the permutations of attribute bits.
    pub fn canonical_piece_sets(&self, k: u32) -> Vec<u16> {
        let n = self.pieces();
        // The piece symmetries that keep piece 0: the bit permutations (no flip).
        let keep: Vec<&Vec<u8>> = self.piece_group.iter().filter(|p| p[0] == 0).collect();
        let zero_allowed = k == n;
        (0..1u32 << n)
            .filter(|m| m.count_ones() == k && (zero_allowed || m & 1 == 0))
            .map(|m| m as u16)
            .filter(|&m| {
                keep.iter().all(|p| board::bits(u64::from(m)).fold(0u16, |i, u| i | 1 << p[u]) >= m)
            })
            .collect()
    }

    /// 003 Table 3.2's row for a level.
    pub fn tier_count(&self, level: u32) -> TierCount {
        let slots = self.canonical_slot_sets(level).len() as u64;
        let pieces = self.canonical_piece_sets(level).len() as u64;
        TierCount {
            level,
            pieces_placed: pieces,
            occupied_slots: slots,
            tiers: slots * pieces,
            positions_per_tier: (1..=u64::from(level)).product(),
        }
    }
}

/// What one tier's arrangements hold: positions with no win quartet, and boards whose quartets
/// one placement made (primitive).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Arrangements {
    open: u64,
    primitive: u64,
}

impl Quarto {
    /// The size of a set's orbit under a group of permutations (its images, counted once).
    fn orbit_size(group: &[Vec<u8>], set: u16) -> u64 {
        let mut images: Vec<u16> = group
            .iter()
            .map(|p| board::bits(u64::from(set)).fold(0u16, |i, s| i | 1 << p[s]))
            .collect();
        images.sort_unstable();
        images.dedup();
        images.len() as u64
    }

    /// Every arrangement of the pieces of `pieces` on the slots of `slots` (as many of each), by
    /// what it holds; unreachable boards are left out.
    fn arrangements(&self, slots: u16, pieces: u16) -> Arrangements {
        let order: Vec<usize> = board::bits(u64::from(slots)).collect();
        // Per slot of `order`, the lines inside `slots` that it completes (its last slot).
        let completes: Vec<Vec<u16>> = order
            .iter()
            .map(|&s| {
                self.lines
                    .iter()
                    .copied()
                    .filter(|&l| l & !slots == 0 && 15 - l.leading_zeros() as usize == s)
                    .collect()
            })
            .collect();
        let mut out = Arrangements::default();
        let mut state = State { occupied: slots, board: 0, give: None };
        self.arrange(&order, &completes, 0, pieces, 0, &mut state, &mut out);
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn arrange(
        &self,
        order: &[usize],
        completes: &[Vec<u16>],
        i: usize,
        left: u16,
        wins: u16,
        state: &mut State,
        out: &mut Arrangements,
    ) {
        if i == order.len() {
            if wins == 0 {
                out.open += 1;
            } else if wins != u16::MAX {
                out.primitive += 1;
            }
            return;
        }
        let slot = order[i];
        for u in board::bits(u64::from(left)) {
            state.board = state.board & !(15 << (4 * slot)) | (u as u64) << (4 * slot);
            // `wins` is the slots every win quartet so far shares (MAX: none can be made by one
            // placement; 0: no quartet yet).
            let mut common = wins;
            for &line in &completes[i] {
                if self.shares(state.board, line) {
                    common = match common {
                        u16::MAX => u16::MAX,
                        0 => line,
                        c if c & line != 0 => c & line,
                        _ => u16::MAX,
                    };
                }
            }
            self.arrange(order, completes, i + 1, left & !(1 << u), common, state, out);
        }
    }

    /// The reachable positions with `level` pieces on the board (003 Table B.1's level totals;
    /// the start is not counted in level 0), counted through the canonical tiers: each tier's
    /// arrangements once, times the size of its orbit under the symmetries (the board's orbit of
    /// its occupied slots, times the pieces' orbit of its pieces placed and piece to place). A
    /// board that ends the game is one position, though every piece not on it could be the
    /// tier's piece to place (003 3.11.2).
    pub fn level_positions(&self, level: u32) -> u64 {
        let (n, pieces) = (self.slots() as u32, self.pieces());
        let ends = level == n || level == pieces;
        let slot_sets = self.canonical_slot_sets(level);
        let piece_sets: Vec<(u16, u64)> = if ends {
            // Nothing to place: the pieces placed are all but n - level of them, up to the
            // whole piece group.
            let mut sets: Vec<u16> =
                (0..1u32 << pieces).filter(|m| m.count_ones() == level).map(|m| m as u16).collect();
            sets.retain(|&m| {
                self.piece_group
                    .iter()
                    .all(|p| board::bits(u64::from(m)).fold(0u16, |i, u| i | 1 << p[u]) >= m)
            });
            sets.into_iter().map(|m| (m, Self::orbit_size(&self.piece_group, m))).collect()
        } else {
            // With piece 0 to place: the orbit of (pieces placed, piece to place) is 2^a times
            // the bit permutations' orbit of the set.
            let keep: Vec<Vec<u8>> =
                self.piece_group.iter().filter(|p| p[0] == 0).cloned().collect();
            self.canonical_piece_sets(level)
                .into_iter()
                .map(|m| (m, u64::from(pieces) * Self::orbit_size(&keep, m)))
                .collect()
        };
        let (mut open, mut primitive) = (0u64, 0u64);
        for &slots in &slot_sets {
            let slot_orbit = Self::orbit_size(&self.board_group, slots);
            for &(set, piece_orbit) in &piece_sets {
                let a = self.arrangements(slots, set);
                open += slot_orbit * piece_orbit * a.open;
                primitive += slot_orbit * piece_orbit * a.primitive;
            }
        }
        if ends {
            open + primitive
        } else {
            open + primitive / u64::from(pieces - level)
        }
    }
}

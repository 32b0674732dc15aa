//! A run of moving positions' children taken move by move ([`TierKernel::run_children_sided`]).
//! Where white moves and keeps more pieces than black, a child's canonical form leads with
//! white's moved set and keeps its colours: each white move's result is ranked once for all the
//! run's positions that share white's set, and each position's black set is ranked beside it
//! through one packing ([`SetClasses::lead`]). White's non-mill moves of tier (0,6,5), by
//! position: about 47 ns a child; by move: about 17 ns (BENCHMARKS.md). Where black moves beside
//! more white pieces, white's set is kept: a position's black set is ranked beside it once, a
//! black move's result by two points toggled in it.

use super::kernel::points;
use super::*;
use perfectplay_core::RunLocations;

/// Positions sharing white's set fewer than this rank each move's children without a packing
/// (which costs some 1,100 steps, about as much as ranking 40 children without one).
const PACK_FROM: usize = 32;

impl Morris {
    /// [`TierKernel::run_children_sided`] of moving positions (outside Three Men's Morris): those
    /// that share white's set, white to move with more pieces than black, taken move by move;
    /// the others position by position ([`Morris::moving_children`]).
    pub(super) fn children_by_move(
        &self,
        positions: &[Position],
        out: &mut RunLocations,
        cache: &mut KernelCache,
    ) {
        out.clear();
        debug_assert!(!self.mill_wins());
        let mut k = 0;
        let mut blacks = Vec::new();
        while k < positions.len() {
            let q = Parts::of(positions[k]);
            debug_assert_eq!(q.in_hand(), 0, "a placement taken as a move");
            let shares = |&p: &Position| {
                let r = Parts::of(p);
                r.black_to_move == q.black_to_move && r.white == q.white
            };
            // Only where white has more pieces does a child's canonical form lead with white's
            // set, whoever moves.
            let grouped = q.white.count_ones() > q.black.count_ones();
            let end = if grouped {
                k + positions[k..].iter().take_while(|p| shares(p)).count()
            } else {
                k + 1
            };
            blacks.clear();
            blacks.extend(positions[k..end].iter().map(|&p| Parts::of(p).black));
            let by_run = grouped
                && if q.black_to_move {
                    self.black_moves_by_run(q.white, &blacks, k as u32, out, cache)
                } else {
                    self.white_moves_by_move(q.white, &blacks, k as u32, out, cache);
                    true
                };
            if !by_run {
                for (j, &black) in blacks.iter().enumerate() {
                    let slot = (k + j) as u32;
                    let q = Parts { black, ..q };
                    self.moving_children(q, cache, None, |t, i, x| out.push((slot, t, i, x)));
                }
            }
            k = end;
        }
    }

    /// The children of black's moves beside `white` (more pieces than black) from each of
    /// `blacks`, the `j`-th position's at place `first + j`; `false` (nothing written) unless
    /// white's set is kept by the identity alone. White's set is kept where no mill forms: a
    /// position's black set is ranked beside it once, each such move's result by two points
    /// toggled ([`SetClasses::beside`]). A mill's removals go as by position.
    fn black_moves_by_run(
        &self,
        white: u32,
        blacks: &[u32],
        first: u32,
        out: &mut RunLocations,
        cache: &mut KernelCache,
    ) -> bool {
        let classes = &self.layout.classes;
        let KernelCache { least, near, .. } = cache;
        let lead = classes.least_ranked_cached(white, least);
        let Some(seat) = classes.beside(lead, blacks[0]) else { return false };
        let (w, b) = (white.count_ones(), blacks[0].count_ones());
        // White to move in every child, colors kept (white still has at least as many): the
        // first half of the child tier.
        let plain = Self::tier_of(0, w, b, false);
        let removed = Self::tier_of(0, w - 1, b, false);
        let removable = self.removable(white);
        if removable != 0 {
            classes.neighbours(white, near);
        }
        for (j, &black) in blacks.iter().enumerate() {
            let slot = first + j as u32;
            let beside = classes.beside_reseated(&seat, black);
            let empty = self.all() & !(white | black);
            for from in points(black) {
                for to in points(self.targets(from as usize, b, empty)) {
                    let moved = black ^ (1 << from | 1 << to);
                    if removable == 0 || !self.forms_mill(moved, to as usize) {
                        out.push((slot, plain, classes.beside_moved(&beside, from, to), false));
                        continue;
                    }
                    for x in points(removable) {
                        let i = classes.neighbour_pair_index(near, Some(x), moved);
                        out.push((slot, removed, i.unwrap_or(u64::MAX), false));
                    }
                }
            }
        }
        true
    }

    /// The children of white's moves from `white` beside each of `blacks` (as many pieces each,
    /// fewer than white's), the `j`-th position's at place `first + j`: a move's result is led
    /// with once for them all ([`SetClasses::lead`]).
    fn white_moves_by_move(
        &self,
        white: u32,
        blacks: &[u32],
        first: u32,
        out: &mut RunLocations,
        cache: &mut KernelCache,
    ) {
        let classes = &self.layout.classes;
        let (w, b) = (white.count_ones(), blacks[0].count_ones());
        // Every child keeps its colours (white still has more), black to move: its index is
        // past its tier's white turns.
        let plain = (Self::tier_of(0, w, b, false), self.pair_size(w, b));
        let removed = (
            Self::tier_of(0, w, b.saturating_sub(1), false),
            self.pair_size(w, b.saturating_sub(1)),
        );
        let pack = blacks.len() >= PACK_FROM;
        // The pieces a mill may remove beside each black set, found at the first mill.
        let mut removable: Vec<u32> = Vec::new();
        let lead = &mut cache.lead;
        let flying = self.flying && w == 3;
        for from in points(white) {
            let reach = if flying { self.all() } else { self.layout.adjacent[from as usize] };
            for to in points(reach & !white) {
                let moved = white ^ (1 << from | 1 << to);
                classes.lead(moved, pack, lead);
                let located = |black: u32, (tier, offset): (Tier, u64)| {
                    let i = classes.lead_pair_index(lead, black);
                    (tier, i.map_or(u64::MAX, |i| offset + i))
                };
                let mill = self.forms_mill(moved, to as usize);
                if mill && removable.is_empty() {
                    removable.extend(blacks.iter().map(|&black| self.removable(black)));
                }
                for (j, &black) in blacks.iter().enumerate() {
                    if black >> to & 1 == 1 {
                        continue;
                    }
                    let slot = first + j as u32;
                    let gone = if mill { removable[j] } else { 0 };
                    if gone == 0 {
                        let (t, i) = located(black, plain);
                        out.push((slot, t, i, false));
                        continue;
                    }
                    for x in points(gone) {
                        let (t, i) = located(black & !(1 << x), removed);
                        out.push((slot, t, i, false));
                    }
                }
            }
        }
    }
}

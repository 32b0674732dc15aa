//! A run of positions' children taken move by move ([`TierKernel::run_children_sided`]): a
//! tiger's move gives a child led by the tigers' moved set, so each tiger move's result is ranked
//! once for all the run's positions that share the tigers' set, and each position's goats are
//! ranked beside it through one packing ([`SetClasses::lead`]). The tigers' steps of tier
//! (4,2,tigers), by position: about 47 ns a child; by move: about 18 ns (BENCHMARKS.md).

use super::*;
use perfectplay_core::RunLocations;

/// Positions sharing the tigers' set fewer than this rank each move's children without a packing
/// (which costs some 1,100 steps, about as much as ranking 40 children without one).
const PACK_FROM: usize = 32;

impl BaghChal {
    /// [`TierKernel::run_children_sided`]: the tigers' moves of positions that share the tigers'
    /// set, taken move by move; the goats' moves position by position
    /// ([`BaghChal::run_children`]).
    pub(super) fn children_by_move(
        &self,
        positions: &[Position],
        out: &mut RunLocations,
        cache: &mut KernelCache,
    ) {
        out.clear();
        let mut k = 0;
        let mut goats = Vec::new();
        while k < positions.len() {
            let q = Parts::of(positions[k]);
            if !q.tigers_to_move {
                let slot = k as u32;
                self.run_children(q, cache, |t, i| out.push((slot, t, i, false)));
                k += 1;
                continue;
            }
            let shares = |&p: &Position| {
                let r = Parts::of(p);
                r.tigers_to_move && r.tigers == q.tigers && r.hand == q.hand
            };
            let end = k + positions[k..].iter().take_while(|p| shares(p)).count();
            goats.clear();
            goats.extend(positions[k..end].iter().map(|&p| Parts::of(p).goats));
            self.tiger_moves_by_move(q, &goats, k as u32, out, cache);
            k = end;
        }
    }

    /// The children of the tigers' moves in `q` (tigers to move) beside each of `goats` (as many
    /// each), the `j`-th position's at place `first + j`: a move's result is led with once for
    /// them all ([`SetClasses::lead`]).
    fn tiger_moves_by_move(
        &self,
        q: Parts,
        goats: &[u32],
        first: u32,
        out: &mut RunLocations,
        cache: &mut KernelCache,
    ) {
        let l = &self.layout;
        let classes = &l.classes;
        // A child has the goats to move, its index its pair's; its tier is one per count of goats.
        let tier = |goats: u32| self.located(Parts { goats, tigers_to_move: false, ..q }, None).0;
        let step = tier(goats[0]);
        let jump = tier(goats[0] & goats[0].wrapping_sub(1));
        let pack = goats.len() >= PACK_FROM;
        let lead = &mut cache.lead;
        for from in board::bits(u64::from(q.tigers)) {
            let steps = l.adjacent[from] & !q.tigers;
            for to in board::bits(u64::from(steps)) {
                classes.lead(q.tigers ^ (1 << from | 1 << to), pack, lead);
                for (j, &g) in goats.iter().enumerate() {
                    if g >> to & 1 == 0 {
                        let i = classes.lead_pair_index(lead, g).unwrap_or(u64::MAX);
                        out.push((first + j as u32, step, i, false));
                    }
                }
            }
            for &(over, to) in &l.jumps[from] {
                if q.tigers >> to & 1 == 1 {
                    continue;
                }
                classes.lead(q.tigers ^ (1 << from | 1 << to), pack, lead);
                for (j, &g) in goats.iter().enumerate() {
                    if g >> over & 1 == 1 && g >> to & 1 == 0 {
                        let i = classes.lead_pair_index(lead, g & !(1 << over));
                        out.push((first + j as u32, jump, i.unwrap_or(u64::MAX), false));
                    }
                }
            }
        }
    }
}

//! Bagh-Chal's hot paths for the tier engine: children and parents located in one step each.

use super::*;
use perfectplay_core::{
    children_located, indices_in_tier, Locations, RunLocations, SidedLocations,
};

impl BaghChal {
    /// Calls `f` with each position that has a move to `p` (primitive ones included; the caller
    /// filters); with `same_tier`, only those in `p`'s tier.
    pub(super) fn each_parent(&self, p: Position, same_tier: bool, mut f: impl FnMut(Parts)) {
        self.parent_until(Parts::of(p), same_tier, |r| {
            f(r);
            false
        });
    }

    /// [`BaghChal::each_parent`] until `f` returns `true`; whether it did.
    fn parent_until(&self, q: Parts, same_tier: bool, mut f: impl FnMut(Parts) -> bool) -> bool {
        let l = &self.layout;
        let empty = l.all() & !q.goats & !q.tigers;
        let mut parent = q;
        parent.tigers_to_move = !q.tigers_to_move;
        if q.tigers_to_move {
            // The goats moved: a placement (from another tier), or a slide once all are placed.
            if !same_tier && q.hand < self.goats {
                for at in board::bits(u64::from(q.goats)) {
                    if f(Parts { goats: q.goats & !(1 << at), hand: q.hand + 1, ..parent }) {
                        return true;
                    }
                }
            }
            if q.hand == 0 {
                for to in board::bits(u64::from(q.goats)) {
                    for from in board::bits(u64::from(l.adjacent[to] & empty)) {
                        if f(Parts { goats: q.goats & !(1 << to) | 1 << from, ..parent }) {
                            return true;
                        }
                    }
                }
            }
        } else {
            // The tigers moved: a slide, or a jump over a goat that was captured (another tier).
            if q.hand == self.goats {
                return false;
            }
            for to in board::bits(u64::from(q.tigers)) {
                let tigers = q.tigers & !(1 << to);
                for from in board::bits(u64::from(l.adjacent[to] & empty)) {
                    if f(Parts { tigers: tigers | 1 << from, ..parent }) {
                        return true;
                    }
                }
                if same_tier {
                    continue;
                }
                for &(over, from) in &l.jumps[to] {
                    if empty >> over & 1 == 1 && empty >> from & 1 == 1 {
                        let goats = q.goats | 1 << over;
                        if f(Parts { tigers: tigers | 1 << from, goats, ..parent }) {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }
}

impl BaghChal {
    /// The tier and index of a position's canonical form, in one step.
    #[inline]
    pub(super) fn locate_parts(&self, q: Parts, cache: &mut LeastCache) -> (Tier, u64) {
        let classes = &self.layout.classes;
        let index = classes.canonical_pair_index_cached(q.tigers, q.goats, cache);
        self.located(q, index)
    }

    /// A position's tier, and its index from the index of its canonical pair.
    #[inline]
    pub(super) fn located(&self, q: Parts, pair: Option<u64>) -> (Tier, u64) {
        let captured = self.captured(q);
        let index = pair.unwrap_or(u64::MAX);
        if q.hand == 0 {
            let index =
                if q.tigers_to_move { self.pair_size(q.goats.count_ones()) + index } else { index };
            (Self::tier_of(0, captured, None), index)
        } else {
            (Self::tier_of(q.hand, captured, Some(q.tigers_to_move)), index)
        }
    }
    /// Calls `emit` with the tier and index of each move's child (repeats allowed), located
    /// from the tigers' set shared by a run of the index ([`SetClasses::neighbours`]).
    #[inline]
    pub(super) fn run_children(
        &self,
        q: Parts,
        cache: &mut KernelCache,
        mut emit: impl FnMut(Tier, u64),
    ) {
        let classes = &self.layout.classes;
        classes.neighbours(q.tigers, &mut cache.near);
        let near = &mut cache.near;
        if !q.tigers_to_move && q.hand > 0 {
            // A goat placed: every child in one tier, its pair the goats' set with a point added.
            let empty = self.layout.all() & !q.goats & !q.tigers;
            if empty == 0 {
                return;
            }
            let (t, offset) = self.located(self.apply(q, PLACE, empty.trailing_zeros()), Some(0));
            classes.added_pair_indices(near, q.goats, |_, pair| {
                emit(t, pair.map_or(u64::MAX, |i| offset + i))
            });
            return;
        }
        self.each_move(q, |from, to| {
            let child = self.apply(q, from, to);
            let pair = if q.tigers_to_move {
                classes.moved_pair_index(near, from, to, child.goats)
            } else {
                classes.neighbour_pair_index(near, None, child.goats)
            };
            let (t, i) = self.located(child, pair);
            emit(t, i);
        });
    }
}

impl TierKernel for BaghChal {
    /// Walks the index in order: the next pair of sets from the last, unranked only where a run
    /// starts (or the player to move changes in a moving-phase tier).
    fn tier_positions(&self, t: Tier, first: u64, out: &mut [Option<Position>]) {
        let (hand, captured, turn) = Self::tier_parts(t);
        let goats = self.goats - hand - captured;
        let classes = &self.layout.classes;
        let pairs = self.pair_size(goats).max(1);
        let mut previous: Option<(u32, u32)> = None;
        for (k, slot) in out.iter_mut().enumerate() {
            let index = first + k as u64;
            let (local, tigers_to_move) = match turn {
                None => (index % pairs, index >= pairs),
                Some(tigers) => (index, tigers),
            };
            let pair = match previous {
                Some((a, b)) if local != 0 => classes.next_pair(a, b),
                _ => classes.pair_at(TIGERS as usize, goats as usize, local),
            };
            previous = pair;
            *slot = pair.and_then(|(tigers, goats)| {
                let q = Parts { goats, tigers, hand, tigers_to_move };
                self.illegal(q).is_none().then(|| q.code())
            });
        }
    }

    fn locate(&self, p: Position, cache: &mut KernelCache) -> (Tier, u64) {
        self.locate_parts(Parts::of(p), &mut cache.least)
    }

    /// From the tigers' set shared by a run of the index: canonical where that set is least and
    /// the goats least under the symmetries keeping it.
    fn is_canonical_at(&self, _: Tier, _: u64, p: Position, cache: &mut KernelCache) -> bool {
        let q = Parts::of(p);
        let classes = &self.layout.classes;
        classes.neighbours(q.tigers, &mut cache.near);
        classes.is_canonical_pair(&cache.near, q.goats)
    }

    /// Parents located from the tigers' set shared by a run of the index, as children are: a
    /// goat's placement or move undone keeps it, a tiger's moves one point of it.
    fn parent_reached(
        &self,
        p: Position,
        cache: &mut KernelCache,
        reached: &mut dyn FnMut(Tier, u64) -> bool,
    ) -> Option<bool> {
        let q = Parts::of(p);
        let classes = &self.layout.classes;
        classes.neighbours(q.tigers, &mut cache.near);
        let near = &mut cache.near;
        Some(self.parent_until(q, false, |r| {
            if self.illegal(r).is_some() || self.captured(r) >= self.captures {
                return false;
            }
            let pair = match r.tigers ^ q.tigers {
                0 => classes.neighbour_pair_index(near, None, r.goats),
                _ => {
                    let (now, was) = (q.tigers & !r.tigers, r.tigers & !q.tigers);
                    classes.moved_pair_index(
                        near,
                        now.trailing_zeros(),
                        was.trailing_zeros(),
                        r.goats,
                    )
                }
            };
            let (t, i) = self.located(r, pair);
            reached(t, i)
        }))
    }

    /// Children located from the tigers' set shared by a run of the index ([`SetClasses::
    /// neighbours`]): a goat's move keeps it, a tiger's moves one point of it. Only the
    /// moving phase's children can lie in the position's own tier; those are made distinct.
    fn child_locations_unsorted(&self, p: Position, out: &mut Locations, cache: &mut KernelCache) {
        let q = Parts::of(p);
        children_located(out, q.hand == 0, |out| {
            self.run_children(q, cache, |t, i| out.push((t, i)))
        });
    }

    /// In the moving phase a goat's move keeps the tigers' set, and a tiger's step keeps the
    /// goats': two such moves' children are images of each other only under a symmetry that
    /// keeps that set (and, for the tigers, takes their set to one of its images at most four
    /// points from it). Where there is none, each such move is counted, and only the jumps'
    /// children, outside the tier (a goat captured), located.
    fn children_outside(
        &self,
        p: Position,
        out: &mut Locations,
        cache: &mut KernelCache,
    ) -> Option<u32> {
        let q = Parts::of(p);
        if q.hand != 0 {
            return None;
        }
        let classes = &self.layout.classes;
        classes.neighbours(q.tigers, &mut cache.near);
        if !classes.one_piece_moves_distinct(&cache.near, q.goats, q.tigers_to_move) {
            return None;
        }
        out.clear();
        let (mut inside, goats) = (0, q.goats.count_ones());
        let near = &mut cache.near;
        self.each_move(q, |from, to| {
            let child = self.apply(q, from, to);
            if child.goats.count_ones() == goats {
                inside += 1;
            } else {
                let pair = classes.moved_pair_index(near, from, to, child.goats);
                out.push(self.located(child, pair));
            }
        });
        Some(inside)
    }

    /// The children as [`TierKernel::child_locations_unsorted`] finds them, none exchanged
    /// (Bagh-Chal has no exchange): the analysis's search for reachable positions walks these
    /// instead of canonicalizing every child.
    fn child_locations_sided(
        &self,
        p: Position,
        out: &mut SidedLocations,
        cache: &mut KernelCache,
    ) -> bool {
        out.clear();
        self.run_children(Parts::of(p), cache, |t, i| out.push((t, i, false)));
        true
    }

    /// Every tier where the tigers move: their moves are taken move by move over the positions
    /// that share their set (see `BaghChal::children_by_move`).
    fn runs_children(&self, tier: Tier) -> bool {
        Self::tier_parts(tier).2 != Some(false)
    }

    fn run_children_sided(
        &self,
        positions: &[Position],
        out: &mut RunLocations,
        cache: &mut KernelCache,
    ) {
        self.children_by_move(positions, out, cache)
    }

    /// The symmetries' images of a canonical position: as many as the symmetries less those that
    /// keep both sets.
    fn side_class_size(&self, p: Position) -> Option<u64> {
        let q = Parts::of(p);
        Some(self.layout.classes.pair_orbit_size(q.tigers, q.goats))
    }

    /// The moving phase's tier holds the pairs twice: the goats to move, then the tigers.
    fn side_class_sizes(&self, tier: Tier, first: u64, out: &mut [u32]) -> bool {
        let (hand, captured, turn) = Self::tier_parts(tier);
        let goats = (self.goats - hand - captured) as usize;
        let copies = if turn.is_none() { 2 } else { 1 };
        self.layout.classes.pair_orbit_sizes((TIGERS as usize, goats), copies, first, out);
        true
    }

    fn parent_indices(&self, tier: Tier, p: Position, out: &mut Vec<u64>, cache: &mut KernelCache) {
        indices_in_tier(tier, out, |found| {
            self.each_parent(p, true, |parent| {
                if self.illegal(parent).is_none() {
                    found.push(self.locate_parts(parent, &mut cache.least));
                }
            });
        });
    }
}

impl UndoMoves for BaghChal {
    fn undo_moves(&self, p: Position, out: &mut Vec<Position>) {
        self.each_parent(p, false, |r| {
            if self.illegal(r).is_none() && self.captured(r) < self.captures {
                out.push(r.code());
            }
        });
    }
    fn undo_moves_in_tier(&self, p: Position, out: &mut Vec<Position>) {
        self.each_parent(p, true, |r| {
            if self.illegal(r).is_none() {
                out.push(r.code());
            }
        });
    }
}

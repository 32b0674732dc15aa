//! Fox and Geese's hot paths for the tier engine: children and parents located in one step each,
//! the geese's steps ranked from the position's own terms.

use perfectplay_core::{
    indices_in_tier, KernelCache, Locations, Position, SidedLocations, Tier, TierIndex, TierKernel,
    UndoMoves,
};

use super::index::FOX_CLASSES;
use super::{FoxAndGeese, Parts, MIN_GEESE};
use crate::board;
use crate::cross::jumps::Seen;
use crate::cross::sets::SUMS;
use crate::cross::tiers::{tier_of, tier_parts};
use crate::cross::StepRanks;

/// The longest chains of captures whose parents a tier of `geese` geese initialised from its
/// decided children finds by undoing them ([`TierKernel::parents_in`]); the foxes with longer
/// ones read their captures forward, each located and looked up. Undone, chains branch at every
/// jump, from every decided child: from the 3-geese positions they took 39% of an 8-geese solve,
/// and 9 geese took 83 s with three or four undone, 95 s with five. Read forward, a fox among
/// many geese has many, and a child with many geese is seldom decided: tier (15,44) has
/// 347,152,957 foxes that can capture twice (0.14% of them with a decided capture). Solved alone
/// with up to four, six, eight or nine captures undone: (15,44) 146.0, 125.8, 118.5 and 119.7 s;
/// (14,42) 90.9 s with four, 73.1 s with seven, 67.7 s with eight; (13,38) 54.2, 45.5 and 44.3 s
/// with four, six and eight; (12,37) 35.3, 30.3 and 28.9 s with four, five and six; (11,33)
/// 19.4 and 19.1 s with four and five. So chains are undone while they leave at least six
/// geese, and up to four in any case.
fn chains_undone(geese: u32) -> u32 {
    geese.saturating_sub(6).max(4)
}

impl FoxAndGeese {
    /// Each child's location ([`FoxAndGeese::locate_parts`]) with `flag` of the child.
    fn located_children(
        &self,
        p: Position,
        out: &mut SidedLocations,
        flag: impl Fn(Parts) -> bool,
    ) {
        out.clear();
        self.each_child(Parts::of(p), |child| {
            let (t, i) = self.locate_parts(child);
            out.push((t, i, flag(child)));
        });
    }

    /// The locations of a position's children ([`FoxAndGeese::locate_parts`] of each, repeats
    /// kept): those of the geese's steps by [`StepRanks`] where the fox stands on its class's
    /// point, as in every position a tier's index gives.
    pub(super) fn push_child_locations(&self, q: Parts, out: &mut Locations) {
        let (l, r) = (self.layout, self.layout.ranks);
        let fox = q.fox as usize;
        let Some(class) = r.class(q.foxes()).filter(|_| !q.fox_to_move) else {
            self.each_child(q, |child| out.push(self.locate_parts(child)));
            return;
        };
        let (k, t) = (q.geese.count_ones(), l.cross.row_sum(q.geese));
        let state = k as usize * SUMS + t as usize;
        let term = |p: usize, state: usize| r.term_one(fox, p, state);
        let ranks = StepRanks::new(q.geese, state, term);
        // On the middle column the child's canonical set is the lesser of it and its image.
        let images = (l.mirror[fox] == fox)
            .then(|| StepRanks::new(l.cross.mirror_set(q.geese), state, term));
        let empty = q.empty();
        for from in board::bits(q.geese) {
            for to in board::bits(l.goose_steps[from] & empty) {
                let up = l.row[to] - l.row[from];
                let s = state + up as usize;
                let image = images.as_ref().filter(|m| {
                    m.set() ^ 1 << l.mirror[from] ^ 1 << l.mirror[to]
                        < q.geese ^ 1 << from ^ 1 << to
                });
                let rank = match image {
                    Some(m) => m.rank_after(l.mirror[from], l.mirror[to], term),
                    None => ranks.rank_after(from, to, term),
                };
                let index = r.offset(1, FOX_CLASSES, s) + r.offset(1, class, s);
                out.push((tier_of(k, t + up), index + rank));
            }
        }
    }

    /// Calls `f` with each position that has a move to `q`; with `same_tier`, only the steps
    /// that stay in its tier (a goose's sideways, the fox's).
    pub(super) fn each_parent(&self, q: Parts, same_tier: bool, mut f: impl FnMut(Parts)) {
        let l = self.layout;
        let empty = q.empty();
        let parent = Parts { fox_to_move: !q.fox_to_move, ..q };
        if q.fox_to_move {
            for g in board::bits(q.geese) {
                for from in board::bits(l.adjacent[g] & empty) {
                    let back = l.goose_steps[from] >> g & 1 == 0;
                    if back || (same_tier && l.row[from] != l.row[g]) {
                        continue;
                    }
                    f(Parts { geese: q.geese & !(1 << g) | 1 << from, ..parent });
                }
            }
            return;
        }
        if q.geese.count_ones() >= MIN_GEESE {
            for from in board::bits(l.adjacent[q.fox as usize] & empty) {
                f(Parts { fox: from as u32, ..parent });
            }
        }
        if !same_tier {
            let mut seen = Seen::default();
            self.chase().jump_back(q.geese, q.fox, self.geese, &mut seen, &mut |geese, fox| {
                f(Parts { geese, fox, fox_to_move: true })
            });
        }
    }
}

/// The engine's hot paths in one step each: canonical form, tier and index together.
impl TierKernel for FoxAndGeese {
    /// One unranking, then each next set of geese from the one before
    /// (`crate::cross::sets::SetRanks::next_set_one`) until the fox's class or the side to move
    /// changes.
    fn tier_positions(&self, t: Tier, first: u64, out: &mut [Option<Position>]) {
        let r = self.layout.ranks;
        let (geese, sum) = tier_parts(t);
        let state = geese as usize * SUMS + sum as usize;
        let half = self.half(geese, sum);
        // The last position and the index where its fox's class ends.
        let mut last: Option<(Parts, u64)> = None;
        for (n, slot) in out.iter_mut().enumerate() {
            let index = first + n as u64;
            if let Some((q, end)) = last.filter(|&(_, end)| index < end) {
                if let Some(geese) = r.next_set_one(q.fox as usize, q.geese) {
                    let q = Parts { geese, ..q };
                    *slot = Some(q.code());
                    last = Some((q, end));
                    continue;
                }
            }
            *slot = self.tier_position(t, index);
            last = slot.map(|p| {
                let q = Parts::of(p);
                let side = if q.fox_to_move { half } else { 0 };
                let class = r.class(q.foxes()).expect("an index's fox has a class");
                (q, side + r.offset(1, class + 1, state))
            });
        }
    }
    /// The fox on its class's point (as every index places it) and, on the middle column, the
    /// least of the geese's set and its mirror image.
    fn is_canonical_at(&self, _: Tier, _: u64, p: Position, _cache: &mut KernelCache) -> bool {
        let (q, l) = (Parts::of(p), self.layout);
        let fox = q.fox as usize;
        l.ranks.class(q.foxes()).is_some()
            && (l.mirror[fox] != fox || q.geese <= l.cross.mirror_set(q.geese))
    }
    fn locate(&self, p: Position, _cache: &mut KernelCache) -> (Tier, u64) {
        self.locate_parts(Parts::of(p))
    }
    fn child_locations_sided(
        &self,
        p: Position,
        out: &mut SidedLocations,
        _cache: &mut KernelCache,
    ) -> bool {
        self.located_children(p, out, |_| false);
        true
    }
    fn child_locations_mirrored(
        &self,
        p: Position,
        out: &mut SidedLocations,
        _cache: &mut KernelCache,
    ) -> bool {
        self.located_children(p, out, |child| self.is_mirrored(child));
        true
    }
    /// Children leaving the tier may repeat; those inside it repeat only as mirror images, so
    /// only where the position has some mirror symmetry are they sorted out.
    fn child_locations_unsorted(&self, p: Position, out: &mut Locations, _cache: &mut KernelCache) {
        let (q, l) = (Parts::of(p), self.layout);
        let mirrored = if q.fox_to_move {
            l.cross.mirror_set(q.geese) == q.geese
        } else {
            l.mirror[q.fox as usize] == q.fox as usize
        };
        perfectplay_core::children_located(out, mirrored, |out| self.push_child_locations(q, out));
    }
    /// One image where the mirror keeps the position, else two.
    fn side_class_size(&self, p: Position) -> Option<u64> {
        let q = Parts::of(p);
        Some(if self.mirrored(q) == q { 1 } else { 2 })
    }
    fn parent_indices(&self, tier: Tier, p: Position, out: &mut Vec<u64>, _: &mut KernelCache) {
        indices_in_tier(tier, out, |found| {
            self.each_parent(Parts::of(p), true, |parent| found.push(self.locate_parts(parent)));
        });
    }
    fn seeds_from_children(&self, _tier: Tier) -> bool {
        true
    }
    /// A fox's chains of more than `chains_undone` captures: undone from the positions they
    /// end in, they would take far longer than read forward from the foxes that have them.
    fn unseeded_children(&self, p: Position, out: &mut Locations, _cache: &mut KernelCache) {
        let (q, chase) = (Parts::of(p), self.chase());
        let undone = chains_undone(q.geese.count_ones());
        if !q.fox_to_move || !chase.can_chain(q.geese, q.fox, undone + 1) {
            return;
        }
        chase.captures(q.geese, q.fox, &mut |path, geese| {
            if path.len() > undone as usize {
                let fox = path[path.len() - 1];
                out.push(self.locate_parts(Parts { geese, fox, fox_to_move: false }));
            }
        });
    }
    /// A goose's step forward, or a chain of up to `chains_undone` captures, undone: the
    /// parents of longer chains find their children forward
    /// ([`TierKernel::unseeded_children`]).
    fn parents_in(&self, tier: Tier, p: Position, out: &mut Vec<u64>, _: &mut KernelCache) -> bool {
        let (q, geese) = (Parts::of(p), tier_parts(tier).0);
        let cross = &self.layout.cross;
        // Only parents in the tier are located: its count and row sum tell them first.
        let mut push = |parent: Parts| {
            if tier_of(parent.geese.count_ones(), cross.row_sum(parent.geese)) != tier {
                return;
            }
            let (t, i) = self.locate_parts(parent);
            debug_assert_eq!(t, tier, "a parent's count and row sum give its tier");
            out.push(i);
        };
        let k = q.geese.count_ones();
        if q.fox_to_move && geese == k {
            self.each_parent(q, false, &mut push);
        } else if !q.fox_to_move && geese > k && geese - k <= chains_undone(geese) {
            let mut seen = Seen::default();
            self.chase().jump_back(q.geese, q.fox, geese, &mut seen, &mut |geese, fox| {
                push(Parts { geese, fox, fox_to_move: true });
            });
        }
        true
    }
}

impl UndoMoves for FoxAndGeese {
    fn undo_moves(&self, p: Position, out: &mut Vec<Position>) {
        self.each_parent(Parts::of(p), false, |r| {
            if self.tier_exists(r.geese.count_ones(), self.layout.cross.row_sum(r.geese)) {
                out.push(r.code());
            }
        });
    }
    fn undo_moves_in_tier(&self, p: Position, out: &mut Vec<Position>) {
        self.each_parent(Parts::of(p), true, |r| out.push(r.code()));
    }
}

//! Fox and Geese's tiers and the index inside each: the family's tiers by geese and row sum,
//! and below them the fox's classes up to the mirror with the geese's sets ranked beside it.

use perfectplay_core::{Position, Symmetry, Tier, TierIndex};

use super::{FoxAndGeese, Parts, MAX_GEESE, MIN_GEESE};
use crate::cross::sets::{MAX_SET, SUMS};
use crate::cross::tiers::{tier_of, tier_parts};

/// The fox's points up to the mirror: those left of the middle column or on it, 20 of them.
pub(super) const FOX_CLASSES: usize = 20;

impl FoxAndGeese {
    /// The sets of `geese` geese with row sum `sum` and the fox on one of its points up to the
    /// mirror: the indices of a tier for one side to move.
    pub(super) fn half(&self, geese: u32, sum: u32) -> u64 {
        self.layout.ranks.all_classes(1, geese as usize, sum as usize)
    }

    /// Whether a game reaches the tier: geese from three (the end) to all of them, and while
    /// none is captured, no lower row sum than the start's.
    pub(super) fn tier_exists(&self, geese: u32, sum: u32) -> bool {
        self.counts.reaches(geese, sum) && self.half(geese, sum) > 0
    }

    /// Whether the position is the mirror image of its canonical form (not its own image): the
    /// fox right of the middle, or on it with the geese's image the lesser set.
    pub(super) fn is_mirrored(&self, q: Parts) -> bool {
        let (l, fox) = (self.layout, q.fox as usize);
        l.ranks.class(q.foxes()).is_none()
            || (l.mirror[fox] == fox && l.cross.mirror_set(q.geese) < q.geese)
    }

    /// The tier and index of a position's canonical form, in one step.
    pub(super) fn locate_parts(&self, mut q: Parts) -> (Tier, u64) {
        let (l, r) = (self.layout, self.layout.ranks);
        let fox = q.fox as usize;
        let class = match r.class(q.foxes()) {
            None => {
                q = self.mirrored(q);
                r.class(q.foxes()).expect("the mirror image's fox has a class")
            }
            Some(class) => {
                if l.mirror[fox] == fox {
                    q.geese = q.geese.min(l.cross.mirror_set(q.geese));
                }
                class
            }
        };
        let (k, t) = (q.geese.count_ones(), l.cross.row_sum(q.geese));
        let state = k as usize * SUMS + t as usize;
        let side = if q.fox_to_move { r.offset(1, FOX_CLASSES, state) } else { 0 };
        let index = side + r.offset(1, class, state);
        (tier_of(k, t), index + r.rank_one(q.fox as usize, q.geese, state))
    }
}

crate::cross::tiers::impl_tiers!(FoxAndGeese, geese);

/// A tier's index: the geese to move, then the fox (with three geese left, the geese only);
/// for each, the fox's points up to the mirror in reading order, and for each of them the
/// geese's sets with the tier's row sum ranked beside it (`crate::cross::sets::SetRanks`). A
/// fox in the middle column gives both mirror images of the geese an index; the one that is not
/// canonical is skipped.
impl TierIndex for FoxAndGeese {
    crate::cross::tiers::tiers_by_counts!();
    /// A goose's step forward leaves the fox to move (the second half of the tier with one more
    /// in its row sum), a capture the geese (the first half of a tier with fewer geese).
    fn child_window(&self, t: Tier, child: Tier) -> Option<std::ops::Range<u64>> {
        let (geese, _) = tier_parts(t);
        let (child_geese, child_sum) = tier_parts(child);
        let half = self.half(child_geese, child_sum);
        Some(if child_geese == geese { half..2 * half } else { 0..half })
    }
    /// A tier is the same in every variant that has it: the tiers, their indices and the rules
    /// do not depend on the variant, and no move adds a goose (`crate::cross::tiers`).
    fn variants_sharing(&self, t: Tier) -> Vec<String> {
        self.counts.sharing(t, self.geese, MAX_GEESE, |n| format!("{n}-geese"))
    }
    fn moves_within(&self, t: Tier) -> bool {
        tier_parts(t).0 >= MIN_GEESE
    }
    fn tier_size(&self, t: Tier) -> u64 {
        let (geese, sum) = tier_parts(t);
        let sides = if geese >= MIN_GEESE { 2 } else { 1 };
        sides * self.half(geese, sum)
    }
    fn tier_index(&self, p: Position) -> u64 {
        let mut q = Parts::of(p);
        let r = self.layout.ranks;
        if r.class(q.foxes()).is_none() {
            q = self.mirrored(q);
        }
        let class = r.class(q.foxes()).expect("the fox's point up to the mirror has a class");
        let state = r.state(q.geese);
        let side = if q.fox_to_move { r.offset(1, FOX_CLASSES, state) } else { 0 };
        side + r.offset(1, class, state) + r.rank_one(q.fox as usize, q.geese, state)
    }
    fn tier_position(&self, tier: Tier, index: u64) -> Option<Position> {
        let (geese, sum) = tier_parts(tier);
        let half = self.half(geese, sum);
        let fox_to_move = index >= half;
        if fox_to_move && geese < MIN_GEESE {
            return None;
        }
        let rank = index % half.max(1);
        let (k, t) = (geese as usize, sum as usize);
        if k > MAX_SET || t >= SUMS {
            return None;
        }
        let (r, state) = (self.layout.ranks, k * SUMS + t);
        let j = (1..=FOX_CLASSES).find(|&j| rank < r.offset(1, j, state))? - 1;
        let foxes = r.classes[1][j];
        let geese = r.unrank(foxes, k, t, rank - r.offset(1, j, state))?;
        let q = Parts { geese, fox: u32::from(foxes[0]), fox_to_move };
        self.illegal(q).is_none().then(|| q.code())
    }
}

impl Symmetry for FoxAndGeese {
    fn symmetry_count(&self) -> usize {
        2
    }
    fn canonical(&self, p: Position) -> Position {
        p.min(self.mirrored(Parts::of(p)).code())
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        out.extend([p, self.mirrored(Parts::of(p)).code()]);
    }
}

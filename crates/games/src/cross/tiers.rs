//! The cross-board games' tiers: the number of pieces (geese, hens) and the sum of their rows.
//! A piece's step forward raises the sum by one and a capture lowers the count, so a tier holds
//! only sideways steps and the foxes' steps; nothing adds a piece, so a tier is the same in every
//! variant that has it.

use std::ops::RangeInclusive;

use perfectplay_core::Tier;

use super::sets::SUMS;

/// The pieces of a variant's tiers: from one fewer than `goal` (the capture that leaves fewer
/// than the goal ends the game) to `most`, the start's, whose row sum is `start_sum`. Below,
/// `exists(count, sum)` says whether a game reaches a tier.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Counts {
    pub goal: u32,
    pub most: u32,
    pub start_sum: u32,
}

/// `128 * count + 127 - the sum of their rows`: every move that leaves a tier lowers it.
pub(crate) fn tier_of(count: u32, sum: u32) -> Tier {
    Tier(count * 128 + 127 - sum)
}

/// A tier's count and row sum.
pub(crate) fn tier_parts(t: Tier) -> (u32, u32) {
    (t.0 / 128, 127 - t.0 % 128)
}

/// (pieces, the sum of their rows counted from 0 at the top).
pub(crate) fn tier_name(t: Tier) -> String {
    let (count, sum) = tier_parts(t);
    format!("({count},{sum})")
}

impl Counts {
    /// The counts a game's tiers have.
    pub fn range(&self) -> RangeInclusive<u32> {
        self.goal - 1..=self.most
    }

    /// Whether a game may reach the tier: pieces from one fewer than the goal to all of them,
    /// and while none is captured, no lower row sum than the start's (the game's own count of
    /// the tier's positions says whether it has any).
    pub fn reaches(&self, count: u32, sum: u32) -> bool {
        self.range().contains(&count) && (count < self.most || sum >= self.start_sum)
    }

    /// Every tier, children first: fewer pieces first, then the higher row sums.
    pub fn all(&self, exists: impl Fn(u32, u32) -> bool) -> Vec<Tier> {
        let mut tiers = Vec::new();
        for count in self.range() {
            for sum in (0..SUMS as u32).rev() {
                if exists(count, sum) {
                    tiers.push(tier_of(count, sum));
                }
            }
        }
        tiers
    }

    /// A piece's step forward raises the row sum by one; a chain of `k` captures takes `k`
    /// pieces and up to `6 k` from the sum.
    pub fn children(&self, t: Tier, exists: impl Fn(u32, u32) -> bool) -> Vec<Tier> {
        let (count, sum) = tier_parts(t);
        if count < self.goal {
            return Vec::new();
        }
        let mut out = Vec::new();
        if exists(count, sum + 1) {
            out.push(tier_of(count, sum + 1));
        }
        for k in 1..=count + 1 - self.goal {
            for taken in 0..=(6 * k).min(sum) {
                if exists(count - k, sum - taken) {
                    out.push(tier_of(count - k, sum - taken));
                }
            }
        }
        out
    }

    /// The variants (`name(pieces)`, up to `largest` pieces) that have the tier `t` of the
    /// variant with `own` pieces: those with fewer pieces than `own` have its tiers with at
    /// most their own count (no set of that many has a lower row sum than their start, which
    /// packs the top rows), and those with more have all of them. The largest smaller variant
    /// first, then the larger ones, smallest first.
    pub fn sharing(
        &self,
        t: Tier,
        own: u32,
        largest: u32,
        name: impl Fn(u32) -> String,
    ) -> Vec<String> {
        let (count, _) = tier_parts(t);
        let smaller = (count.max(self.goal)..own).rev();
        smaller.chain(own + 1..=largest).map(name).collect()
    }
}

/// `Tiers` for a game of the family whose `Parts` hold its pieces (geese, hens) in `$pieces`: a
/// position's tier by their count and row sum.
macro_rules! impl_tiers {
    ($game:ty, $pieces:ident) => {
        impl perfectplay_core::Tiers for $game {
            fn tier(&self, p: Position) -> Tier {
                let pieces = Parts::of(p).$pieces;
                $crate::cross::tiers::tier_of(
                    pieces.count_ones(),
                    self.layout.cross.row_sum(pieces),
                )
            }
            /// (pieces, the sum of their rows counted from 0 at the top).
            fn tier_name(&self, t: Tier) -> String {
                $crate::cross::tiers::tier_name(t)
            }
        }
    };
}
pub(crate) use impl_tiers;

/// The first of `TierIndex`'s methods for a game of the family, from its [`Counts`] (`counts`)
/// and its `tier_exists(count, sum)`: its tiers, each its own canonical tier, and their child
/// tiers.
macro_rules! tiers_by_counts {
    () => {
        fn tiers(&self) -> Vec<Tier> {
            self.counts.all(|count, sum| self.tier_exists(count, sum))
        }
        fn canonical_tier(&self, t: Tier) -> Tier {
            t
        }
        fn child_tiers(&self, t: Tier) -> Vec<Tier> {
            self.counts.children(t, |count, sum| self.tier_exists(count, sum))
        }
    };
}
pub(crate) use tiers_by_counts;

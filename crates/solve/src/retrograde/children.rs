//! A tier's child tiers as its parents read them: each child's value turned into what it gives
//! its parent, found by the child tier's number.

use super::*;
use crate::hint::prefetch;

/// A solved child tier as its parents see it: per dictionary code, the value a child of that code
/// gives its parent, with the value's order key (the best child is found by comparing integers).
pub(super) struct ChildTier<'v> {
    pub tier: Tier,
    pub space: &'v TierSpace,
    /// The index of `values`' first.
    pub first: u64,
    pub values: &'v TierValues,
    parents: Vec<(i32, ValueRemoteness)>,
}

/// A tier's child tiers, found by the tier's number: through a table where the numbers are
/// small, else by binary search.
pub(super) struct ChildTiers<'v> {
    pub tiers: Vec<ChildTier<'v>>,
    /// Per tier number: its place in `tiers`, or `u32::MAX`. Empty where the numbers are large.
    by_number: Vec<u32>,
}

impl<'v> ChildTiers<'v> {
    /// The largest tier number looked up through a table.
    const TABLE: u32 = 1 << 16;

    pub fn new(mut tiers: Vec<ChildTier<'v>>) -> ChildTiers<'v> {
        tiers.sort_by_key(|c| c.tier);
        let mut by_number = Vec::new();
        if let Some(last) = tiers.last().filter(|c| c.tier.0 < Self::TABLE) {
            by_number = vec![u32::MAX; last.tier.0 as usize + 1];
            for (k, c) in tiers.iter().enumerate() {
                by_number[c.tier.0 as usize] = k as u32;
            }
        }
        ChildTiers { tiers, by_number }
    }

    /// What the child at `index` of `tier` gives a parent of `p`: an error where that tier is
    /// not held or the index lies outside its values. The tier is found through `last`
    /// ([`ChildTiers::held`]).
    #[inline]
    pub fn parent_value<'a>(
        &'a self,
        p: Position,
        tier: Tier,
        index: u64,
        last: &mut Option<&'a ChildTier<'v>>,
        blocks: &mut BlockCache,
    ) -> Result<(i32, ValueRemoteness), SolveError> {
        self.held(tier, last)
            .and_then(|c| c.parent_value(index, blocks))
            .ok_or(SolveError::ChildNotSolved { position: p })
    }

    /// The child tier `tier`, from `last` where that is the one found last (a position's
    /// children lie in one tier or a few), else found and kept in `last`.
    #[inline]
    pub fn held<'a>(
        &'a self,
        tier: Tier,
        last: &mut Option<&'a ChildTier<'v>>,
    ) -> Option<&'a ChildTier<'v>> {
        match *last {
            Some(c) if c.tier == tier => Some(c),
            _ => {
                *last = self.find(tier);
                *last
            }
        }
    }

    #[inline]
    pub(super) fn find(&self, tier: Tier) -> Option<&ChildTier<'v>> {
        if self.by_number.is_empty() {
            let k = self.tiers.binary_search_by_key(&tier, |c| c.tier).ok()?;
            return self.tiers.get(k);
        }
        let k = *self.by_number.get(tier.0 as usize)?;
        self.tiers.get(k as usize)
    }
}

impl<'v> ChildTier<'v> {
    pub fn new(
        tier: Tier,
        space: &'v TierSpace,
        first: u64,
        values: &'v TierValues,
    ) -> ChildTier<'v> {
        let parents = match values {
            TierValues::Narrow { dictionary, .. }
            | TierValues::Packed(crate::PackedCodes { dictionary, .. }) => dictionary
                .iter()
                .map(|vr| {
                    let p = vr.to_parent();
                    (p.order_key(), p)
                })
                .collect(),
            TierValues::Wide(_) => Vec::new(),
        };
        ChildTier { tier, space, first, values, parents }
    }

    /// Calls `f` with each index of `range` (within the values held) whose value is not a draw:
    /// one-byte codes compared in a run, others read one by one.
    pub fn each_decided(&self, range: std::ops::Range<u64>, mut f: impl FnMut(u64)) {
        if let TierValues::Narrow { codes, .. } = self.values {
            let decided: Vec<bool> =
                self.parents.iter().map(|&(_, vr)| vr.value() != Value::Draw).collect();
            let (from, to) =
                ((range.start - self.first) as usize, (range.end - self.first) as usize);
            for (k, &c) in codes[from..to].iter().enumerate() {
                if decided.get(usize::from(c)).copied().unwrap_or(false) {
                    f(range.start + k as u64);
                }
            }
            return;
        }
        let mut blocks = BlockCache::default();
        for i in range {
            if self.parent_value(i, &mut blocks).is_some_and(|(_, vr)| vr.value() != Value::Draw) {
                f(i);
            }
        }
    }

    /// Asks for the value of the child at `index` ahead of [`ChildTier::parent_value`] (values
    /// held as codes a byte or a pair a position; nothing for packed ones).
    #[inline]
    pub fn prefetch(&self, index: u64) {
        let Some(i) = index.checked_sub(self.first).and_then(|i| usize::try_from(i).ok()) else {
            return;
        };
        match self.values {
            TierValues::Narrow { codes, .. } => {
                codes.get(i).map(prefetch);
            }
            TierValues::Wide(v) => {
                v.get(i).map(prefetch);
            }
            TierValues::Packed(_) => {}
        }
    }

    /// What the child at `index` gives its parent (`None` outside the values held).
    #[inline]
    pub fn parent_value(
        &self,
        index: u64,
        cache: &mut BlockCache,
    ) -> Option<(i32, ValueRemoteness)> {
        let i = usize::try_from(index.checked_sub(self.first)?).ok()?;
        match self.values {
            TierValues::Narrow { codes, .. } => {
                self.parents.get(usize::from(*codes.get(i)?)).copied()
            }
            TierValues::Packed(p) => self.parents.get(usize::from(p.code(i, cache)?)).copied(),
            TierValues::Wide(v) => v.get(i).map(|vr| {
                let p = vr.to_parent();
                (p.order_key(), p)
            }),
        }
    }
}

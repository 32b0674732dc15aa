//! Fuchs und Henne's tiers and the index inside each: the family's tiers by hens and row sum,
//! and below them eight parts (who is to move, what the hens' move is, how many foxes), each
//! with the foxes' classes up to the mirror and the hens' sets ranked beside them.

use perfectplay_core::{Position, Symmetry, Tier, TierIndex};

use super::{FuchsUndHenne, Parts, MAX_HENS, PLACE, REMOVE, STEP};
use crate::cross::sets::{SetRanks, MAX_SET, NONE, STATES, SUMS};
use crate::cross::tiers::{tier_of, tier_parts};

/// The parts of a tier's index, in order: (foxes to move, the hens' move, foxes).
pub(super) const SECTIONS: [(bool, u8, usize); 8] = [
    (false, STEP, 2),
    (false, STEP, 1),
    (false, REMOVE, 2),
    (false, REMOVE, 1),
    (false, PLACE, 1),
    (true, STEP, 2),
    (true, STEP, 1),
    (true, STEP, 0),
];
/// After the game is over (fewer hens than the goal), only the first two parts.
const OVER_SECTIONS: usize = 2;

/// The indices before each part of a tier's index, for every state.
pub(super) fn section_starts(r: &SetRanks) -> Vec<u64> {
    let mut start = vec![0u64; SECTIONS.len() * STATES];
    for s in 1..SECTIONS.len() {
        let count = SECTIONS[s - 1].2;
        let total = r.classes[count].len();
        for state in 0..STATES {
            start[s * STATES + state] =
                start[(s - 1) * STATES + state] + r.offset(count, total, state);
        }
    }
    start
}

impl FuchsUndHenne {
    /// The sizes of a tier's parts, in [`SECTIONS`] order.
    fn section_sizes(&self, hens: u32, sum: u32) -> impl Iterator<Item = (usize, u64)> + '_ {
        let r = self.layout.ranks;
        let (k, t) = (hens as usize, sum as usize);
        let sections = if hens >= self.goal { SECTIONS.len() } else { OVER_SECTIONS };
        (0..sections).map(move |s| (s, r.all_classes(SECTIONS[s].2, k, t)))
    }

    /// Whether a game reaches the tier: hens from one fewer than the goal (the end) to all of
    /// them, and while none is captured, no lower row sum than the start's.
    pub(super) fn tier_exists(&self, hens: u32, sum: u32) -> bool {
        self.counts.reaches(hens, sum)
            && self.layout.ranks.sets([NONE, NONE], hens as usize, sum as usize) > 0
    }

    pub(super) fn section_of(q: Parts) -> usize {
        let count = q.fox_count();
        match (q.foxes_to_move, q.pending) {
            (true, _) => 7 - count,
            (false, STEP) => 2 - count,
            (false, REMOVE) => 4 - count,
            _ => 4,
        }
    }
}

/// A tier's index: its eight parts in `SECTIONS` order (the first two only once the foxes have
/// won); in each, the foxes' places up to the mirror in their class order, and for each the hens'
/// sets with the tier's row sum ranked (`SetRanks::rank`). Where the mirror keeps the foxes'
/// places, both mirror images of the hens have an index; the one that is not canonical is
/// skipped.
impl TierIndex for FuchsUndHenne {
    crate::cross::tiers::tiers_by_counts!();
    /// A hen's step forward leaves the foxes to move (the last three parts of the tier with one
    /// more in its row sum), a capture the hens (the parts before them, of a tier with fewer
    /// hens).
    fn child_window(&self, t: Tier, child: Tier) -> Option<std::ops::Range<u64>> {
        let (hens, _) = tier_parts(t);
        let (child_hens, child_sum) = tier_parts(child);
        let (mut hens_to_move, mut all) = (0, 0);
        for (section, size) in self.section_sizes(child_hens, child_sum) {
            all += size;
            if !SECTIONS[section].0 {
                hens_to_move += size;
            }
        }
        Some(if child_hens == hens { hens_to_move..all } else { 0..hens_to_move })
    }
    /// A tier is the same in every variant of the same goal that has it: the tiers, their
    /// indices and the rules depend on the goal only, and no move adds a hen
    /// (`crate::cross::tiers`).
    fn variants_sharing(&self, t: Tier) -> Vec<String> {
        let goal = self.goal;
        self.counts.sharing(t, self.hens, MAX_HENS, |n| match goal {
            super::HOUSE_SIZE => format!("{n}-hens"),
            goal => format!("{n}-hens-goal-{goal}"),
        })
    }
    fn moves_within(&self, t: Tier) -> bool {
        tier_parts(t).0 >= self.goal
    }
    fn tier_size(&self, t: Tier) -> u64 {
        let (hens, sum) = tier_parts(t);
        self.section_sizes(hens, sum).map(|(_, size)| size).sum()
    }
    fn tier_index(&self, p: Position) -> u64 {
        self.locate_parts(Parts::of(p)).1
    }
    fn tier_position(&self, tier: Tier, index: u64) -> Option<Position> {
        let (hens, sum) = tier_parts(tier);
        let r = self.layout.ranks;
        let mut rest = index;
        let (section, _) = self.section_sizes(hens, sum).find(|&(_, size)| {
            if rest < size {
                return true;
            }
            rest -= size;
            false
        })?;
        let (foxes_to_move, pending, count) = SECTIONS[section];
        let (k, t) = (hens as usize, sum as usize);
        let state = k * SUMS + t;
        if k > MAX_SET || t >= SUMS {
            return None;
        }
        let offsets = &r.offsets[count];
        let classes = &r.classes[count];
        // The class whose run of indices holds `rest`: the first that ends after it.
        let (mut j, mut above) = (0, classes.len());
        while j < above {
            let mid = (j + above) / 2;
            if offsets[(mid + 1) * STATES + state] <= rest {
                j = mid + 1;
            } else {
                above = mid;
            }
        }
        if j == classes.len() {
            return None;
        }
        let foxes = classes[j];
        let hens = r.unrank(foxes, k, t, rest - offsets[j * STATES + state])?;
        let q = Parts { hens, foxes, foxes_to_move, pending };
        self.illegal(q).is_none().then(|| q.code())
    }
}

impl FuchsUndHenne {
    /// The tier and index of a position's canonical form.
    pub(super) fn locate_parts(&self, q: Parts) -> (Tier, u64) {
        let q = self.canonical_parts(q);
        let l = self.layout;
        let (hens, sum) = (q.hens.count_ones(), l.cross.row_sum(q.hens));
        let (start, _) = self.block(q, hens, sum);
        (tier_of(hens, sum), start + l.ranks.rank(q.foxes, q.hens))
    }

    /// Where the run of indices of a canonical position's part and foxes' class begins and ends
    /// in its tier.
    pub(super) fn block(&self, q: Parts, hens: u32, sum: u32) -> (u64, u64) {
        let state = hens as usize * SUMS + sum as usize;
        let start = self.class_start(Self::section_of(q), q.foxes, state);
        (start, start + self.layout.ranks.sets(q.foxes, hens as usize, sum as usize))
    }

    /// Where the run of a part's indices with these (canonical) foxes begins in the tier of
    /// `state`.
    pub(super) fn class_start(&self, section: usize, foxes: [u8; 2], state: usize) -> u64 {
        let l = self.layout;
        let count = SECTIONS[section].2;
        let class = l.ranks.class(foxes).expect("canonical foxes have a class");
        l.section_start[section * STATES + state] + l.ranks.offset(count, class, state)
    }

    /// The position or its mirror image, whichever is canonical for every position with these
    /// foxes; `None` where the mirror keeps the foxes' places (the hens decide).
    pub(super) fn oriented(&self, q: Parts) -> Option<Parts> {
        let m = self.mirrored(q);
        match (m.foxes[1], m.foxes[0]).cmp(&(q.foxes[1], q.foxes[0])) {
            std::cmp::Ordering::Less => Some(m),
            std::cmp::Ordering::Greater => Some(q),
            std::cmp::Ordering::Equal => None,
        }
    }
}

impl Symmetry for FuchsUndHenne {
    fn symmetry_count(&self) -> usize {
        2
    }
    fn canonical(&self, p: Position) -> Position {
        self.canonical_parts(Parts::of(p)).code()
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        out.extend([p, self.mirrored(Parts::of(p)).code()]);
    }
}

// A position's tier: its hens' count and row sum.
crate::cross::tiers::impl_tiers!(FuchsUndHenne, hens);

//! A tier initialised from its decided children: only the positions a decided child reaches get
//! their children counted, the rest stay draws unless the retrograde rounds reach them.
//!
//! A position all of whose children are draws, or undecided inside the tier, is decided by
//! nothing: the rounds never touch it, and it ends a draw. So a tier need not count every
//! position's children before the rounds, only those of positions with a decided child: the
//! parents of every decided position of its child tiers (found by undo-moves) at once, and the
//! parents inside the tier of each position decided by the rounds as it is decided (a win's
//! parents, counted the moment the first of their children wins; a loss or tie claims its
//! parents without a count). A position touched later than the others is initialised all the
//! same ([`TierProblem::position_state`]: the same cell, the same best result from outside),
//! and nothing outside the tier can still decide it, since every position with a decided child
//! outside was initialised before the rounds. A pass over the indices first marks the
//! placeholders and decides the primitive positions, which have no children to be reached from,
//! and initialises those with a decided child the kernel does not find parents from
//! ([`TierKernel::unseeded_children`]: the end of a chain of captures).
//!
//! In a tier that is almost all draws (Fox and Geese: 98.7% of 15 geese's positions), most
//! positions are never initialised: their children are never located, and no child's value is
//! read for them.

use super::children::{ChildTier, ChildTiers};
use super::initialise::{Scratch, Start};
use super::*;

/// A tier is initialised from its children where their decided positions (in the windows its
/// children lie in) are at most one in this many of its indices, or by
/// [`crate::SolveOptions::seeded`].
const SEEDED_SHARE: u64 = 8;

/// One index in this many of a child tier is read to tell how many of its positions are decided.
const SAMPLE: u64 = 61;

/// What the rounds of a tier initialised from its children need to initialise a position a win
/// reaches; the first failure, kept for the end of the rounds.
pub(super) struct Seeding<'a, 'v> {
    pub child_tiers: &'a ChildTiers<'v>,
    pub kernel: &'a dyn TierKernel,
    pub max_counter: u32,
    pub one_byte: bool,
    pub failed: Mutex<Option<Fail>>,
}

impl Seeding<'_, '_> {
    /// What initialising a position of `part` takes.
    pub fn start<'a>(&'a self, part: &'a PartCells, codes: &'a Codes) -> Start<'a, 'a> {
        Start {
            part,
            codes,
            child_tiers: self.child_tiers,
            primitive_without_moves: false,
            max_counter: self.max_counter,
            one_byte: self.one_byte,
            collect_edges: false,
            dense: true,
            care_words: None,
        }
    }

    /// Keeps the first failure.
    pub fn fail(&self, e: Fail) {
        let mut failed = self.failed.lock().unwrap_or_else(|e| e.into_inner());
        failed.get_or_insert(e);
    }
}

impl<G: Game + ?Sized> TierProblem<'_, G> {
    /// Whether the tier is initialised from its decided children: a dense tier of a game with a
    /// kernel and undo-moves, whole and on one rank, as [`crate::SolveOptions::seeded`] says, or
    /// where the kernel lets the engine choose ([`TierKernel::seeds_from_children`]) and its
    /// child tiers' decided positions are few beside its indices.
    pub(super) fn initialises_from_children(
        &self,
        child_tiers: &ChildTiers<'_>,
        whole: bool,
        dense: bool,
    ) -> bool {
        let Some(kernel) = self.kernel.filter(|_| self.game.has_undo_moves() && whole && dense)
        else {
            return false;
        };
        self.seeded.unwrap_or_else(|| {
            if !kernel.seeds_from_children(self.tier) {
                return false;
            }
            let decided: u64 = child_tiers.tiers.iter().map(|c| self.decided_in(c)).sum();
            decided.saturating_mul(SEEDED_SHARE) <= self.space.len()
        })
    }

    /// The indices of a child tier whose positions can be children of this tier's: the held
    /// values within the game's window.
    fn seed_window(&self, child: &ChildTier<'_>) -> std::ops::Range<u64> {
        let held = child.first..child.first + child.values.len() as u64;
        match self.game.child_window(self.tier, child.tier) {
            Some(w) => w.start.max(held.start)..w.end.min(held.end).max(w.start.max(held.start)),
            None => held,
        }
    }

    /// The decided positions of a child tier in its window, about: those of one index in
    /// [`SAMPLE`], counted [`SAMPLE`] times.
    fn decided_in(&self, child: &ChildTier<'_>) -> u64 {
        let window = self.seed_window(child);
        let mut blocks = BlockCache::default();
        let decided = (window.start..window.end)
            .step_by(SAMPLE as usize)
            .filter(|&i| {
                child.parent_value(i, &mut blocks).is_some_and(|(_, vr)| vr.value() != Value::Draw)
            })
            .count() as u64;
        decided * SAMPLE
    }

    /// Initialises a whole tier from its decided children: every index marked a placeholder,
    /// decided as primitive or left at 0 (not initialised), then each parent inside the tier of
    /// a decided position of a child tier initialised.
    pub(super) fn initialise_seeded(
        &self,
        start: &Start<'_, '_>,
        kernel: &dyn TierKernel,
        progress: &dyn Progress,
    ) -> Result<u64, Fail> {
        let part = start.part;
        let n = part.cells.len();
        // Per chunk: the positions with children undo-moves do not reach, and those of them
        // initialised at once.
        let (checked, at_once) = (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map(|chunk| -> Result<(u64, u64), Fail> {
                if progress.stopped() {
                    return Err(SolveError::Stopped.into());
                }
                let (first, last) = (chunk * CHUNK, ((chunk + 1) * CHUNK).min(n));
                let mut positions = vec![None; last - first];
                kernel.tier_positions(self.tier, part.first + first as u64, &mut positions);
                let mut care = [0u64; CHUNK / 64];
                let (mut scratch, mut edges) = (Scratch::default(), Vec::new());
                let (mut checked, mut at_once) = (0u64, 0u64);
                for (k, &p) in positions.iter().enumerate() {
                    let (i, index) = (first + k, part.first + (first + k) as u64);
                    match p {
                        Some(p)
                            if !self.canonicalize
                                || self.is_canonical(p, index, &mut scratch.cache) =>
                        {
                            care[k / 64] |= 1 << (k % 64);
                            if self.unreached(index) {
                                // Not reached, where only what the start reaches is solved:
                                // decided, so never touched.
                                part.cells.store(i, DECIDED | DRAW_CODE);
                            } else if let Some(state) = self.primitive_cell(p, start.codes) {
                                part.cells.store(i, state);
                            } else if let Some(decided) =
                                self.has_decided_unseeded(kernel, start, p, &mut scratch)?
                            {
                                checked += 1;
                                if !decided {
                                    continue;
                                }
                                let state = self.position_state(
                                    kernel,
                                    start,
                                    p,
                                    index,
                                    &mut scratch,
                                    &mut edges,
                                )?;
                                part.cells.store(i, state);
                                at_once += 1;
                            }
                        }
                        _ => part.cells.store(i, DECIDED | DRAW_CODE),
                    }
                }
                start.store_care(chunk, &care);
                progress.advance((last - first) as u64);
                Ok((checked, at_once))
            })
            .try_reduce(|| (0, 0), |a, b| Ok((a.0 + b.0, a.1 + b.1)))?;
        let mut touched = at_once;
        for child in &start.child_tiers.tiers {
            let window = self.seed_window(child);
            let chunks = (window.end - window.start).div_ceil(CHUNK as u64);
            touched += (0..chunks)
                .into_par_iter()
                .map(|k| -> Result<u64, Fail> {
                    if progress.stopped() {
                        return Err(SolveError::Stopped.into());
                    }
                    let (mut scratch, mut touched) = (Scratch::default(), 0u64);
                    let (mut parents, mut indices) = (Vec::new(), Vec::new());
                    let first = window.start + k * CHUNK as u64;
                    let mut decided = Vec::new();
                    child.each_decided(first..(first + CHUNK as u64).min(window.end), |c| {
                        decided.push(c);
                    });
                    for &c in &decided {
                        let Some(position) = self.game.tier_position(child.tier, c) else {
                            continue;
                        };
                        // A child tier held once for both colours (its players exchanged):
                        // the parents of the position and of its exchange.
                        indices.clear();
                        for child in std::iter::once(position).chain(self.game.exchange(position)) {
                            self.parents_of(
                                kernel,
                                child,
                                &mut indices,
                                &mut parents,
                                &mut scratch,
                            );
                        }
                        for &j in &indices {
                            touched += u64::from(self.touch(start, kernel, j, &mut scratch)?);
                        }
                    }
                    Ok(touched)
                })
                .sum::<Result<u64, Fail>>()?;
        }
        progress.note(&format!(
            "tier {}: {touched} positions initialised from their children: {at_once} at once of \
             {checked} with children undo-moves do not reach",
            self.game.tier_name(self.tier)
        ));
        Ok(touched)
    }

    /// Whether one of the children of `p` that [`TierKernel::parents_in`] does not find it from
    /// ([`TierKernel::unseeded_children`]) is decided, then `p` is initialised at once; `None`
    /// where it has none.
    fn has_decided_unseeded(
        &self,
        kernel: &dyn TierKernel,
        start: &Start<'_, '_>,
        p: Position,
        scratch: &mut Scratch,
    ) -> Result<Option<bool>, Fail> {
        let Scratch { locations, cache, blocks, .. } = scratch;
        locations.clear();
        kernel.unseeded_children(p, locations, cache);
        if locations.is_empty() {
            return Ok(None);
        }
        let mut last = None;
        for &(tier, i) in locations.iter() {
            let (_, vr) = start.child_tiers.parent_value(p, tier, i, &mut last, blocks)?;
            if vr.value() != Value::Draw {
                return Ok(Some(true));
            }
        }
        Ok(Some(false))
    }

    /// Appends the indices in the tier of `child`'s parents: the kernel's, else the game's
    /// undo-moves located.
    fn parents_of(
        &self,
        kernel: &dyn TierKernel,
        child: Position,
        indices: &mut Vec<u64>,
        parents: &mut Vec<Position>,
        scratch: &mut Scratch,
    ) {
        if kernel.parents_in(self.tier, child, indices, &mut scratch.cache) {
            return;
        }
        parents.clear();
        self.game.undo_moves(child, parents);
        for &q in parents.iter() {
            let (t, j) = kernel.locate(q, &mut scratch.cache);
            if t == self.tier {
                indices.push(j);
            }
        }
    }

    /// Initialises the position at `index` where nothing has ([`TierProblem::position_state`]);
    /// whether this call did. Two workers may both count its children: the first to store the
    /// cell keeps it, the other's equal count is dropped (an update may already have taken one
    /// off the first's).
    #[inline]
    pub(super) fn touch(
        &self,
        start: &Start<'_, '_>,
        kernel: &dyn TierKernel,
        index: u64,
        scratch: &mut Scratch,
    ) -> Result<bool, Fail> {
        let i = (index - start.part.first) as usize;
        if start.part.cells.load(i) != 0 {
            return Ok(false);
        }
        let Some(p) = self.game.tier_position(self.tier, index) else { return Ok(false) };
        let state = self.position_state(kernel, start, p, index, scratch, &mut Vec::new())?;
        loop {
            match start.part.cells.cas(i, 0, state) {
                Ok(()) => return Ok(true),
                Err(0) => {}
                Err(_) => return Ok(false),
            }
        }
    }
}

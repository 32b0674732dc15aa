//! A tier's initialisation a run at a time ([`TierKernel::run_children_sided`]): where every
//! move leaves the tier and the kernel takes a run's moves at once, a chunk's canonical positions
//! are gathered, their children located move by move (a move's children lie near each other in
//! their tier), each one's value read into its position's best, and the cells settled after the
//! run.

use perfectplay_core::RunLocations;

use super::initialise::{Scratch, Start};
use super::*;

/// How many children ahead a child's value is asked for (prefetched) before it is read.
const AHEAD: usize = 16;

/// What a run gathers: its positions with their indices, their children, and each one's best
/// child as (order key, value).
#[derive(Default)]
pub(super) struct Run {
    positions: Vec<Position>,
    indices: Vec<u64>,
    children: RunLocations,
    best: Vec<(i32, Option<ValueRemoteness>)>,
}

impl Run {
    /// A non-primitive canonical position to initialise, at `index`.
    pub fn push(&mut self, p: Position, index: u64) {
        self.positions.push(p);
        self.indices.push(index);
    }
}

impl<G: Game + ?Sized> TierProblem<'_, G> {
    /// Whether the tier is initialised a run at a time: every move leaves it, and the kernel
    /// offers its runs' children ([`TierKernel::runs_children`]).
    pub(super) fn initialises_by_runs(&self, kernel: &dyn TierKernel) -> bool {
        !self.game.moves_within(self.tier) && kernel.runs_children(self.tier)
    }

    /// Initialises the positions gathered in `scratch.run` (and empties it): each one's best
    /// child, all outside the tier, read a run at a time, and its cell decided.
    pub(super) fn initialise_run(
        &self,
        kernel: &dyn TierKernel,
        start: &Start<'_, '_>,
        scratch: &mut Scratch,
    ) -> Result<(), Fail> {
        let Scratch { run, cache, blocks, .. } = scratch;
        let Run { positions, indices, children, best } = run;
        kernel.run_children_sided(positions, children, cache);
        best.clear();
        best.resize(positions.len(), (i32::MIN, None));
        let (mut last, mut last_ahead) = (None, None);
        for (j, &(k, ct, ci, _)) in children.iter().enumerate() {
            if let Some(&(_, at, ai, _)) = children.get(j + AHEAD) {
                if let Some(c) = start.child_tiers.held(at, &mut last_ahead) {
                    c.prefetch(ai);
                }
            }
            let p = positions[k as usize];
            let (key, vr) = start.child_tiers.parent_value(p, ct, ci, &mut last, blocks)?;
            let kept = &mut best[k as usize];
            if key > kept.0 {
                *kept = (key, Some(vr));
            }
        }
        for ((&p, &index), &(_, vr)) in positions.iter().zip(indices.iter()).zip(best.iter()) {
            if vr.is_none() {
                return Err(SolveError::NoMoves { position: p }.into());
            }
            let i = (index - start.part.first) as usize;
            let state = self.settle_position(start, p, i, 0, vr)?;
            start.part.cells.store(i, state);
        }
        positions.clear();
        indices.clear();
        Ok(())
    }
}

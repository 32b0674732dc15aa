//! What a solve will hold before it starts: its indices and the bytes at its peak, from the tier
//! sizes alone (no tier is solved), so that a front end can say what a solve costs and refuse one
//! that cannot fit.

use perfectplay_core::{Game, GameExt, PositionSpace, Tier};

use crate::retrograde::bytes_needed;
use crate::TierSpace;

/// A solve's size, counted before it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolvePlan {
    /// Tiers to solve.
    pub tiers: usize,
    /// Indices to solve, in all.
    pub indices: u64,
    /// The indices of the largest tier.
    pub largest_tier: u64,
    /// Bytes the work of the largest tier takes alone: the least a solve must hold (its child
    /// tiers packed small beside it, or only a window of them held).
    pub tier_bytes: u64,
    /// Bytes at the peak of a solve under a memory limit ([`crate::SolveOptions::memory_limit`]):
    /// the tier in progress's work beside the part of each child tier its moves reach (one byte
    /// an index; the solver packs them smaller where they do not fit).
    pub lean_bytes: u64,
    /// Bytes at the peak of a solve that holds every tier solved (one byte an index), for the
    /// analysis after it.
    pub whole_bytes: u64,
    /// Bytes the analysis holds: a tiered game's marks of the positions reached (two bits an
    /// index) are searched before its solve and held through it, beside the largest tier's work
    /// at least (and later its values, counted from the tier files); a dense game's analysis is
    /// counted beside its one tier ([`SolvePlan::whole_bytes`]).
    pub analysis_bytes: u64,
}

/// The plan of a solve of `game`, for games whose indices are known before a solve: a dense
/// game's one tier, a tiered game's tiers. `None` for a sparse game, whose positions are found
/// only by discovering them from the start.
pub fn plan<G: Game + ?Sized>(game: &G) -> Option<SolvePlan> {
    let tiers: Vec<(Tier, u64)> = match game.space() {
        PositionSpace::Dense { size } => vec![(Tier(0), size)],
        PositionSpace::Tiered(_) => {
            game.tiers().into_iter().map(|t| (t, game.tier_size(t))).collect()
        }
        PositionSpace::Sparse(_) => return None,
    };
    let size_of = |t: Tier| tiers.iter().find(|(x, _)| *x == t).map_or(0, |&(_, n)| n);
    let mut plan = SolvePlan {
        tiers: tiers.len(),
        indices: 0,
        largest_tier: 0,
        tier_bytes: 0,
        lean_bytes: 0,
        whole_bytes: 0,
        analysis_bytes: 0,
    };
    for &(tier, size) in &tiers {
        let work = bytes_needed(game, tier, &TierSpace::Dense { size });
        let children: u64 =
            if tiers.len() > 1 { game.child_tiers(tier).into_iter().map(size_of).sum() } else { 0 };
        plan.tier_bytes = plan.tier_bytes.max(work);
        plan.lean_bytes = plan.lean_bytes.max(work + children);
        plan.whole_bytes = plan.whole_bytes.max(plan.indices + work);
        plan.indices += size;
        plan.largest_tier = plan.largest_tier.max(size);
    }
    plan.analysis_bytes = match game.space() {
        PositionSpace::Tiered(_) => plan.indices.div_ceil(4) + plan.tier_bytes,
        _ => plan.whole_bytes,
    };
    Some(plan)
}

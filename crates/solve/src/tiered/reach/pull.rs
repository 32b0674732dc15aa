//! A tier's marks pulled from its parents rather than pushed from them: each index of the tier is
//! asked whether one of its parents, in the tiers searched before it, was reached, and its parents
//! are located one at a time until one was. Where the start reaches most of a tier's parents, the
//! first parent asked mostly was: an index reached costs about one parent located, where a push
//! locates every child of every position reached (a Bagh-Chal placement, some ten). Where few are
//! reached, an index not reached costs all its parents located, and the push is cheaper.
//!
//! Used for a game with a kernel and undo-moves whose marks have one side only (no exchange, no
//! mirrored orientation): a parent's class reached is then its position reached. A pulled tier
//! pushes nothing, so the tiers below it are pulled too; one with moves inside itself is pulled
//! from the other tiers first, then searched inside itself (and pushes into its child tiers) as
//! before.

use std::sync::atomic::AtomicU64;

use perfectplay_core::{Game, GameExt, KernelCache, Position, Tier, TierKernel};
use rayon::prelude::*;

use super::{is_marked, Marks, SIDES, WORDS_PER_TASK};
use crate::progress::Progress;
use crate::SolveError;

/// When a tier is pulled rather than pushed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::tiered) enum Pull {
    /// Never: every tier's marks pushed from its parents.
    Never,
    /// Where the game allows it, where its parent tiers are at least half reached (or one of
    /// them pushed nothing).
    Dense,
    /// Where the game allows it, every tier with a parent tier (for tests).
    Always,
}

/// The parents' reach at which a tier is pulled: an index reached costs about one parent
/// located when most of them are reached, one not reached all of its parents.
const DENSE: f64 = 0.5;

/// Which tiers are pulled, decided tier by tier as the search goes down.
pub(super) struct Plan {
    pull: Pull,
    /// Whether the game allows it: a kernel, undo-moves, one side.
    allowed: bool,
    /// Per tier (in the marks' order), the tiers with a move into it.
    parents: Vec<Vec<usize>>,
    /// Per tier searched, its indices reached.
    reached: Vec<Option<u64>>,
    /// Per tier, whether it was pulled.
    pulled: Vec<bool>,
}

impl Plan {
    pub(super) fn new<G: Game + ?Sized>(game: &G, tiers: &[Tier], pull: Pull, sided: bool) -> Plan {
        let allowed =
            pull != Pull::Never && !sided && game.kernel().is_some() && game.has_undo_moves();
        let mut parents = vec![Vec::new(); tiers.len()];
        if allowed {
            for (k, &t) in tiers.iter().enumerate() {
                for c in game.child_tiers(t) {
                    if let Ok(j) = tiers.binary_search(&c) {
                        if j != k {
                            parents[j].push(k);
                        }
                    }
                }
            }
        }
        let n = tiers.len();
        Plan { pull, allowed, parents, reached: vec![None; n], pulled: vec![false; n] }
    }

    /// Whether tier `k` is pulled (its parent tiers all searched): where a parent tier pushed
    /// nothing, it must be.
    pub(super) fn decide<G: Game + ?Sized>(&mut self, game: &G, k: usize, marks: &Marks) -> bool {
        let parents = &self.parents[k];
        if !self.allowed || parents.is_empty() || parents.iter().any(|&j| marks.bits[j].is_empty())
        {
            return false;
        }
        let forced = parents.iter().any(|&j| self.pulled[j] && !game.moves_within(marks.tiers[j]));
        let pull = forced || self.pull == Pull::Always || {
            let (mut reached, mut size) = (0u64, 0u64);
            for &j in parents {
                reached += self.reached[j].unwrap_or(0);
                size += game.tier_size(marks.tiers[j]);
            }
            reached as f64 >= DENSE * size as f64
        };
        self.pulled[k] = pull;
        pull
    }

    /// How many tiers were pulled.
    pub(super) fn pulled(&self) -> usize {
        self.pulled.iter().filter(|&&p| p).count()
    }

    /// Tier `k` is searched: its indices reached, for the tiers below it.
    pub(super) fn searched(&mut self, k: usize, marks: &Marks) {
        if self.allowed {
            self.reached[k] = Some(super::count_marked(&marks.bits[k]));
        }
    }

    /// Marks the indices of tier `k` with a parent reached in another tier (all searched);
    /// returns how many marks are new. Indices marked already are left as they are.
    pub(super) fn pull<G: Game + ?Sized>(
        &self,
        game: &G,
        k: usize,
        marks: &Marks,
        progress: &dyn Progress,
    ) -> Result<u64, SolveError> {
        let kernel = game.kernel().ok_or(SolveError::Inconsistent {
            what: "a tier pulled without the game's kernel".into(),
        })?;
        let t = marks.tiers[k];
        let parents: Vec<(Tier, &[AtomicU64])> =
            self.parents[k].iter().map(|&j| (marks.tiers[j], &marks.bits[j][..])).collect();
        let per_task = WORDS_PER_TASK as u64 * 64 / SIDES;
        let size = game.tier_size(t);
        let visited = &marks.bits[k];
        let task = Task { game, kernel, t, tiers: &marks.tiers, visited, parents: &parents };
        (0..size.div_ceil(per_task))
            .into_par_iter()
            .map_init(Worker::default, |worker, n| {
                let first = n * per_task;
                let found = task.run(worker, first..size.min(first + per_task))?;
                progress.advance(found);
                Ok(found)
            })
            .sum()
    }
}

/// What one worker keeps from task to task.
#[derive(Default)]
struct Worker {
    run: Vec<Option<Position>>,
    parents: Vec<Position>,
    cache: KernelCache,
}

/// One tier's pull.
struct Task<'a, G: ?Sized> {
    game: &'a G,
    kernel: &'a dyn TierKernel,
    t: Tier,
    /// Every tier, sorted.
    tiers: &'a [Tier],
    visited: &'a [AtomicU64],
    /// The parent tiers and their marks.
    parents: &'a [(Tier, &'a [AtomicU64])],
}

impl<G: Game + ?Sized> Task<'_, G> {
    /// Pulls the indices `range` (walked in order by the kernel).
    fn run(&self, worker: &mut Worker, range: std::ops::Range<u64>) -> Result<u64, SolveError> {
        let Task { game, kernel, t, tiers, visited, parents } = *self;
        let Worker { run, parents: from, cache } = worker;
        run.clear();
        run.resize((range.end - range.start) as usize, None);
        kernel.tier_positions(t, range.start, run);
        let mut found = 0;
        for (index, p) in range.zip(run.iter()) {
            let Some(p) = *p else { continue };
            if is_marked(visited, index) {
                continue;
            }
            // Whether a parent in another tier was reached (an error ends the asking).
            let mut error = None;
            let mut ask = |pt: Tier, pi: u64| -> bool {
                if pt == t {
                    // Inside the tier: left to the search inside it.
                    return false;
                }
                match parents.iter().find(|&&(c, _)| c == pt) {
                    Some(&(_, words)) => is_marked(words, pi),
                    // A tier the game does not list is never reached (a legal position no game
                    // leads to: Bagh-Chal's goats all in hand, one captured).
                    None if tiers.binary_search(&pt).is_err() => false,
                    None => {
                        error = Some(SolveError::Inconsistent {
                            what: format!(
                                "tier {}: a parent in tier {}, which does not list it as a child \
                                 tier",
                                game.tier_name(t),
                                game.tier_name(pt)
                            ),
                        });
                        true
                    }
                }
            };
            let reached = match kernel.parent_reached(p, cache, &mut ask) {
                Some(reached) => reached,
                None => {
                    from.clear();
                    game.undo_moves(p, from);
                    from.iter().any(|&r| {
                        let (pt, pi) = kernel.locate(r, cache);
                        ask(pt, pi)
                    })
                }
            };
            if let Some(e) = error {
                return Err(e);
            }
            // Only canonical indices are marked (an image's parents are reached as well).
            if reached && kernel.is_canonical_at(t, index, p, cache) {
                Marks::set(visited, index * SIDES);
                found += 1;
            }
        }
        Ok(found)
    }
}

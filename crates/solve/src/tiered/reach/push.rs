//! A pushed round of the reachability search: each position of the frontier marks its
//! children, position by position or, where the kernel offers it, a task's run at once.

use perfectplay_core::{KernelCache, RunLocations, SidedLocations};

use super::*;
use crate::hint::prefetch;

/// One round of the reachability search in tier `t`.
pub(super) struct Round<'a, G: ?Sized> {
    pub(super) game: &'a G,
    pub(super) t: Tier,
    /// The tier's marks.
    pub(super) visited: &'a [AtomicU64],
    pub(super) marks: &'a Marks,
    pub(super) complete: &'a [bool],
    /// Sides are a class's mirrored orientations (else its exchange).
    pub(super) mirrored: bool,
}

/// What one worker of the search keeps from task to task (see [`Located`]).
#[derive(Default)]
pub(super) struct Worker<'a> {
    pub(super) located: Located,
    children: Vec<Position>,
    sided: SidedLocations,
    cache: KernelCache,
    /// The children of the position before, and of this one.
    waiting: Vec<Target<'a>>,
    fetched: Vec<Target<'a>>,
    /// A run's positions and their sides, and their children, where the kernel takes a run's
    /// moves at once ([`TierKernel::run_children_sided`]).
    run: Vec<Position>,
    run_sides: Vec<u64>,
    run_children: RunLocations,
}

/// Children of a run ([`TierKernel::run_children_sided`]) whose marks are asked for together,
/// and set once the next ones' are asked for.
const RUN_BLOCK: usize = 16;

impl<'a, G: Game + ?Sized> Round<'a, G> {
    /// Marks the children of the positions `worker.located` found (taken out of the frontier);
    /// what is new in this tier also goes into `next`. Returns how many marks were new.
    ///
    /// A child's marks lie anywhere in its tier, most of them in no cache: their words are asked
    /// for (prefetched) as soon as a position's children are located, and marked once the next
    /// position's children are located, by when most have arrived. Where the kernel takes a
    /// run's moves at once, the task's positions go to it together ([`Round::reach_run`]).
    pub(super) fn reach_from(
        &self,
        worker: &mut Worker<'a>,
        next: &[AtomicU64],
    ) -> Result<u64, SolveError> {
        let Round { game, t, mirrored, .. } = *self;
        let child_marks = self.child_marks();
        if let Some(kernel) = game.kernel().filter(|k| !mirrored && k.runs_children(t)) {
            return self.reach_run(kernel, &child_marks, worker, next);
        }
        let Worker { located, children, sided, cache, waiting, fetched, .. } = worker;
        waiting.clear();
        let mut found = 0u64;
        for &(index, sides, p) in &located.found {
            let p = p.ok_or_else(|| unnamed(game, t, index))?;
            if game.primitive(p).is_some() {
                continue;
            }
            sided.clear();
            let by_kernel = game.kernel().is_some_and(|k| match mirrored {
                true => k.child_locations_mirrored(p, sided, cache),
                false => k.child_locations_sided(p, sided, cache),
            });
            if !by_kernel {
                children.clear();
                game.children(p, children);
                sided.extend(children.iter().map(|&child| {
                    let (cc, side) = match mirrored {
                        true => {
                            let cc = game.canonical(child);
                            (cc, cc != child)
                        }
                        false => game.canonical_exchanged(child),
                    };
                    (game.tier(cc), game.tier_index(cc), side)
                }));
            }
            fetched.clear();
            for &(ct, ci, exchanged) in sided.iter() {
                if let Some(words) = self.words_of(&child_marks, ct, p)? {
                    fetched.push(self.target(words, ct, ci, sides, exchanged));
                }
            }
            found += mark(waiting, next);
            std::mem::swap(waiting, fetched);
        }
        Ok(found + mark(waiting, next))
    }

    /// [`Round::reach_from`] where the kernel takes a run's moves at once
    /// ([`TierKernel::run_children_sided`]): the children of all the task's positions, in the
    /// kernel's order (a move's children near each other in their tier), their marks' words asked
    /// for a block of children ahead of their marking.
    fn reach_run(
        &self,
        kernel: &dyn TierKernel,
        child_marks: &ChildMarks<'a>,
        worker: &mut Worker<'a>,
        next: &[AtomicU64],
    ) -> Result<u64, SolveError> {
        let Round { game, t, .. } = *self;
        let Worker { located, cache, waiting, fetched, run, run_sides, run_children, .. } = worker;
        run.clear();
        run_sides.clear();
        for &(index, sides, p) in &located.found {
            let p = p.ok_or_else(|| unnamed(game, t, index))?;
            if game.primitive(p).is_none() {
                run.push(p);
                run_sides.push(sides);
            }
        }
        kernel.run_children_sided(run, run_children, cache);
        waiting.clear();
        let mut found = 0u64;
        for block in run_children.chunks(RUN_BLOCK) {
            fetched.clear();
            for &(k, ct, ci, exchanged) in block {
                let k = k as usize;
                if let Some(words) = self.words_of(child_marks, ct, run[k])? {
                    fetched.push(self.target(words, ct, ci, run_sides[k], exchanged));
                }
            }
            found += mark(waiting, next);
            std::mem::swap(waiting, fetched);
        }
        Ok(found + mark(waiting, next))
    }

    /// The child tiers' marks, found once a task: a search of all the tiers for every child cost
    /// a third of the time. `None` for a tier whose marks are not kept (complete throughout).
    fn child_marks(&self) -> ChildMarks<'a> {
        let Round { game, t, marks, complete, .. } = *self;
        let child_tiers = game.child_tiers(t).into_iter();
        child_tiers
            .filter_map(|c| marks.slot(c).map(|k| (c, complete[k].then_some(&marks.bits[k][..]))))
            .collect()
    }

    /// The marks' words of a child's tier `ct` (a child of `p`), `None` where they are not kept.
    #[inline]
    fn words_of(
        &self,
        child_marks: &ChildMarks<'a>,
        ct: Tier,
        p: Position,
    ) -> Result<Option<&'a [AtomicU64]>, SolveError> {
        let Round { t, visited, marks, complete, .. } = *self;
        if ct == t {
            return Ok(Some(visited));
        }
        let known = child_marks.iter().find(|&&(c, _)| c == ct).map(|&(_, w)| w);
        let found =
            known.or_else(|| marks.slot(ct).map(|k| complete[k].then_some(&marks.bits[k][..])));
        found.ok_or(SolveError::ChildNotSolved { position: p })
    }

    /// A child's marks to set, reached from a position by `sides`, its word asked for.
    #[inline]
    fn target(
        &self,
        words: &'a [AtomicU64],
        ct: Tier,
        ci: u64,
        sides: u64,
        exchanged: bool,
    ) -> Target<'a> {
        let base = ci * SIDES;
        if let Some(word) = words.get((base / 64) as usize) {
            prefetch(word);
        }
        // The sides the child's canonical form is reached by: exchanged, they swap.
        let sides = if exchanged { (sides & 1) << 1 | sides >> 1 & 1 } else { sides };
        Target { words, base, sides, own: ct == self.t }
    }
}

/// A task's child tiers with their marks ([`Round::child_marks`]).
type ChildMarks<'a> = Vec<(Tier, Option<&'a [AtomicU64]>)>;

/// A child's marks to set: its tier's words, its index's first bit, the sides it is reached by
/// (bit 0: as is, bit 1: exchanged), and whether it is in the tier searched.
struct Target<'a> {
    words: &'a [AtomicU64],
    base: u64,
    sides: u64,
    own: bool,
}

/// Sets the marks of `targets`; what is new in the tier searched also goes into `next`. Returns
/// how many marks were new.
fn mark(targets: &[Target<'_>], next: &[AtomicU64]) -> u64 {
    let mut found = 0;
    for target in targets {
        for side in 0..SIDES {
            if target.sides >> side & 1 == 1 && Marks::set(target.words, target.base + side) {
                found += 1;
                if target.own {
                    Marks::set(next, target.base + side);
                }
            }
        }
    }
    found
}

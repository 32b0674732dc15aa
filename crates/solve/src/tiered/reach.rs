//! The positions reachable from a tiered game's start, searched over canonical indices (the
//! parent module's header says how sides are told apart).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use perfectplay_core::{Game, GameExt, Position, Tier, TierKernel};
use rayon::prelude::*;

use crate::progress::Progress;
use crate::SolveError;

mod pull;
mod push;
pub(super) use pull::Pull;
use push::{Round, Worker};

/// Bits per index: reached as is, reached exchanged.
pub(super) const SIDES: u64 = 2;
pub(super) const WORDS_PER_TASK: usize = 1 << 10;

/// Per tier, two bits per index (none for a tier whose marks would not be complete).
pub(super) struct Marks {
    pub(super) tiers: Vec<Tier>,
    pub(super) bits: Vec<Vec<AtomicU64>>,
}

impl Marks {
    fn new<G: Game + ?Sized>(game: &G, tiers: &[Tier], wanted: &[bool]) -> Marks {
        let bits = tiers
            .iter()
            .zip(wanted)
            .map(|(&t, &wanted)| {
                let words = if wanted { marks_words(game, t) } else { 0 };
                (0..words).map(|_| AtomicU64::new(0)).collect()
            })
            .collect();
        Marks { tiers: tiers.to_vec(), bits }
    }

    pub(super) fn slot(&self, t: Tier) -> Option<usize> {
        self.tiers.binary_search(&t).ok()
    }

    /// Sets a bit; whether it was new.
    #[inline]
    fn set(words: &[AtomicU64], bit: u64) -> bool {
        let (w, b) = ((bit / 64) as usize, 1u64 << (bit % 64));
        // A plain read first: most children were seen already, and a read needs no lock.
        words[w].load(Relaxed) & b == 0 && words[w].fetch_or(b, Relaxed) & b == 0
    }
}

/// The number of 64-bit words of tier `t`'s marks: two bits an index.
pub fn marks_words<G: Game + ?Sized>(game: &G, t: Tier) -> u64 {
    (game.tier_size(t) * SIDES).div_ceil(64)
}

/// The indices marked in word number `word` of a tier's bits, with their sides (bit 0: as is,
/// bit 1: exchanged).
fn marked(word: usize, w: u64) -> impl Iterator<Item = (u64, u64)> {
    let first = (word * 64) as u64 / SIDES;
    // The low bit of each index marked by either side: only those are visited.
    let mut any = marked_in(w);
    std::iter::from_fn(move || {
        (any != 0).then(|| {
            let bit = u64::from(any.trailing_zeros());
            any &= any - 1;
            (first + bit / SIDES, w >> bit & 3)
        })
    })
}

/// The low bit of each index marked (by either side) in a word of marks.
#[inline]
fn marked_in(w: u64) -> u64 {
    const LOW_BITS: u64 = 0x5555_5555_5555_5555;
    (w | w >> 1) & LOW_BITS
}

/// Whether index `index` is marked (by either side) in a tier's marks.
#[inline]
pub(crate) fn is_marked(words: &[AtomicU64], index: u64) -> bool {
    let bit = index * SIDES;
    words.get((bit / 64) as usize).is_some_and(|w| w.load(Relaxed) >> (bit % 64) & 3 != 0)
}

/// The number of indices marked (by either side) in a tier's marks.
pub(crate) fn count_marked(words: &[AtomicU64]) -> u64 {
    words.iter().map(|w| u64::from(marked_in(w.load(Relaxed)).count_ones())).sum()
}

/// Whether any index of `indices` is marked (by either side) in a tier's marks.
pub(crate) fn any_marked(words: &[AtomicU64], indices: std::ops::Range<u64>) -> bool {
    let (from, to) = (indices.start * SIDES, indices.end * SIDES);
    if from >= to {
        return false;
    }
    (from / 64..to.div_ceil(64)).any(|k| {
        let (lo, hi) = (from.max(k * 64) - k * 64, to.min(k * 64 + 64) - k * 64);
        let mask = (u64::MAX >> (64 - (hi - lo))) << lo;
        words.get(k as usize).is_some_and(|w| w.load(Relaxed) & mask != 0)
    })
}

/// The marked indices of a task's run of a tier's words, with their sides and positions
/// ([`Located::find`]), and the buffers that find them: a worker keeps one from task to task.
/// (A solve under a memory limit gives freed memory back to the system at once, and buffers taken
/// anew each task were cleared again by the kernel each time: most of such a solve's page
/// faults.)
#[derive(Debug, Default)]
pub(super) struct Located {
    words: Vec<u64>,
    /// (index, sides, position) of each index marked, in order.
    pub(super) found: Vec<(u64, u64, Option<Position>)>,
    run: Vec<Option<Position>>,
    /// [`Located::class_sizes`]: per index of the words loaded, its class's size.
    pub(super) sizes: Vec<u32>,
}

impl Located {
    /// Finds the indices marked in `chunk`, the tier's words from word number `first_word` on
    /// (taken out, leaving them clear, where `take`), with their sides and positions. Where the
    /// marks are dense the game's kernel walks the range in order
    /// ([`perfectplay_core::TierKernel::tier_positions`]); else each index is unranked.
    pub(super) fn find<G: Game + ?Sized>(
        &mut self,
        game: &G,
        t: Tier,
        first_word: usize,
        chunk: &[AtomicU64],
        take: bool,
    ) {
        self.load(chunk, take);
        self.list(first_word);
        self.name(game, t);
    }

    /// Reads a chunk's words (taken out, leaving them clear, where `take`).
    pub(super) fn load(&mut self, chunk: &[AtomicU64], take: bool) {
        self.words.clear();
        // Nothing else writes a frontier's words in its round: a word is read, and cleared only
        // where it has marks (a swap of every word, a locked instruction each, waited for every
        // line of a tier's words alone, round after round).
        self.words.extend(chunk.iter().map(|w| {
            let v = w.load(Relaxed);
            if take && v != 0 {
                w.store(0, Relaxed);
            }
            v
        }));
    }

    /// The indices marked in the words loaded, word number `first_word` first, and their sides.
    pub(super) fn list(&mut self, first_word: usize) {
        let Located { words, found, .. } = self;
        found.clear();
        for (j, &w) in words.iter().enumerate() {
            found.extend(marked(first_word + j, w).map(|(index, sides)| (index, sides, None)));
        }
    }

    /// Whether the indices found lie close enough together that a walk over their range costs
    /// less than finding each alone: a walk costs a few steps per index; an unranking, some tens.
    fn dense(&self) -> bool {
        match (self.found.first(), self.found.last()) {
            (Some(&(lo, ..)), Some(&(hi, ..))) => (hi - lo) < 16 * self.found.len() as u64,
            _ => false,
        }
    }

    /// The sizes of the classes of every index of the words loaded (word number `first_word`
    /// first; up to `tier_size`), without their positions ([`TierKernel::side_class_sizes`]),
    /// into `sizes`; whether the kernel gave them. They are asked only where the marks are dense.
    pub(super) fn class_sizes(
        &mut self,
        kernel: &dyn TierKernel,
        t: Tier,
        first_word: usize,
        tier_size: u64,
    ) -> bool {
        let Located { words, sizes, .. } = self;
        let first = first_word as u64 * 64 / SIDES;
        let end = (first + words.len() as u64 * 64 / SIDES).min(tier_size);
        let marked: u64 = words.iter().map(|&w| u64::from(marked_in(w).count_ones())).sum();
        if marked == 0 || end - first >= 16 * marked {
            return false;
        }
        sizes.clear();
        sizes.resize((end - first) as usize, 0);
        kernel.side_class_sizes(t, first, sizes)
    }

    /// The indices marked in the words loaded (word number `first_word` first), their sides and
    /// their classes' sizes ([`Located::class_sizes`]).
    pub(super) fn sized(&self, first_word: usize) -> impl Iterator<Item = (u64, u64, u32)> + '_ {
        let first = first_word as u64 * 64 / SIDES;
        let words = self.words.iter().enumerate();
        words.flat_map(move |(j, &w)| {
            marked(first_word + j, w)
                .map(move |(i, sides)| (i, sides, self.sizes[(i - first) as usize]))
        })
    }

    /// The positions of the indices found.
    pub(super) fn name<G: Game + ?Sized>(&mut self, game: &G, t: Tier) {
        let dense = self.dense();
        let Located { found, run, .. } = self;
        let (Some(&(lo, ..)), Some(&(hi, ..))) = (found.first(), found.last()) else { return };
        match game.kernel() {
            Some(kernel) if dense => {
                run.clear();
                run.resize((hi - lo + 1) as usize, None);
                kernel.tier_positions(t, lo, run);
                for e in found.iter_mut() {
                    e.2 = run[(e.0 - lo) as usize];
                }
            }
            _ => {
                for e in found.iter_mut() {
                    e.2 = game.tier_position(t, e.0);
                }
            }
        }
    }
}

/// The canonical indices of a tiered game reachable from its start, per tier, with the sides
/// reached ([`reach_tiered`]): two bits per index. After [`reach_tiered_one_pass`] only some
/// tiers' marks are complete; the others count as reached throughout.
pub struct Reached {
    pub(super) marks: Marks,
    /// Per tier (in `marks.tiers`' order), whether its marks are every index the start reaches.
    pub(super) complete: Vec<bool>,
    /// What the second bit of an index says, and whether members can be counted.
    pub(super) sides: Sides,
    /// Per tier, its number of indices.
    size: Vec<u64>,
    /// How many tiers were pulled from their parents ([`pull`]).
    pulled: usize,
}

/// What a search's second bit per index means ([`Reached`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sides {
    /// Reached as a member of the exchange (unused without one): the start is its own image
    /// under every symmetry but the exchange.
    Exchanged,
    /// Reached as the canonical form's image under the game's one symmetry besides the identity
    /// (a game without an exchange whose start is not symmetric).
    Mirrored,
    /// Not used: the start is not its own image under the symmetries, and they are more than a
    /// mirror. The classes reached are right, but not which of their members are, so members
    /// are not counted.
    ClassesOnly,
}

impl std::fmt::Debug for Reached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reached").field("tiers", &self.marks.tiers.len()).finish_non_exhaustive()
    }
}

impl Reached {
    /// The sides by which index `index` of tier `t` was reached: bit 0 as is, bit 1 exchanged
    /// (or mirrored, the module's header says when); 0 if it was not (or `t` is not a tier of
    /// the game).
    pub fn sides(&self, t: Tier, index: u64) -> u8 {
        let Some(k) = self.marks.slot(t) else { return 0 };
        if !self.complete[k] {
            return 3;
        }
        let bit = index * SIDES;
        let Some(w) = self.marks.bits[k].get((bit / 64) as usize) else { return 0 };
        (w.load(Relaxed) >> (bit % 64) & 3) as u8
    }

    /// Whether each of the indices `first..first + out.len()` of tier `t` was reached (by
    /// either side).
    pub fn reached_run(&self, t: Tier, first: u64, out: &mut [bool]) {
        match self.marks.slot(t) {
            None => out.fill(false),
            Some(k) if !self.complete[k] => out.fill(true),
            Some(k) => {
                for (i, o) in out.iter_mut().enumerate() {
                    *o = is_marked(&self.marks.bits[k], first + i as u64);
                }
            }
        }
    }

    /// Tier `t`'s marks, two bits an index (bit `2i` of the words: index `i` reached as is, bit
    /// `2i + 1`: exchanged, or mirrored), where they are complete; `None` where every index
    /// counts as reached (or `t` is not a tier of the game).
    pub fn tier_marks(&self, t: Tier) -> Option<&[AtomicU64]> {
        self.marks.slot(t).filter(|&k| self.complete[k]).map(|k| &self.marks.bits[k][..])
    }

    /// The marks of a whole search ([`reach_tiered`]) read back from where a solve kept them:
    /// every tier's [`Reached::tier_marks`], in the order of [`GameExt::tiers`]. An error where
    /// their number or a tier's length is not what `game`'s index gives, or where the start
    /// does not allow the search.
    pub fn from_marks<G: Game + ?Sized>(
        game: &G,
        bits: Vec<Vec<AtomicU64>>,
    ) -> Result<Reached, SolveError> {
        let tiers = game.tiers();
        let inconsistent = |what: String| SolveError::Inconsistent { what };
        if bits.len() != tiers.len() {
            return Err(inconsistent(format!(
                "marks of {} tiers for a game of {}",
                bits.len(),
                tiers.len()
            )));
        }
        for (&t, words) in tiers.iter().zip(&bits) {
            if words.len() as u64 != marks_words(game, t) {
                return Err(inconsistent(format!(
                    "tier {}: {} words of marks, not {}",
                    game.tier_name(t),
                    words.len(),
                    marks_words(game, t)
                )));
            }
        }
        let sides = start_sides(game, true)?;
        let size = tiers.iter().map(|&t| game.tier_size(t)).collect();
        let complete = vec![true; tiers.len()];
        Ok(Reached { marks: Marks { tiers, bits }, complete, sides, size, pulled: 0 })
    }

    /// Tier `t`'s indices reached (by either side), a bit each (bit `i % 64` of word `i / 64`);
    /// `None` where its marks are not complete (every index counts as reached).
    pub(crate) fn tier_bits(&self, t: Tier) -> Option<Vec<u64>> {
        let words = self.tier_marks(t)?;
        // Each pair of bits to one: a word of marks gives 32 bits.
        let half = |w: u64| {
            let mut x = (w | w >> 1) & 0x5555_5555_5555_5555;
            x = (x | x >> 1) & 0x3333_3333_3333_3333;
            x = (x | x >> 2) & 0x0f0f_0f0f_0f0f_0f0f;
            x = (x | x >> 4) & 0x00ff_00ff_00ff_00ff;
            x = (x | x >> 8) & 0x0000_ffff_0000_ffff;
            (x | x >> 16) & 0xffff_ffff
        };
        let load = |k: usize| words.get(k).map_or(0, |w| w.load(Relaxed));
        Some(
            (0..words.len().div_ceil(2))
                .into_par_iter()
                .map(|j| half(load(2 * j)) | half(load(2 * j + 1)) << 32)
                .collect(),
        )
    }

    /// Frees tier `t`'s marks, for a solve that needs them no more (the tier is solved, and the
    /// marks are kept elsewhere for what follows). The tier then counts as reached throughout, as
    /// a tier whose marks are not complete.
    pub fn release(&mut self, t: Tier) {
        if let Some(k) = self.marks.slot(t) {
            self.marks.bits[k] = Vec::new();
            self.complete[k] = false;
        }
    }

    /// How many tiers the search pulled from their parents rather than pushed from them.
    pub fn pulled_tiers(&self) -> usize {
        self.pulled
    }

    /// Bytes held by the marks.
    pub fn heap_bytes(&self) -> u64 {
        self.marks.bits.iter().map(|b| b.len() as u64 * 8).sum()
    }

    /// Whether tier `t`'s marks are complete (always, after [`reach_tiered`]).
    pub fn is_complete(&self, t: Tier) -> bool {
        self.marks.slot(t).is_none_or(|k| self.complete[k])
    }

    /// The number of indices of tier `t` reached (by either side; all of them where the marks
    /// are not complete).
    pub fn count(&self, t: Tier) -> u64 {
        let Some(k) = self.marks.slot(t) else { return 0 };
        if !self.complete[k] {
            return self.size[k];
        }
        count_marked(&self.marks.bits[k])
    }
}

/// Searches the positions reachable from a tiered game's start, tier by tier from the start's
/// down, over canonical indices (the parent module's header says how sides are told apart). A
/// start that is not its own image under the symmetries, in a game without an exchange and with
/// more symmetries than a mirror, gives the classes reached, which
/// [`count_reached`](super::count_reached) then refuses to count.
pub fn reach_tiered<G: Game + ?Sized>(
    game: &G,
    progress: &dyn Progress,
) -> Result<Reached, SolveError> {
    reach(game, progress, false, true, Pull::Dense)
}

/// [`reach_tiered`] for the classes reached only
/// ([`count_classes_by_mover`](super::count_classes_by_mover), pruning): a start that is not its
/// own mirror image is searched one bit per class, each class once, and
/// [`count_reached`](super::count_reached) then refuses to count.
pub fn reach_tiered_classes<G: Game + ?Sized>(
    game: &G,
    progress: &dyn Progress,
) -> Result<Reached, SolveError> {
    reach(game, progress, false, false, Pull::Dense)
}

/// [`reach_tiered`] through the tiers without moves inside themselves
/// ([`perfectplay_core::TierIndex::moves_within`]) only: far cheaper where the others are loopy
/// (Nine Men's Morris's moving phase). Complete are the marks of the tiers without moves inside
/// whose parent tiers are all such and complete (its placement phase); every other tier counts as
/// reached throughout. Enough to prune the complete tiers; not to count.
pub fn reach_tiered_one_pass<G: Game + ?Sized>(
    game: &G,
    progress: &dyn Progress,
) -> Result<Reached, SolveError> {
    reach(game, progress, true, false, Pull::Dense)
}

/// `members`: tell a class's mirrored orientation apart where the start needs it; `pull`: which
/// tiers are pulled from their parents ([`pull`]).
pub(super) fn reach<G: Game + ?Sized>(
    game: &G,
    progress: &dyn Progress,
    one_pass: bool,
    members: bool,
    pull: Pull,
) -> Result<Reached, SolveError> {
    let tiers = game.tiers();
    let not_solved = |p: Position| SolveError::ChildNotSolved { position: p };
    let start = game.start();
    let sides = start_sides(game, members)?;
    let mirrored = sides == Sides::Mirrored;
    let complete = complete_tiers(game, &tiers, one_pass)?;
    // Marks only where they will be complete: a one-pass search leaves out the tiers with moves
    // inside and everything above them, which a pruning rewrite copies as they are.
    let marks = Marks::new(game, &tiers, &complete);
    let (c, exchanged) = match mirrored {
        true => (game.canonical(start), game.canonical(start) != start),
        false => game.canonical_exchanged(start),
    };
    let start_slot = marks.slot(game.tier(c)).ok_or_else(|| not_solved(c))?;
    if complete[start_slot] {
        Marks::set(&marks.bits[start_slot], game.tier_index(c) * SIDES + u64::from(exchanged));
    }

    // One side only where nothing is exchanged or mirrored: only then may a tier be pulled.
    let sided = mirrored || game.exchange(start).is_some();
    let mut plan = pull::Plan::new(game, &tiers, pull, sided);
    progress.begin("reachable positions", None);
    for (k, &t) in tiers.iter().enumerate().rev() {
        if one_pass && !complete[k] {
            continue;
        }
        if plan.decide(game, k, &marks) {
            plan.pull(game, k, &marks, progress)?;
            if !game.moves_within(t) {
                plan.searched(k, &marks);
                continue;
            }
        }
        let visited = &marks.bits[k];
        // The first round's frontier: everything reached from higher tiers (or the start).
        let mut current: Vec<AtomicU64> =
            visited.iter().map(|w| AtomicU64::new(w.load(Relaxed))).collect();
        let mut next: Vec<AtomicU64> = (0..visited.len()).map(|_| AtomicU64::new(0)).collect();
        loop {
            let search = Round { game, t, visited, marks: &marks, complete: &complete, mirrored };
            let found: Result<u64, SolveError> = current
                .par_chunks(WORDS_PER_TASK)
                .enumerate()
                .map_init(Worker::default, |worker, (task, chunk)| {
                    worker.located.find(game, t, task * WORDS_PER_TASK, chunk, true);
                    let found = search.reach_from(worker, &next)?;
                    progress.advance(found);
                    Ok(found)
                })
                .sum();
            if found? == 0 {
                break;
            }
            // Only this tier's new bits go round again (what was found in lower tiers waits in
            // their bits); `current` was drained by the swaps above and becomes the next `next`.
            std::mem::swap(&mut current, &mut next);
        }
        plan.searched(k, &marks);
    }
    progress.end();
    let size = tiers.iter().map(|&t| game.tier_size(t)).collect();
    Ok(Reached { marks, complete, sides, size, pulled: plan.pulled() })
}

/// Which side of its class the start is, as the search tells them apart: the start's images
/// under the symmetries should be the start or its exchange: then the members of each class
/// reached are known, and can be counted. Without an exchange, a start that is not symmetric
/// still gives the classes reached (`members`: its mirrored orientation told apart where the
/// game has a mirror only).
fn start_sides<G: Game + ?Sized>(game: &G, members: bool) -> Result<Sides, SolveError> {
    let start = game.start();
    let mut images = Vec::new();
    game.symmetry_images(start, &mut images);
    let exchanged_start = game.exchange(start);
    Ok(if !images.iter().any(|&q| q != start && Some(q) != exchanged_start) {
        Sides::Exchanged
    } else if exchanged_start.is_some() {
        return Err(SolveError::Unsupported {
            what: "analysis of a game with an exchange whose start is not symmetric".into(),
        });
    } else if members && game.symmetry_count() == 2 {
        Sides::Mirrored
    } else {
        Sides::ClassesOnly
    })
}

/// Which tiers' marks will be complete: every tier's in a whole search; in a one-pass search
/// those without moves inside whose parents are all complete (parents come later in `tiers`).
fn complete_tiers<G: Game + ?Sized>(
    game: &G,
    tiers: &[Tier],
    one_pass: bool,
) -> Result<Vec<bool>, SolveError> {
    let mut complete = vec![true; tiers.len()];
    if !one_pass {
        return Ok(complete);
    }
    let mut parents = vec![Vec::new(); tiers.len()];
    for (k, &t) in tiers.iter().enumerate() {
        for c in game.child_tiers(t) {
            if let Ok(j) = tiers.binary_search(&c) {
                // Completeness is settled parents first: children must come first.
                if j >= k {
                    return Err(SolveError::Inconsistent {
                        what: format!(
                            "tier {} lists child tier {} after itself",
                            game.tier_name(t),
                            game.tier_name(c)
                        ),
                    });
                }
                parents[j].push(k);
            }
        }
    }
    for k in (0..tiers.len()).rev() {
        complete[k] = !game.moves_within(tiers[k]) && parents[k].iter().all(|&p| complete[p]);
    }
    Ok(complete)
}

/// The error for an index the search marked that names no position: the game's ranking and its
/// moves disagree.
pub(super) fn unnamed<G: Game + ?Sized>(game: &G, t: Tier, index: u64) -> SolveError {
    SolveError::Inconsistent {
        what: format!(
            "tier {}: index {index} was reached but names no position",
            game.tier_name(t)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_marked_is_whether_some_index_of_the_range_is_marked() {
        let mut next = perfectplay_core::xorshift(54);
        // Sparse marks, by either side, over 20 words (320 indices).
        let words: Vec<AtomicU64> =
            (0..20).map(|_| AtomicU64::new(next() & next() & next() & next())).collect();
        let (mut some, mut none) = (0, 0);
        for from in 0..320 {
            for to in from..=320u64.min(from + 100) {
                let any = any_marked(&words, from..to);
                assert_eq!(any, (from..to).any(|i| is_marked(&words, i)), "{from}..{to}");
                if any {
                    some += 1
                } else {
                    none += 1
                }
            }
        }
        assert!(some > 1000 && none > 1000, "{some} ranges with a mark, {none} without");
    }

    #[test]
    fn a_search_that_pulls_tiers_from_their_parents_marks_what_the_push_marks() {
        // Bagh-Chal (no exchange, a symmetric start), its moving phase loopy; Fox and Geese with
        // a symmetric start (one side: pulled) and one without (mirrored: pushed throughout).
        for (name, variant, pulls) in [
            ("baghchal", "3x3", true),
            ("baghchal", "gamesman-3x3", true),
            ("foxandgeese", "4-geese", true),
            ("foxandgeese", "5-geese", false),
        ] {
            let game = perfectplay_games::lookup(name, Some(variant)).unwrap();
            let game: &dyn Game = game.as_ref();
            let pushed = reach(game, &crate::NoProgress, false, true, Pull::Never).unwrap();
            assert_eq!(pushed.pulled_tiers(), 0);
            for pull in [Pull::Always, Pull::Dense] {
                let pulled = reach(game, &crate::NoProgress, false, true, pull).unwrap();
                if pull == Pull::Always {
                    assert_eq!(pulled.pulled_tiers() > 0, pulls, "{name} {variant}");
                }
                let (mut marked, tiers) = (0, game.tiers());
                for &t in &tiers {
                    assert_eq!(pulled.tier_bits(t), pushed.tier_bits(t), "{name} {variant}");
                    marked += pushed.count(t);
                }
                assert!(marked > 100, "{name} {variant}: {marked} reached");
            }
        }
    }

    #[test]
    fn a_released_tier_holds_no_marks_and_counts_as_reached_throughout() {
        let game = perfectplay_games::lookup("sixmensmorris", None).unwrap();
        let game: &dyn Game = game.as_ref();
        let mut reached = reach_tiered(game, &crate::NoProgress).unwrap();
        let tiers = game.tiers();
        let (low, high) = (tiers[0], tiers[1]);
        let before = reached.heap_bytes();
        let low_bytes = marks_words(game, low) * 8;
        assert!(low_bytes > 0 && reached.is_complete(low));
        let kept = reached.tier_bits(high);
        reached.release(low);
        assert_eq!(reached.heap_bytes(), before - low_bytes);
        assert!(!reached.is_complete(low) && reached.tier_marks(low).is_none());
        assert_eq!(reached.count(low), game.tier_size(low));
        assert_eq!(reached.sides(low, 0), 3);
        // The other tier's marks are as they were.
        assert_eq!(reached.tier_bits(high), kept);
    }
}

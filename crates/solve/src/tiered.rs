//! Analysis of a tiered game ([`PositionSpace::Tiered`]): the positions reachable from the start,
//! found over the tiers' dense indices, counted per value-remoteness for the whole game and per
//! tier (003 Table B.5's columns: reachable, canonical, highest win and lose remoteness).
//!
//! Reachability is searched over canonical indices, two bits per index: a class reached "as is"
//! (a member in the canonical form's orientation) and "exchanged" (a member of its exchange,
//! [`Game::exchange`]). The other symmetries keep the reachable positions to themselves because
//! the start is its own image under them, so a class's reachable members are exactly those of the
//! sides reached: a child of the exchanged side is the exchange of a child of the canonical form.
//! The search goes tier by tier from the start's down (moves never climb), to a fixed point within
//! each tier.
//!
//! A game of two symmetries and no exchange whose start is not its own image (Fox and Geese with
//! 5, 8, 10, 12 or 14 geese) uses the second bit for the other orientation instead: "mirrored", a
//! member that is the canonical form's image under the symmetry that is not the identity. A child
//! of the mirrored member is the mirror of the child of the canonical form, so the same rule
//! carries a side to the children, and a class's reachable members are again those of its sides.
//!
//! [`PositionSpace::Tiered`]: perfectplay_core::PositionSpace::Tiered

use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use perfectplay_core::{Game, GameExt, KernelCache, Position, Tier, Value, ValueRemoteness};
use rayon::prelude::*;

use crate::counts::Analysis;
use crate::progress::Progress;
use crate::{Solution, SolveError, SolvedTier};

/// One tier's line of a tiered analysis. Reachable positions are counted in the tier they lie in
/// (so both of a pair of exchanged tiers have lines); canonical classes in their canonical tier,
/// or, where the exchange does not merge classes ([`perfectplay_core::Exchange::merges_classes`]),
/// each side of a class in its own tier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TierReport {
    /// The tier.
    pub tier: Tier,
    /// Its name ([`Game::tier_name`]).
    pub name: String,
    /// Reachable positions in the tier.
    pub reachable: u64,
    /// Canonical reachable positions (classes under all the game's symmetries) in the tier.
    pub canonical: u64,
    /// The highest remoteness of a reachable win in the tier.
    pub max_win: Option<u16>,
    /// The highest remoteness of a reachable loss in the tier.
    pub max_lose: Option<u16>,
}

/// Bits per index: reached as is, reached exchanged.
const SIDES: u64 = 2;
const WORDS_PER_TASK: usize = 1 << 10;

/// Per tier, two bits per index (none for a tier whose marks would not be complete).
struct Marks {
    tiers: Vec<Tier>,
    bits: Vec<Vec<AtomicU64>>,
}

impl Marks {
    fn new<G: Game + ?Sized>(game: &G, tiers: &[Tier], wanted: &[bool]) -> Marks {
        let bits = tiers
            .iter()
            .zip(wanted)
            .map(|(&t, &wanted)| {
                let words = if wanted { (game.tier_size(t) * SIDES).div_ceil(64) } else { 0 };
                (0..words).map(|_| AtomicU64::new(0)).collect()
            })
            .collect();
        Marks { tiers: tiers.to_vec(), bits }
    }

    fn slot(&self, t: Tier) -> Option<usize> {
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

/// The indices marked in word number `word` of a tier's bits, with their sides (bit 0: as is,
/// bit 1: exchanged).
fn marked(word: usize, w: u64) -> impl Iterator<Item = (u64, u64)> {
    let first = (word * 64) as u64 / SIDES;
    (0..64 / SIDES).filter_map(move |i| {
        let sides = w >> (i * SIDES) & 3;
        (sides != 0).then_some((first + i, sides))
    })
}

/// The marked indices of a run of words of a tier's bits (the first is word number
/// `first_word`), with their sides and positions. Where the marks are dense the game's kernel
/// walks the range in order ([`perfectplay_core::TierKernel::tier_positions`]); else each index
/// is unranked.
fn marked_positions<G: Game + ?Sized>(
    game: &G,
    t: Tier,
    first_word: usize,
    words: &[u64],
    out: &mut Vec<(u64, u64, Option<Position>)>,
) {
    out.clear();
    for (j, &w) in words.iter().enumerate() {
        out.extend(marked(first_word + j, w).map(|(index, sides)| (index, sides, None)));
    }
    let (Some(&(lo, ..)), Some(&(hi, ..))) = (out.first(), out.last()) else { return };
    match game.kernel() {
        // A walk costs a few steps per index; an unranking, some tens.
        Some(kernel) if (hi - lo) < 16 * out.len() as u64 => {
            let mut run = vec![None; (hi - lo + 1) as usize];
            kernel.tier_positions(t, lo, &mut run);
            for e in out.iter_mut() {
                e.2 = run[(e.0 - lo) as usize];
            }
        }
        _ => {
            for e in out.iter_mut() {
                e.2 = game.tier_position(t, e.0);
            }
        }
    }
}

/// Counts a solved tiered game's reachable positions: the whole game's value-remoteness rows and
/// one line per tier.
pub fn analyze_tiered<G: Game + ?Sized>(
    game: &G,
    solution: &Solution,
    progress: &dyn Progress,
) -> Result<(Analysis, Vec<TierReport>), SolveError> {
    let lookup = |t: Tier| -> Result<Cow<'_, SolvedTier>, SolveError> {
        solution.tier(t).map(Cow::Borrowed).ok_or_else(|| SolveError::Inconsistent {
            what: format!("tier {} is not in the solution", game.tier_name(t)),
        })
    };
    analyze_tiered_from(game, &lookup, progress)
}

/// [`analyze_tiered`] with each tier's values read when its count starts, one tier at a time
/// (from a database too large to load whole): the search for reachable positions needs no
/// values, only two bits per index.
pub fn analyze_tiered_from<'s, G: Game + ?Sized>(
    game: &G,
    tier_values: &dyn Fn(Tier) -> Result<Cow<'s, SolvedTier>, SolveError>,
    progress: &dyn Progress,
) -> Result<(Analysis, Vec<TierReport>), SolveError> {
    let reached = reach_tiered(game, progress)?;
    count_reached(game, &reached, tier_values, progress)
}

/// The canonical indices of a tiered game reachable from its start, per tier, with the sides
/// reached ([`reach_tiered`]): two bits per index. After [`reach_tiered_one_pass`] only some
/// tiers' marks are complete; the others count as reached throughout.
pub struct Reached {
    marks: Marks,
    /// Per tier (in `marks.tiers`' order), whether its marks are every index the start reaches.
    complete: Vec<bool>,
    /// What the second bit of an index says, and whether members can be counted.
    sides: Sides,
    /// Per tier, its number of indices.
    size: Vec<u64>,
}

/// What a search's second bit per index means ([`Reached`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sides {
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
        if self.marks.slot(t).is_some_and(|k| !self.complete[k]) {
            out.fill(true);
            return;
        }
        let words = self.marks.slot(t).map(|k| &self.marks.bits[k]);
        for (i, o) in out.iter_mut().enumerate() {
            let bit = (first + i as u64) * SIDES;
            *o = words
                .and_then(|w| w.get((bit / 64) as usize))
                .is_some_and(|w| w.load(Relaxed) >> (bit % 64) & 3 != 0);
        }
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
        let both = 0x5555_5555_5555_5555u64;
        self.marks.bits[k]
            .iter()
            .map(|w| {
                let w = w.load(Relaxed);
                u64::from(((w | w >> 1) & both).count_ones())
            })
            .sum()
    }
}

/// Searches the positions reachable from a tiered game's start, tier by tier from the start's
/// down, over canonical indices (the module's header says how sides are told apart). A start
/// that is not its own image under the symmetries, in a game without an exchange and with more
/// symmetries than a mirror, gives the classes reached, which [`count_reached`] then refuses to
/// count.
pub fn reach_tiered<G: Game + ?Sized>(
    game: &G,
    progress: &dyn Progress,
) -> Result<Reached, SolveError> {
    reach(game, progress, false, true)
}

/// [`reach_tiered`] for the classes reached only ([`count_classes_by_mover`], pruning): a start
/// that is not its own mirror image is searched one bit per class, each class once, and
/// [`count_reached`] then refuses to count.
pub fn reach_tiered_classes<G: Game + ?Sized>(
    game: &G,
    progress: &dyn Progress,
) -> Result<Reached, SolveError> {
    reach(game, progress, false, false)
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
    reach(game, progress, true, false)
}

/// `members`: tell a class's mirrored orientation apart where the start needs it.
fn reach<G: Game + ?Sized>(
    game: &G,
    progress: &dyn Progress,
    one_pass: bool,
    members: bool,
) -> Result<Reached, SolveError> {
    let tiers = game.tiers();
    let slot = |t: Tier| tiers.binary_search(&t).ok();
    let not_solved = |p: Position| SolveError::ChildNotSolved { position: p };
    // The start's images under the symmetries should be the start or its exchange: then the
    // members of each class reached are known, and can be counted. Without an exchange, a start
    // that is not symmetric still gives the classes reached.
    let start = game.start();
    let mut images = Vec::new();
    game.symmetry_images(start, &mut images);
    let exchanged_start = game.exchange(start);
    let sides = if !images.iter().any(|&q| q != start && Some(q) != exchanged_start) {
        Sides::Exchanged
    } else if exchanged_start.is_some() {
        return Err(SolveError::Unsupported {
            what: "analysis of a game with an exchange whose start is not symmetric".into(),
        });
    } else if members && game.symmetry_count() == 2 {
        Sides::Mirrored
    } else {
        Sides::ClassesOnly
    };
    let mirrored = sides == Sides::Mirrored;
    // Which tiers' marks will be complete: every tier's in a whole search; in a one-pass search
    // those without moves inside whose parents are all complete (parents come later in `tiers`).
    let mut complete = vec![true; tiers.len()];
    if one_pass {
        let mut parents = vec![Vec::new(); tiers.len()];
        for (k, &t) in tiers.iter().enumerate() {
            for c in game.child_tiers(t) {
                if let Some(j) = slot(c) {
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
    }
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

    progress.begin("reachable positions", None);
    for (k, &t) in tiers.iter().enumerate().rev() {
        if one_pass && !complete[k] {
            continue;
        }
        let visited = &marks.bits[k];
        // The first round's frontier: everything reached from higher tiers (or the start).
        let mut current: Vec<AtomicU64> =
            visited.iter().map(|w| AtomicU64::new(w.load(Relaxed))).collect();
        let mut next: Vec<AtomicU64> = (0..visited.len()).map(|_| AtomicU64::new(0)).collect();
        loop {
            let found: Result<u64, SolveError> = current
                .par_chunks(WORDS_PER_TASK)
                .enumerate()
                .map(|(task, chunk)| {
                    let mut children = Vec::new();
                    let mut sided = Vec::new();
                    let mut cache = KernelCache::default();
                    let mut found = 0u64;
                    let words: Vec<u64> = chunk.iter().map(|w| w.swap(0, Relaxed)).collect();
                    let mut located = Vec::new();
                    marked_positions(game, t, task * WORDS_PER_TASK, &words, &mut located);
                    for &(index, sides, p) in &located {
                        let p = p.ok_or_else(|| unnamed(game, t, index))?;
                        if game.primitive(p).is_some() {
                            continue;
                        }
                        sided.clear();
                        let by_kernel = game.kernel().is_some_and(|k| match mirrored {
                            true => k.child_locations_mirrored(p, &mut sided, &mut cache),
                            false => k.child_locations_sided(p, &mut sided, &mut cache),
                        });
                        if !by_kernel {
                            children.clear();
                            game.children(p, &mut children);
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
                        for &(ct, ci, exchanged) in &sided {
                            let words = if ct == t {
                                visited
                            } else {
                                let slot = marks
                                    .slot(ct)
                                    .ok_or(SolveError::ChildNotSolved { position: p })?;
                                if !complete[slot] {
                                    continue;
                                }
                                &marks.bits[slot]
                            };
                            let base = ci * SIDES;
                            for side in 0..SIDES {
                                if sides >> side & 1 == 0 {
                                    continue;
                                }
                                let bit = base + (side ^ u64::from(exchanged));
                                if Marks::set(words, bit) {
                                    found += 1;
                                    if ct == t {
                                        Marks::set(&next, bit);
                                    }
                                }
                            }
                        }
                    }
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
    }
    progress.end();
    let size = tiers.iter().map(|&t| game.tier_size(t)).collect();
    Ok(Reached { marks, complete, sides, size })
}

/// Counts the reachable positions found by [`reach_tiered`] per value-remoteness for the whole
/// game and per tier, reading each tier's values when its count starts.
pub fn count_reached<'s, G: Game + ?Sized>(
    game: &G,
    reached: &Reached,
    tier_values: &dyn Fn(Tier) -> Result<Cow<'s, SolvedTier>, SolveError>,
    progress: &dyn Progress,
) -> Result<(Analysis, Vec<TierReport>), SolveError> {
    if reached.sides == Sides::ClassesOnly {
        return Err(SolveError::Unsupported {
            what: "counting the positions reached from a start that is not symmetric".into(),
        });
    }
    require_complete(reached)?;
    let tiers = &reached.marks.tiers;
    let marks = &reached.marks;
    let start = game.start();
    // Counting: per canonical index reached, its value, and its reachable members (the images on
    // the sides reached), each counted in its own tier.
    let total: u64 = tiers.iter().map(|&t| game.tier_size(t)).sum();
    let merges = game.exchange_merges_classes() || game.exchange(start).is_none();
    progress.begin("count", Some(total));
    let mut analysis = Analysis::default();
    let mut lines: Vec<Option<TierReport>> = Vec::new();
    for (k, &t) in tiers.iter().enumerate() {
        let solved = tier_values(t)?;
        let counts = marks.bits[k]
            .par_chunks(WORDS_PER_TASK)
            .enumerate()
            .map(|(task, chunk)| -> Result<Counts, SolveError> {
                let mut counts = Counts::default();
                let mut images = Vec::new();
                let words: Vec<u64> = chunk.iter().map(|w| w.load(Relaxed)).collect();
                let mut located = Vec::new();
                marked_positions(game, t, task * WORDS_PER_TASK, &words, &mut located);
                for &(index, sides, p) in &located {
                    let p = p.ok_or_else(|| unnamed(game, t, index))?;
                    let vr = solved.values.get(index as usize);
                    let mut members = 0u64;
                    let side_class_size = match reached.sides {
                        Sides::Exchanged => game.kernel().and_then(|k| k.side_class_size(p)),
                        _ => None,
                    };
                    if reached.sides == Sides::Mirrored {
                        // The canonical form, and its mirror image where that is another
                        // position: the members of the sides reached.
                        images.clear();
                        game.symmetry_images(p, &mut images);
                        let mirror = images.iter().copied().find(|&q| q != p);
                        for (side, q) in [Some(p), mirror].into_iter().enumerate() {
                            let Some(q) = q else { continue };
                            if sides >> side & 1 == 1 || (mirror.is_none() && sides != 0) {
                                members += 1;
                                counts.tier_many(game.tier(q).0 as usize, vr, 1);
                            }
                        }
                    } else if let Some(size) = side_class_size {
                        // The class's members on each side reached, in their tiers.
                        if sides & 1 == 1 {
                            members += size;
                            counts.tier_many(game.tier(p).0 as usize, vr, size);
                        }
                        if sides & 2 == 2 {
                            let e = game.exchange(p).unwrap_or(p);
                            members += size;
                            counts.tier_many(game.tier(e).0 as usize, vr, size);
                        }
                    } else {
                        images.clear();
                        game.symmetry_images(p, &mut images);
                        images.sort_unstable();
                        images.dedup();
                        for &q in &images {
                            let on_side = sides == 3 || {
                                let side = u64::from(game.canonical_exchanged(q).1);
                                sides >> side & 1 == 1
                            };
                            if on_side {
                                members += 1;
                                counts.tier_many(game.tier(q).0 as usize, vr, 1);
                            }
                        }
                    }
                    if merges {
                        counts.value(vr, members, 1);
                        counts.canonical_in(t.0 as usize);
                    } else {
                        // One class per side reached, each in its own tier.
                        counts.value(vr, members, u64::from(sides.count_ones()));
                        if sides & 1 == 1 {
                            counts.canonical_in(t.0 as usize);
                        }
                        if sides & 2 == 2 {
                            let e = game.exchange(p).unwrap_or(p);
                            counts.canonical_in(game.tier(e).0 as usize);
                        }
                    }
                }
                progress.advance(chunk.len() as u64 * 64 / SIDES);
                Ok(counts)
            })
            .try_reduce(Counts::default, |a, b| Ok(a.sum(b)))?;
        for (bits, &(all, canonical)) in counts.values.iter().enumerate() {
            if all > 0 || canonical > 0 {
                if let Some(vr) = ValueRemoteness::from_bits(bits as u16) {
                    analysis.add_counts(vr, all, canonical);
                }
            }
        }
        if lines.len() < counts.reachable.len() {
            lines.resize(counts.reachable.len(), None);
        }
        for (r, line) in lines.iter_mut().enumerate().take(counts.reachable.len()) {
            let (reachable, canonical) = (counts.reachable[r], counts.canonical[r]);
            if reachable == 0 && canonical == 0 {
                continue;
            }
            let line = line.get_or_insert_with(|| TierReport {
                tier: Tier(r as u32),
                name: game.tier_name(Tier(r as u32)),
                reachable: 0,
                canonical: 0,
                max_win: None,
                max_lose: None,
            });
            line.reachable += reachable;
            line.canonical += canonical;
            line.max_win = line.max_win.max(counts.max_win[r]);
            line.max_lose = line.max_lose.max(counts.max_lose[r]);
        }
    }
    progress.end();
    Ok((analysis, lines.into_iter().flatten().collect()))
}

/// The classes reached (each canonical index once per side it was reached by, the exchanged side
/// as the exchanged position), counted by the player to move in them and their value:
/// `counts[player][value]`, [`Player::First`]'s row first, values indexed as [`Value`] orders
/// them (lose, draw, tie, win). Where the exchange merges classes, a class reached by both
/// sides is one state, counted by its canonical member's player to move; so is a class reached
/// in both orientations of a mirror. These are states up to the symmetries, as 002 counts Fox and
/// Geese's (by the side that wins them). Unlike [`count_reached`], nothing needs the members of a
/// class told apart, so a start that is not its own image under more symmetries than a mirror
/// is counted too.
///
/// [`Player::First`]: perfectplay_core::Player::First
pub fn count_classes_by_mover<'s, G: Game + ?Sized>(
    game: &G,
    reached: &Reached,
    tier_values: &dyn Fn(Tier) -> Result<Cow<'s, SolvedTier>, SolveError>,
    progress: &dyn Progress,
) -> Result<[[u64; 4]; 2], SolveError> {
    require_complete(reached)?;
    let tiers = &reached.marks.tiers;
    let total: u64 = tiers.iter().map(|&t| game.tier_size(t)).sum();
    progress.begin("count classes", Some(total));
    let merges = game.exchange_merges_classes() || reached.sides == Sides::Mirrored;
    let mut counts = [[0u64; 4]; 2];
    for (k, &t) in tiers.iter().enumerate() {
        let solved = tier_values(t)?;
        let tier_counts = reached.marks.bits[k]
            .par_chunks(WORDS_PER_TASK)
            .enumerate()
            .map(|(task, chunk)| -> Result<[[u64; 4]; 2], SolveError> {
                let mut counts = [[0u64; 4]; 2];
                let words: Vec<u64> = chunk.iter().map(|w| w.load(Relaxed)).collect();
                let mut located = Vec::new();
                marked_positions(game, t, task * WORDS_PER_TASK, &words, &mut located);
                for &(index, sides, p) in &located {
                    let p = p.ok_or_else(|| unnamed(game, t, index))?;
                    let value = solved.values.get(index as usize).value() as usize;
                    // Where the exchange merges classes, a class is one state whichever sides
                    // reached it (as `count_reached` counts it).
                    if sides & 1 == 1 || (merges && sides != 0) {
                        counts[game.to_move(p) as usize][value] += 1;
                    }
                    if sides & 2 == 2 && !merges {
                        let e = game.exchange(p).unwrap_or(p);
                        counts[game.to_move(e) as usize][value] += 1;
                    }
                }
                progress.advance(chunk.len() as u64 * 64 / SIDES);
                Ok(counts)
            })
            .try_reduce(|| [[0u64; 4]; 2], |a, b| Ok(add_by_mover(a, b)))?;
        counts = add_by_mover(counts, tier_counts);
    }
    progress.end();
    Ok(counts)
}

/// Indices a task of [`count_positions_by_mover`] walks.
const INDICES_PER_TASK: u64 = 1 << 16;

/// Every canonical position of a tiered game's tiers, whether the start reaches it or not (the
/// whole of what a strong solution answers), counted by the player to move and its value as
/// [`count_classes_by_mover`] counts the reached ones: `counts[player][value]`. A tier's values
/// come from `tier_values` one tier at a time; indices that name no position, or a position that
/// is not canonical, are not counted.
pub fn count_positions_by_mover<'s, G: Game + ?Sized>(
    game: &G,
    tier_values: &dyn Fn(Tier) -> Result<Cow<'s, SolvedTier>, SolveError>,
    progress: &dyn Progress,
) -> Result<[[u64; 4]; 2], SolveError> {
    let tiers = game.tiers();
    if tiers.is_empty() {
        return Err(SolveError::Unsupported { what: "counting a game without tiers".into() });
    }
    let total: u64 = tiers.iter().map(|&t| game.tier_size(t)).sum();
    progress.begin("count positions", Some(total));
    let kernel = game.kernel();
    let mut counts = [[0u64; 4]; 2];
    for t in tiers {
        let solved = tier_values(t)?;
        let size = game.tier_size(t);
        if solved.values.len() as u64 != size {
            return Err(SolveError::Inconsistent {
                what: format!(
                    "tier {}: {} values for {size} indices",
                    game.tier_name(t),
                    solved.values.len()
                ),
            });
        }
        let tier_counts = (0..size.div_ceil(INDICES_PER_TASK))
            .into_par_iter()
            .map(|task| {
                let first = task * INDICES_PER_TASK;
                let mut run = vec![None; (size - first).min(INDICES_PER_TASK) as usize];
                match kernel {
                    Some(kernel) => kernel.tier_positions(t, first, &mut run),
                    None => {
                        for (i, p) in run.iter_mut().enumerate() {
                            *p = game.tier_position(t, first + i as u64);
                        }
                    }
                }
                let mut cache = KernelCache::default();
                let mut counts = [[0u64; 4]; 2];
                for (i, p) in run.iter().enumerate() {
                    let (Some(p), index) = (*p, first + i as u64) else { continue };
                    let canonical = match kernel {
                        Some(kernel) => kernel.is_canonical_at(t, index, p, &mut cache),
                        None => game.canonical(p) == p,
                    };
                    if canonical {
                        let value = solved.values.get(index as usize).value() as usize;
                        counts[game.to_move(p) as usize][value] += 1;
                    }
                }
                progress.advance(run.len() as u64);
                counts
            })
            .reduce(|| [[0u64; 4]; 2], add_by_mover);
        counts = add_by_mover(counts, tier_counts);
    }
    progress.end();
    Ok(counts)
}

/// Counting needs every tier's marks complete: not after [`reach_tiered_one_pass`].
fn require_complete(reached: &Reached) -> Result<(), SolveError> {
    if reached.complete.iter().any(|&c| !c) {
        return Err(SolveError::Unsupported {
            what: "counting from a search through the tiers without moves inside only".into(),
        });
    }
    Ok(())
}

/// `a + b`, count by count ([`count_classes_by_mover`]).
fn add_by_mover(mut a: [[u64; 4]; 2], b: [[u64; 4]; 2]) -> [[u64; 4]; 2] {
    for (row, other) in a.iter_mut().zip(b) {
        for (c, o) in row.iter_mut().zip(other) {
            *c += o;
        }
    }
    a
}

/// The error for an index the search marked that names no position: the game's ranking and its
/// moves disagree.
fn unnamed<G: Game + ?Sized>(game: &G, t: Tier, index: u64) -> SolveError {
    SolveError::Inconsistent {
        what: format!(
            "tier {}: index {index} was reached but names no position",
            game.tier_name(t)
        ),
    }
}

/// Counts of one task: per value bits (all, canonical); per tier (by number) reachable, canonical
/// and the highest win and lose remoteness.
struct Counts {
    values: Vec<(u64, u64)>,
    reachable: Vec<u64>,
    canonical: Vec<u64>,
    max_win: Vec<Option<u16>>,
    max_lose: Vec<Option<u16>>,
}

impl Default for Counts {
    fn default() -> Counts {
        Counts {
            values: vec![(0, 0); 1 << 15],
            reachable: Vec::new(),
            canonical: Vec::new(),
            max_win: Vec::new(),
            max_lose: Vec::new(),
        }
    }
}

impl Counts {
    /// Makes room for tier number `t`.
    fn grow(&mut self, t: usize) {
        if self.reachable.len() <= t {
            self.reachable.resize(t + 1, 0);
            self.canonical.resize(t + 1, 0);
            self.max_win.resize(t + 1, None);
            self.max_lose.resize(t + 1, None);
        }
    }

    fn canonical_in(&mut self, t: usize) {
        self.grow(t);
        self.canonical[t] += 1;
    }

    fn value(&mut self, vr: ValueRemoteness, members: u64, classes: u64) {
        let e = &mut self.values[usize::from(vr.to_bits())];
        e.0 += members;
        e.1 += classes;
    }

    /// `n` reachable positions of value `vr` in tier number `t`.
    fn tier_many(&mut self, t: usize, vr: ValueRemoteness, n: u64) {
        self.grow(t);
        self.reachable[t] += n;
        let r = vr.remoteness();
        match vr.value() {
            Value::Win => self.max_win[t] = self.max_win[t].max(r.map(|r| r.0)),
            Value::Lose => self.max_lose[t] = self.max_lose[t].max(r.map(|r| r.0)),
            _ => {}
        }
    }

    fn sum(mut self, other: Counts) -> Counts {
        for (a, b) in self.values.iter_mut().zip(other.values) {
            a.0 += b.0;
            a.1 += b.1;
        }
        self.grow(other.reachable.len().saturating_sub(1));
        for t in 0..other.reachable.len() {
            self.reachable[t] += other.reachable[t];
            self.canonical[t] += other.canonical[t];
            self.max_win[t] = self.max_win[t].max(other.max_win[t]);
            self.max_lose[t] = self.max_lose[t].max(other.max_lose[t]);
        }
        self
    }
}

//! Forward discovery of the positions reachable from the start, tier by tier from the highest
//! down. Each tier's positions arrive as a sorted array once every tier above it is expanded (every
//! move leads to the same or a lower tier, so nothing can add to it later); positions found in the
//! tier itself are expanded until the tier is closed. Only pending lower tiers are held besides
//! the one being expanded, so a caller that drops tiers after use (analysis) holds a few layers.

use std::collections::BTreeMap;

use perfectplay_core::{Game, GameExt, Position, Tier};
use rayon::prelude::*;

use crate::progress::Progress;
use crate::space::{sort_dedup_pieces, Run, SortedPositions, NOT_FOUND};
use crate::SolveError;

/// Parents expanded between two looks at the pending tiers.
const SUPER_CHUNK: usize = 1 << 22;
/// Parents per parallel task.
const CHUNK: usize = 1 << 13;
/// Children remembered by a task, by a hash of their code, so that one found again soon after is
/// not kept twice.
const RECENT: usize = 1 << 12;
/// Runs a pending tier holds before they are merged into one.
const MAX_RUNS: usize = 8;

/// A lower tier's positions found so far: sorted runs, held packed (about 2.2 bytes a position
/// where a tier's codes are dense), and the tasks' finds since, as they came (kept as the tasks'
/// own vectors, not copied into one). The finds are sorted into a new run once they pass an
/// eighth of the runs' codes (at 8 bytes a code, about half the runs' bytes), and the runs merged
/// once there are more than [`MAX_RUNS`]: a tier of N positions found R times over is merged
/// about R / N times, never held whole as plain codes.
#[derive(Default)]
struct Pending {
    runs: Vec<Run>,
    held: usize,
    raw: Vec<Vec<u64>>,
    raw_len: usize,
}

impl Pending {
    fn add(&mut self, found: Vec<u64>) {
        if !found.is_empty() {
            self.raw_len += found.len();
            self.raw.push(found);
        }
    }

    /// Whether the finds are due to be sorted into a run.
    fn due(&self) -> bool {
        self.raw_len > (self.held / 8).max(1 << 24)
    }

    fn flush(&mut self) {
        if self.raw_len > 0 {
            let sorted = sort_dedup_pieces(std::mem::take(&mut self.raw));
            self.raw_len = 0;
            self.held += sorted.len();
            self.runs.push(Run::from_sorted(sorted));
        }
        if self.runs.len() > MAX_RUNS {
            let merged = Run::merge(std::mem::take(&mut self.runs));
            self.held = merged.len();
            self.runs.push(merged);
        }
    }

    /// Every position found, as one set.
    fn finish(mut self) -> SortedPositions {
        self.flush();
        Run::merge(self.runs).into_positions()
    }
}

/// One task's children: those in the tier being expanded, and those of each lower tier.
type Expanded = (Vec<u64>, Vec<(Tier, Vec<u64>)>);

/// Children of a slice of positions, split by tier: one `(same tier, lower tiers)` per task.
/// Each worker gathers its tasks' children in buffers of its own, and a task's are copied out at
/// their size: the vectors handed over never grow by doubling (whose copies, and fresh pages, were
/// about a tenth of Konane 6x6's discovery).
fn expand<G: Game + ?Sized>(
    game: &G,
    canonicalize: bool,
    tier: Tier,
    parents: &[u64],
) -> Vec<Expanded> {
    let space = game.space();
    // Where a position is primitive exactly when it has no children, its children alone say so.
    let ask_primitive = !game.primitive_only_without_moves();
    parents
        .par_chunks(CHUNK)
        .map_init(Gathered::default, |gathered, chunk| {
            let Gathered { children, same, lower, recent } = gathered;
            recent.clear();
            recent.resize(RECENT, u64::MAX);
            for &p in chunk {
                children.clear();
                let p = Position(p);
                if ask_primitive && game.primitive(p).is_some() {
                    continue;
                }
                game.children(p, children);
                for &c in children.iter() {
                    let c = if canonicalize { game.canonical(c) } else { c };
                    let slot =
                        &mut recent[(c.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize];
                    if *slot == c.0 {
                        continue;
                    }
                    *slot = c.0;
                    let t = space.tier(c);
                    if t == tier {
                        same.push(c.0);
                    } else if let Some((_, v)) = lower.iter_mut().find(|(lt, _)| *lt == t) {
                        v.push(c.0);
                    } else {
                        lower.push((t, vec![c.0]));
                    }
                }
            }
            // Copied out at their size (a clone's capacity is its length), the buffers kept.
            let handed = lower
                .iter_mut()
                .filter(|(_, v)| !v.is_empty())
                .map(|(t, v)| {
                    let out = v.clone();
                    v.clear();
                    (*t, out)
                })
                .collect();
            let out = same.clone();
            same.clear();
            (out, handed)
        })
        .collect()
}

/// One worker's buffers for [`expand`].
#[derive(Default)]
struct Gathered {
    children: Vec<Position>,
    same: Vec<u64>,
    lower: Vec<(Tier, Vec<u64>)>,
    recent: Vec<u64>,
}

/// Discovers every position reachable from the start (in canonical form if `canonicalize`), and
/// hands each tier to `on_tier` as it completes, highest tier first, with the lower tiers its
/// positions' moves lead to (its child tiers, in order). Asked to stop ([`Progress::stopped`]), it
/// ends between two blocks of its frontier with `Stopped`.
pub fn discover_tiers<G: Game + ?Sized, E: From<SolveError>>(
    game: &G,
    canonicalize: bool,
    progress: &dyn Progress,
    mut on_tier: impl FnMut(Tier, SortedPositions, Vec<Tier>) -> Result<(), E>,
) -> Result<(), E> {
    let mut pending: BTreeMap<Tier, Pending> = BTreeMap::new();
    let start = if canonicalize { game.canonical(game.start()) } else { game.start() };
    pending.entry(game.tier(start)).or_default().add(vec![start.0]);
    progress.begin(if canonicalize { "discover (canonical)" } else { "discover" }, None);
    let mut block = Vec::new();
    while let Some((tier, pend)) = pending.pop_last() {
        let mut members = pend.finish();
        let mut children = std::collections::BTreeSet::new();
        // The positions to expand: at first the whole tier, then those found inside it.
        let mut frontier: Option<Vec<u64>> = None;
        loop {
            let total = frontier.as_ref().map_or(members.len(), Vec::len);
            let mut same_tier: Vec<Vec<u64>> = Vec::new();
            let mut same_len = 0usize;
            // Raw children inside the tier are deduplicated whenever they have doubled since the
            // last time: a game with many moves inside a tier (Tic-Tac-Two: about 40) would
            // otherwise hold 40 codes per frontier position.
            let mut compacted = 1usize << 24;
            for first in (0..total).step_by(SUPER_CHUNK) {
                if progress.stopped() {
                    return Err(SolveError::Stopped.into());
                }
                let end = (first + SUPER_CHUNK).min(total);
                let front: &[u64] = match &frontier {
                    Some(f) => &f[first..end],
                    None => {
                        members.keys_into(first..end, &mut block);
                        &block
                    }
                };
                for (same, lower) in expand(game, canonicalize, tier, front) {
                    if !same.is_empty() {
                        same_len += same.len();
                        same_tier.push(same);
                    }
                    for (t, v) in lower {
                        children.insert(t);
                        pending.entry(t).or_default().add(v);
                    }
                }
                if same_len > compacted {
                    let sorted = sort_dedup_pieces(std::mem::take(&mut same_tier));
                    compacted = compacted.max(sorted.len() * 2);
                    same_len = sorted.len();
                    same_tier.push(sorted);
                }
                for p in pending.values_mut().filter(|p| p.due()) {
                    p.flush();
                }
                progress.advance(front.len() as u64);
            }
            // Keep only the positions not yet in the tier.
            let mut new = sort_dedup_pieces(same_tier);
            let mut found = Vec::new();
            let mut kept = 0;
            for c in 0..new.len().div_ceil(CHUNK) {
                let range = c * CHUNK..((c + 1) * CHUNK).min(new.len());
                members.indices_of(&new[range.clone()], &mut found);
                for (i, &f) in range.zip(&found) {
                    if f == NOT_FOUND {
                        new[kept] = new[i];
                        kept += 1;
                    }
                }
            }
            new.truncate(kept);
            if new.is_empty() {
                break;
            }
            let runs = vec![Run::of_positions(members), Run::from_sorted(new.clone())];
            members = Run::merge(runs).into_positions();
            frontier = Some(new);
        }
        on_tier(tier, members, children.into_iter().collect())?;
    }
    progress.end();
    Ok(())
}

/// The positions of a dense game reachable from the start, as a bitset over the index space (one
/// bit per index: 297 MB for Five Field Kono's 2.4e9). Breadth-first, level by level; each level's
/// frontier is a second bitset, so memory stays at three bits per index whatever the levels' sizes.
#[derive(Debug)]
pub struct Reachable {
    words: Vec<u64>,
    count: u64,
}

impl Reachable {
    /// Whether an index is reachable.
    #[inline]
    pub fn contains(&self, p: Position) -> bool {
        self.words.get((p.0 / 64) as usize).is_some_and(|w| w >> (p.0 % 64) & 1 == 1)
    }

    /// The number of reachable positions.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The words of the bitset: bit `i % 64` of word `i / 64` is index `i`.
    pub fn words(&self) -> &[u64] {
        &self.words
    }
}

/// Breadth-first search from the start over a dense index space of `size` positions.
pub fn reachable_dense<G: Game + ?Sized>(
    game: &G,
    size: u64,
    progress: &dyn Progress,
) -> Reachable {
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    const WORDS_PER_TASK: usize = 1 << 10;
    let words = size.div_ceil(64) as usize;
    let bits = || (0..words).map(|_| AtomicU64::new(0)).collect::<Vec<AtomicU64>>();
    let visited = bits();
    let mut current = bits();
    let mut next = bits();
    let set = |bits: &[AtomicU64], p: u64| -> bool {
        let (w, b) = ((p / 64) as usize, 1u64 << (p % 64));
        // A plain read first: most children were seen already, and a read needs no lock.
        bits[w].load(Relaxed) & b == 0 && bits[w].fetch_or(b, Relaxed) & b == 0
    };
    let start = game.start().0;
    set(&visited, start);
    set(&current, start);
    let mut count = 1u64;
    progress.begin("reachable positions", None);
    loop {
        let found: u64 = current
            .par_chunks(WORDS_PER_TASK)
            .enumerate()
            .map(|(task, chunk)| {
                let mut children = Vec::new();
                let mut found = 0u64;
                for (k, word) in chunk.iter().enumerate() {
                    let mut w = word.swap(0, Relaxed);
                    while w != 0 {
                        let p =
                            ((task * WORDS_PER_TASK + k) * 64) as u64 + w.trailing_zeros() as u64;
                        w &= w - 1;
                        if game.primitive(Position(p)).is_some() {
                            continue;
                        }
                        children.clear();
                        game.children(Position(p), &mut children);
                        for c in &children {
                            if set(&visited, c.0) {
                                set(&next, c.0);
                                found += 1;
                            }
                        }
                    }
                }
                progress.advance(found);
                found
            })
            .sum();
        if found == 0 {
            break;
        }
        count += found;
        std::mem::swap(&mut current, &mut next);
    }
    progress.end();
    Reachable { words: visited.into_iter().map(AtomicU64::into_inner).collect(), count }
}

//! Analysis: positions reachable from the start counted per value-remoteness, all and canonical
//! (unique under the game's symmetries).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use perfectplay_core::{Game, GameExt, ValueRemoteness};
use rayon::prelude::*;

use crate::discover::{discover_tiers, reachable_dense};
use crate::progress::Progress;
use crate::space::{SortedPositions, TierSpace, NOT_FOUND};
use crate::{Analysis, Solution, SolveError, SolvedTier, TierValues};

/// Counts the reachable positions of a solved game per value-remoteness. Canonical counts come from
/// the canonical positions reachable from the start. All counts, when the game has symmetries:
/// if the game lists a position's images and the start is its own only image (so the reachable
/// positions are closed under the symmetries), each canonical position counts its distinct images;
/// otherwise a second discovery without symmetry reduction counts them, streamed tier by tier.
pub fn analyze<G: Game + ?Sized>(
    game: &G,
    solution: &Solution,
    progress: &dyn Progress,
) -> Result<Analysis, SolveError> {
    analyze_counting(game, solution, progress, true)
}

/// [`analyze`], choosing whether a sparse game's positions may be counted by their canonical
/// forms' images (when the start allows it) or always by a second search: tests compare the two.
pub fn analyze_counting<G: Game + ?Sized>(
    game: &G,
    solution: &Solution,
    progress: &dyn Progress,
    by_images: bool,
) -> Result<Analysis, SolveError> {
    if let (perfectplay_core::PositionSpace::Dense { size }, [tier]) =
        (game.space(), solution.tiers())
    {
        return Ok(analyze_dense(game, size, &tier.values, solution.is_canonical(), progress));
    }
    if game.space().is_tiered() {
        return crate::tiered::analyze_tiered(game, solution, progress).map(|(a, _)| a);
    }
    let sparse = solution.tiers().iter().all(|t| matches!(t.space, TierSpace::Sorted(_)));
    let mut counts = TierCounts::new(game, solution.is_canonical(), by_images);
    let mut analysis = if sparse {
        // Counting a tier's classes (a solve without symmetry reduction) may hold an eighth of
        // the solution's bytes more.
        let budget = solution.heap_bytes() / 8;
        for t in solution.tiers() {
            counts.add(solution, t, budget)?;
        }
        if counts.alone() {
            return Ok(counts.finish());
        }
        counts.finish()
    } else {
        let mut analysis = Analysis::default();
        let has_symmetry = counts.has_symmetry;
        discover_tiers(game, has_symmetry, progress, |_, s, _| {
            for (vr, n, _) in count_tier(game, &s, Stored::Canonical(solution), false)? {
                analysis.add(vr, if has_symmetry { 0 } else { n }, n);
            }
            Ok::<(), SolveError>(())
        })?;
        if !counts.has_symmetry || (counts.closed && counts.canonical) {
            return Ok(analysis);
        }
        analysis
    };
    // All counts of a game with symmetries whose canonical positions do not give them: a second
    // discovery without symmetry reduction, streamed tier by tier.
    discover_tiers(game, false, progress, |_, s, _| {
        for (vr, n, _) in count_tier(game, &s, Stored::Canonical(solution), false)? {
            analysis.add(vr, n, 0);
        }
        Ok::<(), SolveError>(())
    })?;
    Ok(analysis)
}

/// The analysis of a sparse game counted tier by tier, each from its solved tier: after a solve
/// ([`analyze`]), or during one as each tier is solved ([`crate::SolveOptions::count`]) where
/// a tier gives all its counts alone ([`TierCounts::alone`]).
pub(crate) struct TierCounts<'g, G: Game + ?Sized> {
    game: &'g G,
    analysis: Analysis,
    has_symmetry: bool,
    canonical: bool,
    /// The reachable positions are closed under the symmetries (the start is its own only image):
    /// each canonical position counts its distinct images.
    closed: bool,
}

impl<'g, G: Game + ?Sized> TierCounts<'g, G> {
    /// Counts for a solve that holds canonical forms where `canonical`; `by_images` as
    /// [`analyze_counting`]'s.
    pub(crate) fn new(game: &'g G, canonical: bool, by_images: bool) -> Self {
        let has_symmetry = game.symmetry_count() > 1;
        let closed = by_images && has_symmetry && {
            let mut images = Vec::new();
            game.symmetry_images(game.start(), &mut images);
            !images.is_empty() && images.iter().all(|&q| q == game.start())
        };
        TierCounts { game, analysis: Analysis::default(), has_symmetry, canonical, closed }
    }

    /// Whether the tiers give every count alone: not where a solve reduced by symmetries holds
    /// positions not closed under them (their images are counted by a second discovery, which
    /// reads the whole solution).
    pub(crate) fn alone(&self) -> bool {
        !(self.has_symmetry && self.canonical && !self.closed)
    }

    /// Counts one sparse tier of `solution` (a tier held in part is read by code). Counting its
    /// classes (a solve without symmetry reduction of a game with symmetries) holds at most
    /// about `budget` bytes more.
    pub(crate) fn add(
        &mut self,
        solution: &Solution,
        t: &SolvedTier,
        budget: usize,
    ) -> Result<(), SolveError> {
        let TierSpace::Sorted(s) = &t.space else { return Ok(()) };
        let (game, has_symmetry) = (self.game, self.has_symmetry);
        if self.canonical || !has_symmetry {
            // The solution holds exactly the canonical reachable positions. A whole tier's values
            // are read by index, not looked up by code.
            let stored = match solution.covers(t.tier, None) {
                true => Stored::Values(&t.values),
                false => Stored::ByCode(solution),
            };
            for (vr, n, orbits) in count_tier(game, s, stored, self.closed)? {
                let all = match (has_symmetry, self.closed) {
                    (false, _) => n,
                    (true, true) => orbits,
                    (true, false) => 0,
                };
                self.analysis.add(vr, all, n);
            }
        } else {
            // A solve without symmetry reduction of a game with symmetries: the tier holds every
            // reachable position of it, so it gives all counts directly, and the canonical counts
            // are its distinct canonical forms.
            for (vr, all, canonical) in count_classes(game, s, &t.values, budget) {
                self.analysis.add(vr, all, canonical);
            }
        }
        Ok(())
    }

    /// The counts so far.
    pub(crate) fn finish(self) -> Analysis {
        self.analysis
    }
}

/// Where [`count_tier`] finds a position's value.
#[derive(Clone, Copy)]
enum Stored<'a> {
    /// The tier's values, in the order of its positions.
    Values(&'a TierValues),
    /// The solution's, the position being stored as it is.
    ByCode(&'a Solution),
    /// The solution's, through the position's canonical form.
    Canonical(&'a Solution),
}

/// Per value, the positions of a sorted tier and, where `orbits`, the sum of their distinct
/// symmetric images.
fn count_tier<G: Game + ?Sized>(
    game: &G,
    positions: &SortedPositions,
    stored: Stored<'_>,
    orbits: bool,
) -> Result<Vec<(ValueRemoteness, u64, u64)>, SolveError> {
    const CHUNK: usize = 1 << 14;
    let missing = AtomicBool::new(false);
    let counts = (0..positions.len().div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            let mut local: BTreeMap<u16, (u64, u64)> = BTreeMap::new();
            let mut images = Vec::new();
            let mut keys = Vec::with_capacity(CHUNK);
            let end = ((chunk + 1) * CHUNK).min(positions.len());
            positions.keys_into(chunk * CHUNK..end, &mut keys);
            for (k, &p) in keys.iter().enumerate() {
                let p = perfectplay_core::Position(p);
                let vr = match stored {
                    Stored::Values(values) => Some(values.get(chunk * CHUNK + k)),
                    Stored::ByCode(solution) => solution.get_stored(game, p),
                    Stored::Canonical(solution) => solution.get(game, p),
                };
                let orbit = if orbits {
                    images.clear();
                    game.symmetry_images(p, &mut images);
                    images.sort_unstable();
                    images.dedup();
                    images.len() as u64
                } else {
                    1
                };
                match vr {
                    Some(vr) => {
                        let e = local.entry(vr.to_bits()).or_default();
                        e.0 += 1;
                        e.1 += orbit;
                    }
                    None => missing.store(true, Ordering::Relaxed),
                }
            }
            local
        })
        .reduce(BTreeMap::new, |mut a, b| {
            for (k, (n, w)) in b {
                let e = a.entry(k).or_default();
                e.0 += n;
                e.1 += w;
            }
            a
        });
    if missing.load(Ordering::Relaxed) {
        return Err(SolveError::ChildNotSolved { position: perfectplay_core::Position(0) });
    }
    Ok(counts
        .into_iter()
        .filter_map(|(k, (n, w))| Some((ValueRemoteness::from_bits(k)?, n, w)))
        .collect())
}

/// Bits of a value-remoteness in [`ValueRemoteness::to_bits`].
const VALUE_BITS: u32 = 15;

/// Per value, the positions of a tier and their symmetry classes (distinct canonical forms).
/// Symmetric positions share a tier in every game here (tiers count pieces) and a value, so each
/// position's canonical form and value (its code in the tier's dictionary), packed into one code,
/// are sorted and made distinct: what is left is one code a class. The sort holds two codes of 8
/// bytes a position; where that passes `budget` bytes, the tier is counted in passes (at most
/// 256), each keeping only the classes whose canonical form hashes to it. The first pass notes
/// each position's pass in a byte (n bytes more), so that each later one decodes and
/// canonicalises only its own share again ([`SortedPositions::keys_at`]). Looking the canonical
/// forms up instead, as [`count_classes_by_lookup`] does, reads the tier at random and took five
/// times as long on Konane 6x6. Codes too wide to pack are counted by [`count_classes_by_lookup`].
fn count_classes<G: Game + ?Sized>(
    game: &G,
    positions: &SortedPositions,
    values: &TierValues,
    budget: usize,
) -> Vec<(ValueRemoteness, u64, u64)> {
    const CHUNK: usize = 1 << 16;
    let n = positions.len();
    // A class's value goes into its code as the tier's dictionary code where it has one (Konane
    // 6x6: 5 bits, where a value's 15 took the radix sort a fourth pass), else as its bits.
    let (tag_bits, dictionary) = match values {
        TierValues::Narrow { dictionary, .. } => {
            let bits = usize::BITS - dictionary.len().saturating_sub(1).leading_zeros();
            (bits.max(1), Some(dictionary))
        }
        _ => (VALUE_BITS, None),
    };
    let tag = |i: usize| match values {
        TierValues::Narrow { codes, .. } => u64::from(codes[i]),
        _ => u64::from(values.get(i).to_bits()),
    };
    let bits_of =
        |tag: u64| dictionary.map_or(tag as usize, |d| usize::from(d[tag as usize].to_bits()));
    if n > 0 && positions.key(n - 1) >> (64 - tag_bits) != 0 {
        return count_classes_by_lookup(game, positions, values);
    }
    let chunks = n.div_ceil(CHUNK);
    let passes = (16 * n).div_ceil(budget.max(1)).clamp(1, 256) as u64;
    let all = (0..chunks).into_par_iter().fold(Histograms::default, |Histograms(mut all, k), c| {
        for i in c * CHUNK..((c + 1) * CHUNK).min(n) {
            all[usize::from(values.get(i).to_bits())] += 1;
        }
        Histograms(all, k)
    });
    let mut counts = all.reduce(Histograms::default, Histograms::sum);
    // Each position's pass, a byte a position, set by the first pass, so that each later pass
    // canonicalises only its own share.
    let mut pass_of = vec![0u8; if passes > 1 { n } else { 0 }];
    // A pass's share of a chunk, with room for the hash's spread (a reallocation would double
    // the piece).
    let share = CHUNK / passes as usize;
    let room = (share + share / 8 + 64).min(CHUNK);
    let code = |least: u64, i: usize| least << tag_bits | tag(i);
    for pass in 0..passes {
        // A canonical form is the least of its images, so no larger than the tier's largest code.
        let pieces: Vec<Vec<u64>> = if pass == 0 {
            let mut ids: Vec<&mut [u8]> = pass_of.chunks_mut(CHUNK).collect();
            ids.resize_with(chunks, Default::default);
            ids.into_par_iter()
                .enumerate()
                .map(|(c, ids)| {
                    let mut keys = Vec::with_capacity(CHUNK);
                    positions.keys_into(c * CHUNK..((c + 1) * CHUNK).min(n), &mut keys);
                    let mut kept = Vec::with_capacity(room);
                    for (k, &p) in keys.iter().enumerate() {
                        let least = game.canonical(perfectplay_core::Position(p)).0;
                        let id = (least.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) % passes;
                        if let Some(slot) = ids.get_mut(k) {
                            *slot = id as u8;
                        }
                        if id == 0 {
                            kept.push(code(least, c * CHUNK + k));
                        }
                    }
                    kept
                })
                .collect()
        } else {
            pass_of
                .par_chunks(CHUNK)
                .enumerate()
                .map(|(c, ids)| {
                    // Only this pass's positions decoded.
                    let mine: Vec<usize> = (c * CHUNK..)
                        .zip(ids)
                        .filter(|&(_, &id)| u64::from(id) == pass)
                        .map(|(i, _)| i)
                        .collect();
                    let mut keys = Vec::with_capacity(mine.len());
                    positions.keys_at(mine.iter().copied(), &mut keys);
                    let mut kept = Vec::with_capacity(room);
                    for (&i, &p) in mine.iter().zip(&keys) {
                        let least = game.canonical(perfectplay_core::Position(p)).0;
                        kept.push(code(least, i));
                    }
                    kept
                })
                .collect()
        };
        let classes = crate::space::sort_dedup_pieces(pieces);
        let canonical =
            classes.par_chunks(CHUNK).fold(Histograms::default, |Histograms(a, mut k), c| {
                for &code in c {
                    k[bits_of(code & ((1 << tag_bits) - 1))] += 1;
                }
                Histograms(a, k)
            });
        counts = canonical.reduce(Histograms::default, Histograms::sum).sum(counts);
    }
    counts.rows()
}

/// [`count_classes`] for codes too wide to pack with a value: a class is counted at its least
/// reachable member. A position that is its own canonical form is that member; any other is not
/// if its canonical form is reached, else if any smaller image is. The images are looked up in
/// the tier, a chunk's at once ([`SortedPositions::indices_of`]).
fn count_classes_by_lookup<G: Game + ?Sized>(
    game: &G,
    positions: &SortedPositions,
    values: &TierValues,
) -> Vec<(ValueRemoteness, u64, u64)> {
    const CHUNK: usize = 1 << 12;
    let n = positions.len();
    (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .fold(
            || (Histograms::default(), ClassScratch::default()),
            |(Histograms(mut all, mut canonical), mut s), c| {
                let first = c * CHUNK;
                positions.keys_into(first..((c + 1) * CHUNK).min(n), &mut s.keys);
                s.bits.clear();
                s.bits.extend((0..s.keys.len()).map(|k| values.get(first + k).to_bits()));
                // Wave 1: each position's canonical form, looked up where it is another.
                s.asked.clear();
                s.owners.clear();
                for (k, &p) in s.keys.iter().enumerate() {
                    all[usize::from(s.bits[k])] += 1;
                    let least = game.canonical(perfectplay_core::Position(p)).0;
                    if least == p {
                        canonical[usize::from(s.bits[k])] += 1;
                    } else {
                        s.asked.push(least);
                        s.owners.push(k as u32);
                    }
                }
                positions.indices_of(&s.asked, &mut s.found);
                // Wave 2: where the canonical form is not reached, every smaller image; the
                // position counts its class if none is reached either.
                let (asked, owners) = (&mut s.asked_again, &mut s.owners_again);
                asked.clear();
                owners.clear();
                s.open.clear();
                s.open.resize(s.keys.len(), false);
                for (&k, _) in s.owners.iter().zip(&s.found).filter(|(_, &f)| f == NOT_FOUND) {
                    let p = s.keys[k as usize];
                    s.open[k as usize] = true;
                    s.images.clear();
                    game.symmetry_images(perfectplay_core::Position(p), &mut s.images);
                    for q in s.images.iter().filter(|q| q.0 < p) {
                        asked.push(q.0);
                        owners.push(k);
                    }
                }
                positions.indices_of(asked, &mut s.found);
                for (&k, _) in owners.iter().zip(&s.found).filter(|(_, &f)| f != NOT_FOUND) {
                    s.open[k as usize] = false;
                }
                for (k, _) in s.open.iter().enumerate().filter(|(_, &open)| open) {
                    canonical[usize::from(s.bits[k])] += 1;
                }
                (Histograms(all, canonical), s)
            },
        )
        .map(|(h, _)| h)
        .reduce(Histograms::default, Histograms::sum)
        .rows()
}

/// [`count_classes`]' buffers for one chunk.
#[derive(Default)]
struct ClassScratch {
    keys: Vec<u64>,
    bits: Vec<u16>,
    asked: Vec<u64>,
    owners: Vec<u32>,
    asked_again: Vec<u64>,
    owners_again: Vec<u32>,
    found: Vec<u32>,
    open: Vec<bool>,
    images: Vec<perfectplay_core::Position>,
}

/// Analysis of a dense game: a breadth-first search marks the reachable indices in a bitset, then
/// every reachable position is counted under its (canonical form's) value, and once more among
/// the canonical ones if it is its own canonical form (the least code of its symmetry class, as
/// GamesmanClassic counts "positions unique under symmetry").
fn analyze_dense<G: Game + ?Sized>(
    game: &G,
    size: u64,
    values: &TierValues,
    canonical_values: bool,
    progress: &dyn Progress,
) -> Analysis {
    let reachable = reachable_dense(game, size, progress);
    const WORDS_PER_TASK: usize = 1 << 12;
    progress.begin("count", Some(reachable.count()));
    let counts = reachable
        .words()
        .par_chunks(WORDS_PER_TASK)
        .enumerate()
        .fold(Histograms::default, |Histograms(mut all, mut canonical), (task, chunk)| {
            let mut seen = 0;
            for (k, &word) in chunk.iter().enumerate() {
                let mut w = word;
                while w != 0 {
                    let p = ((task * WORDS_PER_TASK + k) * 64) as u64 + w.trailing_zeros() as u64;
                    w &= w - 1;
                    let c = game.canonical(perfectplay_core::Position(p));
                    let stored = if canonical_values { c.0 } else { p };
                    let bits = usize::from(values.get(stored as usize).to_bits());
                    all[bits] += 1;
                    if c.0 == p {
                        canonical[bits] += 1;
                    }
                    seen += 1;
                }
            }
            progress.advance(seen);
            Histograms(all, canonical)
        })
        .reduce(Histograms::default, Histograms::sum);
    progress.end();
    let mut analysis = Analysis::default();
    for (vr, n, k) in counts.rows() {
        analysis.add(vr, n, k);
    }
    analysis
}

/// Positions counted per value (indexed by value bits): all, and canonical.
struct Histograms(Vec<u64>, Vec<u64>);

impl Default for Histograms {
    fn default() -> Self {
        Histograms(vec![0; 1 << 15], vec![0; 1 << 15])
    }
}

impl Histograms {
    fn sum(mut self, other: Histograms) -> Histograms {
        self.0.iter_mut().zip(other.0).for_each(|(x, y)| *x += y);
        self.1.iter_mut().zip(other.1).for_each(|(x, y)| *x += y);
        self
    }

    /// (value, all, canonical) for every value counted.
    fn rows(&self) -> Vec<(ValueRemoteness, u64, u64)> {
        self.0
            .iter()
            .zip(&self.1)
            .enumerate()
            .filter(|(_, (&n, _))| n > 0)
            .filter_map(|(bits, (&n, &k))| Some((ValueRemoteness::from_bits(bits as u16)?, n, k)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{solve, NoProgress, SolveOptions};

    /// Both ways of counting classes agree, tier by tier, on a game whose reachable positions are
    /// not closed under its symmetries (some classes' canonical forms are never reached), and
    /// counting in passes changes nothing.
    #[test]
    fn classes_counted_by_sorting_and_by_lookup_agree() {
        let game = perfectplay_games::lookup("konane", Some("5x5-corner")).unwrap();
        let options = SolveOptions { canonicalize: false, ..SolveOptions::default() };
        let solution = solve(game.as_ref(), options, &NoProgress, None).unwrap();
        let mut unreached = 0;
        for t in solution.tiers() {
            let TierSpace::Sorted(s) = &t.space else { panic!("a sparse game's tier") };
            let sorted = count_classes(game.as_ref(), s, &t.values, usize::MAX);
            assert_eq!(sorted, count_classes_by_lookup(game.as_ref(), s, &t.values));
            // In passes (about 1,000 positions a pass), the same counts.
            assert_eq!(sorted, count_classes(game.as_ref(), s, &t.values, 16_000));
            let canonical: u64 = sorted.iter().map(|&(_, _, k)| k).sum();
            unreached += s
                .iter()
                .filter(|&p| {
                    let c = game.canonical(perfectplay_core::Position(p));
                    s.index_of(c).is_none()
                })
                .count();
            assert!(canonical <= s.len() as u64);
        }
        assert!(unreached > 0, "every canonical form reached: the lookup's second wave untried");
    }
}

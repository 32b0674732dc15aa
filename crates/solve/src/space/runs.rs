//! A set of codes that grows by sorted batches and is held packed meanwhile: forward discovery's
//! pending tiers. A run is a sorted, duplicate-free set cut into parts of about [`PART`] codes,
//! each part a [`SortedPositions`] (about 2.2 bytes a code where codes are dense, against 8 for a
//! plain array). Runs are merged on every core, part by part: the key range is cut where the
//! largest run's parts fall, every run is read over each cut's range, and each range is merged
//! and packed on its own, the runs' parts dropped as the ranges pass them.

use rayon::prelude::*;

use super::sort::merge_piece;
use super::SortedPositions;

/// Codes per part.
const PART: usize = 1 << 22;

/// A sorted, duplicate-free set of codes held in packed parts, each part's codes below the next's.
#[derive(Debug, Default)]
pub struct Run {
    parts: Vec<SortedPositions>,
    /// Each part's last code.
    lasts: Vec<u64>,
    /// The codes before each part, and the whole count last.
    starts: Vec<usize>,
}

impl Run {
    /// Packs sorted, duplicate-free codes (where they make one part, without a copy).
    pub fn from_sorted(keys: Vec<u64>) -> Run {
        if keys.len() <= PART {
            return Run::of_positions(SortedPositions::from_sorted(keys));
        }
        Run::of(keys.par_chunks(PART).map(|c| SortedPositions::from_sorted(c.to_vec())).collect())
    }

    /// A run of one set.
    pub fn of_positions(positions: SortedPositions) -> Run {
        Run::of(vec![positions])
    }

    fn of(parts: Vec<SortedPositions>) -> Run {
        let parts: Vec<SortedPositions> = parts.into_iter().filter(|p| !p.is_empty()).collect();
        let lasts = parts.iter().map(|p| p.key(p.len() - 1)).collect();
        let mut starts = vec![0];
        for p in &parts {
            starts.push(starts.last().copied().unwrap_or(0) + p.len());
        }
        Run { parts, lasts, starts }
    }

    /// The number of codes.
    pub fn len(&self) -> usize {
        self.starts.last().copied().unwrap_or(0)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The code at an index.
    fn key(&self, index: usize) -> u64 {
        let p = self.starts.partition_point(|&s| s <= index) - 1;
        self.parts[p].key(index - self.starts[p])
    }

    /// The number of codes below `k`.
    fn rank(&self, k: u64) -> usize {
        let p = self.lasts.partition_point(|&last| last < k);
        self.starts[p] + self.parts.get(p).map_or(0, |part| part.rank(k))
    }

    /// The codes of an index range, in order, into `out`.
    fn keys_into(&self, range: std::ops::Range<usize>, out: &mut Vec<u64>) {
        out.clear();
        let mut buf = Vec::new();
        let mut p = self.starts.partition_point(|&s| s <= range.start).saturating_sub(1);
        while p < self.parts.len() && self.starts[p] < range.end {
            let (from, to) = (self.starts[p], self.starts[p + 1]);
            let (lo, hi) = (range.start.max(from) - from, range.end.min(to) - from);
            if lo < hi {
                self.parts[p].keys_into(lo..hi, &mut buf);
                out.extend_from_slice(&buf);
            }
            p += 1;
        }
    }

    /// Drops the parts whose codes all lie before `index` (no later read reaches them).
    fn release_before(&mut self, index: usize) {
        for (p, part) in self.parts.iter_mut().enumerate() {
            if self.starts[p + 1] <= index && !part.is_empty() {
                *part = SortedPositions::default();
            }
        }
    }

    /// The union of runs, on every core, a batch of key ranges at a time (8 a core: with 2 a
    /// core, the waits at each batch's end cost Konane 6x6 center's discovery 5%); each run's
    /// parts are dropped as soon as the ranges merged have passed them, so that the merge holds
    /// the union about once, not the runs and their union together. Konane 6x6 center's
    /// discovery: peak RSS 5,036,016 KB against 5,785,104 KB merging all ranges at once (a
    /// pending tier of 329 M codes merged had raised it by 731 MB), 213.8 s against 216.8 s.
    pub fn merge(runs: Vec<Run>) -> Run {
        let mut runs: Vec<Run> = runs.into_iter().filter(|r| !r.is_empty()).collect();
        if runs.len() <= 1 {
            return runs.pop().unwrap_or_default();
        }
        let total: usize = runs.iter().map(Run::len).sum();
        let pieces = total.div_ceil(PART);
        let largest = runs.iter().max_by_key(|r| r.len()).expect("two runs or more");
        let cuts: Vec<u64> = (1..pieces).map(|j| largest.key(largest.len() * j / pieces)).collect();
        let bounds: Vec<Vec<usize>> = runs
            .iter()
            .map(|r| {
                let inner = cuts.iter().map(|&c| r.rank(c));
                std::iter::once(0).chain(inner).chain(std::iter::once(r.len())).collect()
            })
            .collect();
        let merge_piece_j = |runs: &[Run], j: usize| {
            let mut sorted: Vec<Vec<u64>> = runs
                .iter()
                .zip(&bounds)
                .map(|(r, b)| {
                    let mut keys = Vec::with_capacity(b[j + 1] - b[j]);
                    r.keys_into(b[j]..b[j + 1], &mut keys);
                    keys
                })
                .filter(|k| !k.is_empty())
                .collect();
            // Merged in pairs, so that each code is copied about log2(runs) times.
            while sorted.len() > 1 {
                sorted = sorted
                    .chunks(2)
                    .map(|pair| match pair {
                        [a, b] => merge_piece(a, b),
                        [a] => a.clone(),
                        _ => unreachable!("chunks of two"),
                    })
                    .collect();
            }
            SortedPositions::from_sorted(sorted.pop().unwrap_or_default())
        };
        let batch = 8 * rayon::current_num_threads();
        let mut parts = Vec::with_capacity(pieces);
        for first in (0..pieces).step_by(batch) {
            let end = (first + batch).min(pieces);
            let merged: Vec<SortedPositions> =
                (first..end).into_par_iter().map(|j| merge_piece_j(&runs, j)).collect();
            parts.extend(merged);
            for (r, b) in runs.iter_mut().zip(&bounds) {
                r.release_before(b[end]);
            }
        }
        drop(runs);
        Run::of(parts)
    }

    /// The codes as one set, laid out as [`SortedPositions::from_sorted`] lays them out.
    pub fn into_positions(self) -> SortedPositions {
        SortedPositions::concat(self.parts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn run_of(keys: &[u64], part: usize) -> Run {
        Run::of(
            keys.chunks(part.max(1)).map(|c| SortedPositions::from_sorted(c.to_vec())).collect(),
        )
    }

    proptest! {
        /// Runs cut into parts of any size merge into their union, and the union joined into one
        /// set is laid out as the union built at once.
        #[test]
        fn runs_merge_into_their_union(sets in proptest::collection::vec(
                proptest::collection::btree_set(0u64..5000, 0..300), 0..5),
                part in 1usize..100, spread in 0u32..40, probes in proptest::collection::vec(0u64..6000, 0..50)) {
            let runs: Vec<Run> = sets
                .iter()
                .map(|s| run_of(&s.iter().map(|k| k << spread).collect::<Vec<u64>>(), part))
                .collect();
            let mut union: Vec<u64> = sets.iter().flatten().map(|k| k << spread).collect();
            union.sort_unstable();
            union.dedup();
            for r in &runs {
                for &p in &probes {
                    let k = p << spread;
                    let below = (0..r.len()).filter(|&i| r.key(i) < k).count();
                    prop_assert_eq!(r.rank(k), below);
                }
            }
            let merged = Run::merge(runs);
            prop_assert_eq!(merged.len(), union.len());
            let mut keys = Vec::new();
            merged.keys_into(0..merged.len(), &mut keys);
            prop_assert_eq!(&keys, &union);
            let joined = merged.into_positions();
            let at_once = SortedPositions::from_sorted(union.clone());
            prop_assert_eq!(joined.iter().collect::<Vec<u64>>(), union.clone());
            prop_assert_eq!(joined.heap_bytes(), at_once.heap_bytes());
            for (i, &k) in union.iter().enumerate() {
                prop_assert_eq!(joined.index_of(perfectplay_core::Position(k)), Some(i));
                prop_assert_eq!(joined.rank(k), i);
            }
        }
    }
}

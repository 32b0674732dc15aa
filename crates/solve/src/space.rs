//! The positions of one tier, as the engine stores them: a dense index range, or a sorted array of
//! the position codes actually reached, with a directory for fast lookup.

use perfectplay_core::{Game, GameExt, Position};
use rayon::prelude::*;

mod aside;
mod runs;
mod sort;
pub use runs::Run;
pub use sort::{merge_sorted, sort_dedup, sort_dedup_pieces};

/// What [`SortedPositions::indices_of`] gives for a code that is absent.
pub const NOT_FOUND: u32 = u32::MAX;
/// Average number of keys per directory bucket of a [`SortedPositions`], when the span allows.
const KEYS_PER_BUCKET: u64 = 24;
/// The most low bits a packed key keeps.
const PACKED_BITS: u32 = 16;

#[derive(Clone, Debug)]
enum Keys {
    /// The low `shift` bits of each key (the directory bucket holds the rest).
    Packed(Vec<u16>),
    /// Whole keys, for spans too wide to bucket by their high bits.
    Full(Vec<u64>),
}

/// A sorted, duplicate-free array of position codes with a directory on the high bits of
/// `code - min`: a lookup is one directory read and a short search. Where the codes are dense
/// enough (`Layout`), each code keeps only its low 16 bits, the bucket holding the rest: 2 bytes
/// per position plus the directory (4 bytes per bucket). Otherwise codes are kept whole (8 bytes).
#[derive(Clone, Debug)]
pub struct SortedPositions {
    keys: Keys,
    len: usize,
    min: u64,
    shift: u32,
    directory: Vec<u32>,
}

impl Default for SortedPositions {
    fn default() -> Self {
        SortedPositions::from_sorted(Vec::new())
    }
}

impl SortedPositions {
    /// Builds from sorted, duplicate-free codes.
    pub fn from_sorted(keys: Vec<u64>) -> SortedPositions {
        debug_assert!(keys.windows(2).all(|w| w[0] < w[1]));
        let n = keys.len();
        let layout = Layout::new(keys.first().copied().unwrap_or(0), keys.last().copied(), n);
        let mut directory = vec![0u32; layout.buckets + 1];
        let filled = layout.fill(&keys, 0, 0, &mut directory, 0);
        directory[filled..].fill(n as u32);
        let keys = if layout.packed {
            Keys::Packed(keys.iter().map(|&k| layout.low(k)).collect())
        } else {
            let mut keys = keys;
            keys.shrink_to_fit();
            Keys::Full(keys)
        };
        SortedPositions { keys, len: n, min: layout.min, shift: layout.shift, directory }
    }

    /// Joins sets whose codes follow one another (each part's codes all below the next part's)
    /// into one, laid out as [`SortedPositions::from_sorted`] lays out the same codes. The parts
    /// are read on every core and dropped at the end (both are held meanwhile).
    pub fn concat(parts: Vec<SortedPositions>) -> SortedPositions {
        let mut parts: Vec<SortedPositions> = parts.into_iter().filter(|p| !p.is_empty()).collect();
        if parts.len() <= 1 {
            return parts.pop().unwrap_or_default();
        }
        let n: usize = parts.iter().map(SortedPositions::len).sum();
        let last = parts.last().map(|p| p.key(p.len - 1));
        let layout = Layout::new(parts[0].key(0), last, n);
        let mut directory = vec![0u32; layout.buckets + 1];
        let mut packed = vec![0u16; if layout.packed { n } else { 0 }];
        let mut full = vec![0u64; if layout.packed { 0 } else { n }];
        // Each part writes its own codes, and the directory entries up to its last code's bucket
        // from those after the part before's: entries a part's codes decide and no other's.
        let mut jobs = Vec::with_capacity(parts.len());
        let (mut dir, mut low, mut whole): (&mut [u32], &mut [u16], &mut [u64]) =
            (&mut directory, &mut packed, &mut full);
        let (mut offset, mut first_entry) = (0usize, 0usize);
        for part in parts.iter() {
            let end_entry = layout.bucket(part.key(part.len - 1)) + 1;
            let (d, rest) = std::mem::take(&mut dir).split_at_mut(end_entry - first_entry);
            dir = rest;
            let (l, rest) =
                std::mem::take(&mut low).split_at_mut(if layout.packed { part.len } else { 0 });
            low = rest;
            let (w, rest) =
                std::mem::take(&mut whole).split_at_mut(if layout.packed { 0 } else { part.len });
            whole = rest;
            jobs.push((part, offset, first_entry, d, l, w));
            offset += part.len;
            first_entry = end_entry;
        }
        dir.fill(n as u32);
        jobs.into_par_iter().for_each(|(part, offset, first_entry, dir, low, whole)| {
            const CHUNK: usize = 1 << 12;
            let mut keys = Vec::with_capacity(CHUNK);
            let mut next = first_entry;
            for start in (0..part.len).step_by(CHUNK) {
                part.keys_into(start..(start + CHUNK).min(part.len), &mut keys);
                next = layout.fill(&keys, offset + start, next, dir, first_entry);
                if layout.packed {
                    low[start..start + keys.len()]
                        .iter_mut()
                        .zip(&keys)
                        .for_each(|(l, &k)| *l = layout.low(k));
                } else {
                    whole[start..start + keys.len()].copy_from_slice(&keys);
                }
            }
        });
        drop(parts);
        let keys = if layout.packed { Keys::Packed(packed) } else { Keys::Full(full) };
        SortedPositions { keys, len: n, min: layout.min, shift: layout.shift, directory }
    }

    /// Builds from codes in any order, with duplicates.
    pub fn from_unsorted(mut keys: Vec<u64>) -> SortedPositions {
        sort_dedup(&mut keys);
        SortedPositions::from_sorted(keys)
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The code at an index.
    #[inline]
    pub fn key(&self, index: usize) -> u64 {
        match &self.keys {
            Keys::Full(k) => k[index],
            Keys::Packed(low) => {
                // The bucket is the last directory entry at or before `index`.
                let b = self.directory.partition_point(|&start| start as usize <= index) - 1;
                self.packed_key(b, low[index])
            }
        }
    }

    /// A packed code: its bucket's high bits and its own low 16.
    #[inline]
    fn packed_key(&self, bucket: usize, low: u16) -> u64 {
        self.min + ((bucket as u64) << self.shift) + u64::from(low)
    }

    /// Every code, in order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        let mut bucket = 0usize;
        (0..self.len).map(move |i| match &self.keys {
            Keys::Full(k) => k[i],
            Keys::Packed(low) => {
                while self.directory[bucket + 1] as usize <= i {
                    bucket += 1;
                }
                self.packed_key(bucket, low[i])
            }
        })
    }

    /// The codes of the index range `range`, in order, into `out`.
    pub fn keys_into(&self, range: std::ops::Range<usize>, out: &mut Vec<u64>) {
        out.clear();
        match &self.keys {
            Keys::Full(k) => out.extend_from_slice(&k[range]),
            Keys::Packed(_) => self.keys_at(range, out),
        }
    }

    /// The codes at ascending indices, in order, into `out`: a packed set decodes only those
    /// (its bucket followed as the indices go), not the range between.
    pub fn keys_at(&self, indices: impl Iterator<Item = usize>, out: &mut Vec<u64>) {
        out.clear();
        let mut indices = indices.peekable();
        let Some(&first) = indices.peek() else { return };
        match &self.keys {
            Keys::Full(k) => out.extend(indices.map(|i| k[i])),
            Keys::Packed(low) => {
                let mut b =
                    self.directory.partition_point(|&s| s as usize <= first).saturating_sub(1);
                for i in indices {
                    while self.directory[b + 1] as usize <= i {
                        b += 1;
                    }
                    out.push(self.packed_key(b, low[i]));
                }
            }
        }
    }

    /// The index of a position, if present.
    #[inline]
    pub fn index_of(&self, p: Position) -> Option<usize> {
        let b = self.bucket(p.0)?;
        self.find_in(p.0, b, self.directory[b] as usize)
    }

    /// The number of codes below `k` (its index, where present).
    pub fn rank(&self, k: u64) -> usize {
        if k <= self.min || self.len == 0 {
            return 0;
        }
        let b = ((k - self.min) >> self.shift) as usize;
        if b + 1 >= self.directory.len() {
            return self.len;
        }
        let (lo, hi) = (self.directory[b] as usize, self.directory[b + 1] as usize);
        lo + match &self.keys {
            Keys::Full(keys) => keys[lo..hi].partition_point(|&x| x < k),
            Keys::Packed(low) => {
                let want = ((k - self.min) & ((1u64 << self.shift) - 1)) as u16;
                low[lo..hi].partition_point(|&x| x < want)
            }
        }
    }

    /// The directory bucket of a code, where the directory covers it.
    #[inline]
    fn bucket(&self, k: u64) -> Option<usize> {
        let b = (k.checked_sub(self.min)? >> self.shift) as usize;
        (b + 1 < self.directory.len()).then_some(b)
    }

    /// The index of code `k` in bucket `b`, whose first index (its directory entry) is `lo`.
    #[inline]
    fn find_in(&self, k: u64, b: usize, lo: usize) -> Option<usize> {
        let hi = self.directory[b + 1] as usize;
        let at = match &self.keys {
            Keys::Full(keys) => find_in_bucket(&keys[lo..hi], k),
            Keys::Packed(low) => {
                find_in_bucket(&low[lo..hi], ((k - self.min) & ((1u64 << self.shift) - 1)) as u16)
            }
        };
        at.map(|i| lo + i)
    }

    /// The indices of many codes at once, [`NOT_FOUND`] where a code is absent. Looked up in
    /// waves, every code's directory entry first and then every bucket, so that the cache misses
    /// of different codes overlap rather than wait on each other (one lookup's bucket depends on
    /// its directory entry; the next lookup's entry does not). 200 M random codes: 92 ns a lookup
    /// one at a time, 54 ns in waves.
    pub fn indices_of(&self, codes: &[u64], out: &mut Vec<u32>) {
        out.clear();
        out.extend(codes.iter().map(|&k| self.bucket(k).map_or(NOT_FOUND, |b| self.directory[b])));
        // Each bucket's first key read once before any is searched: loads that depend on nothing
        // but the directory overlap, where a search's branches would hold the next one back.
        let touched = match &self.keys {
            Keys::Full(keys) => {
                out.iter().fold(0u64, |a, &lo| a ^ keys.get(lo as usize).copied().unwrap_or(0))
            }
            Keys::Packed(low) => out
                .iter()
                .fold(0u64, |a, &lo| a ^ u64::from(low.get(lo as usize).copied().unwrap_or(0))),
        };
        std::hint::black_box(touched);
        for (slot, &k) in out.iter_mut().zip(codes) {
            if *slot != NOT_FOUND {
                let at = self.bucket(k).and_then(|b| self.find_in(k, b, *slot as usize));
                *slot = at.map_or(NOT_FOUND, |i| i as u32);
            }
        }
    }

    /// Bytes held.
    pub fn heap_bytes(&self) -> usize {
        let keys = match &self.keys {
            Keys::Full(k) => k.capacity() * 8,
            Keys::Packed(k) => k.capacity() * 2,
        };
        keys + self.directory.capacity() * 4
    }
}

/// How a set of codes is held: its least code, the bits below a directory bucket, whether codes
/// keep only those bits, and the number of buckets.
#[derive(Clone, Copy)]
struct Layout {
    min: u64,
    shift: u32,
    packed: bool,
    buckets: usize,
}

impl Layout {
    /// The layout of `n` codes from `min` to `max` (none: no codes). Where the codes are dense
    /// enough (a directory of at most about four entries per code), each keeps only its low 16
    /// bits; otherwise whole, with a directory of about [`KEYS_PER_BUCKET`] codes per bucket.
    fn new(min: u64, max: Option<u64>, n: usize) -> Layout {
        assert!(n < u32::MAX as usize, "a tier of 2^32 positions or more needs a wider directory");
        let span = max.unwrap_or(min) - min;
        let wanted = (n as u64 / KEYS_PER_BUCKET).max(1);
        let span_bits = 64 - span.leading_zeros();
        let wanted_bits = 64 - wanted.leading_zeros();
        let mut shift = span_bits.saturating_sub(wanted_bits);
        let packed = shift <= PACKED_BITS || (span >> PACKED_BITS) <= 4 * n as u64 + (1 << 16);
        if packed {
            shift = shift.min(PACKED_BITS);
        }
        Layout { min, shift, packed, buckets: (span >> shift) as usize + 1 }
    }

    #[inline]
    fn bucket(&self, k: u64) -> usize {
        ((k - self.min) >> self.shift) as usize
    }

    #[inline]
    fn low(&self, k: u64) -> u16 {
        ((k - self.min) & ((1u64 << self.shift) - 1)) as u16
    }

    /// Sets the directory entries from `next` on that `keys` decide (sorted codes from index
    /// `first`), `directory` being the entries from `base` on; returns the first entry not set.
    fn fill(
        &self,
        keys: &[u64],
        first: usize,
        mut next: usize,
        directory: &mut [u32],
        base: usize,
    ) -> usize {
        for (i, &k) in keys.iter().enumerate() {
            let b = self.bucket(k);
            while next <= b {
                directory[next - base] = (first + i) as u32;
                next += 1;
            }
        }
        next
    }
}

/// The place of `want` in a directory bucket (sorted). A bucket of the usual size is counted
/// through, every key compared at once, rather than halved step by step: a binary search waits on
/// each load in turn (most of a lookup's time, measured), a count issues them together.
#[inline]
fn find_in_bucket<K: Copy + Ord>(bucket: &[K], want: K) -> Option<usize> {
    const COUNTED: usize = 64;
    let at = if bucket.len() <= COUNTED {
        bucket.iter().map(|&k| u32::from(k < want)).sum::<u32>() as usize
    } else {
        bucket.partition_point(|&k| k < want)
    };
    (bucket.get(at) == Some(&want)).then_some(at)
}

/// The positions of one tier.
#[derive(Clone, Debug)]
pub enum TierSpace {
    /// Every index in `0..size` is a position.
    Dense {
        /// The number of indices.
        size: u64,
    },
    /// The positions reached, sorted.
    Sorted(SortedPositions),
}

impl TierSpace {
    /// The number of positions.
    pub fn len(&self) -> u64 {
        match self {
            TierSpace::Dense { size } => *size,
            TierSpace::Sorted(s) => s.len() as u64,
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The position at an index.
    #[inline]
    pub fn position(&self, index: u64) -> Position {
        match self {
            TierSpace::Dense { .. } => Position(index),
            TierSpace::Sorted(s) => Position(s.key(index as usize)),
        }
    }

    /// The positions of an index range, into `out`.
    pub fn positions_into(&self, range: std::ops::Range<u64>, out: &mut Vec<u64>) {
        match self {
            TierSpace::Dense { .. } => {
                out.clear();
                out.extend(range);
            }
            TierSpace::Sorted(s) => s.keys_into(range.start as usize..range.end as usize, out),
        }
    }

    /// The index of a (canonical) position of `game`, if it is in this tier's space: a dense
    /// space numbers positions by the game's [`TierIndex::tier_index`].
    ///
    /// [`TierIndex::tier_index`]: perfectplay_core::TierIndex::tier_index
    #[inline]
    pub fn index_in<G: Game + ?Sized>(&self, game: &G, p: Position) -> Option<u64> {
        match self {
            TierSpace::Dense { size } => Some(game.tier_index(p)).filter(|i| i < size),
            TierSpace::Sorted(s) => s.index_of(p).map(|i| i as u64),
        }
    }

    /// The index of a position, if it is in this tier's space (a dense space: the position's code
    /// is its index, as in a single-tier dense game).
    #[inline]
    pub fn index_of(&self, p: Position) -> Option<u64> {
        match self {
            TierSpace::Dense { size } => (p.0 < *size).then_some(p.0),
            TierSpace::Sorted(s) => s.index_of(p).map(|i| i as u64),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn lookup_finds_exactly_the_members(mut keys in proptest::collection::vec(any::<u64>(), 0..500),
                                            probes in proptest::collection::vec(any::<u64>(), 0..100),
                                            spread in 0u32..64) {
            for k in &mut keys { *k >>= spread; }
            let set = SortedPositions::from_unsorted(keys.clone());
            let all: Vec<u64> = set.iter().collect();
            let mut sorted = keys.clone();
            sorted.sort_unstable();
            sorted.dedup();
            prop_assert_eq!(&all, &sorted);
            let mut ranged = Vec::new();
            set.keys_into(all.len() / 3..all.len(), &mut ranged);
            prop_assert_eq!(&ranged[..], &all[all.len() / 3..]);
            // Every third code from a third of the way on, decoded alone.
            let picked = (all.len() / 3..all.len()).step_by(3);
            set.keys_at(picked.clone(), &mut ranged);
            prop_assert_eq!(ranged, picked.map(|i| all[i]).collect::<Vec<u64>>());
            for (i, &k) in all.iter().enumerate() {
                prop_assert_eq!(set.index_of(Position(k)), Some(i));
                prop_assert_eq!(set.key(i), k);
            }
            for p in probes {
                let p = p >> spread;
                prop_assert_eq!(set.index_of(Position(p)).is_some(), keys.contains(&p));
            }
        }

        #[test]
        fn sort_dedup_matches_std(mut keys in proptest::collection::vec(any::<u64>(), 0..3000), spread in 0u32..64, big in any::<bool>()) {
            for k in &mut keys { *k >>= spread; }
            if big {
                // Past the small-input cutoff, so the radix path runs.
                let copy = keys.clone();
                while keys.len() < 70_000 { keys.extend_from_slice(&copy); keys.push(keys.len() as u64); }
            }
            let mut expected = keys.clone();
            expected.sort_unstable();
            expected.dedup();
            sort_dedup(&mut keys);
            prop_assert_eq!(keys, expected);
        }

        #[test]
        fn merge_is_sorted_union(a in proptest::collection::btree_set(0u64..1000, 0..50),
                                 b in proptest::collection::btree_set(0u64..1000, 0..50)) {
            let a: Vec<u64> = a.into_iter().collect();
            let b: Vec<u64> = b.into_iter().collect();
            let mut union: Vec<u64> = a.iter().chain(&b).copied().collect();
            union.sort_unstable();
            union.dedup();
            prop_assert_eq!(merge_sorted(&a, &b), union);
        }
    }
}

//! The positions of one tier, as the engine stores them: a dense index range, or a sorted array of
//! the position codes actually reached, with a directory for fast lookup.

use perfectplay_core::Position;

/// Average number of keys per directory bucket of a [`SortedPositions`].
const KEYS_PER_BUCKET: usize = 8;

/// A sorted, duplicate-free array of position codes with a directory on the high bits of
/// `code - min`, so a lookup is one directory read and a short binary search (about two cache
/// misses). Memory: 8 bytes per position for the codes, about 1 byte for the directory.
#[derive(Clone, Debug, Default)]
pub struct SortedPositions {
    keys: Vec<u64>,
    min: u64,
    shift: u32,
    directory: Vec<u64>,
}

impl SortedPositions {
    /// Builds from sorted, duplicate-free codes.
    pub fn from_sorted(keys: Vec<u64>) -> SortedPositions {
        debug_assert!(keys.windows(2).all(|w| w[0] < w[1]));
        let (Some(&min), Some(&max)) = (keys.first(), keys.last()) else {
            return SortedPositions::default();
        };
        let span = max - min;
        let wanted = (keys.len() / KEYS_PER_BUCKET).max(1) as u64;
        let span_bits = 64 - span.leading_zeros();
        let wanted_bits = 64 - wanted.leading_zeros();
        let shift = span_bits.saturating_sub(wanted_bits);
        let buckets = (span >> shift) as usize + 1;
        let mut directory = vec![0u64; buckets + 1];
        let mut next = 0usize;
        for (i, &k) in keys.iter().enumerate() {
            let b = ((k - min) >> shift) as usize;
            while next <= b {
                directory[next] = i as u64;
                next += 1;
            }
        }
        for entry in directory.iter_mut().skip(next) {
            *entry = keys.len() as u64;
        }
        SortedPositions { keys, min, shift, directory }
    }

    /// Builds from codes in any order, with duplicates.
    pub fn from_unsorted(mut keys: Vec<u64>) -> SortedPositions {
        sort_dedup(&mut keys);
        SortedPositions::from_sorted(keys)
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The codes, sorted.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// The index of a position, if present.
    #[inline]
    pub fn index_of(&self, p: Position) -> Option<usize> {
        let k = p.0;
        if k < self.min || self.keys.is_empty() {
            return None;
        }
        let b = ((k - self.min) >> self.shift) as usize;
        if b + 1 >= self.directory.len() {
            return None;
        }
        let (lo, hi) = (self.directory[b] as usize, self.directory[b + 1] as usize);
        self.keys[lo..hi].binary_search(&k).ok().map(|i| lo + i)
    }

    /// Bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.keys.capacity() * 8 + self.directory.capacity() * 8
    }
}

/// Sorts codes and removes duplicates, in parallel.
pub fn sort_dedup(keys: &mut Vec<u64>) {
    use rayon::slice::ParallelSliceMut;
    keys.par_sort_unstable();
    keys.dedup();
}

/// Merges two sorted, duplicate-free arrays into one.
pub fn merge_sorted(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
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
            TierSpace::Sorted(s) => Position(s.keys[index as usize]),
        }
    }

    /// The index of a position, if it is in this tier's space.
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
            for (i, &k) in set.keys().iter().enumerate() {
                prop_assert_eq!(set.index_of(Position(k)), Some(i));
            }
            for p in probes {
                let p = p >> spread;
                prop_assert_eq!(set.index_of(Position(p)).is_some(), keys.contains(&p));
            }
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

//! Combinatorial ranking: the "rearranger hash" of GamesmanClassic (000 section 3.3.1, 003
//! Algorithm 4). An arrangement of pieces of `k` kinds over `n` slots, with a fixed count of each
//! kind, is ranked to a dense index in `0..multinomial(counts)` and unranked back. Table-driven:
//! binomial coefficients are computed once; ranking costs O(n * k).

/// Ranks and unranks arrangements with fixed piece counts.
#[derive(Clone, Debug)]
pub struct Rearranger {
    counts: Vec<u32>,
    slots: usize,
    binomial: Vec<Vec<u64>>,
    size: u64,
}

/// Why a rearranger could not be built or an arrangement ranked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RankError {
    /// The number of arrangements does not fit in 64 bits.
    #[error("the number of arrangements does not fit in 64 bits")]
    TooLarge,
    /// The arrangement does not have the counts this rearranger was built for.
    #[error("arrangement does not have {expected:?} pieces of each kind")]
    WrongCounts {
        /// The counts the rearranger expects, by kind.
        expected: Vec<u32>,
    },
}

impl Rearranger {
    /// A rearranger for arrangements with `counts[kind]` pieces of each kind; the number of slots
    /// is the sum of the counts (make one kind "empty" to leave slots free).
    pub fn new(counts: &[u32]) -> Result<Rearranger, RankError> {
        let slots: usize = counts.iter().map(|&c| c as usize).sum();
        let mut binomial = vec![vec![0u64; slots + 1]; slots + 1];
        for n in 0..=slots {
            binomial[n][0] = 1;
            for k in 1..=n {
                // Saturate: a too-large table entry is only ever used if the total is too large,
                // which the check below rejects.
                binomial[n][k] = binomial[n - 1][k - 1].saturating_add(binomial[n - 1][k]);
            }
        }
        let mut r = Rearranger { counts: counts.to_vec(), slots, binomial, size: 0 };
        r.size = r.multinomial(counts).ok_or(RankError::TooLarge)?;
        Ok(r)
    }

    /// The number of arrangements: the size of the rank space.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The number of slots.
    pub fn slots(&self) -> usize {
        self.slots
    }

    fn multinomial(&self, counts: &[u32]) -> Option<u64> {
        let mut total = 0usize;
        let mut product = 1u64;
        for &c in counts {
            total += c as usize;
            let b = self.binomial[total][c as usize];
            if b == u64::MAX {
                return None;
            }
            product = product.checked_mul(b)?;
        }
        Some(product)
    }

    /// The rank of an arrangement (`kinds[slot]` is the kind in each slot).
    pub fn rank(&self, kinds: &[u8]) -> Result<u64, RankError> {
        let wrong = || RankError::WrongCounts { expected: self.counts.clone() };
        if kinds.len() != self.slots {
            return Err(wrong());
        }
        let mut left = self.counts.clone();
        let mut rank = 0u64;
        for &kind in kinds {
            let kind = kind as usize;
            if kind >= left.len() || left[kind] == 0 {
                return Err(wrong());
            }
            for smaller in 0..kind {
                if left[smaller] > 0 {
                    left[smaller] -= 1;
                    rank += self.multinomial(&left).unwrap_or(0);
                    left[smaller] += 1;
                }
            }
            left[kind] -= 1;
        }
        Ok(rank)
    }

    /// The arrangement of a rank, written into `kinds` (resized to the number of slots).
    /// Returns `None` if the rank is out of range.
    pub fn unrank(&self, mut rank: u64, kinds: &mut Vec<u8>) -> Option<()> {
        if rank >= self.size {
            return None;
        }
        kinds.clear();
        let mut left = self.counts.clone();
        for _ in 0..self.slots {
            for kind in 0..left.len() {
                if left[kind] == 0 {
                    continue;
                }
                left[kind] -= 1;
                let block = self.multinomial(&left).unwrap_or(0);
                if rank < block {
                    kinds.push(kind as u8);
                    break;
                }
                rank -= block;
                left[kind] += 1;
            }
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn sizes_are_multinomials() {
        assert_eq!(Rearranger::new(&[2, 1]).unwrap().size(), 3);
        // 25! / (11! 7! 7!) = C(25, 7) * C(18, 7) = 480,700 * 31,824
        assert_eq!(Rearranger::new(&[11, 7, 7]).unwrap().size(), 15_297_796_800);
        assert_eq!(Rearranger::new(&[4, 4]).unwrap().size(), 70);
        assert!(Rearranger::new(&[40, 40, 40]).is_err());
    }

    #[test]
    fn every_rank_round_trips_exhaustively() {
        let r = Rearranger::new(&[3, 2, 2]).unwrap();
        let mut kinds = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for rank in 0..r.size() {
            r.unrank(rank, &mut kinds).unwrap();
            assert!(seen.insert(kinds.clone()), "unrank is not injective at {rank}");
            assert_eq!(r.rank(&kinds).unwrap(), rank);
        }
        assert_eq!(seen.len() as u64, 210);
        assert!(r.unrank(r.size(), &mut kinds).is_none());
    }

    proptest! {
        #[test]
        fn rank_is_a_bijection(counts in proptest::collection::vec(0u32..6, 1..5), seed in any::<u64>()) {
            let r = Rearranger::new(&counts).unwrap();
            prop_assume!(r.size() > 0);
            let rank = seed % r.size();
            let mut kinds = Vec::new();
            r.unrank(rank, &mut kinds).unwrap();
            for (kind, &c) in counts.iter().enumerate() {
                prop_assert_eq!(kinds.iter().filter(|&&k| k as usize == kind).count(), c as usize);
            }
            prop_assert_eq!(r.rank(&kinds).unwrap(), rank);
        }

        #[test]
        fn wrong_counts_are_rejected(kinds in proptest::collection::vec(0u8..4, 0..8)) {
            let r = Rearranger::new(&[2, 2]).unwrap();
            let ok = kinds.len() == 4 && kinds.iter().filter(|&&k| k == 0).count() == 2
                && kinds.iter().all(|&k| k < 2);
            prop_assert_eq!(r.rank(&kinds).is_ok(), ok);
        }
    }
}

//! Sets of points up to a symmetry group, and a dense index of pairs of sets over those classes:
//! the tier index of games with two kinds of pieces on a symmetric board (Nine Men's Morris's
//! white and black, Bagh-Chal's tigers and goats, Fox and Geese's fox and geese).
//!
//! A game supplies its group as permutations of the points; [`SetClasses`] reduces a set to its
//! *least image* (the smallest bit pattern among its images) and ranks the least sets of each
//! size. A pair `(a, b)` of disjoint sets is canonical when `a` is least and `b` is the least image
//! of `b` under the symmetries that keep `a` fixed; its index is the rank of `a` among the least
//! sets of its size times `C(n - |a|, |b|)`, plus the rank of `b` among the points `a` leaves
//! (colex order). Where `a` has symmetries of its own some indices name pairs that are not
//! canonical: a few don't-care indices per symmetric `a`, which the solver skips.
//!
//! Up to [`TABLE_POINTS`] points a table of `2^n` entries gives every set's least image in one
//! lookup (64 MiB for 24 points); beyond, images are computed per call.

/// Boards up to this many points get the `2^n` lookup table.
pub const TABLE_POINTS: usize = 25;

/// Sets of points up to a group of permutations; see the module documentation.
#[derive(Clone, Debug)]
pub struct SetClasses {
    n: usize,
    perms: Vec<Vec<usize>>,
    /// Per symmetry, per byte of the set: that byte's image bits.
    bytes: Vec<Vec<[u32; 256]>>,
    /// Per set (small boards): the symmetries that take it to its least image, as a bit mask.
    least_mask: Vec<u32>,
    /// Per size: the least sets, sorted.
    least_sets: Vec<Vec<u32>>,
    binomial: Vec<Vec<u64>>,
}

impl SetClasses {
    /// The classes of sets of `n` points under `perms` (each a permutation: `perms[s][point]` is
    /// the point's image; the identity among them), ranking the least sets of up to `max_k`
    /// points. At most 32 points and 32 symmetries.
    pub fn new(n: usize, perms: Vec<Vec<usize>>, max_k: usize) -> Result<SetClasses, String> {
        if n > 32 || perms.is_empty() || perms.len() > 32 {
            return Err(format!("{n} points, {} symmetries: at most 32 of each", perms.len()));
        }
        for p in &perms {
            let mut seen = vec![false; n];
            if p.len() != n || p.iter().any(|&q| q >= n || std::mem::replace(&mut seen[q], true)) {
                return Err("a symmetry is not a permutation of the points".into());
            }
        }
        if !perms.iter().any(|p| p.iter().enumerate().all(|(i, &q)| i == q)) {
            return Err("the symmetries must include the identity".into());
        }
        let bytes = perms
            .iter()
            .map(|p| {
                (0..n.div_ceil(8))
                    .map(|j| {
                        let mut t = [0u32; 256];
                        for (v, image) in t.iter_mut().enumerate() {
                            for bit in 0..8 {
                                let point = 8 * j + bit;
                                if v >> bit & 1 == 1 && point < n {
                                    *image |= 1 << p[point];
                                }
                            }
                        }
                        t
                    })
                    .collect()
            })
            .collect();
        let mut binomial = vec![vec![0u64; n + 2]; n + 2];
        for m in 0..=n + 1 {
            binomial[m][0] = 1;
            for k in 1..=m {
                binomial[m][k] = binomial[m - 1][k - 1] + binomial[m - 1][k];
            }
        }
        let mut classes = SetClasses {
            n,
            perms,
            bytes,
            least_mask: Vec::new(),
            least_sets: vec![Vec::new(); n + 1],
            binomial,
        };
        if n <= TABLE_POINTS {
            let mut table = vec![0u32; 1 << n];
            for (set, entry) in table.iter_mut().enumerate() {
                let (least, mask) = classes.least_computed(set as u32);
                *entry = mask;
                if least == set as u32 && set.count_ones() as usize <= max_k {
                    classes.least_sets[set.count_ones() as usize].push(set as u32);
                }
            }
            classes.least_mask = table;
        } else {
            // Least sets by size, enumerated without a table: every set of each size up to
            // `max_k` is visited once.
            for k in 0..=max_k.min(n) {
                let mut sets = Vec::new();
                let mut set: u64 = (1u64 << k) - 1;
                while set < 1u64 << n {
                    if classes.least_computed(set as u32).0 == set as u32 {
                        sets.push(set as u32);
                    }
                    if k == 0 {
                        break;
                    }
                    // Gosper's hack: the next set of the same size.
                    let c = set & set.wrapping_neg();
                    let r = set + c;
                    set = (((r ^ set) >> 2) / c) | r;
                }
                classes.least_sets[k] = sets;
            }
        }
        Ok(classes)
    }

    /// The number of points.
    pub fn points(&self) -> usize {
        self.n
    }

    /// The number of symmetries.
    pub fn symmetry_count(&self) -> usize {
        self.perms.len()
    }

    /// Symmetry `s` as a permutation of the points.
    pub fn permutation(&self, s: usize) -> &[usize] {
        &self.perms[s]
    }

    /// The image of a set under symmetry `s`.
    #[inline]
    pub fn image(&self, s: usize, set: u32) -> u32 {
        let t = &self.bytes[s];
        let mut image = 0;
        for (j, table) in t.iter().enumerate() {
            image |= table[(set >> (8 * j) & 0xff) as usize];
        }
        image
    }

    fn least_computed(&self, set: u32) -> (u32, u32) {
        let mut least = u32::MAX;
        let mut mask = 0u32;
        for s in 0..self.perms.len() {
            let image = self.image(s, set);
            if image < least {
                least = image;
                mask = 1 << s;
            } else if image == least {
                mask |= 1 << s;
            }
        }
        (least, mask)
    }

    /// The least image of a set and the symmetries (bit mask) that take it there.
    #[inline]
    pub fn least(&self, set: u32) -> (u32, u32) {
        match self.least_mask.get(set as usize) {
            Some(&mask) => (self.image(mask.trailing_zeros() as usize, set), mask),
            None => self.least_computed(set),
        }
    }

    /// The canonical form of a pair of disjoint sets: `a`'s least image, and the least image of
    /// `b` under the symmetries that take `a` there. Also the symmetry used.
    #[inline]
    pub fn canonical_pair(&self, a: u32, b: u32) -> (u32, u32, usize) {
        let (least, mask) = self.least(a);
        let first = mask.trailing_zeros() as usize;
        let mut best = (self.image(first, b), first);
        let mut rest = mask & (mask - 1);
        while rest != 0 {
            let s = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let image = self.image(s, b);
            if image < best.0 {
                best = (image, s);
            }
        }
        (least, best.0, best.1)
    }

    /// The number of classes of sets of `k` points.
    pub fn class_count(&self, k: usize) -> u64 {
        self.least_sets.get(k).map_or(0, |s| s.len() as u64)
    }

    /// The rank of a least set among the least sets of its size.
    #[inline]
    pub fn class_rank(&self, least: u32) -> Option<u64> {
        let sets = &self.least_sets[least.count_ones() as usize];
        sets.binary_search(&least).ok().map(|r| r as u64)
    }

    /// The least set of `k` points with a rank.
    pub fn class_set(&self, k: usize, rank: u64) -> Option<u32> {
        self.least_sets.get(k)?.get(usize::try_from(rank).ok()?).copied()
    }

    /// `C(m, k)`.
    #[inline]
    pub fn binomial(&self, m: usize, k: usize) -> u64 {
        if k > m {
            0
        } else {
            self.binomial[m][k]
        }
    }

    /// The number of indices of pairs of `ka` and `kb` points.
    pub fn pair_size(&self, ka: usize, kb: usize) -> u64 {
        if ka + kb > self.n {
            return 0;
        }
        self.class_count(ka) * self.binomial(self.n - ka, kb)
    }

    /// The index of a canonical pair (see [`SetClasses::canonical_pair`]) among the pairs of its
    /// sizes; `None` if `a` is not a least set.
    #[inline]
    pub fn pair_index(&self, a: u32, b: u32) -> Option<u64> {
        let rank_a = self.class_rank(a)?;
        let kb = b.count_ones() as usize;
        let free = self.n - a.count_ones() as usize;
        // b's points renumbered among the points a leaves, ranked in colex order.
        let mut rank_b = 0u64;
        let mut rest = b;
        let mut j = 0;
        while rest != 0 {
            let c = rest.trailing_zeros();
            rest &= rest - 1;
            j += 1;
            let compressed = c - (a & ((1u32 << c) - 1)).count_ones();
            rank_b += self.binomial(compressed as usize, j);
        }
        Some(rank_a * self.binomial(free, kb) + rank_b)
    }

    /// The pair of `ka` and `kb` points at an index: `a` least, `b` any set of the points it
    /// leaves (the pair need not be canonical). `None` past the end.
    pub fn pair_at(&self, ka: usize, kb: usize, index: u64) -> Option<(u32, u32)> {
        let free = self.n.checked_sub(ka)?;
        let per_a = self.binomial(free, kb);
        if per_a == 0 {
            return None;
        }
        let a = self.class_set(ka, index / per_a)?;
        let mut r = index % per_a;
        // Colex unranking: the largest compressed position c < hi with C(c, j) <= r, for
        // j = kb..1, by binary search (C(c, j) grows with c).
        let mut compressed = 0u32;
        let mut hi = free;
        for j in (1..=kb).rev() {
            let (mut lo, mut top) = (j - 1, hi - 1);
            while lo < top {
                let mid = (lo + top).div_ceil(2);
                if self.binomial[mid][j] <= r {
                    lo = mid;
                } else {
                    top = mid - 1;
                }
            }
            r -= self.binomial[lo][j];
            compressed |= 1 << lo;
            hi = lo;
        }
        // Deposit: compressed position i is the i-th point a leaves, walking both in order.
        let mut b = 0u32;
        let mut free_points = !a & ((1u64 << self.n) - 1) as u32;
        let mut at = 0;
        let mut left = compressed;
        while left != 0 {
            let c = left.trailing_zeros();
            left &= left - 1;
            for _ in at..c {
                free_points &= free_points - 1;
            }
            at = c;
            b |= free_points & free_points.wrapping_neg();
        }
        Some((a, b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 8 symmetries of the 3x3 grid (points row by row).
    fn square() -> Vec<Vec<usize>> {
        type Map = fn(usize, usize) -> (usize, usize);
        let maps: [Map; 8] = [
            |x, y| (x, y),
            |x, y| (2 - y, x),
            |x, y| (2 - x, 2 - y),
            |x, y| (y, 2 - x),
            |x, y| (2 - x, y),
            |x, y| (x, 2 - y),
            |x, y| (y, x),
            |x, y| (2 - y, 2 - x),
        ];
        maps.iter()
            .map(|f| {
                (0..9)
                    .map(|c| {
                        let (x, y) = f(c % 3, c / 3);
                        y * 3 + x
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn classes_of_the_square_match_burnside() {
        let classes = SetClasses::new(9, square(), 9).unwrap();
        // Classes of k-subsets of the 3x3 grid under its 8 symmetries (Burnside).
        let expected = [1, 3, 8, 16, 23, 23, 16, 8, 3, 1];
        for (k, &e) in expected.iter().enumerate() {
            assert_eq!(classes.class_count(k), e, "k = {k}");
        }
    }

    #[test]
    fn every_pair_is_indexed_once_through_its_canonical_form() {
        let classes = SetClasses::new(9, square(), 9).unwrap();
        for (ka, kb) in [(0, 0), (1, 2), (3, 2), (4, 4), (2, 7)] {
            let size = classes.pair_size(ka, kb);
            let mut canonical_seen = std::collections::HashSet::new();
            for index in 0..size {
                let (a, b) = classes.pair_at(ka, kb, index).unwrap();
                assert_eq!(a & b, 0);
                assert_eq!((a.count_ones() as usize, b.count_ones() as usize), (ka, kb));
                assert_eq!(classes.pair_index(a, b), Some(index));
                let (ca, cb, _) = classes.canonical_pair(a, b);
                if (ca, cb) == (a, b) {
                    canonical_seen.insert(index);
                }
            }
            assert!(classes.pair_at(ka, kb, size).is_none());
            // Every pair of the sizes has its canonical form among the indices.
            for a in 0u32..1 << 9 {
                if a.count_ones() as usize != ka {
                    continue;
                }
                for b in 0u32..1 << 9 {
                    if b & a != 0 || b.count_ones() as usize != kb {
                        continue;
                    }
                    let (ca, cb, s) = classes.canonical_pair(a, b);
                    assert_eq!((classes.image(s, a), classes.image(s, b)), (ca, cb));
                    let i = classes.pair_index(ca, cb).unwrap();
                    assert!(canonical_seen.contains(&i));
                }
            }
        }
    }

    #[test]
    fn large_boards_compute_without_a_table() {
        let n = 27;
        let mirror: Vec<usize> = (0..n).map(|p| n - 1 - p).collect();
        let classes = SetClasses::new(n, vec![(0..n).collect(), mirror], 2).unwrap();
        // Pairs {p, n-1-p} are their own mirror: (C(27,2) + 13) / 2 classes of 2 points.
        assert_eq!(classes.class_count(2), (351 + 13) / 2);
        let (least, mask) = classes.least(1 << 26 | 1 << 25);
        assert_eq!((least, mask), (0b11, 0b10));
    }

    #[test]
    fn bad_groups_are_refused() {
        assert!(SetClasses::new(3, vec![vec![1, 0, 2]], 3).is_err());
        assert!(SetClasses::new(3, vec![vec![0, 1, 2], vec![0, 0, 2]], 3).is_err());
    }
}

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
//! Up to [`TABLE_POINTS`] points a table gives each set of up to the ranked size its least image
//! and that image's rank in one lookup: the sets by size, then by colex rank among the points
//! (2,579,130 entries, 20.6 MB, for 24 points and up to 9 in a set; a table by the sets' bit
//! patterns took 128 MiB, and each lookup went to memory, not the caches). Larger sets, and larger
//! boards, compute images per call and find ranks by binary search. [`SetClasses::next_pair`]
//! walks a range of indices in order without unranking each one. Neighbouring positions mostly
//! share their sets, so a worker that keeps a [`LeastCache`] finds most table entries in it.

/// Boards up to this many points get the lookup table.
pub const TABLE_POINTS: usize = 25;

/// Slots of a [`LeastCache`] (a power of two).
const CACHE_SLOTS: usize = 1 << 8;

/// Which [`SetClasses`] a [`LeastCache`] holds entries of: each new one gets the next number.
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// One worker's small direct-mapped cache of least-image table entries (see the module
/// documentation). It serves any [`SetClasses`]: entries of another are dropped on first use.
#[derive(Clone, Debug)]
pub struct LeastCache {
    owner: u64,
    /// Per slot: the set (`u32::MAX`: empty; tables cover at most 25 points) and its entry.
    slots: Box<[(u32, u64); CACHE_SLOTS]>,
}

impl Default for LeastCache {
    fn default() -> Self {
        LeastCache { owner: 0, slots: Box::new([(u32::MAX, 0); CACHE_SLOTS]) }
    }
}

/// Sets of points up to a group of permutations; see the module documentation.
#[derive(Clone, Debug)]
pub struct SetClasses {
    /// This instance's number, for [`LeastCache`].
    id: u64,
    n: usize,
    perms: Vec<Vec<usize>>,
    /// Per symmetry, per byte of the set: that byte's image bits.
    bytes: Vec<[[u32; 256]; 4]>,
    /// Per set of up to `max_k` points (small boards), at [`SetClasses::table_index`]: the
    /// symmetries that take it to its least image, as a bit mask (low 32 bits), and the rank of
    /// that image among the least sets of its size (high 32 bits).
    least_table: Vec<u64>,
    /// Per size up to `max_k`: where its sets' entries begin in `least_table` (empty: no table).
    table_offsets: Vec<usize>,
    /// Per size: the least sets, sorted.
    least_sets: Vec<Vec<u32>>,
    /// The largest size ranked.
    max_k: usize,
    /// `binomial[m][k]` = C(m, k), for m and k up to 33.
    binomial: Box<[[u64; 34]; 34]>,
    /// Colex ranks by byte: `colex_bytes[t][j][v]` is the rank contribution of the points of byte
    /// value `v` at byte `t` of a compressed set that has `j` points below that byte.
    colex_bytes: Box<[[[u32; 256]; 33]; 4]>,
    /// `extract8[m][v]`: the bits of byte `v` at the points of byte mask `m`, packed low.
    extract8: Box<[[u8; 256]; 256]>,
    /// The identity's bit in a mask of symmetries.
    identity_mask: u32,
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
        let Some(identity) = perms.iter().position(|p| p.iter().enumerate().all(|(i, &q)| i == q))
        else {
            return Err("the symmetries must include the identity".into());
        };
        // Four byte tables per symmetry (the points past `n` map to nothing).
        let bytes = perms
            .iter()
            .map(|p| {
                let mut tables = [[0u32; 256]; 4];
                for (j, t) in tables.iter_mut().enumerate() {
                    for (v, image) in t.iter_mut().enumerate() {
                        for bit in 0..8 {
                            let point = 8 * j + bit;
                            if v >> bit & 1 == 1 && point < n {
                                *image |= 1 << p[point];
                            }
                        }
                    }
                }
                tables
            })
            .collect();
        let mut binomial = Box::new([[0u64; 34]; 34]);
        for m in 0..34 {
            binomial[m][0] = 1;
            for k in 1..=m {
                binomial[m][k] = binomial[m - 1][k - 1] + binomial[m - 1][k];
            }
        }
        // Four bytes: boards of up to 32 points.
        let mut colex_bytes = Box::new([[[0u32; 256]; 33]; 4]);
        for (t, table) in colex_bytes.iter_mut().enumerate() {
            {
                for (j, row) in table.iter_mut().enumerate() {
                    for (v, entry) in row.iter_mut().enumerate() {
                        let mut sum = 0u64;
                        let mut ordinal = j;
                        for bit in 0..8 {
                            if v >> bit & 1 == 1 {
                                ordinal += 1;
                                if ordinal < 34 {
                                    sum += binomial[8 * t + bit][ordinal];
                                }
                            }
                        }
                        *entry = u32::try_from(sum).unwrap_or(u32::MAX);
                    }
                }
            }
        }
        let mut classes = SetClasses {
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            n,
            perms,
            bytes,
            least_table: Vec::new(),
            table_offsets: Vec::new(),
            least_sets: vec![Vec::new(); n + 1],
            max_k: max_k.min(n),
            binomial,
            colex_bytes,
            extract8: extract_table(),
            identity_mask: 1 << identity,
        };
        let max_k = max_k.min(n);
        let table = n <= TABLE_POINTS;
        if table {
            let mut next = 0;
            for k in 0..=max_k {
                classes.table_offsets.push(next);
                next += classes.binomial(n, k) as usize;
            }
            classes.least_table = vec![0u64; next];
        }
        // Every set of each size up to `max_k`, once, in increasing order: the least sets come
        // sorted (a set's place among them is its rank), and a set's least image, never larger,
        // has its entry already.
        for k in 0..=max_k {
            let mut sets = Vec::new();
            let mut set: u64 = (1u64 << k) - 1;
            while set < 1u64 << n {
                let (least, mask) = classes.least_computed(set as u32);
                if least == set as u32 {
                    sets.push(least);
                }
                if table {
                    let rank = if least == set as u32 {
                        (sets.len() - 1) as u64
                    } else {
                        classes.table_entry(least).map_or(0, |entry| entry >> 32)
                    };
                    if let Some(i) = classes.table_index(set as u32) {
                        classes.least_table[i] = u64::from(mask) | rank << 32;
                    }
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

    /// The number of distinct images of the pair `(a, b)` under the symmetries: their count over
    /// the number that keep both sets (a class's members, for analysis).
    pub fn pair_orbit_size(&self, a: u32, b: u32) -> u64 {
        // Only the symmetries that keep `a` can keep the pair, and there are as many as take `a`
        // to its least image: where that is one, the identity alone.
        let (least, to_least) = self.least(a);
        if to_least.count_ones() == 1 {
            return self.perms.len() as u64;
        }
        let keep_a = if least == a {
            to_least
        } else {
            self.keeping(u32::MAX >> (32 - self.perms.len()), a)
        };
        u64::from(self.pair_orbit_of(keep_a, b))
    }

    /// The symmetries among `symmetries` (a mask) that take `set` to itself.
    fn keeping(&self, symmetries: u32, set: u32) -> u32 {
        let (mut keep, mut rest) = (0, symmetries);
        while rest != 0 {
            let s = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            keep |= u32::from(self.image(s, set) == set) << s;
        }
        keep
    }

    /// The number of images of a pair whose first set is kept by the symmetries `keep_a`, the
    /// second set being `b`.
    fn pair_orbit_of(&self, keep_a: u32, b: u32) -> u32 {
        self.perms.len() as u32 / self.keeping(keep_a, b).count_ones().max(1)
    }

    /// [`SetClasses::pair_orbit_size`] of the pairs of `ka` and `kb` points at the indices
    /// `first..first + out.len()` of a tier that holds them `copies` times in a row (once per side
    /// to move), as [`SetClasses::pair_at`] names them; 0 past the tier's end. Where `a` is kept by
    /// the identity alone every pair of its run has as many images as there are symmetries: the
    /// run is filled without making its pairs.
    pub fn pair_orbit_sizes(
        &self,
        (ka, kb): (usize, usize),
        copies: u64,
        first: u64,
        out: &mut [u32],
    ) {
        let all = self.perms.len() as u32;
        let pairs = self.pair_size(ka, kb);
        let per_a = self.binomial(self.n.saturating_sub(ka), kb);
        let mut at = 0;
        while at < out.len() {
            let index = first + at as u64;
            if pairs == 0 || index / pairs >= copies {
                out[at..].fill(0);
                return;
            }
            let (rank, offset) = (index % pairs / per_a, index % pairs % per_a);
            let len = (per_a - offset).min((out.len() - at) as u64) as usize;
            let run = &mut out[at..at + len];
            at += len;
            let Some(a) = self.class_set(ka, rank) else {
                run.fill(0);
                continue;
            };
            // `a` is least: the symmetries that take it to its least image keep it.
            let keep_a = self.least(a).1;
            if keep_a.count_ones() == 1 {
                run.fill(all);
                continue;
            }
            let Some((_, mut b)) = self.pair_at(ka, kb, index % pairs) else {
                run.fill(0);
                continue;
            };
            for size in run.iter_mut() {
                *size = self.pair_orbit_of(keep_a, b);
                // The next set of the points `a` leaves (the run ends before the last).
                b = self.next_pair(a, b).map_or(b, |(_, next)| next);
            }
        }
    }

    /// Symmetry `s` as a permutation of the points.
    pub fn permutation(&self, s: usize) -> &[usize] {
        &self.perms[s]
    }

    /// The image of a set under symmetry `s`.
    #[inline]
    pub fn image(&self, s: usize, set: u32) -> u32 {
        let [t0, t1, t2, t3] = &self.bytes[s];
        let image = t0[(set & 0xff) as usize]
            | t1[(set >> 8 & 0xff) as usize]
            | t2[(set >> 16 & 0xff) as usize];
        if set >> 24 == 0 {
            image
        } else {
            image | t3[(set >> 24) as usize]
        }
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
        match self.table_entry(set) {
            Some(entry) => {
                let mask = entry as u32;
                (self.image(mask.trailing_zeros() as usize, set), mask)
            }
            None => self.least_computed(set),
        }
    }

    /// The least image of a set, the symmetries that take it there, and the image's rank among
    /// the least sets of its size (`None` beyond `max_k`).
    #[inline]
    pub fn least_ranked(&self, set: u32) -> (u32, u32, Option<u64>) {
        self.least_ranked_from(set, self.table_entry(set))
    }

    /// A set's entry in the least-image table (`None` on boards without one), for
    /// [`SetClasses::canonical_pair_index_from`]: a caller can load several before using them.
    #[inline]
    pub fn table_entry(&self, set: u32) -> Option<u64> {
        self.least_table.get(self.table_index(set)?).copied()
    }

    /// Where a set's entry lies in the table: after the sets of fewer points, at its colex rank
    /// among the sets of its size (the sum over its points, the `j`-th lowest at point `p`, of
    /// `C(p, j)`). `None` for sets larger than the table's, or without a table.
    #[inline]
    fn table_index(&self, set: u32) -> Option<usize> {
        let offset = *self.table_offsets.get(set.count_ones() as usize)?;
        Some(offset + self.colex_of(set) as usize)
    }

    /// [`SetClasses::canonical_pair_index`] given `a`'s [`SetClasses::table_entry`].
    #[inline]
    pub fn canonical_pair_index_from(&self, a: u32, entry: Option<u64>, b: u32) -> Option<u64> {
        self.ranked_pair_index(self.least_ranked_from(a, entry), b)
    }

    /// [`SetClasses::least_ranked`] through a worker's cache.
    #[inline]
    pub fn least_ranked_cached(&self, set: u32, cache: &mut LeastCache) -> (u32, u32, Option<u64>) {
        if self.least_table.is_empty() {
            return self.least_ranked_from(set, None);
        }
        if cache.owner != self.id {
            *cache = LeastCache { owner: self.id, ..LeastCache::default() };
        }
        let slot = &mut cache.slots[(set.wrapping_mul(0x9e37_79b1) >> 24) as usize % CACHE_SLOTS];
        if slot.0 != set {
            match self.table_entry(set) {
                Some(entry) => *slot = (set, entry),
                None => return self.least_ranked_from(set, None),
            }
        }
        self.least_ranked_from(set, Some(slot.1))
    }

    /// [`SetClasses::least_ranked`] given the set's table entry, if the board has a table.
    #[inline]
    fn least_ranked_from(&self, set: u32, entry: Option<u64>) -> (u32, u32, Option<u64>) {
        match entry {
            Some(entry) => {
                let mask = entry as u32;
                let least = self.image(mask.trailing_zeros() as usize, set);
                let ranked = least.count_ones() as usize <= self.max_k;
                (least, mask, ranked.then_some(entry >> 32))
            }
            None => {
                let (least, mask) = self.least_computed(set);
                (least, mask, self.class_rank(least))
            }
        }
    }

    /// The least image of `b` under the symmetries of `mask`, and the first symmetry reaching it.
    #[inline]
    fn least_under(&self, mask: u32, b: u32) -> (u32, usize) {
        let first = mask.trailing_zeros() as usize;
        // A set least as it is and kept by the identity alone (every position's own first set):
        // nothing to look up.
        if mask == self.identity_mask {
            return (b, first);
        }
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
        best
    }

    /// The index of the canonical form of any pair of disjoint sets (`None` if `a` is larger
    /// than the ranked sizes): [`SetClasses::canonical_pair`] and [`SetClasses::pair_index`] in
    /// one step, with one table lookup on small boards.
    #[inline]
    pub fn canonical_pair_index(&self, a: u32, b: u32) -> Option<u64> {
        self.ranked_pair_index(self.least_ranked(a), b)
    }

    /// [`SetClasses::canonical_pair_index`] through a worker's cache.
    #[inline]
    pub fn canonical_pair_index_cached(
        &self,
        a: u32,
        b: u32,
        cache: &mut LeastCache,
    ) -> Option<u64> {
        self.ranked_pair_index(self.least_ranked_cached(a, cache), b)
    }

    /// The index of the canonical pair of `a` (given as [`SetClasses::least_ranked`] gives it)
    /// and `b`: a caller pairing one `a` with many sets finds `a`'s least image once.
    #[inline]
    pub fn ranked_pair_index(
        &self,
        (least, mask, rank): (u32, u32, Option<u64>),
        b: u32,
    ) -> Option<u64> {
        let (b, _) = self.least_under(mask, b);
        Some(
            rank? * self.binomial(self.n - least.count_ones() as usize, b.count_ones() as usize)
                + self.colex_rank(least, b),
        )
    }

    /// The canonical form of a pair of disjoint sets: `a`'s least image, and the least image of
    /// `b` under the symmetries that take `a` there. Also the symmetry used.
    #[inline]
    pub fn canonical_pair(&self, a: u32, b: u32) -> (u32, u32, usize) {
        let (least, mask) = self.least(a);
        let (b, s) = self.least_under(mask, b);
        (least, b, s)
    }

    /// The number of classes of sets of `k` points.
    #[inline]
    pub fn class_count(&self, k: usize) -> u64 {
        self.least_sets.get(k).map_or(0, |s| s.len() as u64)
    }

    /// The rank of a least set among the least sets of its size.
    #[inline]
    pub fn class_rank(&self, least: u32) -> Option<u64> {
        let sets = self.least_sets.get(least.count_ones() as usize)?;
        match self.table_entry(least) {
            Some(entry) => {
                let r = entry >> 32;
                (sets.get(r as usize) == Some(&least)).then_some(r)
            }
            None => sets.binary_search(&least).ok().map(|r| r as u64),
        }
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
    #[inline]
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
        Some(rank_a * self.binomial(free, kb) + self.colex_rank(a, b))
    }

    /// The colex rank of `b` among the points `a` leaves (renumbered in order): the sum over
    /// `b`'s points, the `j`-th lowest at position `c` among those points, of `C(c, j)`. `b` is
    /// compressed to those points and ranked byte by byte through tables: eight table reads in
    /// all, where counting the positions below each point took a dependent step per point (Nine
    /// Men's Morris's search 1.13 times as fast, BENCHMARKS.md).
    #[inline]
    fn colex_rank(&self, a: u32, b: u32) -> u64 {
        self.colex_of(self.compress(b, !a & self.all_points()))
    }

    /// The points of `set` in `free`, packed low in the order of `free`'s points.
    #[inline]
    fn compress(&self, set: u32, free: u32) -> u32 {
        let mut compressed = 0u32;
        let mut shift = 0;
        for t in 0..4 {
            let m = free >> (8 * t) & 0xff;
            compressed |=
                u32::from(self.extract8[m as usize][(set >> (8 * t) & 0xff) as usize]) << shift;
            shift += m.count_ones();
        }
        compressed
    }

    /// The colex rank of `set` among all sets of its size, byte by byte.
    #[inline]
    fn colex_of(&self, set: u32) -> u64 {
        let mut rank = 0u64;
        let mut below = 0usize;
        for (t, table) in self.colex_bytes.iter().enumerate() {
            let v = set >> (8 * t) & 0xff;
            rank += u64::from(table[below][v as usize]);
            below += v.count_ones() as usize;
        }
        rank
    }

    /// The pair after `(a, b)` in index order among pairs of their sizes (`a` least), or `None`
    /// after the last: the next set of the points `a` leaves in colex order (which is numeric
    /// order), else the next least `a` with the lowest such set.
    #[inline]
    pub fn next_pair(&self, a: u32, b: u32) -> Option<(u32, u32)> {
        let free = !a & self.all_points();
        if b != 0 {
            // Add b's lowest bit within the free points: the carry clears b's lowest run and sets
            // the next free point; the run's other bits go back to the lowest free points.
            let low = b & b.wrapping_neg();
            let moved = (b | !free).wrapping_add(low) & free;
            if moved != 0 && moved > b {
                let refill = b.count_ones() - moved.count_ones();
                return Some((a, moved | lowest_bits(free, refill)));
            }
        }
        let ka = a.count_ones() as usize;
        let next = self.class_set(ka, self.class_rank(a)? + 1)?;
        let free = !next & self.all_points();
        let kb = b.count_ones();
        (free.count_ones() >= kb).then(|| (next, lowest_bits(free, kb)))
    }

    fn all_points(&self) -> u32 {
        ((1u64 << self.n) - 1) as u32
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
        // Colex unranking: for j = kb..1, the largest compressed position c (below the last
        // one taken) with C(c, j) <= r. C(c, j) grows with c, so one walk down the free points
        // from the top finds them all, each point taken in the same step as its position.
        let mut b = 0u32;
        let mut points = !a & ((1u64 << self.n) - 1) as u32;
        let mut j = kb;
        let mut c = free;
        while j > 0 {
            c -= 1;
            let top = 1u32 << (31 - points.leading_zeros());
            points ^= top;
            let below = self.binomial[c][j];
            if below <= r {
                r -= below;
                b |= top;
                j -= 1;
            }
        }
        Some((a, b))
    }
}

/// Bit extraction within a byte, for every mask and value.
fn extract_table() -> Box<[[u8; 256]; 256]> {
    let mut table = Box::new([[0u8; 256]; 256]);
    for (m, row) in table.iter_mut().enumerate() {
        for (v, out) in row.iter_mut().enumerate() {
            let mut at = 0;
            for bit in 0..8 {
                if m >> bit & 1 == 1 {
                    *out |= ((v >> bit & 1) as u8) << at;
                    at += 1;
                }
            }
        }
    }
    table
}

/// The lowest `k` bits of `set`.
#[inline]
fn lowest_bits(mut set: u32, k: u32) -> u32 {
    let mut out = 0;
    for _ in 0..k {
        let low = set & set.wrapping_neg();
        out |= low;
        set ^= low;
    }
    out
}

mod neighbours;
pub use neighbours::{AddedPairs, Beside, Leading, Neighbours};

#[cfg(test)]
mod tests;

//! The cross-board games' dense index below the tier: a set of pieces (geese, hens) beside up
//! to two foxes, ranked among the sets of as many pieces with the same row sum on the points the
//! foxes leave free; and the foxes' places up to the mirror, each class with the run of indices
//! its sets take. Both games rank the same way, so one table of counts serves them.

use std::sync::OnceLock;

use super::{Cross, N};
use crate::board;

/// Most pieces of a set.
pub(crate) const MAX_SET: usize = 20;
/// The highest row sum of a set plus one.
pub(crate) const SUMS: usize = 6 * MAX_SET + 1;
/// Piece counts and row sums, as `k * SUMS + t`: a set's state.
pub(crate) const STATES: usize = (MAX_SET + 1) * SUMS;
/// The code of "no fox" in a pair of foxes' points (one past the last point).
pub(crate) const NONE: u8 = N as u8;
/// Sets of points left out of a count, by their rows: none, one (1 + row), two (8 + 7 r1 + r2).
const LEFT_OUT: usize = 1 + 7 + 49;

/// The counts that rank sets, and the foxes' classes.
#[derive(Debug)]
pub(crate) struct SetRanks {
    /// Per point: its row, 0 at the top.
    row: [u32; N],
    /// `tail[(left_out * (N + 1) + from) * STATES + state]`: the sets of `k` pieces with row sum
    /// `t` on the points from `from` on, less one point of each row `left_out` names.
    tail: Vec<u32>,
    /// Per pair of points (either may be [`NONE`]): the rows a count beside foxes there leaves
    /// out ([`SetRanks::left_out`] of all of them).
    left_out_of: Vec<u8>,
    /// Per number of foxes: their places up to the mirror (points, the lesser first).
    pub classes: [Vec<[u8; 2]>; 3],
    /// Per pair of points (either may be [`NONE`]): its class among its number of foxes, or
    /// `u16::MAX` where its mirror image is the canonical one.
    class_of: Vec<u16>,
    /// Per number of foxes, class `j` (and one past the last) and state: the sets of the classes
    /// before `j`.
    pub offsets: [Vec<u64>; 3],
    /// `one_fox[(fox * N + p) * STATES + state]`: a piece's term beside one fox
    /// ([`SetRanks::term`] with the foxes `[fox, NONE]`) in one load, for Fox and Geese's hot
    /// paths.
    one_fox: Vec<u32>,
}

impl SetRanks {
    pub fn shared() -> &'static SetRanks {
        static RANKS: OnceLock<SetRanks> = OnceLock::new();
        RANKS.get_or_init(SetRanks::new)
    }

    fn new() -> SetRanks {
        let row = Cross::shared().row;
        let mut r = SetRanks {
            row,
            tail: Self::tails(&row),
            left_out_of: Vec::new(),
            classes: [Vec::new(), Vec::new(), Vec::new()],
            class_of: vec![u16::MAX; (N + 1) * (N + 1)],
            offsets: [Vec::new(), Vec::new(), Vec::new()],
            one_fox: Vec::new(),
        };
        r.left_out_of = (0..(N + 1) * (N + 1))
            .map(|i| r.left_out([(i / (N + 1)) as u8, (i % (N + 1)) as u8], None) as u8)
            .collect();
        r.fox_classes();
        let mut one_fox = vec![0u32; N * N * STATES];
        for fox in 0..N {
            let spans = FoxSpans::new(&r, [fox as u8, NONE]);
            for p in 0..N {
                for state in 0..STATES {
                    let term = r.term(&spans, p, state).try_into().expect("32 bits");
                    one_fox[(fox * N + p) * STATES + state] = term;
                }
            }
        }
        r.one_fox = one_fox;
        r
    }

    /// The counts of [`SetRanks::tail`]: the sets on the points from each point on, by dividing
    /// out each left-out row from the counts of all of them.
    fn tails(row: &[u32; N]) -> Vec<u32> {
        let mut tail = vec![0u32; LEFT_OUT * (N + 1) * STATES];
        let mut all = vec![0i64; STATES];
        all[0] = 1;
        for from in (0..=N).rev() {
            if from < N {
                let r = row[from] as usize;
                for k in (1..=MAX_SET).rev() {
                    for t in r..SUMS {
                        all[k * SUMS + t] += all[(k - 1) * SUMS + t - r];
                    }
                }
            }
            // How many points of each row there are from `from` on.
            let mut have = [0usize; 7];
            (from..N).for_each(|p| have[row[p] as usize] += 1);
            for left_out in 0..LEFT_OUT {
                let rows: Vec<usize> = match left_out {
                    0 => vec![],
                    1..=7 => vec![left_out - 1],
                    _ => vec![(left_out - 8) / 7, (left_out - 8) % 7],
                };
                let mut need = [0usize; 7];
                rows.iter().for_each(|&r| need[r] += 1);
                if (0..7).any(|r| need[r] > have[r]) || (rows.len() == 2 && rows[0] > rows[1]) {
                    continue;
                }
                let mut counts = all.clone();
                for &r in &rows {
                    // Dividing by (1 + x y^r): a set without that point.
                    for k in 1..=MAX_SET {
                        for t in r..SUMS {
                            counts[k * SUMS + t] -= counts[(k - 1) * SUMS + t - r];
                        }
                    }
                }
                let at = (left_out * (N + 1) + from) * STATES;
                for (slot, &c) in tail[at..at + STATES].iter_mut().zip(&counts) {
                    *slot = c.try_into().expect("a count of sets fits 32 bits");
                }
            }
        }
        tail
    }

    /// The foxes' places up to the mirror and the offsets of their runs of indices. Of a place
    /// and its mirror image the canonical one has the lesser position code, whose higher field
    /// is the second fox's.
    fn fox_classes(&mut self) {
        let mirror = Cross::shared().mirror;
        let mirrored =
            |f: [u8; 2]| sorted(f.map(|p| if p == NONE { NONE } else { mirror[p as usize] as u8 }));
        let mut classes: [Vec<[u8; 2]>; 3] = [vec![[NONE, NONE]], Vec::new(), Vec::new()];
        let key = |f: [u8; 2]| (f[1], f[0]);
        for a in 0..N as u8 {
            if key([a, NONE]) <= key(mirrored([a, NONE])) {
                classes[1].push([a, NONE]);
            }
            for b in a + 1..N as u8 {
                if key([a, b]) <= key(mirrored([a, b])) {
                    classes[2].push([a, b]);
                }
            }
        }
        for (count, list) in classes.iter().enumerate() {
            let mut offsets = vec![0u64; (list.len() + 1) * STATES];
            for (j, &foxes) in list.iter().enumerate() {
                self.class_of[foxes[0] as usize * (N + 1) + foxes[1] as usize] = j as u16;
                let left_out = self.left_out(foxes, None);
                for state in 0..STATES {
                    offsets[(j + 1) * STATES + state] =
                        offsets[j * STATES + state] + self.tail_count(left_out, 0, state);
                }
            }
            self.offsets[count] = offsets;
        }
        self.classes = classes;
    }

    /// The class of the foxes' places among their number of foxes, `None` where their mirror
    /// image is the canonical one.
    pub fn class(&self, foxes: [u8; 2]) -> Option<usize> {
        let j = self.class_of[foxes[0] as usize * (N + 1) + foxes[1] as usize];
        (j != u16::MAX).then_some(usize::from(j))
    }

    /// The indices of the classes of `count` foxes before class `j` (`j` = the number of
    /// classes: all of them) for sets of state `state`.
    pub fn offset(&self, count: usize, j: usize, state: usize) -> u64 {
        self.offsets[count][j * STATES + state]
    }

    /// The indices of every class of `count` foxes for sets of `k` pieces with row sum `t`.
    pub fn all_classes(&self, count: usize, k: usize, t: usize) -> u64 {
        if k > MAX_SET || t >= SUMS {
            return 0;
        }
        self.offset(count, self.classes[count].len(), k * SUMS + t)
    }

    /// Which rows a count leaves out: those of the foxes after point `after` (all with `None`).
    fn left_out(&self, foxes: [u8; 2], after: Option<usize>) -> usize {
        let mut rows = foxes
            .iter()
            .filter(|&&f| f != NONE && after.is_none_or(|p| f as usize > p))
            .map(|&f| self.row[f as usize] as usize);
        match (rows.next(), rows.next()) {
            (None, _) => 0,
            (Some(r), None) => 1 + r,
            (Some(a), Some(b)) => 8 + 7 * a.min(b) + a.max(b),
        }
    }

    fn tail_count(&self, left_out: usize, from: usize, state: usize) -> u64 {
        u64::from(self.tail[(left_out * (N + 1) + from) * STATES + state])
    }

    /// The number of sets of `k` pieces with row sum `t` beside the foxes.
    pub fn sets(&self, foxes: [u8; 2], k: usize, t: usize) -> u64 {
        if k > MAX_SET || t >= SUMS {
            return 0;
        }
        self.tail_count(self.left_out(foxes, None), 0, k * SUMS + t)
    }

    /// A set's rank among the sets of as many pieces with the same row sum beside the foxes:
    /// sets without a point come before sets with it, point by point in reading order.
    pub fn rank(&self, foxes: [u8; 2], set: u64) -> u64 {
        let state = set.count_ones() as usize * SUMS + self.row_sum(set) as usize;
        self.rank_in(foxes, set, state)
    }

    /// [`SetRanks::rank`] of a set whose state is known.
    pub fn rank_in(&self, foxes: [u8; 2], set: u64, mut state: usize) -> u64 {
        let spans = FoxSpans::new(self, foxes);
        let mut rank = 0;
        for p in board::bits(set) {
            rank += self.term(&spans, p, state);
            state -= SUMS + self.row[p] as usize;
        }
        rank
    }

    /// A piece's term of a rank: the sets after point `p` whose count and row sum, with `p`'s,
    /// make `state`.
    pub fn term(&self, spans: &FoxSpans, p: usize, state: usize) -> u64 {
        self.tail_count(spans.left_out(p), p + 1, state)
    }

    /// [`SetRanks::rank_in`] beside one fox, a load a piece.
    pub fn rank_one(&self, fox: usize, set: u64, mut state: usize) -> u64 {
        let terms = &self.one_fox[fox * N * STATES..(fox + 1) * N * STATES];
        let mut rank = 0;
        for p in board::bits(set) {
            rank += u64::from(terms[p * STATES + state]);
            state -= SUMS + self.row[p] as usize;
        }
        rank
    }

    /// [`SetRanks::term`] beside one fox, in one load.
    pub fn term_one(&self, fox: usize, p: usize, state: usize) -> u64 {
        u64::from(self.one_fox[(fox * N + p) * STATES + state])
    }

    /// The set at `rank` (see [`SetRanks::rank`]).
    pub fn unrank(&self, foxes: [u8; 2], mut k: usize, mut t: usize, mut rank: u64) -> Option<u64> {
        let taken = fox_mask(foxes);
        let spans = FoxSpans::new(self, foxes);
        let mut set = 0u64;
        for p in (0..N).filter(|&p| taken >> p & 1 == 0) {
            if k == 0 {
                break;
            }
            let without =
                if k <= MAX_SET && t < SUMS { self.term(&spans, p, k * SUMS + t) } else { 0 };
            if rank >= without {
                rank -= without;
                set |= 1 << p;
                k = k.checked_sub(1)?;
                t = t.checked_sub(self.row[p] as usize)?;
            }
        }
        (k == 0 && t == 0 && rank == 0).then_some(set)
    }

    /// The set after `set` in rank order beside the foxes ([`SetRanks::rank`] plus one), `None`
    /// after the last: the last free point without a piece that can take one with the points
    /// before it kept, then the least way to place the rest after it.
    pub fn next_set(&self, foxes: [u8; 2], set: u64) -> Option<u64> {
        let spans = FoxSpans::new(self, foxes);
        self.next_set_by(fox_mask(foxes), set, |p, state| self.term(&spans, p, state))
    }

    /// [`SetRanks::next_set`] beside one fox, from its table of terms.
    pub fn next_set_one(&self, fox: usize, set: u64) -> Option<u64> {
        self.next_set_by(1 << fox, set, |p, state| self.term_one(fox, p, state))
    }

    /// [`SetRanks::next_set`] with the points `taken` by foxes and `term(p, state)`, the sets
    /// after `p` that complete a set of that state with `p`'s piece: the terms of a rank.
    fn next_set_by(&self, taken: u64, set: u64, term: impl Fn(usize, usize) -> u64) -> Option<u64> {
        let completions = |p: usize, k: usize, t: usize| term(p, k * SUMS + t);
        // The pieces after the point looked at, and their row sum.
        let (mut k, mut t) = (0usize, 0usize);
        for p in (0..N).rev() {
            let r = self.row[p] as usize;
            if set >> p & 1 == 1 {
                (k, t) = (k + 1, t + r);
                continue;
            }
            if taken >> p & 1 == 1 || k == 0 || t < r || completions(p, k - 1, t - r) == 0 {
                continue;
            }
            let mut next = set & ((1 << p) - 1) | 1 << p;
            let (mut k, mut t) = (k - 1, t - r);
            let mut q = p + 1;
            while k > 0 {
                if taken >> q & 1 == 0 && completions(q, k, t) == 0 {
                    next |= 1 << q;
                    k -= 1;
                    t -= self.row[q] as usize;
                }
                q += 1;
            }
            return Some(next);
        }
        None
    }

    /// The state of a set: its count and row sum.
    pub fn state(&self, set: u64) -> usize {
        set.count_ones() as usize * SUMS + self.row_sum(set) as usize
    }

    fn row_sum(&self, set: u64) -> u32 {
        Cross::shared().row_sum(set)
    }
}

/// The left-out rows of a rank's terms change only where a fox is passed: before the first fox,
/// both foxes' rows; between them, the second's; after both, none.
pub(crate) struct FoxSpans {
    before_first: u64,
    between: u64,
    both: usize,
    second: usize,
}

impl FoxSpans {
    pub fn new(r: &SetRanks, foxes: [u8; 2]) -> FoxSpans {
        let [a, b] = foxes;
        FoxSpans {
            before_first: (1u64 << a) - 1,
            between: fox_span(a, b),
            both: usize::from(r.left_out_of[usize::from(a) * (N + 1) + usize::from(b)]),
            second: usize::from(r.left_out_of[N * (N + 1) + usize::from(b)]),
        }
    }

    fn left_out(&self, p: usize) -> usize {
        if self.before_first >> p & 1 == 1 {
            self.both
        } else if self.between >> p & 1 == 1 {
            self.second
        } else {
            0
        }
    }
}

/// A set's points and the state of each term of its rank, kept to rank it beside other foxes:
/// the terms' states do not depend on the foxes.
pub(crate) struct PieceStates {
    points: [u8; MAX_SET],
    states: [u16; MAX_SET],
    k: usize,
}

impl PieceStates {
    pub fn new(r: &SetRanks, set: u64, mut state: usize) -> PieceStates {
        let mut s = PieceStates { points: [0; MAX_SET], states: [0; MAX_SET], k: 0 };
        for (j, p) in board::bits(set).enumerate() {
            s.points[j] = p as u8;
            s.states[j] = state as u16;
            state -= SUMS + r.row[p] as usize;
            s.k = j + 1;
        }
        s
    }

    pub fn rank(&self, r: &SetRanks, foxes: [u8; 2]) -> u64 {
        let spans = FoxSpans::new(r, foxes);
        (0..self.k)
            .map(|j| r.term(&spans, usize::from(self.points[j]), usize::from(self.states[j])))
            .sum()
    }
}

/// Two points, the lesser first ([`NONE`] last).
pub(crate) fn sorted(f: [u8; 2]) -> [u8; 2] {
    [f[0].min(f[1]), f[0].max(f[1])]
}

/// The points after `a` and before `b` (either may be [`NONE`], past the last point).
fn fox_span(a: u8, b: u8) -> u64 {
    let below = |p: u8| if p >= 64 { u64::MAX } else { (1u64 << p) - 1 };
    below(b) & !below(a) & !(1 << a.min(63))
}

/// The foxes' points as a mask.
pub(crate) fn fox_mask(foxes: [u8; 2]) -> u64 {
    foxes.iter().filter(|&&f| f != NONE).fold(0, |m, &f| m | 1 << f)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every set of a few pieces beside one fox and beside two has the rank of its place in the
    /// order, counted by walking [`SetRanks::next_set`], and unranks back.
    #[test]
    fn ranks_count_the_sets_before() {
        let r = SetRanks::shared();
        assert_eq!(r.classes.iter().map(Vec::len).collect::<Vec<_>>(), [1, 20, 281]);
        for foxes in [[NONE, NONE], [16, NONE], [4, 30]] {
            for (k, t) in [(2, 3), (3, 9), (4, 14)] {
                let total = r.sets(foxes, k, t);
                let mut set = r.unrank(foxes, k, t, 0).unwrap();
                for rank in 0..total {
                    assert_eq!(r.rank(foxes, set), rank);
                    assert_eq!(r.unrank(foxes, k, t, rank), Some(set));
                    assert_eq!(set & fox_mask(foxes), 0);
                    match r.next_set(foxes, set) {
                        Some(next) => set = next,
                        None => assert_eq!(rank + 1, total),
                    }
                }
                assert!(total > 0 && r.unrank(foxes, k, t, total).is_none());
            }
        }
    }
}

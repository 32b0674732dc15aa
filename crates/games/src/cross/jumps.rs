//! The fox's captures on the cross board: a jump over an adjacent piece to the empty point just
//! beyond it on the same line, chained as one move that may stop after any jump; and the same
//! chains undone one jump at a time, for the parents of a position.

/// Per point: the (point jumped over, landing point) pairs along the lines a game draws.
pub(crate) type JumpTable = Vec<Vec<(u32, u32)>>;

/// What a fox's chain of jumps may take and where it may land: the game's jump table, the
/// points whose pieces cannot be taken (`safe`), the points it cannot land on besides the
/// pieces' (`other`: the other fox), and the fewest pieces with which a chain goes on (`goal`:
/// the capture that leaves fewer ends the game).
pub(crate) struct Chase<'a> {
    pub jumps: &'a JumpTable,
    pub safe: u64,
    pub other: u64,
    pub goal: u32,
}

/// The positions a chain of jumps has reached, as (landing point, pieces left): searched in a
/// list while they are few, in a hash table beyond. A fox among many pieces reaches hundreds
/// (15 geese: one fox in a thousand that can capture has 200 captures or more), and a list's
/// search made finding them all quadratic (45% of a 15-geese tier's initialisation).
#[derive(Debug, Default)]
pub(crate) struct Seen {
    /// Every position added, in order.
    list: Vec<u64>,
    /// Open addressing over `list`'s keys (0: empty), once the list passes [`LIST_MOST`].
    table: Vec<u64>,
}

/// The positions searched in a list.
const LIST_MOST: usize = 24;

impl Seen {
    /// The positions seen from the start: `(landing point, pieces left)`.
    pub fn with(at: u32, pieces: u64) -> Seen {
        let mut seen = Seen::default();
        seen.insert(at, pieces);
        seen
    }

    /// Adds a position; whether it was not there before.
    #[inline]
    pub fn insert(&mut self, at: u32, pieces: u64) -> bool {
        debug_assert!(pieces >> 48 == 0 && at < 1 << 15);
        let key = pieces | u64::from(at + 1) << 48;
        if self.table.is_empty() {
            if self.list.contains(&key) {
                return false;
            }
            self.list.push(key);
            if self.list.len() > LIST_MOST {
                self.rebuild(4 * LIST_MOST.next_power_of_two());
            }
            return true;
        }
        let mask = self.table.len() - 1;
        let mut i = Self::slot(key, mask);
        while self.table[i] != 0 {
            if self.table[i] == key {
                return false;
            }
            i = (i + 1) & mask;
        }
        self.table[i] = key;
        self.list.push(key);
        if 2 * self.list.len() > self.table.len() {
            self.rebuild(2 * self.table.len());
        }
        true
    }

    #[inline]
    fn slot(key: u64, mask: usize) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask
    }

    /// The table at `size` slots (a power of two), from the list.
    fn rebuild(&mut self, size: usize) {
        self.table.clear();
        self.table.resize(size, 0);
        let mask = size - 1;
        for &key in &self.list {
            let mut i = Self::slot(key, mask);
            while self.table[i] != 0 {
                i = (i + 1) & mask;
            }
            self.table[i] = key;
        }
    }
}

impl Chase<'_> {
    /// Whether the fox on `at` has a jump over one of `pieces`.
    pub fn can_jump(&self, pieces: u64, at: u32) -> bool {
        let (prey, blocked) = (pieces & !self.safe, pieces | self.other);
        self.jumps[at as usize].iter().any(|&(over, to)| prey >> over & !blocked >> to & 1 == 1)
    }

    /// Whether the fox on `at` has a chain of `n` jumps or more over `pieces`.
    pub fn can_chain(&self, pieces: u64, at: u32, n: u32) -> bool {
        if n <= 1 {
            return n == 0 || self.can_jump(pieces, at);
        }
        let (prey, blocked) = (pieces & !self.safe, pieces | self.other);
        self.jumps[at as usize].iter().any(|&(over, to)| {
            let after = pieces & !(1 << over);
            prey >> over & !blocked >> to & 1 == 1
                && after.count_ones() >= self.goal
                && self.can_chain(after, to, n - 1)
        })
    }

    /// Calls `f(path, pieces after)` for each capture by the fox on `from`: the points it lands
    /// on, in order, one capture for each different position it can end in (the first path found
    /// to it). A chain stops where the game ends.
    pub fn captures(&self, pieces: u64, from: u32, f: &mut impl FnMut(&[u32], u64)) {
        if !self.can_jump(pieces, from) {
            return;
        }
        let mut path = vec![from];
        self.jump_on(pieces, &mut path, &mut Seen::default(), f);
    }

    /// The chains that go on from the end of `path`, the positions in `seen` left out.
    pub fn jump_on(
        &self,
        pieces: u64,
        path: &mut Vec<u32>,
        seen: &mut Seen,
        f: &mut impl FnMut(&[u32], u64),
    ) {
        let at = *path.last().expect("the fox's point") as usize;
        for &(over, to) in &self.jumps[at] {
            let prey = pieces & !self.safe;
            if prey >> over & 1 == 0 || (pieces | self.other) >> to & 1 == 1 {
                continue;
            }
            let after = pieces & !(1 << over);
            if !seen.insert(to, after) {
                continue;
            }
            path.push(to);
            f(&path[1..], after);
            if after.count_ones() >= self.goal {
                self.jump_on(after, path, seen, f);
            }
            path.pop();
        }
    }

    /// The captures that end with the fox on `at` and `pieces` left, undone one jump at a time:
    /// each jump back puts a piece on the point jumped over, and each is a parent:
    /// `f(pieces before, the fox's start)`. None is undone to more than `most` pieces.
    pub fn jump_back(
        &self,
        pieces: u64,
        at: u32,
        most: u32,
        seen: &mut Seen,
        f: &mut impl FnMut(u64, u32),
    ) {
        if pieces.count_ones() >= most {
            return;
        }
        for &(over, from) in &self.jumps[at as usize] {
            let taken = pieces | self.other | 1 << at;
            let blocked = (pieces | self.other) >> from & 1 == 1;
            if taken >> over & 1 == 1 || self.safe >> over & 1 == 1 || blocked {
                continue;
            }
            let before = pieces | 1 << over;
            if !seen.insert(from, before) {
                continue;
            }
            f(before, from);
            // An earlier jump left at least the goal's pieces, or the chain would have stopped.
            if before.count_ones() >= self.goal {
                self.jump_back(before, from, most, seen, f);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions added to [`Seen`] are new exactly where a plain set of them says so, before the
    /// list turns into a hash table and long after (through several rebuilds).
    #[test]
    fn seen_tells_new_positions_as_a_set_does() {
        let mut seen = Seen::default();
        let mut set = std::collections::HashSet::new();
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let (mut new, mut again) = (0, 0);
        for _ in 0..5_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Few distinct points and sets, so that many positions come again.
            let (at, pieces) = ((x % 33) as u32, (x >> 20) & 0x3ff);
            let fresh = set.insert((at, pieces));
            assert_eq!(seen.insert(at, pieces), fresh);
            if fresh {
                new += 1;
            } else {
                again += 1;
            }
        }
        assert!(new > 4 * LIST_MOST && again > 100, "{new} new, {again} again");
        assert!(!seen.table.is_empty());
        assert!(Seen::with(3, 5).insert(4, 5) && !Seen::with(3, 5).insert(3, 5));
    }
}

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

impl Chase<'_> {
    /// Whether the fox on `at` has a jump over one of `pieces`.
    pub fn can_jump(&self, pieces: u64, at: u32) -> bool {
        let (prey, blocked) = (pieces & !self.safe, pieces | self.other);
        self.jumps[at as usize].iter().any(|&(over, to)| prey >> over & !blocked >> to & 1 == 1)
    }

    /// Whether the fox on `at` has a chain of two jumps or more over `pieces`.
    pub fn can_jump_twice(&self, pieces: u64, at: u32) -> bool {
        let (prey, blocked) = (pieces & !self.safe, pieces | self.other);
        self.jumps[at as usize].iter().any(|&(over, to)| {
            let after = pieces & !(1 << over);
            prey >> over & !blocked >> to & 1 == 1
                && after.count_ones() >= self.goal
                && self.can_jump(after, to)
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
        let mut seen = Vec::new();
        self.jump_on(pieces, &mut path, &mut seen, f);
    }

    /// The chains that go on from the end of `path`, the positions in `seen` left out.
    pub fn jump_on(
        &self,
        pieces: u64,
        path: &mut Vec<u32>,
        seen: &mut Vec<(u32, u64)>,
        f: &mut impl FnMut(&[u32], u64),
    ) {
        let at = *path.last().expect("the fox's point") as usize;
        for &(over, to) in &self.jumps[at] {
            let prey = pieces & !self.safe;
            if prey >> over & 1 == 0 || (pieces | self.other) >> to & 1 == 1 {
                continue;
            }
            let after = pieces & !(1 << over);
            if seen.contains(&(to, after)) {
                continue;
            }
            seen.push((to, after));
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
        seen: &mut Vec<(u32, u64)>,
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
            // A chain's positions are few: a list is faster to search than a hash set.
            if seen.contains(&(from, before)) {
                continue;
            }
            seen.push((from, before));
            f(before, from);
            // An earlier jump left at least the goal's pieces, or the chain would have stopped.
            if before.count_ones() >= self.goal {
                self.jump_back(before, from, most, seen, f);
            }
        }
    }
}

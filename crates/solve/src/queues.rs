//! The retrograde engine's frontier queues: per remoteness, the indices decided at it.
//!
//! A queued index takes four bytes in a tier of at most 2^32 indices, else eight. A level grows
//! in blocks of [`BLOCK`] entries, so it never reallocates (a growing `Vec` would hold its old and
//! new buffers at once: twice the level's size). A level leaves its queue as one list, copied
//! from the blocks on every thread, and is handed out again in slices ([`Level::slices`]), so
//! that what the engine derives from a level never has to be held for the whole level at once.
//! In queues that recycle ([`Levels::recycle_taken`]), the emptied blocks, and the list once the
//! engine hands it back ([`Levels::recycle`]), are taken again by later pushes and levels.
//! Queues filled by parallel tasks are joined by moving their blocks, which may then be shorter
//! than [`BLOCK`].

use rayon::prelude::*;

use crate::memory::zeroed;

/// Entries per block of a level.
const BLOCK: usize = 1 << 20;

/// The bytes a queued index takes in a tier of `n` indices.
pub(crate) fn queue_entry_bytes(n: usize) -> u64 {
    if n as u64 <= 1 << 32 {
        4
    } else {
        8
    }
}

/// A queued index: four bytes or eight.
pub(crate) trait Entry: Copy + Ord + Send + Sync + Into<u64> + zerocopy::FromZeros {
    /// `i` is an index of a tier whose entries are `Self`.
    fn from_index(i: u64) -> Self;
}

impl Entry for u32 {
    #[inline]
    fn from_index(i: u64) -> u32 {
        // A tier whose queues are `u32` has at most 2^32 indices.
        i as u32
    }
}

impl Entry for u64 {
    #[inline]
    fn from_index(i: u64) -> u64 {
        i
    }
}

/// Emptied blocks a queue holds to be taken again ([`Levels::recycle`]).
const FREE_BLOCKS: usize = 32;

/// Queues of one entry type: per level, its blocks; and, where it recycles, what taken levels
/// left, to be taken again rather than asked of the allocator.
pub(crate) struct Queue<T> {
    levels: Vec<Vec<Vec<T>>>,
    /// Whether it keeps what taken levels left ([`Levels::recycle_taken`]).
    recycles: bool,
    /// Emptied blocks of [`BLOCK`] entries, at most [`FREE_BLOCKS`].
    free: Vec<Vec<T>>,
    /// The largest list of a level handed back, emptied.
    list: Vec<T>,
}

impl<T: Entry> Queue<T> {
    fn new() -> Queue<T> {
        Queue { levels: Vec::new(), recycles: false, free: Vec::new(), list: Vec::new() }
    }

    /// Keeps an emptied block of [`BLOCK`] entries where it recycles and holds fewer than
    /// [`FREE_BLOCKS`].
    fn free_block(&mut self, mut block: Vec<T>) {
        if self.recycles && block.capacity() == BLOCK && self.free.len() < FREE_BLOCKS {
            block.clear();
            self.free.push(block);
        }
    }

    fn push(&mut self, r: usize, i: u64) {
        if self.levels.len() <= r {
            self.levels.resize_with(r + 1, Vec::new);
        }
        let blocks = &mut self.levels[r];
        match blocks.last_mut() {
            Some(block) if block.len() < BLOCK => block.push(T::from_index(i)),
            _ => {
                // The first block grows as a `Vec` does (a small level stays small); later ones
                // are allocated whole.
                let mut block = match blocks.is_empty() {
                    true => Vec::new(),
                    false => self.free.pop().unwrap_or_else(|| Vec::with_capacity(BLOCK)),
                };
                block.push(T::from_index(i));
                blocks.push(block);
            }
        }
    }

    /// Level `r` as one list (in the list handed back where that has room), its blocks kept
    /// to be taken again once copied.
    fn take(&mut self, r: usize) -> Vec<T> {
        let Some(blocks) = self.levels.get_mut(r) else {
            return Vec::new();
        };
        let blocks = std::mem::take(blocks);
        if blocks.len() == 1 {
            return blocks.into_iter().next().unwrap_or_default();
        }
        let len = blocks.iter().map(Vec::len).sum();
        let mut all = std::mem::take(&mut self.list);
        if all.capacity() >= len {
            all.resize(len, T::from_index(0));
        } else {
            // Let go first, so that what it frees is what the new list takes. Asked of the
            // allocator zeroed and written on every thread, where its pages are first touched.
            drop(all);
            all = zeroed(len);
        }
        let mut rest = &mut all[..];
        let mut copies = Vec::with_capacity(blocks.len());
        for block in &blocks {
            let (to, after) = std::mem::take(&mut rest).split_at_mut(block.len());
            copies.push((to, block));
            rest = after;
        }
        copies.into_par_iter().for_each(|(to, block)| to.copy_from_slice(block));
        for block in blocks {
            self.free_block(block);
        }
        all
    }

    /// Keeps a level's list once done with: as a block where it is one, else in place of the
    /// list held where it is larger.
    fn recycle(&mut self, mut list: Vec<T>) {
        if list.capacity() == BLOCK {
            self.free_block(list);
        } else if self.recycles && list.capacity() > self.list.capacity() {
            list.clear();
            self.list = list;
        }
    }

    /// Takes `other`'s emptied blocks, up to [`FREE_BLOCKS`].
    fn adopt(&mut self, other: &mut Queue<T>) {
        while self.free.len() < FREE_BLOCKS {
            let Some(block) = other.free.pop() else { break };
            self.free.push(block);
        }
    }

    /// Appends `other`'s blocks to this queue's, level by level.
    fn append(&mut self, other: Queue<T>) {
        if self.levels.len() < other.levels.len() {
            self.levels.resize_with(other.levels.len(), Vec::new);
        }
        for (r, blocks) in other.levels.into_iter().enumerate() {
            self.levels[r].extend(blocks.into_iter().filter(|b| !b.is_empty()));
        }
    }

    fn shrink(&mut self) {
        self.levels.iter_mut().flatten().for_each(Vec::shrink_to_fit);
    }

    fn has(&self, r: usize) -> bool {
        self.levels.get(r).is_some_and(|blocks| blocks.iter().any(|b| !b.is_empty()))
    }

    fn entries(&self) -> u64 {
        self.levels.iter().flatten().map(|b| b.len() as u64).sum()
    }

    fn for_each_level(&self, mut each: impl FnMut(usize, &mut dyn Iterator<Item = u64>)) {
        for (r, blocks) in self.levels.iter().enumerate() {
            each(r, &mut blocks.iter().flatten().map(|&i| i.into()));
        }
    }
}

/// Frontier queues by remoteness.
pub(crate) enum Levels {
    Short(Queue<u32>),
    Long(Queue<u64>),
}

impl Levels {
    /// Queues for a tier of `n` indices.
    pub(crate) fn new(n: usize) -> Levels {
        match queue_entry_bytes(n) {
            4 => Levels::Short(Queue::new()),
            _ => Levels::Long(Queue::new()),
        }
    }

    pub(crate) fn push(&mut self, r: u16, i: u64) {
        match self {
            Levels::Short(q) => q.push(usize::from(r), i),
            Levels::Long(q) => q.push(usize::from(r), i),
        }
    }

    /// Appends `other`'s entries after this one's, level by level: its blocks are moved, not
    /// copied (a block may then be shorter than [`BLOCK`]).
    pub(crate) fn append(&mut self, other: Levels) {
        match (self, other) {
            (Levels::Short(q), Levels::Short(o)) => q.append(o),
            (Levels::Long(q), Levels::Long(o)) => q.append(o),
            // Queues of tiers of different sizes: entry by entry.
            (this, other) => other.for_each_level(|r, entries| {
                for i in entries {
                    this.push(r as u16, i);
                }
            }),
        }
    }

    /// Frees the capacity of its blocks beyond their entries.
    pub(crate) fn shrink(&mut self) {
        match self {
            Levels::Short(q) => q.shrink(),
            Levels::Long(q) => q.shrink(),
        }
    }

    /// Level `r`, leaving it empty.
    pub(crate) fn take(&mut self, r: usize) -> Level {
        match self {
            Levels::Short(q) => Level::Short(q.take(r)),
            Levels::Long(q) => Level::Long(q.take(r)),
        }
    }

    /// These queues, keeping what taken levels leave to be taken again (emptied blocks and the
    /// lists handed back to [`Levels::recycle`]): where the allocator gives freed memory back to
    /// the system at once (under a memory limit), memory taken again is faulted in again, on the
    /// development machine about 6 ms a MiB (BENCHMARKS.md). Elsewhere the allocator takes freed
    /// memory again for whatever asks next, and what the queues would keep is only held longer.
    pub(crate) fn recycle_taken(&mut self) {
        match self {
            Levels::Short(q) => q.recycles = true,
            Levels::Long(q) => q.recycles = true,
        }
    }

    /// Keeps `level`'s memory to be taken again by this queue's pushes and levels, where it
    /// recycles and holds entries of the same width.
    pub(crate) fn recycle(&mut self, level: Level) {
        match (self, level) {
            (Levels::Short(q), Level::Short(v)) => q.recycle(v),
            (Levels::Long(q), Level::Long(v)) => q.recycle(v),
            _ => {}
        }
    }

    /// Takes the emptied blocks `other`'s taken levels left, so that this queue's pushes take
    /// them again.
    pub(crate) fn adopt(&mut self, other: &mut Levels) {
        match (self, other) {
            (Levels::Short(q), Levels::Short(o)) => q.adopt(o),
            (Levels::Long(q), Levels::Long(o)) => q.adopt(o),
            _ => {}
        }
    }

    /// Whether level `r` holds an entry.
    pub(crate) fn has(&self, r: usize) -> bool {
        match self {
            Levels::Short(q) => q.has(r),
            Levels::Long(q) => q.has(r),
        }
    }

    /// The entries queued over every level.
    pub(crate) fn entries(&self) -> u64 {
        match self {
            Levels::Short(q) => q.entries(),
            Levels::Long(q) => q.entries(),
        }
    }

    /// Calls `each` with every level and its entries, in order.
    pub(crate) fn for_each_level(&self, each: impl FnMut(usize, &mut dyn Iterator<Item = u64>)) {
        match self {
            Levels::Short(q) => q.for_each_level(each),
            Levels::Long(q) => q.for_each_level(each),
        }
    }

    /// The number of levels (the last may be empty).
    pub(crate) fn len(&self) -> usize {
        match self {
            Levels::Short(q) => q.levels.len(),
            Levels::Long(q) => q.levels.len(),
        }
    }
}

/// One level taken from its queue.
pub(crate) enum Level {
    Short(Vec<u32>),
    Long(Vec<u64>),
}

impl Level {
    pub(crate) fn is_empty(&self) -> bool {
        match self {
            Level::Short(v) => v.is_empty(),
            Level::Long(v) => v.is_empty(),
        }
    }

    /// Keeps the entries `keep` accepts, in place (in parallel, each entry asked once).
    pub(crate) fn retain(&mut self, keep: impl Fn(u64) -> bool + Sync) {
        match self {
            Level::Short(v) => retain_in_place(v, keep),
            Level::Long(v) => retain_in_place(v, keep),
        }
    }

    /// Sorts the entries in place (in index order, neighbouring positions share most of their
    /// parents' memory).
    pub(crate) fn sort(&mut self) {
        match self {
            Level::Short(v) => v.par_sort_unstable(),
            Level::Long(v) => v.par_sort_unstable(),
        }
    }

    /// Calls `each` on consecutive slices of at most `size` entries, as indices.
    pub(crate) fn slices(&self, size: usize, mut each: impl FnMut(Slice<'_>)) {
        match self {
            Level::Short(v) => v.chunks(size).for_each(|s| each(Slice::Short(s))),
            Level::Long(v) => v.chunks(size).for_each(|s| each(Slice::Long(s))),
        }
    }
}

/// Part of a level.
#[derive(Clone, Copy)]
pub(crate) enum Slice<'a> {
    Short(&'a [u32]),
    Long(&'a [u64]),
}

impl Slice<'_> {
    /// Maps consecutive runs of at most `size` entries in parallel, in order, each with a
    /// worker's state from `init` (made once per worker's share, not per run).
    pub(crate) fn par_map_chunks<T, R: Send>(
        self,
        size: usize,
        init: impl Fn() -> T + Sync + Send,
        f: impl Fn(&mut T, &mut dyn Iterator<Item = u64>, usize) -> R + Sync + Send,
    ) -> Vec<R> {
        match self {
            Slice::Short(s) => s
                .par_chunks(size)
                .map_init(init, |t, c| f(t, &mut c.iter().map(|&i| u64::from(i)), c.len()))
                .collect(),
            Slice::Long(s) => s
                .par_chunks(size)
                .map_init(init, |t, c| f(t, &mut c.iter().copied(), c.len()))
                .collect(),
        }
    }
}

/// Keeps the entries of `v` that `keep` accepts, in order, without a second list: each chunk
/// gathers what it keeps at its front in parallel, then the kept runs move down.
fn retain_in_place<T: Entry>(v: &mut Vec<T>, keep: impl Fn(u64) -> bool + Sync) {
    const RUN: usize = 1 << 14;
    let kept: Vec<usize> = v
        .par_chunks_mut(RUN)
        .map(|chunk| {
            let mut k = 0;
            for j in 0..chunk.len() {
                if keep(chunk[j].into()) {
                    chunk[k] = chunk[j];
                    k += 1;
                }
            }
            k
        })
        .collect();
    let mut to = 0;
    for (c, &k) in kept.iter().enumerate() {
        v.copy_within(c * RUN..c * RUN + k, to);
        to += k;
    }
    v.truncate(to);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(level: &Level) -> Vec<u64> {
        let mut all = Vec::new();
        level.slices(3, |s| {
            for run in s.par_map_chunks(2, || (), |_, it, _| it.collect::<Vec<u64>>()) {
                all.extend(run);
            }
        });
        all
    }

    #[test]
    fn a_level_comes_back_in_push_order_across_blocks() {
        for n in [1 << 20, (1 << 32) + 1] {
            let mut levels = Levels::new(n);
            let count = 2 * BLOCK as u64 + 5;
            for i in 0..count {
                levels.push(3, i * 7 % (1 << 30));
            }
            levels.push(1, 9);
            assert_eq!(levels.len(), 4);
            let level = levels.take(3);
            let got = entries(&level);
            assert_eq!(got.len() as u64, count);
            assert!(got.iter().enumerate().all(|(k, &i)| i == k as u64 * 7 % (1 << 30)));
            assert!(levels.take(3).is_empty(), "a taken level is empty");
            assert_eq!(entries(&levels.take(1)), vec![9]);
            assert!(levels.take(2).is_empty() && levels.take(7).is_empty());
        }
    }

    #[test]
    fn appended_queues_come_back_after_the_first_and_take_pushes_after_them() {
        for (n, m) in [(1000, 1000), ((1 << 32) + 1, (1 << 32) + 1), (1000, (1 << 32) + 1)] {
            let (mut first, mut second) = (Levels::new(n), Levels::new(m));
            first.push(2, 1);
            first.push(0, 2);
            second.push(2, 3);
            second.push(4, 4);
            second.push(2, 5);
            second.shrink();
            first.append(second);
            first.push(2, 6);
            assert_eq!(first.entries(), 6);
            assert_eq!(first.len(), 5);
            assert_eq!(entries(&first.take(2)), vec![1, 3, 5, 6]);
            assert_eq!(entries(&first.take(0)), vec![2]);
            assert_eq!(entries(&first.take(4)), vec![4]);
            assert!(!first.has(1) && !first.has(3));
        }
    }

    #[test]
    fn recycled_blocks_and_lists_are_taken_again_and_hold_only_new_entries() {
        let (mut claimed, mut candidates) = (Levels::new(1000), Levels::new(1000));
        claimed.recycle_taken();
        candidates.recycle_taken();
        let Levels::Short(q) = &claimed else { unreachable!() };
        assert!(q.free.is_empty() && q.list.capacity() == 0);
        let fill = |levels: &mut Levels, r: u16, count: u64, from: u64| {
            (0..count).for_each(|i| levels.push(r, from + i));
        };
        fill(&mut claimed, 1, 2 * BLOCK as u64 + 3, 0);
        fill(&mut candidates, 1, BLOCK as u64 + 1, 10);
        let (inside, outside) = (claimed.take(1), candidates.take(1));
        claimed.adopt(&mut candidates);
        let Levels::Short(q) = &claimed else { unreachable!() };
        // The three blocks of the first level and the two of the second, emptied.
        assert_eq!(q.free.len(), 5);
        assert!(q.free.iter().all(|b| b.is_empty() && b.capacity() == BLOCK));
        let list = match &inside {
            Level::Short(v) => v.as_ptr(),
            Level::Long(_) => unreachable!(),
        };
        claimed.recycle(inside);
        claimed.recycle(outside);
        // The larger list is held; a block taken again by a level's second block.
        fill(&mut claimed, 2, BLOCK as u64 + 2, 100);
        let Levels::Short(q) = &claimed else { unreachable!() };
        assert_eq!(q.free.len(), 4);
        let level = claimed.take(2);
        assert_eq!(entries(&level), (100..100 + BLOCK as u64 + 2).collect::<Vec<_>>());
        match &level {
            Level::Short(v) => assert_eq!(v.as_ptr(), list, "the list held is taken again"),
            Level::Long(_) => unreachable!(),
        }
        // A level larger than the list held: a new list, the held one let go.
        claimed.recycle(level);
        fill(&mut claimed, 3, 4 * BLOCK as u64, 7);
        let level = claimed.take(3);
        assert_eq!(entries(&level), (7..7 + 4 * BLOCK as u64).collect::<Vec<_>>());
        let Levels::Short(q) = &claimed else { unreachable!() };
        assert_eq!(q.list.capacity(), 0);
        assert!(q.free.len() <= FREE_BLOCKS);
        // Queues that do not recycle keep nothing.
        let mut plain = Levels::new(1000);
        fill(&mut plain, 0, 2 * BLOCK as u64, 0);
        let level = plain.take(0);
        plain.recycle(level);
        let Levels::Short(q) = &plain else { unreachable!() };
        assert!(q.free.is_empty() && q.list.capacity() == 0);
    }

    #[test]
    fn retain_keeps_the_accepted_entries_in_order_and_sort_orders_them() {
        let mut levels = Levels::new(100_000);
        for i in (0..100_000u64).rev() {
            levels.push(0, i);
        }
        let mut level = levels.take(0);
        level.retain(|i| i % 3 == 1);
        let kept = entries(&level);
        assert_eq!(kept, (0..100_000u64).rev().filter(|i| i % 3 == 1).collect::<Vec<_>>());
        level.sort();
        assert_eq!(entries(&level), (0..100_000u64).filter(|i| i % 3 == 1).collect::<Vec<_>>());
    }
}

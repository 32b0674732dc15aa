//! The alpha-beta search's table of searched nodes, which threads may share: open addressing in
//! pairs of slots, growing by doubling up to a cap while one search holds it, then keeping per
//! pair the entry whose search took more work.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

use perfectplay_core::Node;

/// What the table keeps of a node: its score, how that bounds the true score (0 marks an empty
/// slot), a tie's remoteness, the child that gave the score (its place among the children, tried
/// first next time) and the work its search took (log2 of the nodes), which decides what a full
/// table keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Entry {
    pub score: i16,
    pub tie: u16,
    pub best: u16,
    pub bound: u8,
    pub work: u8,
}

impl Entry {
    fn pack(self) -> u64 {
        u64::from(self.score as u16)
            | u64::from(self.tie) << 16
            | u64::from(self.best) << 32
            | u64::from(self.bound) << 48
            | u64::from(self.work) << 56
    }

    fn unpack(d: u64) -> Entry {
        Entry {
            score: d as u16 as i16,
            tie: (d >> 16) as u16,
            best: (d >> 32) as u16,
            bound: (d >> 48) as u8,
            work: (d >> 56) as u8,
        }
    }
}

/// One slot: the key's two halves, each exclusive-ored with the packed entry, and the packed
/// entry (0: empty). A slot read while another thread writes it may be read half old, half new;
/// the exclusive or makes such a read fail its key check, so it counts as not found.
#[derive(Debug, Default)]
struct Slot([AtomicU64; 3]);

impl Slot {
    fn load(&self) -> Option<((u64, u64), u64)> {
        let d = self.0[2].load(Relaxed);
        (d != 0).then(|| ((self.0[0].load(Relaxed) ^ d, self.0[1].load(Relaxed) ^ d), d))
    }

    fn store(&self, key: (u64, u64), d: u64) {
        self.0[0].store(key.0 ^ d, Relaxed);
        self.0[1].store(key.1 ^ d, Relaxed);
        self.0[2].store(d, Relaxed);
    }
}

fn slots(n: usize) -> Vec<Slot> {
    std::iter::repeat_with(Slot::default).take(n).collect()
}

#[derive(Debug)]
pub(super) struct Table {
    slots: Vec<Slot>,
    /// Slots filled, counted while the table may still grow.
    used: AtomicUsize,
    pub max_bits: u32,
}

impl Table {
    pub fn new(max_bits: u32) -> Table {
        Table { slots: slots(1 << 10.min(max_bits)), used: AtomicUsize::new(0), max_bits }
    }

    fn split(key: Node) -> (u64, u64) {
        (key as u64, (key >> 64) as u64)
    }

    pub fn used(&self) -> usize {
        self.used.load(Relaxed)
    }

    /// Whether the table is at its cap.
    pub fn full_size(&self) -> bool {
        self.slots.len() >= 1 << self.max_bits
    }

    /// Whether [`Table::grow`] is due.
    pub fn wants_growth(&self) -> bool {
        !self.full_size() && 2 * self.used() >= self.slots.len()
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Doubles the slots `times` times (at most to the cap), placing the entries again.
    pub fn grow_by(&mut self, times: u32) {
        let bits = (self.slots.len().ilog2().saturating_add(times)).min(self.max_bits);
        let len = 1 << bits;
        if len <= self.slots.len() {
            return;
        }
        let old = std::mem::replace(&mut self.slots, slots(len));
        self.used = AtomicUsize::new(0);
        for (key, d) in old.iter().filter_map(Slot::load) {
            self.place(key, d, true);
        }
    }

    /// The first slot of the key's pair.
    fn home(&self, key: (u64, u64)) -> usize {
        let h = (key.0 ^ key.1.rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> 32) as usize & (self.slots.len() - 1) & !1
    }

    pub fn get(&self, key: Node) -> Option<Entry> {
        let key = Self::split(key);
        let i = self.home(key);
        self.slots[i..i + 2]
            .iter()
            .filter_map(Slot::load)
            .find(|&(k, _)| k == key)
            .map(|(_, d)| Entry::unpack(d))
    }

    /// Keeps `entry` for `key`; `count` says whether to count a slot filled (which a table
    /// shared between threads must not: the count would bounce between their caches).
    pub fn put(&self, key: Node, entry: Entry, count: bool) {
        self.place(Self::split(key), entry.pack(), count);
    }

    fn place(&self, key: (u64, u64), d: u64, count: bool) {
        let i = self.home(key);
        let pair = &self.slots[i..i + 2];
        let held = [pair[0].load(), pair[1].load()];
        let slot = match held.iter().position(|h| h.is_some_and(|(k, _)| k == key)) {
            Some(j) => j,
            None => match held.iter().position(Option::is_none) {
                Some(j) => {
                    if count && !self.full_size() {
                        self.used.fetch_add(1, Relaxed);
                    }
                    j
                }
                None => {
                    let work = |h: Option<((u64, u64), u64)>| h.map_or(0, |(_, d)| d >> 56);
                    usize::from(work(held[1]) < work(held[0]))
                }
            },
        };
        pair[slot].store(key, d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_survive_packing_and_growth() {
        let mut t = Table::new(14);
        let entry = |i: u16| Entry { score: -(i as i16), tie: i, best: i % 7, bound: 2, work: 9 };
        let key = |i: u16| (Node::from(i) * 0x1_0000_0001_0000_0001) << 3;
        for i in 1..1500u16 {
            if t.wants_growth() {
                t.grow_by(1);
            }
            t.put(key(i), entry(i), true);
        }
        assert!(t.used() > 1000, "{}", t.used());
        let found = (1..1500u16).filter(|&i| t.get(key(i)) == Some(entry(i))).count();
        // A full pair keeps one of its keys: most survive.
        assert!(found > 1200, "{found} of 1499");
        assert!((1..1500u16).all(|i| t.get(key(i)).is_none_or(|e| e == entry(i))));
        assert_eq!(t.get(key(2000)), None);
    }
}

//! The ranks one tier in parts is shared over (the workers of an MPI run): each rank initialises
//! and solves the parts it owns, part `k` being rank `k % size`'s, and between two levels of the
//! retrograde rounds the ranks trade the mail for each other's parts. At the end the first rank
//! gathers the tier's values. This trait is what the engine needs of them; `perfectplay`'s
//! `--mpi` implements it over MPI, and [`Alone`] is one process, which owns every part.
//!
//! Every rank makes the same calls in the same order (they are collective): the engine agrees on
//! the plan, on whether to go on after each level and on any failure before it moves on.

/// Ranks sharing a tier in parts.
pub trait Ranks: std::fmt::Debug + Send + Sync {
    /// This rank's number, from 0 (the rank that gathers the tier's values and writes them).
    fn rank(&self) -> usize;

    /// How many ranks share the tier.
    fn size(&self) -> usize;

    /// Hands each rank `r` `outgoing[r]` (one entry per rank, this rank's own included) and
    /// returns what each rank handed this one, by rank.
    fn exchange(&self, outgoing: Vec<Vec<u8>>) -> Vec<Vec<u8>>;

    /// The largest of every rank's `mine`.
    fn max(&self, mine: u64) -> u64 {
        if self.size() == 1 {
            return mine;
        }
        let all = self.exchange(vec![mine.to_le_bytes().to_vec(); self.size()]);
        all.iter()
            .filter_map(|b| b.get(..8)?.try_into().ok().map(u64::from_le_bytes))
            .max()
            .unwrap_or(mine)
    }

    /// Whether this rank owns part `k`.
    fn owns(&self, k: usize) -> bool {
        k % self.size() == self.rank()
    }
}

/// One process: it owns every part and trades nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Alone;

impl Ranks for Alone {
    fn rank(&self) -> usize {
        0
    }

    fn size(&self) -> usize {
        1
    }

    fn exchange(&self, outgoing: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        outgoing
    }
}

/// Ranks in one process, for tests: each is a thread, and an exchange meets at a barrier.
#[derive(Debug)]
pub struct Threads {
    rank: usize,
    shared: std::sync::Arc<ThreadsShared>,
}

#[derive(Debug)]
struct ThreadsShared {
    size: usize,
    barrier: std::sync::Barrier,
    /// Per sender, what it hands each rank in the exchange under way.
    slots: std::sync::Mutex<Vec<Vec<Vec<u8>>>>,
}

impl Threads {
    /// `size` ranks, one for each thread to run.
    pub fn new(size: usize) -> Vec<Threads> {
        let shared = std::sync::Arc::new(ThreadsShared {
            size,
            barrier: std::sync::Barrier::new(size),
            slots: std::sync::Mutex::new(vec![Vec::new(); size]),
        });
        (0..size).map(|rank| Threads { rank, shared: shared.clone() }).collect()
    }
}

impl Ranks for Threads {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.shared.size
    }

    fn exchange(&self, outgoing: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        let lock = || self.shared.slots.lock().unwrap_or_else(|e| e.into_inner());
        lock()[self.rank] = outgoing;
        self.shared.barrier.wait();
        let incoming: Vec<Vec<u8>> = lock()
            .iter_mut()
            .map(|sent| sent.get_mut(self.rank).map(std::mem::take).unwrap_or_default())
            .collect();
        // Every rank has taken its own before the slots are used again.
        self.shared.barrier.wait();
        incoming
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_trade_what_each_hands_the_others() {
        let ranks = Threads::new(3);
        let got: Vec<(Vec<Vec<u8>>, u64)> = std::thread::scope(|s| {
            let handles: Vec<_> = ranks
                .iter()
                .map(|r| {
                    s.spawn(move || {
                        let me = r.rank() as u8;
                        let out = (0..3).map(|to| vec![me, to]).collect();
                        (r.exchange(out), r.max(u64::from(me) * 10))
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a rank")).collect()
        });
        for (rank, (incoming, max)) in got.iter().enumerate() {
            let expected: Vec<Vec<u8>> = (0..3).map(|from| vec![from, rank as u8]).collect();
            assert_eq!(incoming, &expected);
            assert_eq!(*max, 20);
        }
        assert!(Alone.owns(5) && ranks[2].owns(5) && !ranks[1].owns(5));
    }
}

//! The buffers a tier solved whole leaves for the next tier to take again: two bytes an index
//! each, its best results from outside the tier and its cells where they are two bytes wide, the
//! largest buffers a tier's solve takes and lets go whole.
//!
//! Under a memory limit the allocator gives what is freed back to the system at once
//! (`perfectplay`'s `choose_purge_delay`), and memory taken again is cleared again by the kernel;
//! on a virtual machine that reports free pages to its host, the host faults it in again too,
//! about 6 ms a MiB on the development machine (BENCHMARKS.md). A new buffer is asked of the
//! allocator zeroed, so that it is first touched where the initialisation writes it, on every
//! thread ([`crate::memory::zeroed`]); that does not make the faults cheaper. Between two tiers
//! come the first's file and counts and the second's child tiers read back: seconds, long enough
//! for the freed pages to be reported. Kept here, a buffer is taken again at memory's pace.

use std::sync::atomic::AtomicU16;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Mutex, MutexGuard};

use rayon::prelude::*;

// Zeros are both a cell with no counter and no best result from outside.
const _: () = assert!(super::NO_EXTERNAL == 0);

/// The most buffers held: a tier takes two (its cells and its best results from outside).
const HELD: usize = 2;

/// The two-byte buffers the last tier solved whole let go, if any.
#[derive(Debug, Default)]
pub(crate) struct Spare {
    buffers: Mutex<Vec<Vec<AtomicU16>>>,
}

impl Spare {
    fn held(&self) -> MutexGuard<'_, Vec<Vec<AtomicU16>>> {
        // A panic while held leaves only buffers whose contents are never read.
        self.buffers.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The bytes it holds.
    fn bytes(held: &[Vec<AtomicU16>]) -> u64 {
        held.iter().map(|v| v.capacity() as u64 * 2).sum()
    }

    /// Lets the buffers go.
    pub(crate) fn clear(&self) {
        *self.held() = Vec::new();
    }

    /// Lets the largest buffers go until it holds at most `own` bytes, the room a tier's own
    /// solve is given: held until the tier takes them, they stay within that room.
    pub(crate) fn within(&self, own: u64) {
        let mut held = self.held();
        held.sort_by_key(Vec::capacity);
        while Self::bytes(&held) > own {
            held.pop();
        }
    }

    /// `len` zeros (no counter, no best result): in the smallest buffer held that has room
    /// (cleared on every thread), else in a new one the allocator zeroes (the buffers held let go
    /// first: none has room for this tier's, so that the memory they free is what the new one
    /// takes).
    pub(super) fn take(&self, len: usize) -> Vec<AtomicU16> {
        let mut held = self.held();
        let fits = (0..held.len())
            .filter(|&k| held[k].capacity() >= len)
            .min_by_key(|&k| held[k].capacity());
        let Some(k) = fits else {
            *held = Vec::new();
            drop(held);
            return crate::memory::zeroed(len);
        };
        let mut v = held.swap_remove(k);
        drop(held);
        v.truncate(len);
        v.par_iter().for_each(|e| e.store(0, Relaxed));
        let more = len - v.len();
        v.extend((0..more).map(|_| AtomicU16::new(0)));
        v
    }

    /// Keeps `v` for the next tier, in place of the smallest buffer held where it holds
    /// [`HELD`] already and that one is smaller.
    pub(super) fn keep(&self, v: Vec<AtomicU16>) {
        let mut held = self.held();
        held.push(v);
        held.sort_by_key(|b| std::cmp::Reverse(b.capacity()));
        held.truncate(HELD);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering::Relaxed;

    use super::*;

    fn bytes(spare: &Spare) -> u64 {
        Spare::bytes(&spare.held())
    }

    fn zeros(v: &[AtomicU16]) -> bool {
        v.iter().all(|c| c.load(Relaxed) == 0)
    }

    #[test]
    fn kept_buffers_are_taken_again_cleared_and_short_ones_replaced() {
        let spare = Spare::default();
        let first = spare.take(1000);
        assert!(zeros(&first));
        first.iter().for_each(|c| c.store(7, Relaxed));
        let at = first.as_ptr();
        spare.keep(first);
        assert_eq!(bytes(&spare), 2000);
        // Fewer entries fit the buffer held: the same memory, every one cleared.
        let again = spare.take(600);
        assert_eq!(again.as_ptr(), at);
        assert_eq!(again.len(), 600);
        assert!(zeros(&again));
        assert_eq!(bytes(&spare), 0);
        // Two are held, the larger first; a third smaller one is not.
        again.iter().for_each(|c| c.store(9, Relaxed));
        spare.keep(again);
        let second: Vec<AtomicU16> = (0..1200).map(|_| AtomicU16::new(5)).collect();
        let second_at = second.as_ptr();
        spare.keep(second);
        spare.keep(Vec::with_capacity(10));
        assert_eq!(bytes(&spare), 4400);
        // The smallest that has room is taken, more than its length cleared too.
        let within = spare.take(900);
        assert_eq!((within.as_ptr(), within.len()), (at, 900));
        assert!(zeros(&within));
        let other = spare.take(900);
        assert_eq!((other.as_ptr(), other.len()), (second_at, 900));
        assert!(zeros(&other));
        spare.keep(within);
        spare.keep(other);
        // More entries than either holds: a new buffer, both held let go.
        let larger = spare.take(1500);
        assert_eq!(larger.len(), 1500);
        assert!(zeros(&larger));
        assert_eq!(bytes(&spare), 0);
        spare.keep(larger);
        spare.keep(Vec::with_capacity(1000));
        // Held within a room: the largest let go first.
        spare.within(5000);
        assert_eq!(bytes(&spare), 5000);
        spare.within(4999);
        assert_eq!(bytes(&spare), 2000);
        spare.within(1999);
        assert_eq!(bytes(&spare), 0);
        spare.keep(vec![AtomicU16::new(0)]);
        spare.clear();
        assert_eq!(bytes(&spare), 0);
    }
}

//! The buffer a tier solved whole leaves for the next tier to take again: its best results from
//! outside the tier, two bytes an index, the largest buffer a tier's solve takes and lets go
//! whole.
//!
//! Under a memory limit the allocator gives what is freed back to the system at once
//! (`perfectplay`'s `choose_purge_delay`), and memory taken again is cleared again by the kernel;
//! on a virtual machine that reports free pages to its host, the host faults it in again too,
//! about 6 ms a MiB on the development machine (BENCHMARKS.md). A new buffer is asked of the
//! allocator zeroed, so that it is first touched where the initialisation writes it, on every
//! thread ([`super::cells::zeroed`]); that does not make the faults cheaper. Between two tiers
//! come the first's file and counts and the second's child tiers read back: seconds, long enough
//! for the freed pages to be reported. Kept here, the buffer is taken again at memory's pace.

use std::sync::atomic::AtomicU16;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Mutex, MutexGuard};

use rayon::prelude::*;

/// The best results from outside the tier the last tier solved whole let go, if any.
#[derive(Debug, Default)]
pub(crate) struct Spare {
    external: Mutex<Vec<AtomicU16>>,
}

impl Spare {
    fn held(&self) -> MutexGuard<'_, Vec<AtomicU16>> {
        // A panic while held leaves only a buffer whose contents are never read.
        self.external.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The bytes it holds.
    #[cfg(test)]
    fn bytes(&self) -> u64 {
        self.held().capacity() as u64 * 2
    }

    /// Lets the buffer go.
    pub(crate) fn clear(&self) {
        *self.held() = Vec::new();
    }

    /// Lets the buffer go where it holds more than `own` bytes, the room a tier's own solve is
    /// given: held until the tier takes it, it stays within that room.
    pub(crate) fn within(&self, own: u64) {
        let mut held = self.held();
        if held.capacity() as u64 * 2 > own {
            *held = Vec::new();
        }
    }

    /// `len` results, none set: in the buffer held where it has room (cleared on every thread),
    /// else in a new one the allocator zeroes (the held one let go first, so that the memory it
    /// frees is what the new one takes).
    pub(super) fn take(&self, len: usize) -> Vec<AtomicU16> {
        let mut v = std::mem::take(&mut *self.held());
        if v.capacity() < len {
            drop(v);
            return crate::memory::zeroed(len);
        }
        v.truncate(len);
        v.par_iter().for_each(|e| e.store(super::NO_EXTERNAL, Relaxed));
        let more = len - v.len();
        v.extend((0..more).map(|_| AtomicU16::new(super::NO_EXTERNAL)));
        v
    }

    /// Keeps `v` for the next tier, where it is larger than the buffer held.
    pub(super) fn keep(&self, v: Vec<AtomicU16>) {
        let mut held = self.held();
        if v.capacity() > held.capacity() {
            *held = v;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering::Relaxed;

    use super::*;

    #[test]
    fn a_kept_buffer_is_taken_again_cleared_and_a_short_one_replaced() {
        let none = |v: &[AtomicU16]| v.iter().all(|c| c.load(Relaxed) == super::super::NO_EXTERNAL);
        let spare = Spare::default();
        let first = spare.take(1000);
        assert!(none(&first));
        first.iter().for_each(|c| c.store(7, Relaxed));
        let at = first.as_ptr();
        spare.keep(first);
        assert_eq!(spare.bytes(), 2000);
        // Fewer results fit the buffer held: the same memory, every one cleared.
        let again = spare.take(600);
        assert_eq!(again.as_ptr(), at);
        assert_eq!(again.len(), 600);
        assert!(none(&again));
        assert_eq!(spare.bytes(), 0);
        // A smaller buffer does not replace a larger one.
        again.iter().for_each(|c| c.store(9, Relaxed));
        spare.keep(again);
        spare.keep(Vec::with_capacity(10));
        assert_eq!(spare.bytes(), 2000);
        // More than its length and within its room: the rest cleared too.
        let within = spare.take(900);
        assert_eq!((within.as_ptr(), within.len()), (at, 900));
        assert!(none(&within));
        spare.keep(within);
        // More results than it holds: a new buffer, the held one let go.
        let larger = spare.take(1500);
        assert_eq!(larger.len(), 1500);
        assert!(none(&larger));
        assert_eq!(spare.bytes(), 0);
        spare.keep(larger);
        spare.within(3000);
        assert_eq!(spare.bytes(), 3000);
        spare.within(2999);
        assert_eq!(spare.bytes(), 0);
        spare.keep(vec![AtomicU16::new(0)]);
        spare.clear();
        assert_eq!(spare.bytes(), 0);
    }
}

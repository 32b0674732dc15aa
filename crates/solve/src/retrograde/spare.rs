//! The buffer a tier solved whole leaves for the next tier to take again: its best results from
//! outside the tier, two bytes an index, the largest buffer a tier's solve takes and lets go
//! whole.
//!
//! Under a memory limit the allocator gives what is freed back to the system at once
//! (`perfectplay`'s `choose_purge_delay`), and memory taken again is cleared again by the kernel;
//! on a virtual machine that reports free pages to its host, the host faults it in again too,
//! about 6 ms a MiB on the development machine, where the buffer is filled on one thread
//! (BENCHMARKS.md). Between two tiers come the first's file and counts and the second's child
//! tiers read back: seconds, long enough for the freed pages to be reported. Kept here, the
//! buffer is taken again at memory's pace.

use std::sync::atomic::AtomicU16;
use std::sync::{Mutex, MutexGuard};

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

    /// `len` results, each `fill`: in the buffer held where it has room, else in a new one (the
    /// held one let go first, so that the memory it frees is what the new one takes).
    pub(super) fn take(&self, len: usize, fill: u16) -> Vec<AtomicU16> {
        let mut v = std::mem::take(&mut *self.held());
        if v.capacity() < len {
            v = Vec::new();
            v.reserve_exact(len);
        }
        v.clear();
        v.resize_with(len, || AtomicU16::new(fill));
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
    fn a_kept_buffer_is_taken_again_refilled_and_a_short_one_replaced() {
        let spare = Spare::default();
        let first = spare.take(1000, 7);
        assert!(first.iter().all(|c| c.load(Relaxed) == 7));
        first[3].store(1, Relaxed);
        let at = first.as_ptr();
        spare.keep(first);
        assert_eq!(spare.bytes(), 2000);
        // Fewer results fit the buffer held: the same memory, every one refilled.
        let again = spare.take(600, 9);
        assert_eq!(again.as_ptr(), at);
        assert_eq!(again.len(), 600);
        assert!(again.iter().all(|c| c.load(Relaxed) == 9));
        assert_eq!(spare.bytes(), 0);
        // A smaller buffer does not replace a larger one.
        spare.keep(again);
        spare.keep(Vec::with_capacity(10));
        assert_eq!(spare.bytes(), 2000);
        // More results than it holds: a new buffer, the held one let go.
        let larger = spare.take(1500, 2);
        assert_eq!(larger.len(), 1500);
        assert!(larger.iter().all(|c| c.load(Relaxed) == 2));
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

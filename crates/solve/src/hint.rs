//! Hints to the processor that change no result.

/// Asks for the cache line that holds `value` ahead of its use: nothing where the target has no
/// prefetch. A prefetch is not held back by the atomic updates around it, so a loop that updates
/// cells far apart asks for the next position's cells before it updates this one's.
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    safe_arch::prefetch_t0(value);
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

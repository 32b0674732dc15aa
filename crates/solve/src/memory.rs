//! Memory asked of the allocator.

/// `n` zeros, asked of the allocator as zeroed memory rather than written here: memory fresh from
/// the system is then first touched where it is written, on every thread, not on this one (on the
/// development machine a MiB touched for the first time costs about 6 ms: BENCHMARKS.md).
pub(crate) fn zeroed<T: zerocopy::FromZeros>(n: usize) -> Vec<T> {
    T::new_vec_zeroed(n).unwrap_or_else(|_| {
        let layout = std::alloc::Layout::array::<T>(n).unwrap_or(std::alloc::Layout::new::<T>());
        std::alloc::handle_alloc_error(layout)
    })
}

//! A deterministic stream of pseudo-random numbers (Marsaglia's xorshift64) for samples and
//! tests: the same seed gives the same stream on every machine and in every run.

/// The numbers after `seed` (not zero), each made from the last by xorshift64.
pub fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    assert!(seed != 0, "a xorshift seed is not zero");
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_stream_is_xorshift64() {
        let mut next = super::xorshift(1);
        assert_eq!(
            next(),
            1 ^ 1 << 13 ^ (1 ^ 1 << 13) >> 7 ^ (1 ^ 1 << 13 ^ (1 ^ 1 << 13) >> 7) << 17
        );
        let again: Vec<u64> = std::iter::repeat_with(super::xorshift(7)).take(100).collect();
        let once: Vec<u64> = std::iter::repeat_with(super::xorshift(7)).take(100).collect();
        assert_eq!(again, once);
        assert!(again.iter().all(|&x| x != 0));
    }
}

//! Sorting codes and dropping repeats on every core. A first pass deals the codes into buckets by
//! their top bits (each task counts its share, then writes it into its own places of every
//! bucket); each bucket is then sorted on its own (an LSD radix sort that fits the caches) and
//! loses its repeats, and the buckets are joined. No step runs on one core while the other waits,
//! as the merge of two sorted halves did (Connect 4 6x4's discovery: 2.8 s before, 2.1 s after).

use rayon::prelude::*;

/// Codes per task of the pass that deals them into buckets.
const TASK: usize = 1 << 20;
/// log2 of the number of buckets (a bucket of 2^28 codes spread evenly is 2 MiB: it sorts in the
/// caches).
const TOP_BITS: u32 = 10;
/// Below this many codes, one sort on one core.
const SMALL: usize = 1 << 16;

/// Sorts codes and removes duplicates, in place. Needs a scratch buffer as large as the input.
pub fn sort_dedup(keys: &mut Vec<u64>) {
    if keys.len() < SMALL {
        keys.sort_unstable();
        keys.dedup();
        return;
    }
    let (mut scratch, sizes) = deal(&[keys.as_slice()]);
    let lengths = sort_buckets(&mut scratch, &sizes);
    let n = join(&scratch, &sizes, &lengths, keys);
    keys.truncate(n);
}

/// The codes of every piece, sorted and without duplicates; the pieces are dropped as soon as
/// they are dealt, so at most twice the codes are held at once.
pub fn sort_dedup_pieces(pieces: Vec<Vec<u64>>) -> Vec<u64> {
    let total: usize = pieces.iter().map(Vec::len).sum();
    if total < SMALL {
        let mut keys = pieces.concat();
        keys.sort_unstable();
        keys.dedup();
        return keys;
    }
    let slices: Vec<&[u64]> = pieces.iter().map(Vec::as_slice).collect();
    let (mut scratch, sizes) = deal(&slices);
    drop(slices);
    drop(pieces);
    let lengths = sort_buckets(&mut scratch, &sizes);
    let mut out = zeros(lengths.iter().sum());
    join(&scratch, &sizes, &lengths, &mut out);
    out
}

/// `n` zeros, written on every core (a zeroed allocation is cleared, and its fresh pages faulted
/// in, on one core).
fn zeros(n: usize) -> Vec<u64> {
    let mut v = Vec::with_capacity(n);
    v.par_extend(rayon::iter::repeat_n(0u64, n));
    v
}

/// The codes dealt into buckets by their top bits: the buffer of buckets, one after another, and
/// each bucket's size.
fn deal(pieces: &[&[u64]]) -> (Vec<u64>, Vec<usize>) {
    let max = pieces.par_iter().map(|p| p.iter().copied().max().unwrap_or(0)).max().unwrap_or(0);
    let bits = 64 - max.leading_zeros();
    let shift = bits.saturating_sub(TOP_BITS);
    let buckets = 1usize << TOP_BITS;
    let bucket = move |x: u64| (x >> shift) as usize & (buckets - 1);
    let tasks = tasks(pieces);
    let counts: Vec<Vec<usize>> = tasks
        .par_iter()
        .map(|task| {
            let mut count = vec![0usize; buckets];
            for piece in task {
                for &x in *piece {
                    count[bucket(x)] += 1;
                }
            }
            count
        })
        .collect();
    let sizes: Vec<usize> = (0..buckets).map(|b| counts.iter().map(|c| c[b]).sum()).collect();
    let mut scratch = zeros(sizes.iter().sum());
    // Each task's places in each bucket: the buckets in order, within one the tasks in order.
    let mut places: Vec<Vec<&mut [u64]>> = tasks.iter().map(|_| Vec::new()).collect();
    let mut rest: &mut [u64] = &mut scratch;
    for b in 0..buckets {
        for (t, count) in counts.iter().enumerate() {
            let (head, tail) = std::mem::take(&mut rest).split_at_mut(count[b]);
            places[t].push(head);
            rest = tail;
        }
    }
    tasks.par_iter().zip(places.into_par_iter()).for_each(|(task, mut places)| {
        let mut filled = vec![0usize; buckets];
        for piece in task {
            for &x in *piece {
                let b = bucket(x);
                places[b][filled[b]] = x;
                filled[b] += 1;
            }
        }
    });
    (scratch, sizes)
}

/// The pieces cut and grouped into tasks of about [`TASK`] codes.
fn tasks<'a>(pieces: &[&'a [u64]]) -> Vec<Vec<&'a [u64]>> {
    let mut tasks = Vec::new();
    let mut task: Vec<&[u64]> = Vec::new();
    let mut held = 0;
    for piece in pieces {
        for cut in piece.chunks(TASK) {
            task.push(cut);
            held += cut.len();
            if held >= TASK {
                tasks.push(std::mem::take(&mut task));
                held = 0;
            }
        }
    }
    if !task.is_empty() {
        tasks.push(task);
    }
    tasks
}

/// Sorts each bucket and drops its repeats (the buckets share no code); returns the codes each
/// keeps, at its start.
fn sort_buckets(scratch: &mut [u64], sizes: &[usize]) -> Vec<usize> {
    let mut buckets = Vec::with_capacity(sizes.len());
    let mut rest = scratch;
    for &size in sizes {
        let (head, tail) = rest.split_at_mut(size);
        buckets.push(head);
        rest = tail;
    }
    buckets
        .into_par_iter()
        .map_init(Vec::new, |spare: &mut Vec<u64>, bucket| {
            if bucket.len() < 256 {
                bucket.sort_unstable();
            } else {
                // The bucket's codes share their top bits: the low ones order them.
                let (min, max) =
                    bucket.iter().fold((u64::MAX, 0), |(lo, hi), &x| (lo.min(x), hi.max(x)));
                spare.resize(bucket.len(), 0);
                radix_sort(
                    bucket,
                    &mut spare[..bucket.len()],
                    min,
                    64 - (max - min).leading_zeros(),
                );
            }
            dedup_sorted(bucket)
        })
        .collect()
}

/// Drops the repeats of sorted codes, keeping each code once at the start; returns how many.
/// Without a branch: every code is written at the next place, which advances only past a new code
/// (Konane's raw children repeat about three times over, in no order a branch predicts).
fn dedup_sorted(codes: &mut [u64]) -> usize {
    let Some(&first) = codes.first() else {
        return 0;
    };
    let (mut kept, mut last) = (1usize, first);
    for i in 1..codes.len() {
        let x = codes[i];
        codes[kept] = x;
        kept += usize::from(x != last);
        last = x;
    }
    kept
}

/// The kept start of every bucket, one after another, into `out`; returns the number of codes.
fn join(scratch: &[u64], sizes: &[usize], lengths: &[usize], out: &mut [u64]) -> usize {
    let mut parts = Vec::with_capacity(sizes.len());
    let (mut from, mut to): (&[u64], &mut [u64]) = (scratch, out);
    for (&size, &kept) in sizes.iter().zip(lengths) {
        let (bucket, rest) = from.split_at(size);
        let (place, tail) = std::mem::take(&mut to).split_at_mut(kept);
        parts.push((&bucket[..kept], place));
        from = rest;
        to = tail;
    }
    parts.into_par_iter().for_each(|(bucket, place)| place.copy_from_slice(bucket));
    lengths.iter().sum()
}

/// An LSD radix sort (11-bit digits) of codes on the `bits` low bits of `code - min`.
pub(crate) fn radix_sort(data: &mut [u64], scratch: &mut [u64], min: u64, bits: u32) {
    const DIGIT: u32 = 11;
    const BUCKETS: usize = 1 << DIGIT;
    const MOST_PASSES: usize = 64usize.div_ceil(DIGIT as usize);
    let passes = bits.div_ceil(DIGIT) as usize;
    if data.len() > u32::MAX as usize {
        data.sort_unstable();
        return;
    }
    // Every pass's counts in one read of the codes (a pass moves codes, never changes them).
    let mut counts = [[0u32; BUCKETS]; MOST_PASSES];
    for &x in data.iter() {
        let d = x - min;
        for (pass, count) in counts[..passes].iter_mut().enumerate() {
            count[(d >> (pass as u32 * DIGIT)) as usize & (BUCKETS - 1)] += 1;
        }
    }
    let mut in_data = true;
    for (pass, count) in counts[..passes].iter().enumerate() {
        let shift = pass as u32 * DIGIT;
        let (src, dst): (&[u64], &mut [u64]) =
            if in_data { (&*data, &mut *scratch) } else { (&*scratch, &mut *data) };
        let mut offsets = [0usize; BUCKETS];
        let mut sum = 0;
        for (o, &c) in offsets.iter_mut().zip(count) {
            *o = sum;
            sum += c as usize;
        }
        for &x in src {
            let d = ((x - min) >> shift) as usize & (BUCKETS - 1);
            dst[offsets[d]] = x;
            offsets[d] += 1;
        }
        in_data = !in_data;
    }
    if !in_data {
        data.copy_from_slice(scratch);
    }
}

/// Merges two sorted, duplicate-free arrays into one, in pieces on every core: the pieces are cut
/// at the same codes in both.
pub fn merge_sorted(a: &[u64], b: &[u64]) -> Vec<u64> {
    let (a, b) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    let pieces = (a.len() + b.len()).div_ceil(TASK).max(1);
    if pieces == 1 {
        return merge_piece(a, b);
    }
    // Cut `a` evenly; `b` where `a`'s cuts fall.
    let cuts: Vec<(usize, usize)> = (0..=pieces)
        .map(|k| {
            let i = a.len() * k / pieces;
            let j = match (k, a.get(i)) {
                (0, _) => 0,
                (_, Some(&cut)) => b.partition_point(|&x| x < cut),
                (_, None) => b.len(),
            };
            (i, j)
        })
        .collect();
    let merged: Vec<Vec<u64>> =
        cuts.par_windows(2).map(|w| merge_piece(&a[w[0].0..w[1].0], &b[w[0].1..w[1].1])).collect();
    let mut out = zeros(merged.iter().map(Vec::len).sum());
    let mut places = Vec::with_capacity(merged.len());
    let mut rest: &mut [u64] = &mut out;
    for piece in &merged {
        let (head, tail) = std::mem::take(&mut rest).split_at_mut(piece.len());
        places.push(head);
        rest = tail;
    }
    places.into_par_iter().zip(merged.par_iter()).for_each(|(p, m)| p.copy_from_slice(m));
    out
}

/// Merges two sorted, duplicate-free arrays on one core.
pub(crate) fn merge_piece(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expected(pieces: &[Vec<u64>]) -> Vec<u64> {
        let mut all = pieces.concat();
        all.sort_unstable();
        all.dedup();
        all
    }

    #[test]
    fn large_inputs_in_pieces_sort_as_std_does() {
        let mut random = perfectplay_core::xorshift(0x50_47);
        // Spreads from a few bits (most codes repeat, few buckets) to all 64.
        for bits in [3u32, 12, 20, 30, 41, 64] {
            let mask = if bits == 64 { u64::MAX } else { (1 << bits) - 1 };
            let pieces: Vec<Vec<u64>> = [0usize, 1, 70_000, 5, 300_000, 1 << 20]
                .iter()
                .map(|&n| (0..n).map(|_| random() & mask).collect())
                .collect();
            let want = expected(&pieces);
            let mut whole = pieces.concat();
            sort_dedup(&mut whole);
            assert_eq!(whole, want, "{bits} bits, one vector");
            assert_eq!(sort_dedup_pieces(pieces), want, "{bits} bits, in pieces");
        }
    }

    #[test]
    fn large_merges_are_the_sorted_union() {
        let mut random = perfectplay_core::xorshift(0x3e_26);
        let mut set = |n: usize| {
            let mut v: Vec<u64> = (0..n).map(|_| random() % 5_000_000).collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        for (n, m) in [(3_000_000, 0), (2_500_000, 1_200_000), (10, 2_600_000)] {
            let (mut a, b) = (set(n), set(m));
            // Some of b's codes below all of a's, some above.
            a.retain(|&x| (1_000..4_900_000).contains(&x));
            let union = expected(&[a.clone(), b.clone()]);
            assert_eq!(merge_sorted(&a, &b), union);
            assert_eq!(merge_sorted(&b, &a), union);
        }
    }
}

//! Tests of `SetClasses`: classes against Burnside's count, the pair index through canonical
//! forms, caches, ranks and boards without a table.

use super::*;

/// The 8 symmetries of the 3x3 grid (points row by row).
fn square() -> Vec<Vec<usize>> {
    grid(3)
}

/// The 8 symmetries of the `side` x `side` grid (points row by row).
fn grid(side: usize) -> Vec<Vec<usize>> {
    let m = side - 1;
    let map = |s: usize, x: usize, y: usize| match s {
        0 => (x, y),
        1 => (m - y, x),
        2 => (m - x, m - y),
        3 => (y, m - x),
        4 => (m - x, y),
        5 => (x, m - y),
        6 => (y, x),
        _ => (m - y, m - x),
    };
    (0..8)
        .map(|s| {
            (0..side * side)
                .map(|c| {
                    let (x, y) = map(s, c % side, c / side);
                    y * side + x
                })
                .collect()
        })
        .collect()
}

#[test]
fn classes_of_the_square_match_burnside() {
    let classes = SetClasses::new(9, square(), 9).unwrap();
    // Classes of k-subsets of the 3x3 grid under its 8 symmetries (Burnside).
    let expected = [1, 3, 8, 16, 23, 23, 16, 8, 3, 1];
    for (k, &e) in expected.iter().enumerate() {
        assert_eq!(classes.class_count(k), e, "k = {k}");
    }
}

#[test]
fn every_pair_is_indexed_once_through_its_canonical_form() {
    let classes = SetClasses::new(9, square(), 9).unwrap();
    let mut near = Neighbours::default();
    for (ka, kb) in [(0, 0), (1, 2), (3, 2), (4, 4), (2, 7)] {
        let size = classes.pair_size(ka, kb);
        let mut canonical_seen = std::collections::HashSet::new();
        for index in 0..size {
            let (a, b) = classes.pair_at(ka, kb, index).unwrap();

            assert_eq!(a & b, 0);
            assert_eq!((a.count_ones() as usize, b.count_ones() as usize), (ka, kb));
            assert_eq!(classes.pair_index(a, b), Some(index));
            let next = classes.pair_at(ka, kb, index + 1);
            assert_eq!(classes.next_pair(a, b), next, "after {a:b} {b:b}");
            let (ca, cb, _) = classes.canonical_pair(a, b);
            classes.neighbours(a, &mut near);
            assert_eq!(classes.is_canonical_pair(&near, b), (ca, cb) == (a, b), "{a:b} {b:b}");
            if (ca, cb) == (a, b) {
                canonical_seen.insert(index);
            }
        }
        assert!(classes.pair_at(ka, kb, size).is_none());
        // Every pair of the sizes has its canonical form among the indices.
        for a in 0u32..1 << 9 {
            if a.count_ones() as usize != ka {
                continue;
            }
            for b in 0u32..1 << 9 {
                if b & a != 0 || b.count_ones() as usize != kb {
                    continue;
                }
                let (ca, cb, s) = classes.canonical_pair(a, b);
                assert_eq!((classes.image(s, a), classes.image(s, b)), (ca, cb));
                let i = classes.pair_index(ca, cb).unwrap();
                assert!(canonical_seen.contains(&i));
                assert_eq!(classes.canonical_pair_index(a, b), Some(i));
            }
        }
    }
}

#[test]
fn a_pairs_orbit_size_is_its_number_of_distinct_images() {
    // Every disjoint pair of sets of the 3x3 grid, least first sets or not.
    let classes = SetClasses::new(9, square(), 9).unwrap();
    let mut checked = [0u64; 9];
    for a in 0..1u32 << 9 {
        for b in (0..1u32 << 9).filter(|b| b & a == 0) {
            let mut images: Vec<_> =
                (0..8).map(|s| (classes.image(s, a), classes.image(s, b))).collect();
            images.sort_unstable();
            images.dedup();
            let size = classes.pair_orbit_size(a, b);
            assert_eq!(size, images.len() as u64, "{a:b} {b:b}");
            checked[size as usize] += 1;
        }
    }
    // Orbits of 1, 2, 4 and 8 pairs all occur.
    assert!([1, 2, 4, 8].iter().all(|&size| checked[size] > 0), "{checked:?}");
}

#[test]
fn orbit_sizes_of_a_run_are_each_pairs_orbit_size() {
    // 5x5: sets of 4 points with and without symmetries of their own.
    let classes = SetClasses::new(25, grid(5), 4).unwrap();
    let (ka, kb) = (4, 3);
    let pairs = classes.pair_size(ka, kb);
    let per_a = classes.binomial(21, kb);
    // The first least set with a symmetry of its own besides the identity.
    let kept = |r: u64| classes.least(classes.class_set(ka, r).unwrap()).1.count_ones();
    let symmetric_a = (0..classes.class_count(ka)).find(|&r| kept(r) > 1).unwrap();
    // Runs that start inside one set's run and end in another's, in both copies of the pairs,
    // and one past the end of the second copy.
    let starts =
        [0, per_a - 7, symmetric_a * per_a - 3, pairs - 10, pairs + per_a - 2, 2 * pairs - 5];
    let mut symmetric = false;
    for first in starts {
        let mut sizes = vec![u32::MAX; 3 * per_a as usize];
        classes.pair_orbit_sizes((ka, kb), 2, first, &mut sizes);
        for (j, &size) in sizes.iter().enumerate() {
            let index = first + j as u64;
            if index >= 2 * pairs {
                assert_eq!(size, 0, "past the end");
                continue;
            }
            let (a, b) = classes.pair_at(ka, kb, index % pairs).unwrap();
            let expected = classes.pair_orbit_size(a, b);
            symmetric |= expected < 8;
            assert_eq!(u64::from(size), expected, "index {index}: {a:b} {b:b}");
        }
    }
    // Some pairs were kept by a symmetry besides the identity: their sizes were not all filled.
    assert!(symmetric);
}

#[test]
fn neighbours_are_found_for_a_set_asked_twice_in_a_row() {
    let classes = SetClasses::new(9, square(), 9).unwrap();
    let mut near = Neighbours::default();
    let (a, other, b) = (0b0_0001_0011, 0b1_0000_0001, 0b0_1100_0000);
    // Asked once: not held; asked again at once: held, and its neighbours' pairs are ranked.
    assert!(!classes.neighbours_if_repeated(a, &mut near));
    assert!(!classes.neighbours_if_repeated(other, &mut near));
    assert!(!classes.neighbours_if_repeated(a, &mut near));
    assert!(classes.neighbours_if_repeated(a, &mut near));
    for point in (0..9).filter(|&p| (a | b) >> p & 1 == 0) {
        let index = classes.neighbour_pair_index(&near, Some(point), b);
        assert_eq!(index, classes.canonical_pair_index(a | 1 << point, b), "{point}");
    }
    // Held already: held still, whatever was asked between.
    assert!(!classes.neighbours_if_repeated(other, &mut near));
    assert!(classes.neighbours_if_repeated(a, &mut near));
}

/// A random set of `want` of the points of Bagh-Chal's board that `first` leaves.
fn second_set(random: &mut impl FnMut() -> u64, first: u32, want: u64) -> u32 {
    let mut b = 0u32;
    while u64::from(b.count_ones()) < want {
        b |= 1 << (random() % 25) & !first & ((1 << 25) - 1);
    }
    b
}

/// The pairs of a set and a second set with a point added, ranked from the second set's sums,
/// give the index their canonical form gives: on Bagh-Chal's board, for first sets least and
/// kept by the identity alone, kept by other symmetries too, and not least (made canonical).
#[test]
fn pairs_with_a_point_added_give_their_canonical_index() {
    let classes = SetClasses::new(25, grid(5), 4).unwrap();
    let mut near = Neighbours::default();
    let mut random = crate::random::xorshift(55);
    let (mut asked, mut kinds) = (0, Vec::new());
    for a in [0b00000_00000_00100_00110_00010, 0b10001_00000_00000_00000_10001, 0b111 << 10 | 1] {
        let (least, mask) = classes.least(a);
        kinds.push((least == a, mask.count_ones() == 1));
        classes.neighbours(a, &mut near);
        for _ in 0..500 {
            let want = random() % 21;
            let b = second_set(&mut random, a, want);
            let mut points = Vec::new();
            classes.added_pair_indices(&near, b, |point, index| {
                assert_eq!(index, classes.canonical_pair_index(a, b | 1 << point), "{a:b} {b:b}");
                points.push(point);
                asked += 1;
            });
            let empty: Vec<u32> = (0..25).filter(|&p| (a | b) >> p & 1 == 0).collect();
            assert_eq!(points, empty);
        }
    }
    assert!(asked > 3 * 500);
    assert_eq!(kinds, [(true, true), (true, false), (false, true)]);
}

/// A moved set's second sets ranked through its packing (made once the move has been asked a
/// few hundred times for the set held) give the index their canonical form gives, before the
/// packing and after it, for sets with symmetries of their own and without, on Bagh-Chal's board.
#[test]
fn moved_pairs_ranked_through_a_packing_give_their_canonical_index() {
    let classes = SetClasses::new(25, grid(5), 4).unwrap();
    let mut near = Neighbours::default();
    let mut random = crate::random::xorshift(54);
    let mut asked = 0;
    for a in [0b10001_00000_00000_00000_10001, 0b00000_00000_00100_00110_00010, 0b111 << 10 | 1] {
        classes.neighbours(a, &mut near);
        for removed in (0..25).filter(|&p| a >> p & 1 == 1) {
            for added in (0..25).filter(|&p| a >> p & 1 == 0) {
                let moved = a ^ (1 << removed | 1 << added);
                for _ in 0..2 * usize::from(neighbours::PACK_AFTER) {
                    let want = 1 + random() % 12;
                    let b = second_set(&mut random, moved, want);
                    let index = classes.moved_pair_index(&mut near, removed, added, b);
                    assert_eq!(
                        index,
                        classes.canonical_pair_index(moved, b),
                        "{a:b} {moved:b} {b:b}"
                    );
                    asked += 1;
                }
            }
        }
    }
    assert_eq!(asked, 3 * 4 * 21 * 2 * usize::from(neighbours::PACK_AFTER));
}

/// A pair held beside its first set ranks its second set's one-point moves as their canonical
/// form does, for first sets least and kept by the identity alone; for others it is refused. A
/// pair re-seated from another second set of the same size ranks them the same.
#[test]
fn second_sets_moved_beside_a_least_set_give_their_canonical_index() {
    let classes = SetClasses::new(25, grid(5), 4).unwrap();
    let mut random = crate::random::xorshift(53);
    let (mut asked, mut refused) = (0, 0);
    for a in [0b00000_00000_00100_00110_00010, 0b10001_00000_00000_00000_10001, 0b111 << 10 | 1] {
        let lead = classes.least_ranked(a);
        for _ in 0..200 {
            let want = 1 + random() % 12;
            let b = second_set(&mut random, a, want);
            let Some(beside) = classes.beside(lead, b) else {
                // Refused: not least, or kept by another symmetry too.
                assert!(lead.0 != a || lead.1.count_ones() > 1, "{a:b}");
                refused += 1;
                continue;
            };
            let other = classes.beside(lead, second_set(&mut random, a, want)).unwrap();
            let reseated = classes.beside_reseated(&other, b);
            let empty = ((1 << 25) - 1) & !(a | b);
            for from in (0..25).filter(|&p| b >> p & 1 == 1) {
                for to in (0..25).filter(|&p| empty >> p & 1 == 1) {
                    let moved = b ^ (1 << from | 1 << to);
                    let index = classes.beside_moved(&beside, from, to);
                    assert_eq!(Some(index), classes.canonical_pair_index(a, moved), "{b:b}");
                    assert_eq!(classes.beside_moved(&reseated, from, to), index, "{b:b}");
                    asked += 1;
                }
            }
        }
    }
    assert!(asked > 1_000);
    assert_eq!(refused, 2 * 200);
}

/// The colex rank by tables is the definition's sum: over `b`'s points, the `j`-th lowest at
/// position `c` among the points `a` leaves, `C(c, j)`; and a set's rank among all points (the
/// least-image table's order) is its rank beside the empty set.
#[test]
fn colex_ranks_by_bytes_are_the_sum_of_binomials() {
    let mirror: Vec<Vec<usize>> = vec![(0..25).collect(), (0..25).map(|p| 24 - p).collect()];
    let classes = SetClasses::new(25, mirror, 4).unwrap();
    let counted = |a: u32, b: u32| -> u64 {
        let free = !a & ((1 << 25) - 1);
        (0..25)
            .filter(|&p| b >> p & 1 == 1)
            .enumerate()
            .map(|(j, p)| classes.binomial((free & ((1 << p) - 1)).count_ones() as usize, j + 1))
            .sum()
    };
    // Every size of `b`, among the points of several `a`, from a fixed pseudo-random walk.
    let mut next = crate::random::xorshift(0x2545_f491_4f6c_dd1d);
    for _ in 0..20_000 {
        let x = next();
        let a = (x as u32) & (x >> 32) as u32 & ((1 << 25) - 1);
        let b = (x >> 20) as u32 & !a & ((1 << 25) - 1);
        assert_eq!(classes.colex_rank(a, b), counted(a, b), "{a:b} {b:b}");
        assert_eq!(classes.colex_of(b), counted(0, b), "{b:b}");
    }
}

/// `pair_at` and `pair_index` are inverse on 25 points (Bagh-Chal's board) at indices spread over
/// every size of `b` beside each ranked size of `a`.
#[test]
fn pairs_of_25_points_unrank_to_their_index() {
    let mirror: Vec<Vec<usize>> = vec![(0..25).collect(), (0..25).map(|p| 24 - p).collect()];
    let classes = SetClasses::new(25, mirror, 4).unwrap();
    let mut next = crate::random::xorshift(0x9e37_79b9_7f4a_7c15);
    for ka in 0..=4 {
        for kb in 0..=25 - ka {
            let size = classes.pair_size(ka, kb);
            for _ in 0..200 {
                for index in [next() % size, size - 1, 0] {
                    let (a, b) = classes.pair_at(ka, kb, index).unwrap();
                    assert_eq!(a & b, 0);
                    assert_eq!((a.count_ones() as usize, b.count_ones() as usize), (ka, kb));
                    assert_eq!(classes.pair_index(a, b), Some(index), "{ka} {kb} {index}");
                }
            }
            assert!(classes.pair_at(ka, kb, size).is_none());
        }
    }
}

#[test]
fn a_shared_cache_gives_what_the_table_gives_for_every_instance() {
    // Two groups on the same points: one cache serves both in turn, colliding slots included.
    let square = SetClasses::new(9, square(), 9).unwrap();
    let mirror: Vec<Vec<usize>> = vec![(0..9).collect(), (0..9).map(|p| 8 - p).collect()];
    let mirror = SetClasses::new(9, mirror, 9).unwrap();
    let mut cache = LeastCache::default();
    for round in 0..2 {
        for classes in [&square, &mirror] {
            for a in 0u32..1 << 9 {
                let b = !a & 0x1ff & (0x155 >> round);
                assert_eq!(classes.least_ranked_cached(a, &mut cache), classes.least_ranked(a));
                assert_eq!(
                    classes.canonical_pair_index_cached(a, b, &mut cache),
                    classes.canonical_pair_index(a, b)
                );
            }
        }
    }
}

#[test]
fn large_boards_compute_without_a_table() {
    let n = 27;
    let mirror: Vec<usize> = (0..n).map(|p| n - 1 - p).collect();
    let classes = SetClasses::new(n, vec![(0..n).collect(), mirror], 2).unwrap();
    // Pairs {p, n-1-p} are their own mirror: (C(27,2) + 13) / 2 classes of 2 points.
    assert_eq!(classes.class_count(2), (351 + 13) / 2);
    let (least, mask) = classes.least(1 << 26 | 1 << 25);
    assert_eq!((least, mask), (0b11, 0b10));
}

#[test]
fn bad_groups_are_refused() {
    assert!(SetClasses::new(3, vec![vec![1, 0, 2]], 3).is_err());
    assert!(SetClasses::new(3, vec![vec![0, 1, 2], vec![0, 0, 2]], 3).is_err());
}

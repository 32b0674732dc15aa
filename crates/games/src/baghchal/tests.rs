//! Bagh-Chal's rules and index checked.

use super::*;
use perfectplay_core::GameExt;

#[test]
fn the_tiers_and_their_bound_are_003s() {
    let game = BaghChal::from_variant("regular").unwrap();
    let tiers = game.all_tiers();
    assert_eq!(tiers.len(), 196);
    let binomial = |n: u64, k: u64| (0..k).fold(1u64, |c, i| c * (n - i) / (i + 1));
    let bound: u64 = tiers
        .iter()
        .map(|&t| {
            let (hand, captured, turn) = BaghChal::tier_parts(t);
            let arrangements = binomial(25, 4) * binomial(21, u64::from(20 - hand - captured));
            if turn.is_none() {
                2 * arrangements
            } else {
                arrangements
            }
        })
        .sum();
    assert_eq!(bound, 291_915_283_550);
    // Children before parents.
    for (i, &t) in tiers.iter().enumerate() {
        for c in game.child_tiers_of(t) {
            assert!(tiers[..i].contains(&c), "{}", Tiers::tier_name(&game, c));
        }
    }
}

#[test]
fn tigers_capture_along_lines_only() {
    let game = BaghChal::from_variant("regular").unwrap();
    // A tiger on b1 (no diagonals there) with goats on c2 and b2.
    let text = "-T--T/-GG--/-----/-----/T---T T 17";
    let (p, moves) = (game.parse_position(text).unwrap(), crate::move_texts(&game, text));
    assert!(moves.contains(&"b1b3".to_string()), "{moves:?}");
    assert!(!moves.contains(&"b1d3".to_string()), "{moves:?}");
    let child = game.do_move(p, game.parse_move(p, "b1b3").unwrap());
    assert_eq!(game.position_to_string(child), "----T/--G--/-T---/-----/T---T G 17");
}

#[test]
fn the_ends_of_the_game() {
    let game = BaghChal::from_variant("regular").unwrap();
    let won = ("T---T/-----/--G--/-----/T---T G 14", Some(Value::Lose), "five goats captured");
    crate::assert_primitives(&game, &[won]);
    // Tigers that cannot move lose (the 3x3 board: every tiger's point and jump blocked).
    let small = BaghChal::from_variant("3x3").unwrap();
    let trapped = small.parse_position("TGT/GGG/TGT T 0");
    assert!(trapped.is_err(), "more goats than the 3x3 game has");
    crate::assert_primitives(&small, &[("TGT/G-G/TGT T 0", None, "the center is free")]);
    let bad = [
        "T---T/-----/-----/-----/T---T T 20",
        "T---T/-----/-----/-----/T--TT G 20",
        "T---T G 20",
        "T---T/-----/-----/-----/T---T T 19",
    ];
    crate::assert_refused(&game, &bad);
}

#[test]
fn moves_that_capture_nothing_are_counted_where_their_children_are_distinct() {
    use perfectplay_core::{KernelCache, TierIndex, TierKernel};
    let game = BaghChal::from_variant("regular").unwrap();
    let (mut counted, mut located) = (0, 0);
    let mut cache = KernelCache::default();
    // Moving-phase tiers with 20, 17 and 16 goats on the board, from the start of their index.
    for captured in [0, 3, 4] {
        let tier = BaghChal::tier_of(0, captured, None);
        let n = TierIndex::tier_size(&game, tier).min(100_000);
        // Both players to move: the goats' half, then the tigers'.
        for first in [0, TierIndex::tier_size(&game, tier) / 2] {
            let mut positions = vec![None; n as usize];
            game.tier_positions(tier, first, &mut positions);
            for p in positions.into_iter().flatten() {
                if game.primitive(p).is_some() {
                    continue;
                }
                let mut all = Vec::new();
                game.child_locations_unsorted(p, &mut all, &mut cache);
                let mut outside = Vec::new();
                match game.children_outside(p, &mut outside, &mut cache) {
                    Some(inside) => {
                        counted += 1;
                        assert_eq!(inside as usize, all.iter().filter(|l| l.0 == tier).count());
                        all.retain(|l| l.0 != tier);
                        for v in [&mut all, &mut outside] {
                            v.sort_unstable();
                            v.dedup();
                        }
                        assert_eq!(outside, all, "{}", game.position_to_string(p));
                    }
                    None => located += 1,
                }
            }
        }
    }
    assert!(counted > 2 * located && located > 0, "{counted} counted, {located} located");
}

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
    use perfectplay_core::{TierIndex, TierKernel};
    let game = BaghChal::from_variant("regular").unwrap();
    let (mut counted, mut located) = (0, 0);
    // Moving-phase tiers with 20, 17 and 16 goats on the board, from the start of their index.
    for captured in [0, 3, 4] {
        let tier = BaghChal::tier_of(0, captured, None);
        let size = TierIndex::tier_size(&game, tier);
        // Both players to move: the goats' half, then the tigers'.
        for first in [0, size / 2] {
            let mut positions = vec![None; size.min(100_000) as usize];
            game.tier_positions(tier, first, &mut positions);
            let positions = (first..).zip(positions).filter_map(|(i, p)| Some((i, p?)));
            let (c, l) = crate::check_children_outside(&game, tier, positions, |_, _, _| true);
            (counted, located) = (counted + c, located + l);
        }
    }
    assert!(counted > 2 * located && located > 0, "{counted} counted, {located} located");
}

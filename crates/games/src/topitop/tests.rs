//! Topitop's rules and index checked.

use super::*;
use perfectplay_core::GameExt;

#[test]
fn the_tiers_and_their_bound_are_003s() {
    let game = Topitop::from_variant("regular").unwrap();
    assert_eq!(game.tiers.len(), 2_231);
    let bound: u64 = game.tiers.iter().map(|t| 41 * 2 * t.arrangements).sum();
    assert_eq!(bound, 2_972_507_380);
    let g: &dyn Game = &game;
    let both: u64 = game.tiers.iter().map(|t| 2 * t.arrangements * t.undo_values).sum();
    assert_eq!(both, 587_599_700);
    let indices: u64 = g.tiers().iter().map(|&t| g.tier_size(t)).sum();
    assert_eq!(indices, 293_799_850);
    // Children come before their parents.
    for (i, t) in game.tiers.iter().enumerate() {
        assert!(t.children.iter().all(|c| (c.0 as usize) < i), "{}", g.tier_name(Tier(i as u32)));
    }
}

#[test]
fn indices_round_trip_in_every_tier_of_the_small_game() {
    let game: &dyn Game = &Topitop::from_variant("small").unwrap();
    for t in game.tiers() {
        for index in 0..game.tier_size(t) {
            if let Some(p) = game.tier_position(t, index) {
                assert_eq!(game.tier(p), t);
                assert_eq!(game.tier_index(p), index, "{}", game.position_to_string(p));
            }
        }
    }
}

#[test]
fn moves_follow_the_stacking_rules_and_the_forbidden_slide() {
    let game = Topitop::from_variant("regular").unwrap();
    let moves = crate::move_texts(&game, "7--/-1-/--8 R a2a1");
    // Red may not slide the S at a1 back to a2, may stack it on nothing (b2 holds blue's B),
    // may not move B; S stacks on L only by a slide onto c3, which is not adjacent.
    assert!(!moves.contains(&"a1a2".to_string()), "{moves:?}");
    assert!(moves.contains(&"a1b1".to_string()), "{moves:?}");
    assert!(!moves.iter().any(|m| m.starts_with("b2")), "{moves:?}");
    assert!(moves.contains(&"Rb1".to_string()) && !moves.contains(&"Bb1".to_string()));
    // Blue's B on the S makes building 2; L under S makes 9.
    let q = game.parse_position("71-/---/--- B").unwrap();
    let child = game.do_move(q, game.parse_move(q, "b1a1").unwrap());
    assert_eq!(game.position_to_string(child), "2--/---/--- R");
    let q = game.parse_position("78-/---/--- R").unwrap();
    let child = game.do_move(q, game.parse_move(q, "a1b1").unwrap());
    assert_eq!(game.position_to_string(child), "-9-/---/--- B");
}

#[test]
fn two_finished_buildings_win_and_bad_boards_are_refused() {
    let game = Topitop::from_variant("regular").unwrap();
    crate::assert_primitives(&game, &[("3-3/---/--- R", Some(Value::Lose), "two finished")]);
    crate::assert_refused(
        &game,
        &["3-3/---/--- B", "111/---/--- B", "---/---/--- X", "7--/---/--- B a1b2", "---/---"],
    );
}

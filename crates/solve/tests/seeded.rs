//! A tier initialised from the decided positions of its child tiers
//! ([`SolveOptions::seeded`]) holds the values of a tier initialised in full: each game whose
//! kernel and undo-moves allow it, solved both ways, every tier compared index by index. Fox and
//! Geese finds the parents through its kernel; the others through their undo-moves.

use perfectplay_core::Game;
use perfectplay_games::{BaghChal, FoxAndGeese, FuchsUndHenne, Morris};
use perfectplay_solve::{solve, NoProgress, SolveOptions};

/// Solves `game` both ways; the indices compared and those whose value is not a draw.
fn both_ways(game: &dyn Game) -> (usize, usize) {
    let run = |seeded| {
        let options = SolveOptions { seeded: Some(seeded), ..SolveOptions::default() };
        solve(game, options, &NoProgress, None).unwrap()
    };
    let (full, seeded) = (run(false), run(true));
    assert_eq!(full.tiers().len(), seeded.tiers().len());
    let (mut compared, mut decided) = (0, 0);
    for (a, b) in full.tiers().iter().zip(seeded.tiers()) {
        assert_eq!(a.tier, b.tier);
        assert_eq!(a.values.len(), b.values.len(), "tier {:?}", a.tier);
        for i in 0..a.values.len() {
            let v = a.values.get(i);
            assert_eq!(v, b.values.get(i), "tier {:?}, index {i}", a.tier);
            decided += usize::from(v.value() != perfectplay_core::Value::Draw);
        }
        compared += a.values.len();
    }
    (compared, decided)
}

#[test]
fn fox_and_geese_the_same_both_ways() {
    for geese in [4, 5, 6] {
        let game = FoxAndGeese::from_variant(&format!("{geese}-geese")).unwrap();
        let (compared, decided) = both_ways(&game);
        assert!(compared > 100_000 && decided > 1_000, "{geese} geese: {compared}, {decided}");
    }
}

#[test]
fn fuchs_und_henne_the_same_both_ways() {
    let game = FuchsUndHenne::from_variant("4-hens-goal-3").unwrap();
    let (compared, decided) = both_ways(&game);
    assert!(compared > 10_000 && decided > 1_000, "{compared}, {decided}");
}

#[test]
fn bagh_chal_the_same_both_ways() {
    let game = BaghChal::from_variant("4x4").unwrap();
    let (compared, decided) = both_ways(&game);
    assert!(compared > 100_000 && decided > 10_000, "{compared}, {decided}");
}

#[test]
fn morris_the_same_both_ways() {
    for game in [Morris::six("regular").unwrap(), Morris::nine("regular/moving-4").unwrap()] {
        let (compared, decided) = both_ways(&game);
        assert!(compared > 100_000 && decided > 10_000, "{compared}, {decided}");
    }
}

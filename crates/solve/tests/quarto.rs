//! Quarto on the 3x3 board with pieces of three attributes, solved strongly by the retrograde
//! engine, and the live search ([`Search`]) agreeing with it on every canonical position the start
//! reaches; each of those positions is also the best over its children.

mod common;

use perfectplay_core::{Game, Position};
use perfectplay_games::Quarto;
use perfectplay_solve::{solve, AlphaBeta, NoProgress, Search, SolveOptions, TierSpace};

#[test]
fn live_search_agrees_with_the_engine_on_every_position_of_3x3_quarto() {
    let game = Quarto::new("3x3").unwrap();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let positions: Vec<Position> = solution
        .tiers()
        .iter()
        .flat_map(|t| match &t.space {
            TierSpace::Sorted(keys) => keys.iter().map(Position).collect::<Vec<_>>(),
            TierSpace::Dense { .. } => panic!("a sparse game"),
        })
        .collect();
    assert!(positions.len() > 10_000, "{} positions", positions.len());
    let mut search = Search::new(&game);
    let mut pruned = AlphaBeta::new(&game);
    for &p in &positions {
        common::check_best_over_children(&game, &solution, p).unwrap();
        let stored = solution.get(&game, p).unwrap();
        let live = search.value(p).unwrap();
        assert_eq!(live, stored, "{}", game.position_to_string(p));
        // Alpha-beta, from an empty table and with the table of earlier searches.
        assert_eq!(
            AlphaBeta::new(&game).value(p).unwrap(),
            stored,
            "{}",
            game.position_to_string(p)
        );
        assert_eq!(pruned.value(p).unwrap(), stored, "{}", game.position_to_string(p));
    }
    // The start, searched afresh from nothing stored.
    let start = Search::new(&game).value(game.start()).unwrap();
    assert_eq!(start, solution.get(&game, game.start()).unwrap());
    let mut fresh = AlphaBeta::new(&game);
    assert_eq!(fresh.value(game.start()).unwrap(), start);
    println!(
        "3x3 Quarto: {} canonical positions; the start: {start}; {} nodes, {} with alpha-beta",
        positions.len(),
        search.nodes(),
        fresh.nodes()
    );
}

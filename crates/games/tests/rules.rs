//! Rules properties for every game: moves are accepted, children agree with do-move, undo-moves is
//! the exact inverse of moves, canonical forms are stable, and text forms parse back.

use perfectplay_core::{Game, Position};
use perfectplay_games::{Konane, KonaneStart, TicTacToe};
use proptest::prelude::*;

fn games() -> Vec<Box<dyn Game>> {
    let mut g: Vec<Box<dyn Game>> = vec![Box::new(TicTacToe)];
    for (r, c) in [(3, 3), (4, 4), (4, 5), (5, 6), (6, 6), (7, 8)] {
        for s in [KonaneStart::Corner, KonaneStart::Center] {
            g.push(Box::new(Konane::new(r, c, s).unwrap()));
        }
    }
    g
}

/// A position reached by `steps` random moves (fewer if the game ends).
fn random_walk(game: &dyn Game, choices: &[usize]) -> Vec<Position> {
    let mut p = game.start();
    let mut path = vec![p];
    for &choice in choices {
        let moves = game.legal_moves(p);
        if moves.is_empty() {
            break;
        }
        p = game.do_move(p, moves[choice % moves.len()]);
        path.push(p);
    }
    path
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_move_is_accepted_and_agrees_with_children(which in 0usize..13, choices in proptest::collection::vec(any::<usize>(), 0..40)) {
        let games = games();
        let game = games[which % games.len()].as_ref();
        for p in random_walk(game, &choices) {
            let moves = game.legal_moves(p);
            prop_assert_eq!(moves.is_empty(), game.primitive(p).is_some());
            let mut children = Vec::new();
            if game.primitive(p).is_none() {
                game.children(p, &mut children);
            }
            let mut via_moves: Vec<Position> = Vec::new();
            for &m in &moves {
                let child = game.play(p, m).expect("a generated move is legal");
                prop_assert!(game.tier(child) <= game.tier(p));
                via_moves.push(child);
                let text = game.move_to_string(p, m);
                prop_assert_eq!(game.parse_move(p, &text), Ok(m));
            }
            children.sort_unstable();
            via_moves.sort_unstable();
            prop_assert_eq!(&children, &via_moves);
            // Text form round-trips.
            prop_assert_eq!(game.parse_position(&game.position_to_string(p)), Ok(p));
            // Canonical form: idempotent, same value class (primitive-ness and player count).
            let c = game.canonical(p);
            prop_assert_eq!(game.canonical(c), c);
            prop_assert_eq!(game.primitive(c), game.primitive(p));
            prop_assert_eq!(game.legal_moves(c).len(), moves.len());
        }
    }

    #[test]
    fn undo_moves_inverts_moves(which in 0usize..13, choices in proptest::collection::vec(any::<usize>(), 0..40)) {
        let games = games();
        let game = games[which % games.len()].as_ref();
        prop_assume!(game.has_undo_moves());
        for p in random_walk(game, &choices) {
            // Every parent produced has this position among its children, and is not primitive.
            let mut parents = Vec::new();
            game.undo_moves(p, &mut parents);
            for &q in &parents {
                prop_assert!(game.primitive(q).is_none());
                let mut children = Vec::new();
                game.children(q, &mut children);
                prop_assert!(children.contains(&p), "{} is not a child of its parent {}", game.position_to_string(p), game.position_to_string(q));
            }
            // Every child lists this position among its parents.
            if game.primitive(p).is_none() {
                let mut children = Vec::new();
                game.children(p, &mut children);
                for c in children {
                    let mut back = Vec::new();
                    game.undo_moves(c, &mut back);
                    prop_assert!(back.contains(&p));
                }
            }
        }
    }

    #[test]
    fn malformed_text_is_an_error_not_a_panic(which in 0usize..13, text in ".{0,80}") {
        let games = games();
        let game = games[which % games.len()].as_ref();
        let _ = game.parse_position(&text);
        let _ = game.parse_move(game.start(), &text);
    }
}

#[test]
fn konane_starts_match_the_seed() {
    let k = Konane::new(6, 6, KonaneStart::Corner).unwrap();
    assert_eq!(k.position_to_string(k.start()), "..xoxo/oxoxox/xoxoxo/oxoxox/xoxoxo/oxoxox x");
    // 001: the only first move from the corner start is a3 -> a1 jumping a2.
    let moves: Vec<String> =
        k.legal_moves(k.start()).iter().map(|&m| k.move_to_string(k.start(), m)).collect();
    assert_eq!(moves, ["a3a1"]);
    let c = Konane::new(6, 6, KonaneStart::Center).unwrap();
    assert_eq!(c.position_to_string(c.start()), "xoxoxo/oxoxox/xoxoxo/ox..ox/xoxoxo/oxoxox x");
    assert!(Konane::from_variant("8x8-corner").is_err());
    assert!(Konane::from_variant("2x5-corner").is_err());
    assert!(Konane::from_variant("5x5-middle").is_err());
}

//! Rules properties for every game: moves are accepted, children agree with do-move, undo-moves is
//! the exact inverse of moves, canonical forms are stable, and text forms parse back.

use perfectplay_core::{Game, Position};
use perfectplay_games::{FiveFieldKono, Konane, KonaneStart, TicTacToe, TicTacTwo};
use proptest::prelude::*;

/// Every game under test, built once (Five Field Kono builds its move tables at construction).
fn games() -> &'static [Box<dyn Game>] {
    static GAMES: std::sync::OnceLock<Vec<Box<dyn Game>>> = std::sync::OnceLock::new();
    GAMES.get_or_init(all_games)
}

fn all_games() -> Vec<Box<dyn Game>> {
    // Tic-Tac-Two three times: its walks are long and its rules have the most cases.
    let mut g: Vec<Box<dyn Game>> = vec![
        Box::new(TicTacToe),
        Box::new(TicTacTwo::new()),
        Box::new(TicTacTwo::new()),
        Box::new(TicTacTwo::new()),
    ];
    for (r, c) in [(3, 3), (4, 4), (4, 5), (5, 6), (6, 6), (7, 8)] {
        for s in [KonaneStart::Corner, KonaneStart::Center] {
            g.push(Box::new(Konane::new(r, c, s).unwrap()));
        }
    }
    for v in ["regular", "lose-if-stuck", "win-if-stuck", "4x4-regular", "4x4-win-if-stuck"] {
        g.push(Box::new(FiveFieldKono::from_variant(v).unwrap()));
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
    fn every_move_is_accepted_and_agrees_with_children(which in 0usize..64, choices in proptest::collection::vec(any::<usize>(), 0..40)) {
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
    fn undo_moves_inverts_moves(which in 0usize..64, choices in proptest::collection::vec(any::<usize>(), 0..40)) {
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
    fn malformed_text_is_an_error_not_a_panic(which in 0usize..64, text in ".{0,80}") {
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

/// The 8 symmetries of 000 section 3.1.4 applied to a Five Field Kono position's text: the
/// left-right flip of each component on its own, and the top-bottom flip with colours and turn
/// swapped.
fn fivefieldkono_images(text: &str) -> Vec<String> {
    let (rows, turn) = text.split_once(' ').unwrap();
    let grid: Vec<Vec<char>> = rows.split('/').map(|r| r.chars().collect()).collect();
    let n = grid.len();
    let mut out = Vec::new();
    for flip_even in [false, true] {
        for flip_odd in [false, true] {
            for swap in [false, true] {
                let mut g = vec![vec!['.'; n]; n];
                for (y, row) in grid.iter().enumerate() {
                    for (x, &c) in row.iter().enumerate() {
                        let flip = if (x + y) % 2 == 1 { flip_even } else { flip_odd };
                        let tx = if flip { n - 1 - x } else { x };
                        let ty = if swap { n - 1 - y } else { y };
                        g[ty][tx] = match (c, swap) {
                            ('x', true) => 'o',
                            ('o', true) => 'x',
                            (c, _) => c,
                        };
                    }
                }
                let t = match (turn, swap) {
                    ("x", true) => "o",
                    ("o", true) => "x",
                    (t, _) => t,
                };
                let rows: Vec<String> = g.into_iter().map(|r| r.into_iter().collect()).collect();
                out.push(format!("{} {t}", rows.join("/")));
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn fivefieldkono_symmetries_share_canonical_form_and_children(rule in 0usize..3, choices in proptest::collection::vec(any::<usize>(), 0..60)) {
        let name = ["regular", "lose-if-stuck", "win-if-stuck"][rule];
        let game = games().iter().find(|g| g.id() == "fivefieldkono" && g.variant() == name).unwrap().as_ref();
        let canonical_children = |p: Position| {
            let mut c = Vec::new();
            if game.primitive(p).is_none() {
                game.children(p, &mut c);
            }
            let mut c: Vec<Position> = c.into_iter().map(|c| game.canonical(c)).collect();
            c.sort_unstable();
            c.dedup();
            c
        };
        for p in random_walk(game, &choices) {
            let images = fivefieldkono_images(&game.position_to_string(p));
            let least = images.iter().map(|t| game.parse_position(t).unwrap()).min().unwrap();
            prop_assert_eq!(game.canonical(p), least);
            for t in &images {
                let q = game.parse_position(t).unwrap();
                prop_assert_eq!(game.canonical(q), game.canonical(p));
                prop_assert_eq!(game.primitive(q), game.primitive(p));
                prop_assert_eq!(canonical_children(q), canonical_children(p));
            }
        }
    }
}

#[test]
fn fivefieldkono_start_matches_000() {
    let g = FiveFieldKono::from_variant("regular").unwrap();
    assert_eq!(g.position_to_string(g.start()), "ooooo/o...o/...../x...x/xxxxx x");
    // 000 Figure 4.3: the eight opening moves.
    let mut moves: Vec<String> =
        g.legal_moves(g.start()).iter().map(|&m| g.move_to_string(g.start(), m)).collect();
    moves.sort();
    assert_eq!(moves, ["a1b2", "a2b3", "b1c2", "c1b2", "c1d2", "d1c2", "e1d2", "e2d3"]);
    assert!(g.board_text(g.start()).starts_with("5  (o) (o) (o) (o) (o)\n"));
    // A position with a pebble on the wrong network is refused with the reason.
    assert!(matches!(
        g.parse_position("oooo./o.o.o/...../x...x/xxxxx x"),
        Err(perfectplay_core::ParseError::IllegalPosition { .. })
    ));
    assert!(FiveFieldKono::from_variant("6x6-regular").is_err());
    assert!(FiveFieldKono::from_variant("sometimes").is_err());
}

#[test]
fn fivefieldkono_primitives_follow_the_stuck_rule() {
    // x to move, hemmed in: every x pebble's diagonal neighbours are taken or off the board.
    // Not reachable, but a legal arrangement: each side keeps its pebbles per network.
    for (variant, value) in [
        ("regular", perfectplay_core::Value::Tie),
        ("lose-if-stuck", perfectplay_core::Value::Lose),
        ("win-if-stuck", perfectplay_core::Value::Win),
    ] {
        let g = FiveFieldKono::from_variant(variant).unwrap();
        let stuck = g.parse_position("xxxxx/x...x/ooooo/o...o/..... x");
        if let Ok(p) = stuck {
            if g.legal_moves(p).is_empty() {
                assert_eq!(g.primitive(p), Some(value));
            }
        }
        // o has occupied every starting point of x, and x is to move: x has lost.
        let lost = g.parse_position("xxxxx/x...x/...../o...o/ooooo x").unwrap();
        assert_eq!(g.primitive(lost), Some(perfectplay_core::Value::Lose));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Games that list their symmetric images: every image has the same canonical form, the same
    /// primitive value, tier and number of moves, and the images of a child are children of an
    /// image.
    #[test]
    fn symmetric_images_share_canonical_form(which in 0usize..64, choices in proptest::collection::vec(any::<usize>(), 0..40)) {
        let games = games();
        let game = games[which % games.len()].as_ref();
        let mut images = Vec::new();
        game.symmetry_images(game.start(), &mut images);
        prop_assume!(!images.is_empty());
        prop_assert_eq!(images.len(), game.symmetry_count());
        for p in random_walk(game, &choices) {
            images.clear();
            game.symmetry_images(p, &mut images);
            prop_assert!(images.contains(&p));
            let c = game.canonical(p);
            if game.exchange(p).is_none() {
                prop_assert_eq!(c, *images.iter().min().unwrap());
            } else {
                // With the players exchanged too, the canonical form is an image in the canonical
                // tier (Tic-Tac-Two: X to move when the marks are even).
                prop_assert!(images.contains(&c));
                prop_assert_eq!(game.tier(c), game.canonical_tier(game.tier(p)));
            }
            for &q in &images {
                prop_assert_eq!(game.canonical(q), c);
                prop_assert_eq!(game.primitive(q), game.primitive(p));
                prop_assert_eq!(game.canonical_tier(game.tier(q)), game.canonical_tier(game.tier(p)));
                prop_assert_eq!(game.legal_moves(q).len(), game.legal_moves(p).len());
                // An image with the players exchanged need not be a position of the game (in
                // Tic-Tac-Two's placement phase X is to move when the marks are even).
                if game.canonical_exchanged(q).1 == game.canonical_exchanged(p).1 {
                    prop_assert_eq!(game.parse_position(&game.position_to_string(q)), Ok(q));
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Tiered games: a canonical position's index round-trips within its tier's size, its tier is
    /// listed, and its children's canonical tiers are its own or its child tiers.
    #[test]
    fn tier_index_round_trips(marks in 2u32..5, choices in proptest::collection::vec(any::<usize>(), 0..40)) {
        let game = TicTacTwo::with_marks(marks);
        let tiers = game.tiers();
        for p in random_walk(&game, &choices) {
            let c = game.canonical(p);
            let t = game.tier(c);
            prop_assert!(tiers.contains(&t));
            prop_assert_eq!(game.canonical_tier(game.tier(p)), t);
            let i = game.tier_index(c);
            prop_assert!(i < game.tier_size(t));
            prop_assert_eq!(game.tier_position(t, i), Some(c));
            let mut children = Vec::new();
            game.children(c, &mut children);
            let below = game.child_tiers(t);
            for k in children {
                let ct = game.tier(game.canonical(k));
                prop_assert!(ct == t || below.contains(&ct), "{:?} -> {:?}", t, ct);
            }
        }
    }

    /// Games with an AutoGUI theme: every move has a button, buttons and part sequences tell moves
    /// apart, and no move's parts are the start of another's (so the page always knows when a
    /// move is complete).
    #[test]
    fn autogui_buttons_name_one_move_each(which in 0usize..64, choices in proptest::collection::vec(any::<usize>(), 0..40)) {
        let games = games();
        let game = games[which % games.len()].as_ref();
        prop_assume!(game.image_autogui().is_some());
        let centers = game.image_autogui().unwrap().centers.len();
        for p in random_walk(game, &choices) {
            let moves = game.legal_moves(p);
            let cells = game.autogui_position(p);
            prop_assert_eq!(cells.chars().count(), centers + 2, "{}", cells);
            let mut sequences: Vec<Vec<String>> = Vec::new();
            for &m in &moves {
                let parts = game.move_parts(p, m);
                let seq: Vec<String> = if parts.is_empty() {
                    vec![game.autogui_move(p, m).expect("a button").to_string()]
                } else {
                    parts.iter().map(ToString::to_string).collect()
                };
                sequences.push(seq);
            }
            for (i, a) in sequences.iter().enumerate() {
                for b in &sequences[i + 1..] {
                    let n = a.len().min(b.len());
                    prop_assert!(a[..n] != b[..n], "{:?} and {:?} at {}", a, b, game.position_to_string(p));
                }
            }
        }
    }
}

/// Every index of every tier of the two-mark Tic-Tac-Two that names a position names it once.
#[test]
fn tictactwo_small_tiers_index_positions_once() {
    let game = TicTacTwo::with_marks(2);
    for t in game.tiers() {
        let mut named = 0;
        for i in 0..game.tier_size(t) {
            if let Some(p) = game.tier_position(t, i) {
                assert_eq!(game.tier_index(p), i);
                assert_eq!(game.tier(p), t);
                named += 1;
            }
        }
        assert!(named > 0, "tier {} names no position", game.tier_name(t));
    }
}

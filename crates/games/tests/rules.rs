//! Game-specific rules checks: starts and openings as the seeds give them, Five Field Kono's
//! symmetries against 000's description, stuck rules, Tic-Tac-Two's tier index. The properties
//! every game must have are in the conformance suite (`crates/solve/tests/conformance.rs`), which
//! walks every variant in the catalog.

use perfectplay_core::{Game, GameExt, Position};
use perfectplay_games::{FiveFieldKono, Konane, KonaneStart, TicTacTwo};
use proptest::prelude::*;

/// Five Field Kono's full-board variants, built once (it builds its move tables at construction).
fn games() -> &'static [Box<dyn Game>] {
    static GAMES: std::sync::OnceLock<Vec<Box<dyn Game>>> = std::sync::OnceLock::new();
    GAMES.get_or_init(|| {
        ["regular", "lose-if-stuck", "win-if-stuck"]
            .iter()
            .map(|v| Box::new(FiveFieldKono::from_variant(v).unwrap()) as Box<dyn Game>)
            .collect()
    })
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
        for p in game.walk(&choices) {
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

/// Every index of every tier of the two-mark Tic-Tac-Two that names a position names it once.
#[test]
fn tictactwo_small_tiers_index_positions_once() {
    let game = TicTacTwo::from_variant("2-marks").unwrap();
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

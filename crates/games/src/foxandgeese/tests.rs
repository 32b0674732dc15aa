//! Fox and Geese's rules, index and kernel checked.

use perfectplay_core::{xorshift, GameExt, Tier, TierIndex, TierKernel, Tiers};

use super::*;
use crate::cross::tiers::tier_of;

use crate::move_texts as moves;

#[test]
fn the_board_and_the_starts() {
    let l = Layout::shared();
    // Every diagonal: the middle point has eight neighbors, an arm's end corner three.
    assert_eq!(l.adjacent[l.cross.point("d4")].count_ones(), 8);
    assert_eq!(l.adjacent[l.cross.point("c1")].count_ones(), 3);
    let game = FoxAndGeese::from_variant("13-geese").unwrap();
    assert_eq!(game.position_to_string(game.start()), "GGG/GGG/GGGGGGG/---F---/-------/---/--- G");
    let game = FoxAndGeese::from_variant("15-geese").unwrap();
    assert_eq!(game.position_to_string(game.start()), "GGG/GGG/GGGGGGG/G--F--G/-------/---/--- G");
    assert!(
        FoxAndGeese::from_variant("3-geese").is_err()
            && FoxAndGeese::from_variant("16-geese").is_err()
    );
}

#[test]
fn geese_never_step_back_and_the_fox_captures_in_chains() {
    let game = FoxAndGeese::from_variant("9-geese").unwrap();
    // The goose on d3 goes sideways or forward, never back up to row 2.
    let mut m: Vec<String> = moves(&game, "GGG/---/---G---/-------/F------/---/--- G")
        .into_iter()
        .filter(|m| m.starts_with("d3"))
        .collect();
    m.sort();
    assert_eq!(m, ["d3c3", "d3c4", "d3d4", "d3e3", "d3e4"]);
    // The fox on d4 jumps over d5 to d6 and may go on over c5 to b4, or stop.
    let p = "GGG/---/-------/---F---/--GG---/---/--- F";
    let m = moves(&game, p);
    for capture in ["d4d6", "d4d6b4", "d4b6"] {
        assert_eq!(m.contains(&capture.to_string()), capture != "d4b6", "{capture}: {m:?}");
    }
    let p = game.parse_position(p).unwrap();
    let chain = game.parse_move(p, "d4d6b4").unwrap();
    assert_eq!(
        game.position_to_string(game.do_move(p, chain)),
        "GGG/---/-------/-F-----/-------/---/--- G"
    );
    // Three geese left: the game is over, and the fox has won.
    let over = game.do_move(p, chain);
    assert_eq!(game.primitive(over), Some(Value::Lose));
    let parts: Vec<String> =
        GameExt::move_parts(&game, p, chain).iter().map(ToString::to_string).collect();
    assert_eq!(parts, ["M_16_28_x", "M_28_14_x"]);
    let one = game.parse_move(p, "d4d6").unwrap();
    let parts: Vec<String> =
        GameExt::move_parts(&game, p, one).iter().map(ToString::to_string).collect();
    assert_eq!(parts, ["M_16_28_x", "A_s_28_x"], "the fox could jump on from d6");
    let mut children = Vec::new();
    game.children(p, &mut children);
    let mut from_moves: Vec<Position> =
        game.legal_moves(p).iter().map(|&m| game.do_move(p, m)).collect();
    children.sort();
    from_moves.sort();
    assert_eq!(children, from_moves);
}

/// Positions at `count` indices of each tier drawn by `next` (fewer where an index names none).
fn sampled(
    game: &FoxAndGeese,
    count: usize,
    next: &mut impl FnMut() -> u64,
) -> Vec<(Tier, Position)> {
    let mut out = Vec::new();
    for tier in TierIndex::tiers(game) {
        let size = TierIndex::tier_size(game, tier);
        let at = (0..count).map(|_| next() % size);
        out.extend(at.filter_map(|i| TierIndex::tier_position(game, tier, i)).map(|p| (tier, p)));
    }
    out
}

/// Every child outside its parent's tier lies in the window the parent's tier declares for
/// that child tier, and both kinds of window occur: in every tier of 5 and 13 geese.
#[test]
fn children_outside_the_tier_lie_in_its_windows() {
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15u64);
    let (mut steps, mut captures) = (0, 0);
    for variant in ["5-geese", "13-geese"] {
        let game = FoxAndGeese::from_variant(variant).unwrap();
        for (tier, p) in sampled(&game, 300, &mut next) {
            if game.primitive(p).is_some() {
                continue;
            }
            let mut located = Vec::new();
            game.push_child_locations(Parts::of(p), &mut located);
            for (child, index) in located.into_iter().filter(|&(c, _)| c != tier) {
                let window = TierIndex::child_window(&game, tier, child).unwrap();
                let child_size = TierIndex::tier_size(&game, child);
                assert!(
                    window.contains(&index) && window.end <= child_size,
                    "{} -> tier {}, index {index}",
                    game.position_to_string(p),
                    Tiers::tier_name(&game, child)
                );
                let half = window.end - window.start;
                assert!(2 * half == child_size || child.0 / 128 < MIN_GEESE);
                if window.start > 0 {
                    steps += 1;
                } else {
                    captures += 1;
                }
            }
        }
    }
    assert!(steps > 10_000 && captures > 1_000, "{steps} steps, {captures} captures");
}

/// The geese's steps located term by term ([`StepRanks`]) land where locating each child
/// afresh does, in every tier of 4, 9 and 15 geese.
#[test]
fn children_located_step_by_step_are_located_afresh() {
    let mut next = xorshift(0x2545_f491_4f6c_dd1du64);
    let mut checked = 0;
    for variant in ["4-geese", "9-geese", "15-geese"] {
        let game = FoxAndGeese::from_variant(variant).unwrap();
        for (_, p) in sampled(&game, 200, &mut next) {
            let q = Parts::of(p);
            let mut fast = Vec::new();
            game.push_child_locations(q, &mut fast);
            let mut afresh = Vec::new();
            game.each_child(q, |child| afresh.push(game.locate_parts(child)));
            assert_eq!(fast, afresh, "{}", game.position_to_string(p));
            checked += usize::from(!q.fox_to_move);
        }
    }
    assert!(checked > 10_000, "{checked} positions with the geese to move");
}

/// The memory a solve needs at its heaviest tier, counted from the tier sizes: the tier's own
/// work at 5 bytes an index (the solver's estimate, four-byte queues included) and its child
/// tiers at a byte an index, whole or by their
/// windows ([`TierIndex::child_window`]) (a measurement, not a check).
#[test]
#[ignore]
fn memory_at_the_heaviest_tier() {
    for geese in 11..=15 {
        let game = FoxAndGeese::from_variant(&format!("{geese}-geese")).unwrap();
        let mut worst = [(0, Tier(0), 0); 2];
        for tier in TierIndex::tiers(&game) {
            let own = 5 * TierIndex::tier_size(&game, tier);
            let mut children = [0; 2];
            for child in TierIndex::child_tiers(&game, tier) {
                children[0] += TierIndex::tier_size(&game, child);
                let window = TierIndex::child_window(&game, tier, child).unwrap();
                children[1] += window.end - window.start;
            }
            for k in 0..2 {
                if own + children[k] > worst[k].0 {
                    worst[k] = (own + children[k], tier, children[k]);
                }
            }
        }
        let gb = |b: u64| b as f64 / 1e9;
        println!(
            "{geese} geese: whole child tiers {:.2} GB at {} ({:.2} GB of children); \
             windows {:.2} GB at {} ({:.2} GB of children)",
            gb(worst[0].0),
            Tiers::tier_name(&game, worst[0].1),
            gb(worst[0].2),
            gb(worst[1].0),
            Tiers::tier_name(&game, worst[1].1),
            gb(worst[1].2)
        );
        assert!(worst[1].0 < worst[0].0);
    }
}

/// Nanoseconds a position to locate the children of 2,000,000 positions of a large tier of
/// 12 geese, each side to move, step by step and afresh (a measurement, not a check).
#[test]
#[ignore]
fn child_location_speed() {
    let game = FoxAndGeese::from_variant("12-geese").unwrap();
    let tier = tier_of(12, 30);
    let size = TierIndex::tier_size(&game, tier);
    let mut positions = vec![None; 2_000_000];
    game.tier_positions(tier, size / 2 - 1_000_000, &mut positions);
    let positions: Vec<Parts> = positions.into_iter().flatten().map(Parts::of).collect();
    for round in 0..2 {
        for (fast, fox) in [(true, false), (false, false), (true, true), (false, true)] {
            let clock = std::time::Instant::now();
            let mut out = Vec::new();
            let mut total = 0u64;
            let side: Vec<Parts> =
                positions.iter().copied().filter(|q| q.fox_to_move == fox).collect();
            for &q in &side {
                out.clear();
                if fast {
                    game.push_child_locations(q, &mut out);
                } else {
                    game.each_child(q, |child| out.push(game.locate_parts(child)));
                }
                total += out.iter().map(|l| l.1).sum::<u64>();
            }
            let ns = clock.elapsed().as_nanos() as f64 / side.len() as f64;
            eprintln!(
                "round {round}, fox to move {fox}, step by step {fast}: {ns:.1} ns a \
                 position ({} positions, {total})",
                side.len()
            );
        }
    }
}

#[test]
fn the_ends_of_the_game_and_positions_that_cannot_arise() {
    let game = FoxAndGeese::from_variant("9-geese").unwrap();
    crate::assert_primitives(
        &game,
        &[
            (
                "FGG/GG-/--G-G--/-------/-------/---/--- F",
                Some(Value::Lose),
                "the fox in the corner c1, every step and every landing taken: the geese have won",
            ),
            ("FGG/GG-/--G----/-------/-------/---/--- F", None, "the fox can jump over d2 to e3"),
        ],
    );
    let bad = [
        "GGG/---/-------/-------/-------/---/F-- F",
        "GGG/GGG/GGGGGGG/---F---/-------/---/--- G",
        "GGG/GGG/GGG----/---F---/-------/---/--- G F",
        "GGG/GGG/GGG----/---F---/-------/---/---/ G",
        "GGG/GGG/GGG----/---F---/------F/---/--- G",
        "GGG/GGG/GGG----/-------/-------/---/--- G",
        "GGG/GGG/GGG----/---F---/------/---/--- G",
    ];
    crate::assert_refused(&game, &bad);
    let small = FoxAndGeese::from_variant("4-geese").unwrap();
    assert!(small.parse_position("GGG/-G-/-------/---F---/-------/---/--- F").is_ok());
    assert!(small.parse_position("GGG/-G-/---G---/---F---/-------/---/--- F").is_err());
}

/// Every tier a variant says another shares is that variant's tier too, of the same size, with
/// the same positions at its indices (a sample of each), and their children at the same places.
/// Every other variant that has a tier is listed as sharing it (a larger one has every tier).
#[test]
fn a_tier_is_the_same_in_every_variant_that_has_it() {
    let mut draw = xorshift(0x9e37_79b9_7f4a_7c15);
    let all: Vec<FoxAndGeese> = (MIN_GEESE..=MAX_GEESE)
        .map(|n| FoxAndGeese::from_variant(&format!("{n}-geese")).unwrap())
        .collect();
    let tiers: Vec<Vec<Tier>> = all.iter().map(GameExt::tiers).collect();
    for fag in &all {
        let (game, n): (&dyn Game, _) = (fag, fag.geese);
        for t in game.tiers() {
            let variants = game.variants_sharing(t);
            // Every other variant that has the tier is listed.
            let having = all.iter().zip(&tiers).filter(|(g, ts)| g.geese != n && ts.contains(&t));
            let mut expected: Vec<String> = having.map(|(g, _)| g.variant()).collect();
            let mut listed = variants.clone();
            expected.sort();
            listed.sort();
            assert_eq!(listed, expected, "{t:?} of {n}");
            for v in variants {
                let other = FoxAndGeese::from_variant(&v).unwrap();
                crate::assert_tier_shared(game, &other, t, &mut draw, 4);
            }
        }
    }
}

//! Fuchs und Henne's rules, index and kernel checked.

use perfectplay_core::{GameExt, KernelCache, Symmetry, Tier, TierIndex, TierKernel, Tiers};

use super::*;
use crate::cross::tiers::tier_of;

use crate::move_texts as moves;

#[test]
fn the_board_the_lines_and_the_start() {
    let l = Layout::shared();
    // d4 has eight lines, d3 (an odd point) four; the hen house is c5 to e7.
    assert_eq!(l.lines[l.cross.point("d4")].count_ones(), 8);
    assert_eq!(l.lines[l.cross.point("d3")].count_ones(), 4);
    assert_eq!(l.lines[l.cross.point("c1")].count_ones(), 3);
    assert_eq!(l.house.count_ones(), 9);
    assert_eq!(l.house >> l.cross.point("d5") & 1, 1);
    assert_eq!(l.ranks.classes.iter().map(Vec::len).collect::<Vec<_>>(), [1, 20, 281]);
    let game = FuchsUndHenne::from_variant("9-hens").unwrap();
    assert_eq!(game.position_to_string(game.start()), "HHH/HHH/--HHH--/-------/-------/---/F-F H");
    let game = FuchsUndHenne::from_variant("20-hens").unwrap();
    assert_eq!(game.position_to_string(game.start()), "HHH/HHH/HHHHHHH/HHHHHHH/-------/---/F-F H");
    for bad in ["8-hens", "21-hens", "5-hens-goal-6", "4-hens-goal-1", "hens", "9-hen"] {
        assert!(FuchsUndHenne::from_variant(bad).is_err(), "{bad}");
    }
}

#[test]
fn hens_step_forward_and_sideways_and_foxes_capture_along_lines() {
    let game = FuchsUndHenne::from_variant("8-hens-goal-3").unwrap();
    // The hen on d3 steps to c3, e3 or d4; never back up, never diagonally.
    let m: Vec<String> = moves(&game, "HHH/HH-/---H---/-------/-------/---/F-F H")
        .into_iter()
        .filter(|m| m.starts_with("d3"))
        .collect();
    assert_eq!(m, ["d3c3", "d3d4", "d3e3"]);
    // The fox on d4 jumps d3 to d2 and e4 to f4, not d5: a hen in the hen house is safe.
    let m = moves(&game, "HHH/H-H/---H---/---FH--/---H---/---/--F F");
    for capture in ["d4d2", "d4f4", "d4d6"] {
        assert_eq!(m.contains(&capture.to_string()), capture != "d4d6", "{capture}: {m:?}");
    }
    // d3's column and row add up to an odd number: no diagonal runs through it, so the fox
    // there cannot step to c4; from d4 it can.
    let m = moves(&game, "HHH/H-H/---F---/-------/-------/---/--F F");
    assert!(m.contains(&"d3d4".to_string()) && !m.contains(&"d3c4".to_string()), "{m:?}");
    let m = moves(&game, "HHH/H-H/-------/---F---/-------/---/--F F");
    assert!(m.contains(&"d4c5".to_string()), "{m:?}");
    // A chain of captures is one move that may stop after any jump: d3, then c3 from d2.
    let m = moves(&game, "HHH/---/--HH---/---F---/-------/---/--F F");
    for capture in ["d4d2", "d4d2b4"] {
        assert!(m.contains(&capture.to_string()), "{capture}: {m:?}");
    }
}

#[test]
fn a_missed_capture_lets_the_hens_take_off_a_fox_and_a_capture_rescues_it() {
    let game = FuchsUndHenne::from_variant("8-hens-goal-3").unwrap();
    // The fox on d4 could jump d3: stepping instead leaves the hens a removal.
    let p = game.parse_position("HHH/H-H/---H---/---F---/H------/---/--F F").unwrap();
    let after = game.do_move(p, game.parse_move(p, "d4c4").unwrap());
    assert_eq!(game.position_to_string(after).split(' ').nth(1), Some("Hx"));
    let m: Vec<String> =
        game.legal_moves(after).iter().map(|&m| game.move_to_string(after, m)).collect();
    assert!(m.contains(&"xc4".to_string()) && m.contains(&"xe7".to_string()), "{m:?}");
    assert!(m.contains(&"a5b5".to_string()), "the hens may move instead: {m:?}");
    let one = game.do_move(after, game.parse_move(after, "xe7").unwrap());
    assert_eq!(Parts::of(one).fox_count(), 1);
    // Stepping when no capture was open leaves the hens an ordinary move.
    let quiet = game.do_move(p, game.parse_move(p, "e7d7").unwrap());
    assert_eq!(game.position_to_string(quiet).split(' ').nth(1), Some("Hx"));
    let calm = game.parse_position("HHH/H-H/-------/---F---/H------/---/--F F").unwrap();
    let step = game.do_move(calm, game.parse_move(calm, "e7d7").unwrap());
    assert_eq!(game.position_to_string(step).split(' ').nth(1), Some("H"));
    // With one fox, a capture that leaves the goal's hens brings the other back.
    let q = game.parse_position("HHH/H-H/---H---/---F---/H------/---/--- F").unwrap();
    let rescued = game.do_move(q, game.parse_move(q, "d4d2").unwrap());
    assert_eq!(game.position_to_string(rescued).split(' ').nth(1), Some("H+"));
    let m = game.legal_moves(rescued);
    assert_eq!(m.len() as u32, Parts::of(rescued).empty().count_ones());
    let back = game.do_move(rescued, game.parse_move(rescued, "+e7").unwrap());
    assert_eq!(Parts::of(back).fox_count(), 2);
    assert!(Parts::of(back).foxes_to_move);
}

#[test]
fn the_ends_of_the_game() {
    let game = FuchsUndHenne::from_variant("9-hens").unwrap();
    let lose = Some(Value::Lose);
    crate::assert_primitives(
        &game,
        &[
            ("---/---/-------/-------/F-HHH-F/HHH/HHH F", lose, "nine hens in the hen house"),
            ("HHH/HHH/--HHH--/-------/-------/---/--- F", lose, "no fox left to move"),
        ],
    );
    // A capture that leaves eight ends the game: the foxes have won.
    let p = game.parse_position("HHH/H-H/--HHH--/---F---/H------/---/--F F").unwrap();
    let after = game.do_move(p, game.parse_move(p, "d4d2").unwrap());
    assert_eq!(Parts::of(after).hens.count_ones(), 8);
    assert_eq!(game.primitive(after), Some(Value::Lose));
    let bad = [
        "HHH/HHH/--HHH--/-------/-------/---/--- H",
        "HHH/HHH/--HHH--/-------/-------/---/FFF F",
        "HHH/HHH/--HHH--/-------/-------/---/F-F Hx F",
        "HHH/HHH/--HHH--/-------/-------/---/F-F H+",
        "HHH/HHH/HHHHHHH/-------/-------/---/F-F H",
        "HHH/HHH/--HHH--/-------/-------/---/F-F Q",
    ];
    crate::assert_refused(&game, &bad);
}

/// Every index of every tier of a small game names a position that indexes back to it, or
/// none (the mirror images that are not canonical).
#[test]
fn indices_round_trip_in_a_small_game() {
    let game = FuchsUndHenne::from_variant("2-hens-goal-2").unwrap();
    let mut named = 0u64;
    for tier in TierIndex::tiers(&game) {
        for index in 0..TierIndex::tier_size(&game, tier) {
            let Some(p) = TierIndex::tier_position(&game, tier, index) else { continue };
            assert_eq!(Tiers::tier(&game, p), tier);
            if Symmetry::canonical(&game, p) == p {
                assert_eq!(
                    TierIndex::tier_index(&game, p),
                    index,
                    "{}",
                    game.position_to_string(p)
                );
                named += 1;
            }
        }
    }
    assert!(named > 100_000, "{named}");
}

/// The children and parents ranked from a position's own terms are the ones located afresh,
/// on indices spread over every tier of a game with room for many steps.
#[test]
fn step_by_step_locations_are_located_afresh() {
    let game = FuchsUndHenne::from_variant("7-hens-goal-4").unwrap();
    let mut cache = KernelCache::default();
    let (mut fast, mut fresh, mut checked) = (Vec::new(), Vec::new(), 0);
    // Children in the foxes' part of the next tier, and in the hens' part of tiers below.
    let mut windows = [0; 2];
    for tier in TierIndex::tiers(&game) {
        let size = TierIndex::tier_size(&game, tier);
        for index in (0..size).step_by((size / 3000).max(1) as usize) {
            let Some(p) = TierIndex::tier_position(&game, tier, index) else { continue };
            if Symmetry::canonical(&game, p) != p || game.primitive(p).is_some() {
                continue;
            }
            let q = Parts::of(p);
            game.child_locations(p, &mut fast, &mut cache);
            fresh.clear();
            game.each_child(q, |child| fresh.push(game.locate_parts(child)));
            fresh.sort_unstable();
            fresh.dedup();
            assert_eq!(fast, fresh, "children of {}", game.position_to_string(p));
            // Every child outside the tier lies in the window declared for its tier.
            for &(child, index) in fresh.iter().filter(|c| c.0 != tier) {
                let window = TierIndex::child_window(&game, tier, child).unwrap();
                assert!(
                    window.contains(&index) && window.end <= TierIndex::tier_size(&game, child),
                    "{} -> tier {}, index {index}",
                    game.position_to_string(p),
                    Tiers::tier_name(&game, child)
                );
                windows[usize::from(window.start == 0)] += 1;
            }
            let mut unsorted = Vec::new();
            game.child_locations_unsorted(p, &mut unsorted, &mut cache);
            let inside = |v: &[(Tier, u64)]| v.iter().filter(|c| c.0 == tier).count();
            assert_eq!(inside(&unsorted), inside(&fresh), "{}", game.position_to_string(p));
            let mut parents = Vec::new();
            game.parent_indices(tier, p, &mut parents, &mut cache);
            let mut expected = Vec::new();
            game.each_parent(q, true, |r| {
                if game.illegal(r).is_none() && game.primitive(r.code()).is_none() {
                    let (t, i) = game.locate_parts(r);
                    if t == tier {
                        expected.push(i);
                    }
                }
            });
            expected.sort_unstable();
            expected.dedup();
            assert_eq!(parents, expected, "parents of {}", game.position_to_string(p));
            checked += 1;
        }
    }
    assert!(checked > 50_000, "{checked}");
    assert!(windows[0] > 10_000 && windows[1] > 1_000, "{windows:?}");
}

/// How long locating the children and parents of positions of 9 hens' tier (9,39) takes
/// (a measurement, not a check).
#[test]
#[ignore]
fn location_speed() {
    let (game, tier) = (FuchsUndHenne::from_variant("9-hens").unwrap(), tier_of(9, 39));
    let size = TierIndex::tier_size(&game, tier);
    // Indices spread over the whole tier (all its parts), by a fixed odd stride.
    let stride = (size / 1_000_003) | 1;
    let positions: Vec<Position> = (0..size)
        .step_by(stride as usize)
        .filter_map(|i| TierIndex::tier_position(&game, tier, i))
        .filter(|&p| game.primitive(p).is_none() && Symmetry::canonical(&game, p) == p)
        .collect();
    let mut cache = KernelCache::default();
    for round in 0..2 {
        for foxes in [false, true] {
            let side: Vec<Position> = positions
                .iter()
                .copied()
                .filter(|&p| Parts::of(p).foxes_to_move == foxes)
                .collect();
            let (mut out, mut parents) = (Vec::new(), Vec::new());
            let (mut total, mut children, mut parent_count) = (0u64, 0usize, 0usize);
            let clock = std::time::Instant::now();
            for &p in &side {
                game.child_locations_unsorted(p, &mut out, &mut cache);
                children += out.len();
                total += out.iter().map(|l| l.1).sum::<u64>();
            }
            let child_ns = clock.elapsed().as_nanos() as f64 / side.len() as f64;
            let clock = std::time::Instant::now();
            for &p in &side {
                game.parent_indices(tier, p, &mut parents, &mut cache);
                parent_count += parents.len();
                total += parents.iter().sum::<u64>();
            }
            let parent_ns = clock.elapsed().as_nanos() as f64 / side.len() as f64;
            let n = side.len() as f64;
            eprintln!(
                "round {round}, foxes to move {foxes}: children {child_ns:.0} ns ({:.1} a \
                 position), parents {parent_ns:.0} ns ({:.1}); {} positions, {total}",
                children as f64 / n,
                parent_count as f64 / n,
                side.len()
            );
        }
    }
}

/// Every tier a variant says another shares is that variant's tier too, of the same size,
/// with the same positions at its indices (a sample of each) and their children at the same
/// places; every other variant of the goal that has a tier is listed as sharing it.
#[test]
fn a_tier_is_the_same_in_every_variant_of_its_goal_that_has_it() {
    let mut draw = perfectplay_core::xorshift(0x2545_f491_4f6c_dd1d);
    let of_goal = |goal: u32| -> Vec<(FuchsUndHenne, Vec<Tier>)> {
        (goal..=MAX_HENS)
            .map(|n| {
                let name = match goal {
                    HOUSE_SIZE => format!("{n}-hens"),
                    _ => format!("{n}-hens-goal-{goal}"),
                };
                let game = FuchsUndHenne::from_variant(&name).unwrap();
                let tiers = GameExt::tiers(&game);
                (game, tiers)
            })
            .collect()
    };
    for (goal, tested) in [(3, 3..=7), (HOUSE_SIZE, 9..=12)] {
        let all = of_goal(goal);
        for (fuh, _) in all.iter().filter(|(g, _)| tested.contains(&g.hens)) {
            let (game, n): (&dyn Game, _) = (fuh, fuh.hens);
            for t in game.tiers() {
                let sharing = game.variants_sharing(t);
                // Every other variant of the goal that has the tier is listed.
                let having = all.iter().filter(|(g, ts)| g.hens != n && ts.contains(&t));
                let mut expected: Vec<String> = having.map(|(g, _)| g.variant()).collect();
                let mut listed = sharing.clone();
                expected.sort();
                listed.sort();
                assert_eq!(listed, expected, "{t:?} of {}", game.variant());
                for v in sharing {
                    let other = FuchsUndHenne::from_variant(&v).unwrap();
                    crate::assert_tier_shared(game, &other, t, &mut draw, 3);
                }
            }
        }
    }
}

//! The Morris boards, rules and index checked.

use super::*;
use perfectplay_core::GameExt;

#[test]
fn the_boards_have_their_symmetries_and_mills() {
    let nine = Morris::nine("regular").unwrap();
    assert_eq!(nine.layout.mills.len(), 16);
    assert_eq!(nine.layout.classes.symmetry_count(), 16);
    assert_eq!(nine.layout.board.edges().len(), 32);
    let six = Morris::six("regular").unwrap();
    assert_eq!((six.layout.mills.len(), six.layout.classes.symmetry_count()), (8, 16));
    assert_eq!(six.layout.board.edges().len(), 20);
    let three = Morris::three("regular").unwrap();
    assert_eq!((three.layout.mills.len(), three.layout.classes.symmetry_count()), (8, 8));
    // Every symmetry takes mills to mills and neighbors to neighbors.
    for game in [&nine, &six, &three] {
        let l = &game.layout;
        for s in 0..l.classes.symmetry_count() {
            for &m in &l.mills {
                assert!(l.mills.contains(&l.classes.image(s, m)));
            }
            for &(a, b) in l.board.edges() {
                let (a, b) = (l.classes.permutation(s)[a], l.classes.permutation(s)[b]);
                assert!(l.board.neighbors(a).contains(&b));
            }
        }
    }
    // 003's 3-3 tier: 2 turns x C(24,3) x C(21,3) arrangements.
    assert_eq!(2 * 2024 * 1330, 5_383_840);
}

#[test]
fn a_mill_removes_a_piece_not_in_a_mill() {
    let g = Morris::nine("regular").unwrap();
    // White a7 d7 c3 e3, black a1 d1 g1 (a mill) and b6; white places g7: a mill.
    let p = g.parse_position("ww-b-----------w-w---bbb w 5 5").unwrap_or_else(|e| panic!("{e}"));
    let moves: Vec<String> = g.legal_moves(p).iter().map(|&m| g.move_to_string(p, m)).collect();
    assert!(moves.contains(&"g7xb6".to_string()), "{moves:?}");
    assert!(!moves.iter().any(|m| m.starts_with("g7xa1")));
    let any = Morris::nine("mill-removal").unwrap();
    let moves: Vec<String> = any.legal_moves(p).iter().map(|&m| any.move_to_string(p, m)).collect();
    assert!(moves.contains(&"g7xa1".to_string()));
}

#[test]
fn bad_positions_are_refused_with_a_reason() {
    let g = Morris::nine("regular").unwrap();
    crate::assert_refused(
        &g,
        &[
            "wwwwwwwwww-------------- b 0 0",
            "------------------------ b 9 9",
            "ww---------------------- b 0 0",
            "------------------------ w 9",
            "x----------------------- w 9 9",
        ],
    );
    let start = g.start();
    assert_eq!(g.parse_position(&g.position_to_string(start)), Ok(start));
}

#[test]
fn moves_that_remove_nothing_are_counted_where_their_children_are_distinct() {
    use perfectplay_core::TierKernel;
    let g = Morris::nine("regular").unwrap();
    // A point's orbit is kept by every symmetry: no spread. Without the point, it is two points
    // from its image under a symmetry that moves the point, and kept by one that does not.
    let classes = &g.layout.classes;
    let orbit = (0..classes.symmetry_count()).fold(0, |o, s| o | classes.image(s, 1));
    let mut near = perfectplay_core::Neighbours::default();
    classes.neighbours(orbit, &mut near);
    assert_eq!(near.spread(), 0);
    classes.neighbours(orbit & !1, &mut near);
    let kept = (0..classes.symmetry_count()).filter(|&s| classes.image(s, 1) == 1).count();
    assert_eq!(near.spread(), if kept > 1 { 0 } else { 2 });
    let (mut counted, mut located) = (0, 0);
    for (w, b) in [(3, 3), (4, 3), (5, 4), (7, 7), (9, 8)] {
        let tier = Morris::tier_of(0, w, b, false);
        let n = perfectplay_core::TierIndex::tier_size(&g, tier).min(200_000);
        let mut positions = vec![None; n as usize];
        g.tier_positions(tier, 0, &mut positions);
        let positions = (0..).zip(positions).filter_map(|(i, p)| Some((i, p?)));
        let (c, l) = crate::check_children_outside(&g, tier, positions, |i, p, cache| {
            g.is_canonical_at(tier, i, p, cache)
        });
        (counted, located) = (counted + c, located + l);
    }
    // Both ways are taken: most positions counted, the nearly symmetric ones located.
    assert!(counted > 2 * located && located > 0, "{counted} counted, {located} located");
}

#[test]
fn black_turns_in_moving_tiers_lead_to_positions_stored() {
    use perfectplay_core::TierKernel;
    // Where a tier says its positions from an index on may be derived, every child of one of
    // them lies where no tier says so: one step of derivation reads stored values only.
    for g in [Morris::nine("regular").unwrap(), Morris::six("regular").unwrap()] {
        let game: &dyn perfectplay_core::Game = &g;
        let (mut derivable, mut children_seen) = (0u64, 0u64);
        let mut children = Vec::new();
        for t in game.tiers() {
            let size = game.tier_size(t);
            let Some(from) = game.derivable_from(t) else {
                // Only the moving tiers with more white pieces split their index so.
                let (in_hand, w, b, _) = g.tier_parts(t);
                assert!(in_hand > 0 || w == b, "{}", game.tier_name(t));
                continue;
            };
            assert!(from > 0 && from < size, "{}: {from} of {size}", game.tier_name(t));
            // Black's turns: from `from` on, each a position with black to move.
            let n = (size - from).min(20_000);
            let mut positions = vec![None; n as usize];
            g.tier_positions(t, from, &mut positions);
            let mut before = vec![None; 1];
            g.tier_positions(t, from - 1, &mut before);
            assert!(before[0].is_none_or(|p| !Parts::of(p).black_to_move), "{}", game.tier_name(t));
            for p in positions.into_iter().flatten() {
                assert!(Parts::of(p).black_to_move, "{}", game.tier_name(t));
                derivable += 1;
                children.clear();
                game.children(p, &mut children);
                for &c in &children {
                    let c = game.canonical(c);
                    let (ct, ci) = (game.tier(c), game.tier_index(c));
                    assert!(
                        game.derivable_from(ct).is_none_or(|f| ci < f),
                        "{} -> {}",
                        game.position_to_string(p),
                        game.position_to_string(c)
                    );
                    children_seen += 1;
                }
            }
        }
        assert!(derivable > 100_000 && children_seen > derivable, "{derivable} {children_seen}");
    }
}

#[test]
fn slide_parents_in_a_tier_are_those_undoing_a_move_finds() {
    use perfectplay_core::TierKernel;
    // Positions spread over moving tiers with as many pieces a side and with more white ones
    // (both turns), flying sides among them: the parents found by sliding back agree with those
    // each undone move locates.
    let nine = Morris::nine("regular").unwrap();
    let six = Morris::six("regular").unwrap();
    let no_flying = Morris::nine("no-flying").unwrap();
    let mut cache = KernelCache::default();
    let (mut checked, mut parents_seen) = (0u64, 0usize);
    for (g, w, b) in [
        (&nine, 3, 3),
        (&nine, 4, 3),
        (&nine, 5, 5),
        (&nine, 7, 4),
        (&nine, 9, 8),
        (&six, 5, 3),
        (&six, 6, 6),
        (&no_flying, 6, 3),
    ] {
        let tier = Morris::tier_of(0, w, b, false);
        let size = perfectplay_core::TierIndex::tier_size(g, tier);
        let step = (size / 3_000).max(1);
        for i in (0..size).step_by(step as usize) {
            let Some(p) = perfectplay_core::TierIndex::tier_position(g, tier, i) else { continue };
            let mut got = Vec::new();
            g.parent_indices(tier, p, &mut got, &mut cache);
            let mut expected = Vec::new();
            g.each_parent(p, true, |parent| {
                let (t, index) = g.locate_parts(parent, &mut cache.least);
                if t == tier {
                    expected.push(index);
                }
            });
            expected.sort_unstable();
            expected.dedup();
            assert_eq!(got, expected, "{}", g.position_to_string(p));
            checked += 1;
            parents_seen += got.len();
        }
    }
    assert!(checked > 20_000 && parents_seen > 5 * checked as usize, "{checked} {parents_seen}");
}

#[test]
fn moves_forming_mills_and_the_others_counted_are_every_move() {
    // Lines join points both ways: a piece reaches a point where the point reaches it.
    for g in [Morris::nine("regular").unwrap(), Morris::six("regular").unwrap()] {
        let adjacent = &g.layout.adjacent;
        for (a, &near) in adjacent.iter().enumerate() {
            for b in crate::board::bits(u64::from(near)) {
                assert!(adjacent[b] >> a & 1 == 1, "{a} {b}");
            }
        }
    }
    // Every move of either side of positions spread over moving tiers (flying sides, sides
    // that cannot fly), against each move made and its mill looked for.
    let mut checked = 0;
    for g in [
        Morris::nine("regular").unwrap(),
        Morris::nine("no-flying").unwrap(),
        Morris::six("regular").unwrap(),
    ] {
        for (w, b) in [(3, 3), (4, 3), (5, 5), (6, 4)] {
            let tier = Morris::tier_of(0, w, b, false);
            let size = perfectplay_core::TierIndex::tier_size(&g, tier);
            for i in (0..size).step_by((size / 2_000).max(1) as usize) {
                let Some(p) = perfectplay_core::TierIndex::tier_position(&g, tier, i) else {
                    continue;
                };
                let q = Parts::of(p);
                let empty = g.all() & !(q.white | q.black);
                for set in [q.white, q.black] {
                    let count = set.count_ones();
                    let (mut plain, mut mills) = (0, Vec::new());
                    for from in crate::board::bits(u64::from(set)) {
                        for to in crate::board::bits(u64::from(g.targets(from, count, empty))) {
                            let to = to as u32;
                            if g.forms_mill(set ^ (1 << from | 1 << to), to as usize) {
                                mills.push((from as u32, to));
                            } else {
                                plain += 1;
                            }
                        }
                    }
                    let mut found = Vec::new();
                    let counted =
                        g.moves_forming_mills(set, count, empty, |f, t| found.push((f, t)));
                    found.sort_unstable();
                    mills.sort_unstable();
                    assert_eq!((counted, &found), (plain, &mills), "{}", g.position_to_string(p));
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 40_000, "{checked}");
}

//! The conformance suite: every game in the catalog, every listed variant, without being listed
//! here. Rules properties on random walks (moves accepted and agreeing with children, tiers never
//! going up, text forms round-tripping, fuzzed text refused without a panic, symmetric images
//! sharing the canonical form, undo-moves the exact inverse of moves, tier indices round-tripping,
//! AutoGUI buttons telling moves apart and multipart moves where the game declares them); and for
//! every variant that declares itself small, a solve in which every stored position's value is the
//! best over its children, with the analysis equal to `reference/<game>-<variant>.tsv`.

mod common;

use std::sync::OnceLock;

use common::check_best_over_children;
use perfectplay_core::{Game, GameExt, KernelCache, Position, SizeClass, Tier};
use perfectplay_solve::{solve, NoProgress, Solution, SolveOptions, TierSpace};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

/// Every listed variant of every game, then the variants the catalog names to check as well;
/// built once.
fn variants() -> &'static [Box<dyn Game>] {
    static ALL: OnceLock<Vec<Box<dyn Game>>> = OnceLock::new();
    ALL.get_or_init(|| {
        let catalog = perfectplay_games::catalog();
        let listed = catalog.iter().flat_map(|e| e.listed_variants.iter().map(move |v| (e, v)));
        let also = catalog.iter().flat_map(|e| e.also_checked.iter().map(move |v| (e, v)));
        listed.chain(also).map(|(e, v)| e.variant(Some(v)).unwrap()).collect()
    })
}

/// The listed variants that declare themselves small.
fn small_listed_variants() -> Vec<&'static dyn Game> {
    let listed = |g: &dyn Game| {
        perfectplay_games::catalog()
            .iter()
            .any(|e| e.id == g.id() && e.listed_variants.contains(&g.variant().as_str()))
    };
    variants()
        .iter()
        .map(|g| g.as_ref())
        .filter(|&g| g.size_class() == SizeClass::Small && listed(g))
        .collect()
}

/// Runs `check` on every variant over `cases` random walks of up to 60 moves each.
fn for_every_variant(
    cases: u32,
    check: impl Fn(&dyn Game, &[Position]) -> Result<(), TestCaseError>,
) {
    for game in variants() {
        let mut runner =
            TestRunner::new(Config { cases, failure_persistence: None, ..Config::default() });
        let walks = proptest::collection::vec(any::<usize>(), 0..60);
        runner
            .run(&walks, |choices| check(game.as_ref(), &game.as_ref().walk(&choices)))
            .unwrap_or_else(|e| panic!("{} {}: {e}", game.id(), game.variant()));
    }
}

fn sorted_children(game: &dyn Game, p: Position) -> Vec<Position> {
    let mut children = Vec::new();
    if game.primitive(p).is_none() {
        game.children(p, &mut children);
    }
    children.sort_unstable();
    children
}

/// The (tier, index) of a position's children's canonical forms, each with whether it is the
/// canonical form of the child's exchange: what [`perfectplay_core::TierKernel::
/// child_locations_sided`] stands for, sorted and distinct.
fn sided_children(game: &dyn Game, p: Position) -> Vec<(Tier, u64, bool)> {
    let mut sided: Vec<_> = sorted_children(game, p)
        .into_iter()
        .map(|child| {
            let (c, x) = game.canonical_exchanged(child);
            (game.tier(c), game.tier_index(c), x)
        })
        .collect();
    sided.sort_unstable();
    sided.dedup();
    sided
}

#[test]
fn moves_are_accepted_and_agree_with_children_and_text_round_trips() {
    for_every_variant(40, |game, walk| {
        for &p in walk {
            let moves = game.legal_moves(p);
            prop_assert_eq!(moves.is_empty(), game.primitive(p).is_some());
            if game.primitive_only_without_moves() {
                let mut children = Vec::new();
                game.children(p, &mut children);
                prop_assert_eq!(children.is_empty(), game.primitive(p).is_some(), "declared");
            }
            let mut via_moves = Vec::new();
            for &m in &moves {
                let child = game.play(p, m).expect("a generated move is legal");
                prop_assert!(game.tier(child) <= game.tier(p), "a move raised the tier");
                via_moves.push(child);
                let text = game.move_to_string(p, m);
                prop_assert_eq!(game.parse_move(p, &text), Ok(m), "move {}", text);
            }
            via_moves.sort_unstable();
            prop_assert_eq!(sorted_children(game, p), via_moves);
            let text = game.position_to_string(p);
            prop_assert_eq!(game.parse_position(&text), Ok(p), "position {}", text);
        }
        Ok(())
    });
}

#[test]
fn fuzzed_text_is_an_error_not_a_panic() {
    for game in variants() {
        let mut runner =
            TestRunner::new(Config { cases: 64, failure_persistence: None, ..Config::default() });
        let start = game.position_to_string(game.start());
        // Random text, and the start's text with one character replaced (near misses).
        let texts = (".{0,80}", 0..start.len().max(1), any::<char>());
        runner
            .run(&texts, |(text, at, ch)| {
                let _ = game.parse_position(&text);
                let _ = game.parse_move(game.start(), &text);
                let mut near: Vec<char> = start.chars().collect();
                if let Some(c) = near.get_mut(at) {
                    *c = ch;
                }
                let near: String = near.into_iter().collect();
                if let Ok(p) = game.parse_position(&near) {
                    // Whatever parses is a position the game can work with.
                    let _ = game.legal_moves(p);
                    let _ = game.canonical(p);
                }
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{} {}: {e}", game.id(), game.variant()));
    }
}

#[test]
fn symmetric_images_share_canonical_form_and_value_class() {
    for_every_variant(30, |game, walk| {
        let mut images = Vec::new();
        for &p in walk {
            images.clear();
            game.symmetry_images(p, &mut images);
            prop_assert!(images.contains(&p));
            prop_assert_eq!(images.len(), game.symmetry_count());
            let c = game.canonical(p);
            prop_assert_eq!(game.canonical(c), c);
            if game.exchange(p).is_none() {
                prop_assert_eq!(c, *images.iter().min().unwrap());
            } else {
                // With the players exchanged too, the canonical form is an image in the
                // canonical tier (Tic-Tac-Two: X to move when the marks are even).
                prop_assert!(images.contains(&c));
                prop_assert_eq!(game.tier(c), game.canonical_tier(game.tier(p)));
            }
            // A large group (Quarto's 12,288) is checked on an even sample of 256 images.
            let step = (images.len() / 256).max(1);
            for &q in images.iter().step_by(step) {
                prop_assert_eq!(game.canonical(q), c);
                prop_assert_eq!(game.primitive(q), game.primitive(p));
                prop_assert_eq!(game.legal_moves(q).len(), game.legal_moves(p).len());
                prop_assert_eq!(
                    game.canonical_tier(game.tier(q)),
                    game.canonical_tier(game.tier(p))
                );
                // An image with the players exchanged need not be a position of the game.
                if game.canonical_exchanged(q).1 == game.canonical_exchanged(p).1 {
                    prop_assert_eq!(game.parse_position(&game.position_to_string(q)), Ok(q));
                }
            }
        }
        Ok(())
    });
}

#[test]
fn undo_moves_are_the_inverse_of_moves() {
    for_every_variant(30, |game, walk| {
        if !game.has_undo_moves() {
            return Ok(());
        }
        // The walk's positions and their parents: legal positions the start need not reach,
        // which the solver meets all the same.
        let mut around = walk.to_vec();
        for &p in walk {
            game.undo_moves(p, &mut around);
        }
        for &p in &around {
            let mut parents = Vec::new();
            game.undo_moves(p, &mut parents);
            for &q in &parents {
                prop_assert!(game.primitive(q).is_none(), "a primitive parent");
                prop_assert!(
                    sorted_children(game, q).contains(&p),
                    "{} is not a child of its parent {}",
                    game.position_to_string(p),
                    game.position_to_string(q)
                );
            }
            for c in sorted_children(game, p) {
                let mut back = Vec::new();
                game.undo_moves(c, &mut back);
                prop_assert!(back.contains(&p), "a child does not undo to its parent");
            }
            // The parents within the tier, as the solver asks for them: every one of them.
            let mut in_tier = Vec::new();
            game.undo_moves_in_tier(p, &mut in_tier);
            in_tier.retain(|&q| game.tier(q) == game.tier(p));
            in_tier.sort_unstable();
            parents.retain(|&q| game.tier(q) == game.tier(p));
            parents.sort_unstable();
            prop_assert_eq!(in_tier, parents, "undo-moves within the tier miss parents");
        }
        Ok(())
    });
}

#[test]
fn tier_indices_round_trip() {
    for_every_variant(30, |game, walk| {
        if !game.space().is_tiered() {
            return Ok(());
        }
        let tiers = game.tiers();
        for &p in walk {
            let c = game.canonical(p);
            let t = game.tier(c);
            prop_assert!(tiers.contains(&t), "tier {} is not listed", game.tier_name(t));
            prop_assert_eq!(game.canonical_tier(game.tier(p)), t);
            let i = game.tier_index(c);
            prop_assert!(i < game.tier_size(t));
            prop_assert_eq!(game.tier_position(t, i), Some(c));
            let below = game.child_tiers(t);
            for k in sorted_children(game, c) {
                let ct = game.tier(game.canonical(k));
                prop_assert!(ct == t || below.contains(&ct), "{:?} -> {:?}", t, ct);
                prop_assert!(
                    ct != t || game.moves_within(t),
                    "a move stays in tier {}, which claims none does",
                    game.tier_name(t)
                );
            }
        }
        Ok(())
    });
}

/// A game's fused tier kernel agrees with the composition it stands for: locations of canonical
/// forms, of children, of parents within the tier, and runs of positions in index order.
#[test]
fn tier_kernels_agree_with_their_composition() {
    for_every_variant(30, |game, walk| {
        let Some(kernel) = game.kernel() else { return Ok(()) };
        // One cache for the whole walk, as a worker keeps one from position to position.
        let mut cache = KernelCache::default();
        let locate = |p: Position| {
            let c = game.canonical(p);
            (game.tier(c), game.tier_index(c))
        };
        for &p in walk {
            let (t, i) = locate(p);
            prop_assert_eq!(kernel.locate(p, &mut cache), (t, i));
            let mut expected: Vec<_> = sorted_children(game, p).into_iter().map(locate).collect();
            expected.sort_unstable();
            expected.dedup();
            let mut got = Vec::new();
            if game.primitive(p).is_none() {
                kernel.child_locations(p, &mut got, &mut cache);
            }
            prop_assert_eq!(&got, &expected, "children of {}", game.position_to_string(p));
            // The unsorted form: the same locations, repeats allowed outside the tier.
            let mut unsorted = Vec::new();
            if game.primitive(p).is_none() {
                kernel.child_locations_unsorted(p, &mut unsorted, &mut cache);
            }
            let inside = unsorted.iter().filter(|l| l.0 == t).count();
            unsorted.sort_unstable();
            unsorted.dedup();
            prop_assert_eq!(inside, unsorted.iter().filter(|l| l.0 == t).count());
            prop_assert_eq!(&unsorted, &expected, "children of {}", game.position_to_string(p));
            // Those inside counted, those outside located.
            let mut outside = Vec::new();
            if let Some(counted) = game
                .primitive(p)
                .is_none()
                .then(|| kernel.children_outside(p, &mut outside, &mut cache))
                .flatten()
            {
                prop_assert_eq!(
                    counted as usize,
                    inside,
                    "children of {}",
                    game.position_to_string(p)
                );
                outside.sort_unstable();
                outside.dedup();
                let expected: Vec<_> = expected.iter().copied().filter(|l| l.0 != t).collect();
                prop_assert_eq!(outside, expected, "children of {}", game.position_to_string(p));
            }
            // With sides: whether each child's canonical form is its exchange's.
            let mut sided = Vec::new();
            if game.primitive(p).is_none()
                && kernel.child_locations_sided(p, &mut sided, &mut cache)
            {
                sided.sort_unstable();
                sided.dedup();
                let expected = sided_children(game, p);
                prop_assert_eq!(sided, expected, "children of {}", game.position_to_string(p));
            }
            // Mirrored: whether each child is the mirror image of its canonical form.
            let mut mirrored = Vec::new();
            if game.primitive(p).is_none()
                && kernel.child_locations_mirrored(p, &mut mirrored, &mut cache)
            {
                prop_assert_eq!(game.symmetry_count(), 2);
                prop_assert!(game.exchange(p).is_none());
                let mut expected: Vec<_> = sorted_children(game, p)
                    .into_iter()
                    .map(|k| {
                        let c = game.canonical(k);
                        (game.tier(c), game.tier_index(c), c != k)
                    })
                    .collect();
                expected.sort_unstable();
                expected.dedup();
                mirrored.sort_unstable();
                mirrored.dedup();
                prop_assert_eq!(mirrored, expected, "children of {}", game.position_to_string(p));
            }
            let c = game.tier_position(t, i).unwrap_or(p);
            // A class's members on each side.
            if let Some(size) = kernel.side_class_size(c) {
                let mut images = Vec::new();
                game.symmetry_images(c, &mut images);
                images.sort_unstable();
                images.dedup();
                let on = |side: bool| {
                    images.iter().filter(|&&q| game.canonical_exchanged(q).1 == side).count() as u64
                };
                prop_assert_eq!(on(false), size, "class of {}", game.position_to_string(c));
                if game.exchange(c).is_some() {
                    prop_assert_eq!(on(true), size, "class of {}", game.position_to_string(c));
                }
            }
            // The tier of the exchanged position, from the tier alone.
            if let (Some(e), Some(x)) = (kernel.exchanged_tier(game.tier(c)), game.exchange(c)) {
                prop_assert_eq!(e, game.tier(x), "exchanged {}", game.position_to_string(c));
            }
            // The same sizes for a run of indices from `i`, without their positions.
            let mut sizes = [0u32; 8];
            let run = (game.tier_size(t) - i).min(sizes.len() as u64) as usize;
            if kernel.side_class_sizes(t, i, &mut sizes[..run]) {
                for (j, &size) in sizes[..run].iter().enumerate() {
                    let Some(q) = game.tier_position(t, i + j as u64) else { continue };
                    if game.canonical(q) == q {
                        let expected = kernel.side_class_size(q).map(|s| s as u32);
                        prop_assert_eq!(
                            Some(size),
                            expected,
                            "class of {}",
                            game.position_to_string(q)
                        );
                    }
                }
            }
            let mut parents = Vec::new();
            game.undo_moves_in_tier(c, &mut parents);
            let mut expected: Vec<u64> =
                parents.into_iter().map(locate).filter(|l| l.0 == t).map(|l| l.1).collect();
            expected.sort_unstable();
            expected.dedup();
            let mut got = Vec::new();
            kernel.parent_indices(t, c, &mut got, &mut cache);
            prop_assert_eq!(got, expected, "parents of {}", game.position_to_string(c));
            // Parents asked one at a time: asked of every parent while none is reached, of no
            // more once one is.
            let mut parents = Vec::new();
            game.undo_moves(c, &mut parents);
            let mut expected: Vec<_> = parents.into_iter().map(locate).collect();
            expected.sort_unstable();
            expected.dedup();
            let mut asked = Vec::new();
            let answer = kernel.parent_reached(c, &mut cache, &mut |t, i| {
                asked.push((t, i));
                false
            });
            if answer.is_some() {
                prop_assert_eq!(answer, Some(false));
                asked.sort_unstable();
                asked.dedup();
                prop_assert_eq!(&asked, &expected, "parents of {}", game.position_to_string(c));
                if let Some(&last) = expected.last() {
                    let mut after = 0;
                    let answer = kernel.parent_reached(c, &mut cache, &mut |t, i| {
                        after += u32::from(after > 0 || (t, i) == last);
                        (t, i) == last
                    });
                    prop_assert_eq!((answer, after), (Some(true), 1));
                }
            }
            // A run of positions from a little before this one, across the tier's turn boundary
            // where there is one.
            let first = i.saturating_sub(40);
            let mut run = vec![None; (i - first + 40).min(game.tier_size(t) - first) as usize];
            kernel.tier_positions(t, first, &mut run);
            for (k, q) in run.into_iter().enumerate() {
                let index = first + k as u64;
                prop_assert_eq!(q, game.tier_position(t, index));
                if let Some(q) = q {
                    prop_assert_eq!(
                        kernel.is_canonical_at(t, index, q, &mut cache),
                        locate(q) == (t, index),
                        "{}",
                        game.position_to_string(q)
                    );
                }
            }
        }
        Ok(())
    });
}

/// A kernel's walk of a tier ([`perfectplay_core::TierKernel::walk`]) visits exactly the tier's
/// canonical positions, each at the index its canonical form has (every tier walked that has at
/// most a million indices, over all variants).
#[test]
fn tier_walks_visit_every_canonical_position_at_its_index() {
    let mut walked = 0;
    for game in variants() {
        let game = game.as_ref();
        let Some(kernel) = game.kernel() else { continue };
        for t in game.tiers() {
            let parts = kernel.walk_parts(t);
            let n = game.tier_size(t);
            if parts == 0 || n > 1 << 20 {
                continue;
            }
            let locate = |p: Position| {
                let c = game.canonical(p);
                (game.tier(c), game.tier_index(c))
            };
            let canonical: Vec<bool> = (0..n)
                .map(|i| game.tier_position(t, i).is_some_and(|q| locate(q) == (t, i)))
                .collect();
            let mut visited = vec![false; n as usize];
            let mut cache = KernelCache::default();
            for part in 0..parts {
                kernel.walk(t, part, &mut cache, &mut |index, p| {
                    let name = game.position_to_string(p);
                    assert_eq!(locate(p), (t, index), "{} {name}", game.id());
                    visited[index as usize] = true;
                });
            }
            assert_eq!(visited, canonical, "{} tier {}", game.id(), game.tier_name(t));
            walked += 1;
        }
    }
    assert!(walked > 0, "no tier of a small variant is walked");
}

/// A kernel's children of a run of positions ([`perfectplay_core::TierKernel::
/// run_children_sided`]) are each position's own, with their sides: runs of up to 300 indices
/// from each position walked in a tier the kernel takes by runs, its canonical non-primitive
/// positions (long enough that positions sharing a set are taken move by move).
#[test]
fn run_children_are_each_positions_children() {
    let checked = std::sync::atomic::AtomicU64::new(0);
    for_every_variant(10, |game, walk| {
        let Some(kernel) = game.kernel() else { return Ok(()) };
        let mut cache = KernelCache::default();
        for &p in walk {
            let c = game.canonical(p);
            let (t, first) = (game.tier(c), game.tier_index(c));
            if !kernel.runs_children(t) {
                continue;
            }
            let mut positions = vec![None; 300.min(game.tier_size(t) - first) as usize];
            kernel.tier_positions(t, first, &mut positions);
            let run: Vec<Position> = positions
                .into_iter()
                .flatten()
                .filter(|&q| game.primitive(q).is_none() && game.canonical(q) == q)
                .collect();
            let mut out = Vec::new();
            kernel.run_children_sided(&run, &mut out, &mut cache);
            for (k, &q) in run.iter().enumerate() {
                let mut got: Vec<_> = out
                    .iter()
                    .filter(|l| l.0 == k as u32)
                    .map(|&(_, ct, ci, x)| (ct, ci, x))
                    .collect();
                got.sort_unstable();
                got.dedup();
                let expected = sided_children(game, q);
                prop_assert_eq!(got, expected, "children of {}", game.position_to_string(q));
            }
            checked.fetch_add(run.len() as u64, std::sync::atomic::Ordering::Relaxed);
        }
        Ok(())
    });
    assert!(checked.into_inner() > 0, "no tier is taken by runs");
}

/// Every move has a button; buttons and part sequences tell moves apart, and no move's parts are
/// the start of another's (so the page always knows when a move is complete); only games that
/// declare multipart moves have parts, and those that do show some along the walks.
#[test]
fn autogui_buttons_name_one_move_each() {
    for game in variants() {
        let Some(theme) = game.image_autogui() else { continue };
        let parts_seen = std::sync::atomic::AtomicBool::new(false);
        let mut runner =
            TestRunner::new(Config { cases: 30, failure_persistence: None, ..Config::default() });
        let walks = proptest::collection::vec(any::<usize>(), 0..60);
        runner
            .run(&walks, |choices| {
                for p in game.as_ref().walk(&choices) {
                    let cells = game.autogui_position(p);
                    prop_assert_eq!(cells.chars().count(), theme.centers.len() + 2, "{}", cells);
                    let mut sequences: Vec<Vec<String>> = Vec::new();
                    for m in game.legal_moves(p) {
                        let parts = game.move_parts(p, m);
                        prop_assert!(parts.is_empty() || game.is_multipart());
                        if !parts.is_empty() {
                            parts_seen.store(true, std::sync::atomic::Ordering::Relaxed);
                        }
                        for b in parts.iter().chain(game.autogui_move(p, m).iter()) {
                            let at = match *b {
                                perfectplay_core::AutoGuiMove::Token { at, .. } => vec![at],
                                perfectplay_core::AutoGuiMove::Arrow { from, to }
                                | perfectplay_core::AutoGuiMove::Line { from, to } => {
                                    vec![from, to]
                                }
                            };
                            prop_assert!(at.iter().all(|&c| c < theme.centers.len()), "{}", b);
                        }
                        sequences.push(if parts.is_empty() {
                            vec![game.autogui_move(p, m).unwrap().to_string()]
                        } else {
                            parts.iter().map(ToString::to_string).collect()
                        });
                    }
                    for (i, a) in sequences.iter().enumerate() {
                        for b in &sequences[i + 1..] {
                            let n = a.len().min(b.len());
                            prop_assert!(a[..n] != b[..n], "{:?} and {:?}", a, b);
                            // Where two moves part, the page shows both buttons: they must not
                            // lie on the same spot.
                            let k = (0..n).find(|&k| a[k] != b[k]).unwrap();
                            prop_assert!(
                                place(&a[k]) != place(&b[k]) && !overlap(&theme, &a[k], &b[k]),
                                "{} and {} are drawn on the same spot",
                                a[k],
                                b[k]
                            );
                        }
                    }
                }
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{} {}: {e}", game.id(), game.variant()));
        assert_eq!(
            parts_seen.into_inner(),
            game.is_multipart(),
            "{} {}: declared multipart moves and parts seen disagree",
            game.id(),
            game.variant()
        );
    }
}

/// Where the page draws a button (UWAPI form `A_<token>_<center>_x`, `M_<from>_<to>_x`,
/// `L_<from>_<to>_x`): a token button at its center, an arrow or a line between its ends.
fn place(button: &str) -> (bool, String, String) {
    let f: Vec<&str> = button.split('_').collect();
    match f[0] {
        "A" => (true, f[2].to_string(), String::new()),
        _ => (false, f[1].to_string(), f[2].to_string()),
    }
}

/// Whether two arrows or lines from one center go the same way, one on top of the other.
fn overlap(theme: &perfectplay_core::ImageAutoGui, a: &str, b: &str) -> bool {
    let ends = |button: &str| {
        let f: Vec<&str> = button.split('_').collect();
        (f[0] != "A").then(|| (f[1].parse::<usize>().unwrap(), f[2].parse::<usize>().unwrap()))
    };
    let (Some((a0, a1)), Some((b0, b1))) = (ends(a), ends(b)) else { return false };
    let vector = |from: usize, to: usize| {
        let ((x0, y0), (x1, y1)) = (theme.centers[from], theme.centers[to]);
        (x1 - x0, y1 - y0)
    };
    let ((ax, ay), (bx, by)) = (vector(a0, a1), vector(b0, b1));
    let parallel = (ax * by - ay * bx).abs() < 1e-6 * (ax.hypot(ay) * bx.hypot(by));
    a0 == b0 && parallel && ax * bx + ay * by > 0.0
}

/// Every position a solution stores (for dense tiers, every index naming a canonical position).
fn stored_positions(game: &dyn Game, solution: &Solution) -> Vec<Position> {
    let mut out = Vec::new();
    for t in solution.tiers() {
        match &t.space {
            TierSpace::Sorted(keys) => out.extend(keys.iter().map(Position)),
            TierSpace::Dense { size } => out.extend((0..*size).filter_map(|i| {
                let p = game.tier_position(t.tier, i)?;
                (game.canonical(p) == p || !solution.is_canonical()).then_some(p)
            })),
        }
    }
    out
}

/// The known answers of a variant: `reference/<game>-<variant>.tsv`, comment lines left out.
fn reference_table(game: &dyn Game) -> Result<String, String> {
    let name = format!("{}-{}.tsv", game.id(), game.variant());
    let path = format!("{}/../../reference/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "reference/{name}: {e}; every small variant has one (computed: `perfectplay analyze \
             {} --variant {} --format tsv`, with a comment saying how it was checked)",
            game.id(),
            game.variant()
        )
    })?;
    Ok(text.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect())
}

/// Small variants: solved, every stored position the best over its children, the analysis equal
/// to the reference table.
#[test]
fn small_variants_solve_to_their_reference_tables() {
    for game in small_listed_variants() {
        let solution = solve(game, SolveOptions::default(), &NoProgress, None).unwrap();
        let positions = stored_positions(game, &solution);
        assert!(!positions.is_empty());
        for p in positions {
            if let Err(e) = check_best_over_children(game, &solution, p) {
                panic!("{} {}: {e}", game.id(), game.variant());
            }
        }
        let analysis = perfectplay_solve::analyze(game, &solution, &NoProgress).unwrap();
        let expected = reference_table(game).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(analysis.to_tsv(), expected, "{} {}", game.id(), game.variant());
    }
}

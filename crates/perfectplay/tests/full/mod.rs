//! What the full-scale tests share: opening the solved database they need (they fail, not pass,
//! without it) and the sampled check of stored values against children.

use std::path::PathBuf;

use perfectplay_core::{Game, GameExt, Remoteness, ValueRemoteness};
use perfectplay_db::Database;
use rayon::prelude::*;

/// The game variant's database under `PERFECTPLAY_DATA` (default `perfectplay-data`), checked to
/// be the game's; panics unless `wanted` (each test file says whether its ignored full-scale
/// checks were asked for) and if the database is missing.
pub fn open(game: &dyn Game, wanted: bool) -> Database {
    assert!(wanted, "the full-scale checks were not asked for: the test file's header says how");
    let dir = std::env::var_os("PERFECTPLAY_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("perfectplay-data"));
    let path = perfectplay_db::path_for(&dir, game.id(), &game.variant());
    let db = Database::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    db.check_game(game).unwrap();
    db
}

/// `count` canonical positions drawn across a tiered game's tiers (weighted by tier size, the
/// same draw every run), each one's stored value checked to be the best over its children's
/// stored values (a primitive's, its own). In a pruned database a position drawn that is absent,
/// or one holding its value with a child absent, is not reached from the start and is drawn
/// again (every child of a reached position is reached). Returns the tiers the checked positions
/// lie in and the children read.
pub fn sampled_check(game: &dyn Game, db: &Database, count: usize) -> (usize, usize) {
    let tiers = game.tiers();
    let sizes: Vec<u64> = tiers.iter().map(|&t| game.tier_size(t)).collect();
    let total: u64 = sizes.iter().sum();
    let mut next = perfectplay_core::xorshift(0x9e37_79b9_7f4a_7c15);
    let pruned = db.is_pruned();
    let (mut checked, mut children_read, mut unreached) = (0, 0, 0);
    let mut tiers_seen = std::collections::HashSet::new();
    while checked < count {
        // A round's sample first (deterministic), then the checks on every core.
        let mut sample = Vec::new();
        while sample.len() < count - checked {
            let (mut index, mut k) = (next() % total, 0);
            while index >= sizes[k] {
                index -= sizes[k];
                k += 1;
            }
            let Some(p) = game.tier_position(tiers[k], index) else { continue };
            if game.canonical(p) == p {
                sample.push(p);
            }
        }
        let results: Vec<Option<usize>> = sample
            .par_iter()
            .map(|&p| {
                let Some(got) = db.get(game, p).unwrap() else {
                    assert!(pruned, "{} is not stored", game.position_to_string(p));
                    return None;
                };
                let (want, read) = match game.primitive(p) {
                    Some(v) => (ValueRemoteness::new(v, Remoteness(0)), 0),
                    None => {
                        let mut children = Vec::new();
                        game.children(p, &mut children);
                        let mut best = None;
                        for &c in &children {
                            let Some(v) = db.get(game, c).unwrap() else {
                                assert!(pruned, "{} is not stored", game.position_to_string(c));
                                return None;
                            };
                            best = best.max(Some(v.to_parent()));
                        }
                        (best.expect("a child"), children.len())
                    }
                };
                assert_eq!(got, want, "{}", game.position_to_string(p));
                Some(read)
            })
            .collect();
        for (p, r) in sample.iter().zip(results) {
            match r {
                Some(read) => {
                    checked += 1;
                    children_read += read;
                    tiers_seen.insert(game.tier(*p));
                }
                None => unreached += 1,
            }
        }
    }
    if pruned {
        eprintln!("{unreached} positions drawn were not reached from the start and drawn again");
    }
    (tiers_seen.len(), children_read)
}

/// `walks` random games from the start (the same every run), each position on them and every
/// child of it answered by the database (no reachable position pruned away) and equal to the
/// best over its children. Returns the positions checked.
pub fn walk_check(game: &dyn Game, db: &Database, walks: usize) -> usize {
    let mut next = perfectplay_core::xorshift(0x2545_f491_4f6c_dd1d);
    let (mut checked, mut children) = (0, Vec::new());
    for _ in 0..walks {
        let mut p = game.start();
        // At most 400 moves a game: a drawn game goes on for ever.
        for _ in 0..400 {
            let got = db.get(game, p).unwrap();
            let got = got.unwrap_or_else(|| panic!("{} not stored", game.position_to_string(p)));
            checked += 1;
            if let Some(v) = game.primitive(p) {
                assert_eq!(got, ValueRemoteness::new(v, Remoteness(0)));
                break;
            }
            children.clear();
            game.children(p, &mut children);
            let best = children
                .iter()
                .map(|&c| {
                    let v = db.get(game, c).unwrap();
                    v.unwrap_or_else(|| panic!("{} not stored", game.position_to_string(c)))
                        .to_parent()
                })
                .max();
            assert_eq!(Some(got), best, "{}", game.position_to_string(p));
            p = children[(next() % children.len() as u64) as usize];
        }
    }
    checked
}

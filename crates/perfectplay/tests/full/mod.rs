//! What the full-scale tests share: opening the solved database they need (they fail, not pass,
//! without it) and the sampled check of stored values against children.

use std::path::PathBuf;

use perfectplay_core::{Game, GameExt, Remoteness, ValueRemoteness};
use perfectplay_db::Database;
use rayon::prelude::*;

/// The game variant's database under `PERFECTPLAY_DATA` (default `perfectplay-data`), checked to
/// be the game's; panics if it is missing. Each test file gates its (ignored) tests before this.
pub fn open(game: &dyn Game) -> Database {
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
/// stored values (a primitive's, its own). Returns the tiers the sample touched and the children
/// read.
pub fn sampled_check(game: &dyn Game, db: &Database, count: usize) -> (usize, usize) {
    let tiers = game.tiers();
    let sizes: Vec<u64> = tiers.iter().map(|&t| game.tier_size(t)).collect();
    let total: u64 = sizes.iter().sum();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    // The sample first (deterministic), then the checks on every core.
    let (mut sample, mut tiers_seen) = (Vec::new(), std::collections::HashSet::new());
    while sample.len() < count {
        let (mut index, mut k) = (next() % total, 0);
        while index >= sizes[k] {
            index -= sizes[k];
            k += 1;
        }
        let tier = tiers[k];
        let Some(p) = game.tier_position(tier, index) else { continue };
        if game.canonical(p) != p {
            continue;
        }
        sample.push(p);
        tiers_seen.insert(tier);
    }
    let children_read: usize = sample
        .par_iter()
        .map(|&p| {
            let got = db.get(game, p).unwrap().expect("stored");
            let (want, read) = match game.primitive(p) {
                Some(v) => (ValueRemoteness::new(v, Remoteness(0)), 0),
                None => {
                    let mut children = Vec::new();
                    game.children(p, &mut children);
                    let best = children
                        .iter()
                        .map(|&c| db.get(game, c).unwrap().expect("child stored").to_parent())
                        .max()
                        .expect("a child");
                    (best, children.len())
                }
            };
            assert_eq!(got, want, "{}", game.position_to_string(p));
            read
        })
        .sum();
    (tiers_seen.len(), children_read)
}

//! Fingerprints of the rules and the index a database was solved with (format versions 4 and 5).
//!
//! A database's values are only right for the rules and the index of the build that wrote them.
//! A file left behind by an older build, whose game has since changed (a rule, a start layout, the
//! order of a tier's index), would answer wrongly without any checksum failing, and a solve that
//! copies a tier from another variant's file, or resumes from its tier files, would carry the
//! stale values on. So the writer stores a fingerprint of what decides the values: per table, of
//! its tier (its size, and at a few indices the position's side to move, its primitive value and
//! the tier and index of each child's canonical form); in the header, of the positions nearest
//! the start. Opening a file for a game ([`crate::Database::check_game`]) recomputes them and
//! refuses a file whose fingerprints differ. Files of versions 1 to 3 have none and are not
//! checked, and a file written from them has none either where they had none: a copy does not
//! vouch for what it copies.
//!
//! In a tiered game the fingerprint depends on the positions only through their tiers and
//! indices, not on the bits of a [`Position`], so a change of the in-memory encoding alone does not
//! change it (in a dense or sparse game a position's code is its index). It is a sample: a change
//! of rules that no sampled position shows goes unnoticed, though most rules show within a few
//! positions of the start or at a tier's first and last index. The recipe (the samples, the
//! mixer) is part of format versions 4 and 5: changing it needs a new format version.

use std::collections::{HashSet, VecDeque};

use perfectplay_core::{Game, GameExt, Player, Position, PositionSpace, Tier, Value};

/// The indices of a tier whose positions go into its fingerprint: the first, the last, the middle
/// and this many more spread by a fixed hash.
const TIER_SAMPLES: u64 = 13;

/// The positions nearest the start (in breadth-first order) that go into a header's fingerprint,
/// at most; it stops sooner once this many children have gone in (Quarto's positions have up to
/// 240 children, each canonicalized under 12,288 symmetries).
const START_SAMPLES: usize = 64;
const START_CHILDREN: usize = 1024;

/// A fingerprint is never this; a stored 0 means "none" (a file of version 1 to 3, or a table
/// of a game without a tier index).
pub const NONE: u64 = 0;

/// The fingerprint of a tier of a game with a tier index, `NONE` for other games (their one
/// table is covered by [`game_fingerprint`]).
pub fn tier_fingerprint(game: &dyn Game, tier: Tier) -> u64 {
    if !game.space().is_tiered() {
        return NONE;
    }
    let size = game.tier_size(tier);
    let mut h = Mix::new(1);
    h.add(u64::from(tier.0));
    h.add(size);
    if size == 0 {
        return h.finish();
    }
    let spread = (0..TIER_SAMPLES).map(|k| splitmix(u64::from(tier.0) << 32 | k) % size);
    let mut indices: Vec<u64> = [0, size / 2, size - 1].into_iter().chain(spread).collect();
    indices.sort_unstable();
    indices.dedup();
    let mut children = Vec::new();
    for i in indices {
        h.add(i);
        match game.tier_position(tier, i) {
            Some(p) => drop(add_position(game, p, &mut h, &mut children)),
            None => h.add(u64::MAX),
        }
    }
    h.finish()
}

/// The fingerprint of a game variant: the positions nearest the start, each with its side to
/// move, primitive value and children, as tiers and indices of canonical forms.
pub fn game_fingerprint(game: &dyn Game) -> u64 {
    let mut h = Mix::new(2);
    h.add(match game.space() {
        PositionSpace::Dense { size } => size,
        PositionSpace::Sparse(_) => u64::MAX - 1,
        PositionSpace::Tiered(_) => u64::MAX,
    });
    let start = game.canonical(game.start());
    let mut queue = VecDeque::from([start]);
    let mut seen = HashSet::from([start]);
    let mut children = Vec::new();
    let (mut taken, mut children_taken) = (0, 0);
    while let Some(p) = queue.pop_front() {
        let (tier, index) = location(game, p);
        h.add(u64::from(tier.0));
        h.add(index);
        let next = add_position(game, p, &mut h, &mut children);
        taken += 1;
        children_taken += next.len();
        if taken == START_SAMPLES || children_taken >= START_CHILDREN {
            break;
        }
        for c in next {
            if seen.len() < START_SAMPLES && seen.insert(c) {
                queue.push_back(c);
            }
        }
    }
    h.finish()
}

/// Adds a position's side to move, primitive value and its children's locations (sorted) to
/// `h`; gives back its children's canonical forms in that order (none where it is primitive).
fn add_position(
    game: &dyn Game,
    p: Position,
    h: &mut Mix,
    scratch: &mut Vec<Position>,
) -> Vec<Position> {
    h.add(match game.to_move(p) {
        Player::First => 1,
        Player::Second => 2,
    });
    if let Some(v) = game.primitive(p) {
        h.add(match v {
            Value::Lose => 10,
            Value::Draw => 11,
            Value::Tie => 12,
            Value::Win => 13,
        });
        return Vec::new();
    }
    scratch.clear();
    game.children(p, scratch);
    let mut located: Vec<((Tier, u64), Position)> = scratch
        .iter()
        .map(|&c| {
            let c = game.canonical(c);
            (location(game, c), c)
        })
        .collect();
    located.sort_unstable_by_key(|&(l, _)| l);
    located.dedup_by_key(|&mut (l, _)| l);
    h.add(located.len() as u64);
    for &((tier, index), _) in &located {
        h.add(u64::from(tier.0));
        h.add(index);
    }
    located.into_iter().map(|(_, c)| c).collect()
}

/// Where a canonical position is stored: its tier and its index there (its code in a sparse
/// game).
fn location(game: &dyn Game, p: Position) -> (Tier, u64) {
    (game.tier(p), game.tier_index(p))
}

/// A 64-bit mixer, stable across builds and platforms (not std's hasher, which promises
/// neither).
struct Mix(u64);

impl Mix {
    fn new(domain: u64) -> Mix {
        Mix(splitmix(domain))
    }

    fn add(&mut self, x: u64) {
        self.0 = splitmix(self.0 ^ x);
    }

    fn finish(&self) -> u64 {
        if self.0 == NONE {
            1
        } else {
            self.0
        }
    }
}

/// SplitMix64's finalizer over `x` plus its increment.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

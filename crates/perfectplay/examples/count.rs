//! The analysis's count of the positions reached ([`perfectplay_solve::count_tier`]) on one
//! Nine Men's Morris tier (or another game's, its id first), timed: what a solve with its
//! analysis spends on the tier's count once it is solved, per position reached, without the
//! search and the solve before it. The marks are made up: 40% of the tier's canonical indices,
//! each on one side or both (on its own side, in a game without an exchange); every other tier
//! has none, as after a search that reached nothing there. The values are made up too; the
//! counts are what they are, not Table 4.3's.
//!
//! `cargo run --release -p perfectplay --example count -- '(0,8,7)'` (about 7 GB: two bits an
//! index of every tier, and the tier's values); `-- baghchal '(4,2,tigers)'` (about 10 GB).
//!
//! `-- baghchal --marks DATA/baghchal/regular.ppdb` counts every tier instead, by the marks an
//! interrupted solve of that database kept (its search's, `reached.marks` beside its tier files),
//! with made-up values: the whole count a solve with its analysis makes, tier by tier (the time
//! the values take to make up is said apart).

use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

mod common;

use perfectplay_core::{random::xorshift, Game, GameExt, Remoteness, Tier, Value, ValueRemoteness};
use perfectplay_db::{KeptReached, TierFiles};
use perfectplay_solve::{
    marks_words, Analysis, NoProgress, Reached, SolvedTier, TierReport, TierSpace, TierValues,
};
use rayon::prelude::*;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Indices a task of the set-up marks.
const RUN: u64 = 1 << 15;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // Another game's tiers after its id (Bagh-Chal's: `-- baghchal '(4,2,tigers)'`).
    let (game, id) = common::game_with_kernel(&mut args);
    let game = game.as_ref();
    if let Some(at) = args.iter().position(|a| a == "--marks") {
        let Some(path) = args.get(at + 1) else {
            eprintln!("--marks takes the path of a database whose solve kept its marks");
            std::process::exit(2);
        };
        count_kept(game, path);
        return;
    }
    let kernel = game.kernel().expect("a game with a tier kernel");
    let tiers = game.tiers();
    let name = args.first().cloned().unwrap_or_else(|| "(0,8,7)".into());
    let Some(k) = tiers.iter().position(|&t| game.tier_name(t) == name) else {
        eprintln!("{name} is not a tier of {id}: a name as `db info` prints it");
        std::process::exit(2);
    };
    // A game without an exchange reaches a class on its own side only.
    let exchanges = game.exchange(game.start()).is_some();
    let t = tiers[k];
    let size = game.tier_size(t);
    let started = Instant::now();
    let bits: Vec<Vec<AtomicU64>> = tiers
        .iter()
        .map(|&u| (0..marks_words(game, u)).map(|_| AtomicU64::new(0)).collect())
        .collect();
    let words = &bits[k];
    (0..size.div_ceil(RUN)).into_par_iter().for_each(|run| {
        let first = run * RUN;
        let mut positions = vec![None; RUN.min(size - first) as usize];
        kernel.tier_positions(t, first, &mut positions);
        let mut random = xorshift(run + 1);
        for (j, p) in positions.iter().enumerate() {
            let Some(p) = *p else { continue };
            let r = random();
            if game.canonical(p) == p && r % 10 < 4 {
                let bit = (first + j as u64) * 2;
                let sides = if exchanges { 1 + (r >> 8) % 3 } else { 1 };
                words[(bit / 64) as usize].fetch_or(sides << (bit % 64), Relaxed);
            }
        }
    });
    let solved = made_up(t, size);
    let reached = Reached::from_marks(game, bits).expect("marks of the game's tiers");
    let marked = reached.count(t);
    eprintln!(
        "set up in {:.1} s: {marked} of {size} indices marked",
        started.elapsed().as_secs_f64()
    );
    let started = Instant::now();
    let (analysis, lines) =
        perfectplay_solve::count_tier(game, &reached, t, &solved.values, &NoProgress)
            .expect("a count of the marks");
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{name}: {marked} indices marked counted in {secs:.2} s ({:.2} M a second), {} positions, \
         counts' digest {:016x}",
        marked as f64 / secs / 1e6,
        analysis.total(),
        digest(&analysis, &lines)
    );
}

/// Every tier counted by the marks kept beside the tier files of the database at `path`.
fn count_kept(game: &dyn Game, path: &str) {
    let files = TierFiles::new(path, game, true);
    let reached = match files.kept_reached() {
        Ok(KeptReached::Read(reached)) => reached,
        Ok(KeptReached::None) => {
            eprintln!("no marks are kept beside {path}'s tier files");
            std::process::exit(2);
        }
        Ok(KeptReached::Discarded(at)) => {
            eprintln!("{} failed its checks and was removed", at.display());
            std::process::exit(2);
        }
        Err(e) => {
            eprintln!("the marks of {path}: {e}");
            std::process::exit(2);
        }
    };
    let marked: u64 = game.tiers().iter().map(|&t| reached.count(t)).sum();
    let making = std::cell::Cell::new(0.0);
    let values = |u| {
        let started = Instant::now();
        let solved = made_up(u, game.tier_size(u));
        making.set(making.get() + started.elapsed().as_secs_f64());
        Ok(Cow::Owned(solved))
    };
    let started = Instant::now();
    let (analysis, lines) = perfectplay_solve::count_reached(game, &reached, &values, &NoProgress)
        .expect("a count of the marks");
    let secs = started.elapsed().as_secs_f64();
    let counting = secs - making.get();
    println!(
        "every tier: {marked} indices marked counted in {counting:.1} s ({:.2} M a second; the \
         values made up in {:.1} s more), {} positions, counts' digest {:016x}",
        marked as f64 / counting / 1e6,
        making.get(),
        analysis.total(),
        digest(&analysis, &lines)
    );
}

/// Made-up values of a tier, in a pattern of wins, losses and draws at a few remotenesses.
fn made_up(t: Tier, size: u64) -> SolvedTier {
    let values = (0..size)
        .into_par_iter()
        .map(|i| {
            let value = [Value::Win, Value::Lose, Value::Draw][(i % 3) as usize];
            ValueRemoteness::new(value, Remoteness((i % 17) as u16))
        })
        .collect();
    SolvedTier {
        tier: t,
        space: TierSpace::Dense { size },
        values: TierValues::new(values),
        care: None,
        reached: None,
    }
}

/// A digest of every count and line, to compare two builds' counts by.
fn digest(analysis: &Analysis, lines: &[TierReport]) -> u64 {
    let mut digest = std::hash::DefaultHasher::new();
    std::hash::Hash::hash(&format!("{analysis:?} {lines:?}"), &mut digest);
    std::hash::Hasher::finish(&digest)
}

//! Random single-position query latency against a database file.
//!
//! `cargo run --release -p perfectplay-db --example query_latency -- FILE [QUERIES]`
//!
//! Positions are uniform random indices of the game's space (dense games) or random stored keys
//! (sparse games), each answered as `query` answers it: canonical form, then one lookup. Three
//! rounds over fresh random positions, each timed per query:
//! - `first`: a freshly opened database (empty block cache) on whatever the OS has cached (drop
//!   the page cache before the run, `sync; echo 3 > /proc/sys/vm/drop_caches`, for a cold disk);
//! - `warm`: the file in the OS page cache, the block cache missing (a new random position almost
//!   rarely shares a block with the few hundred cached);
//! - `hot`: positions repeated from a set whose blocks all fit the block cache (16 MiB).

use std::time::Instant;

use perfectplay_core::Position;
use perfectplay_db::{Database, TableKind};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(file) = args.next() else {
        eprintln!("usage: query_latency FILE [QUERIES]");
        std::process::exit(2);
    };
    let queries: usize = args.next().and_then(|q| q.parse().ok()).unwrap_or(10_000);
    let opened = Instant::now();
    let db = match Database::open(&file) {
        Ok(db) => db,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let open_us = opened.elapsed().as_secs_f64() * 1e6;
    let h = db.header().clone();
    let game = match perfectplay_games::lookup(&h.game, Some(&h.variant)) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let mut next = perfectplay_core::xorshift(0x2545_f491_4f6c_dd1d);
    let mut random = move |n: u64| next() % n;
    let table = &h.tables[0];
    if table.kind == TableKind::Derived {
        eprintln!("{file}: its first table is derived (no values to read by index)");
        std::process::exit(2);
    }
    let mut keys = Vec::new();
    if table.kind == TableKind::Sorted {
        let solution = db.load().expect("loads");
        let t = &solution.tiers()[0];
        keys = (0..t.space.len()).map(|i| t.space.position(i).0).collect();
    }
    let mut pick = |_: usize| match table.kind {
        TableKind::Dense | TableKind::Derived => Position(random(table.positions)),
        TableKind::Sorted => Position(keys[random(keys.len() as u64) as usize]),
    };
    let first: Vec<Position> = (0..queries).map(&mut pick).collect();
    let warm: Vec<Position> = (0..queries).map(&mut pick).collect();
    let hot_set: Vec<Position> = (0..64).map(&mut pick).collect();
    let hot: Vec<Position> = (0..queries).map(|i| hot_set[i % hot_set.len()]).collect();
    println!("file: {file}  open: {open_us:.0} µs  queries per round: {queries}");
    for (name, round) in [("first", &first), ("warm", &warm), ("hot", &hot)] {
        let mut times = Vec::with_capacity(round.len());
        let mut answered = 0;
        for &p in round {
            let t = Instant::now();
            let v = db.get(game.as_ref(), p);
            times.push(t.elapsed().as_nanos() as u64);
            if matches!(v, Ok(Some(_))) {
                answered += 1;
            }
        }
        times.sort_unstable();
        let q = |f: f64| times[((times.len() - 1) as f64 * f) as usize] as f64 / 1000.0;
        println!(
            "{name:>5}: p50 {:>8.1} µs  p99 {:>8.1} µs  max {:>8.1} µs  ({answered} answered)",
            q(0.5),
            q(0.99),
            q(1.0)
        );
    }
    let (hits, misses) = db.cache_stats();
    println!("block cache: {hits} hits, {misses} misses");
}

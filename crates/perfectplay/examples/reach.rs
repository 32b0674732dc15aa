//! The reachability search of a tiered game's analysis alone, timed: what `analyze` and a solve
//! with its analysis spend before they read a value. No database is needed.
//!
//! `cargo run --release -p perfectplay --example reach -- ninemensmorris regular`
//! prints the classes reached so far every 10 s, then the total and the time, and per tier its
//! indices and those reached (with `REACH_PLACEMENTS=1`, of the tiers without moves inside
//! only, searched alone).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use perfectplay_core::GameExt;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The classes reached so far, printed at most every 10 s.
struct Rate {
    reached: AtomicU64,
    printed: AtomicU64,
    started: Instant,
}

impl perfectplay_solve::Progress for Rate {
    fn begin(&self, _label: &str, _total: Option<u64>) {}
    fn advance(&self, amount: u64) {
        let reached = self.reached.fetch_add(amount, Relaxed) + amount;
        let secs = self.started.elapsed().as_secs_f64();
        let printed = self.printed.load(Relaxed);
        let now = secs as u64;
        if now >= printed + 10
            && self.printed.compare_exchange(printed, now, Relaxed, Relaxed).is_ok()
        {
            eprintln!("[{secs:>7.1} s] {reached} reached, {:.2} M/s", reached as f64 / secs / 1e6);
        }
    }
    fn end(&self) {}
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(id) = args.first() else {
        eprintln!("usage: reach GAME [VARIANT]  (a tiered game: ninemensmorris, baghchal, ...)");
        std::process::exit(2);
    };
    let game = match perfectplay_games::lookup(id, args.get(1).map(String::as_str)) {
        Ok(game) => game,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    if !game.space().is_tiered() {
        eprintln!("{id} has no tier index: its reachable positions are found by the solve");
        std::process::exit(2);
    }
    let rate =
        Rate { reached: AtomicU64::new(0), printed: AtomicU64::new(0), started: Instant::now() };
    // `REACH_PLACEMENTS=1`: only through the tiers without moves inside (Nine Men's Morris's
    // placements), whose counts are then complete; the others print as not searched.
    let placements = std::env::var("REACH_PLACEMENTS").is_ok_and(|v| v == "1");
    let search = match placements {
        true => perfectplay_solve::reach_tiered_one_pass(&*game, &rate),
        false => perfectplay_solve::reach_tiered(&*game, &rate),
    };
    match search {
        Ok(marks) => {
            let secs = rate.started.elapsed().as_secs_f64();
            // The start's mark is set before the search counts.
            let reached = rate.reached.load(Relaxed) + 1;
            println!(
                "{reached} (index, side) pairs reachable, found in {secs:.1} s, {:.2} M/s; {} \
                 tiers pulled from their parents",
                reached as f64 / secs / 1e6,
                marks.pulled_tiers()
            );
            // Per tier, the indices reached (by either side) of its indices: what a solve of the
            // positions reached only leaves out.
            println!("tier\tindices\treached");
            let (mut all, mut hit) = (0u64, 0u64);
            for t in (*game).tiers().into_iter().filter(|&t| marks.is_complete(t)) {
                let (size, count) = ((*game).tier_size(t), marks.count(t));
                println!("{}\t{size}\t{count}", (*game).tier_name(t));
                (all, hit) = (all + size, hit + count);
            }
            println!("all\t{all}\t{hit}");
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}

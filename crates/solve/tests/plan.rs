//! A solve's plan, counted before it starts, against the solve itself: the indices it solves, and
//! bytes at the peak that cover what the solve holds.

use perfectplay_core::GameExt;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use perfectplay_solve::{plan, solve, NoProgress, Progress, SolveError, SolveOptions};

#[test]
fn the_plan_counts_the_indices_a_tiered_solve_solves_and_the_bytes_it_holds() {
    let game = perfectplay_games::lookup("foxandgeese", Some("4-geese")).unwrap();
    let plan = plan(game.as_ref()).expect("a tiered game is planned");
    let tiers = game.tiers();
    assert_eq!(plan.tiers, tiers.len());
    assert_eq!(plan.indices, tiers.iter().map(|&t| game.tier_size(t)).sum::<u64>());
    assert_eq!(plan.largest_tier, tiers.iter().map(|&t| game.tier_size(t)).max().unwrap());
    let solution = solve(game.as_ref(), SolveOptions::default(), &NoProgress, None).unwrap();
    // Every tier held at the end: the whole plan covers them (one byte an index) and more.
    let held = solution.heap_bytes() as u64;
    assert!(plan.whole_bytes >= held && plan.whole_bytes >= plan.indices, "{plan:?} {held}");
    // The lean peak is a tier's work beside its children: less than holding everything.
    assert!(plan.lean_bytes < plan.whole_bytes, "{plan:?}");
    assert!(plan.lean_bytes >= plan.tier_bytes && plan.tier_bytes >= plan.largest_tier, "{plan:?}");
}

#[test]
fn a_dense_game_is_one_tier_and_a_sparse_one_is_not_planned() {
    let dense = perfectplay_games::lookup("mutorere", None).unwrap();
    let size = dense.space().dense_size().expect("Mu Torere is dense");
    let one = plan(dense.as_ref()).unwrap();
    assert_eq!((one.tiers, one.indices, one.largest_tier), (1, size, size));
    let sparse = perfectplay_games::lookup("connect4", Some("4x4")).unwrap();
    assert!(!sparse.space().is_tiered() && sparse.space().dense_size().is_none());
    assert_eq!(plan(sparse.as_ref()), None);
}

/// Asks the work to stop once `after` units of it are done.
struct StopAfter {
    after: u64,
    done: AtomicU64,
}

impl Progress for StopAfter {
    fn begin(&self, _label: &str, _total: Option<u64>) {}
    fn advance(&self, amount: u64) {
        self.done.fetch_add(amount, Relaxed);
    }
    fn end(&self) {}
    fn stopped(&self) -> bool {
        self.done.load(Relaxed) >= self.after
    }
}

/// A solve asked to stop ends with `Stopped`: before its first tier, and inside a tier (between
/// the levels of its retrograde rounds or the chunks of its initialisation).
#[test]
fn a_solve_asked_to_stop_ends_stopped() {
    let game = perfectplay_games::lookup("foxandgeese", Some("4-geese")).unwrap();
    let total = plan(game.as_ref()).unwrap().indices;
    for after in [0, total / 3] {
        let progress = StopAfter { after, done: AtomicU64::new(0) };
        let r = solve(game.as_ref(), SolveOptions::default(), &progress, None);
        assert!(matches!(r, Err(SolveError::Stopped)), "after {after}: {r:?}");
        // It stopped soon after it was asked (a chunk or a level of work more).
        assert!(progress.done.load(Relaxed) < total, "after {after}");
    }
    let progress = StopAfter { after: u64::MAX, done: AtomicU64::new(0) };
    assert!(solve(game.as_ref(), SolveOptions::default(), &progress, None).is_ok());
}

/// A sparse game's discovery stops too when asked (Connect 4 4x5: asked after a few thousand
/// positions found).
#[test]
fn a_sparse_solve_asked_to_stop_ends_stopped_in_its_discovery() {
    let game = perfectplay_games::lookup("connect4", Some("4x5")).unwrap();
    let progress = StopAfter { after: 5_000, done: AtomicU64::new(0) };
    let r = solve(game.as_ref(), SolveOptions::default(), &progress, None);
    assert!(matches!(r, Err(SolveError::Stopped)), "{r:?}");
}

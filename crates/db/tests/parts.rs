//! A tier too large for the memory limit is solved in parts: the database is the same, byte for
//! byte, as the solve that holds every tier whole, and a solve stopped part way through such a
//! tier resumes from the parts it had initialised.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

use perfectplay_db::TierFiles;
use perfectplay_games::FuchsUndHenne;
use perfectplay_solve::{solve, NoProgress, Progress, SolveError, SolveOptions};

/// Records the notes, and asks the solve to stop once `stop_at` of the first tier in parts'
/// phase `phase` is done.
#[derive(Default)]
struct Watch {
    notes: Mutex<Vec<String>>,
    phase: &'static str,
    stop_at: Option<f64>,
    in_parts: AtomicBool,
    watching: AtomicBool,
    total: AtomicU64,
    done: AtomicU64,
    stop: AtomicBool,
}

impl Progress for Watch {
    fn begin(&self, label: &str, total: Option<u64>) {
        let watch = self.in_parts.load(Relaxed) && label.ends_with(self.phase);
        self.watching.store(watch, Relaxed);
        self.total.store(total.unwrap_or(0), Relaxed);
        self.done.store(0, Relaxed);
    }
    fn advance(&self, amount: u64) {
        let done = self.done.fetch_add(amount, Relaxed) + amount;
        if let (true, Some(f)) = (self.watching.load(Relaxed), self.stop_at) {
            if done as f64 >= f * self.total.load(Relaxed) as f64 {
                self.stop.store(true, Relaxed);
            }
        }
    }
    fn end(&self) {}
    fn note(&self, line: &str) {
        if line.contains(" parts of ") {
            self.in_parts.store(true, Relaxed);
        }
        self.notes.lock().unwrap().push(line.to_string());
    }
    fn stopped(&self) -> bool {
        self.stop.load(Relaxed)
    }
}

impl Watch {
    fn noted(&self, what: &str) -> usize {
        self.notes.lock().unwrap().iter().filter(|l| l.contains(what)).count()
    }
}

fn game() -> FuchsUndHenne {
    FuchsUndHenne::from_variant("3-hens-goal-3").unwrap()
}

/// Under this limit the largest tiers do not fit whole.
const LIMIT: u64 = 1 << 20;

fn solved_whole(dir: &std::path::Path) -> Vec<u8> {
    let game = game();
    let mut files = TierFiles::new(dir.join("whole.ppdb"), &game, true);
    solve(&game, SolveOptions::default(), &NoProgress, Some(&mut files)).unwrap();
    std::fs::read(files.finish(None, &perfectplay_db::Derivable::NONE).unwrap().path).unwrap()
}

#[test]
fn tiers_in_parts_give_the_same_database_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let whole = solved_whole(dir.path());
    let game = game();
    let mut files = TierFiles::new(dir.path().join("parts.ppdb"), &game, true);
    let options = SolveOptions { memory_limit: Some(LIMIT), ..SolveOptions::default() };
    let watch = Watch::default();
    solve(&game, options, &watch, Some(&mut files)).unwrap();
    let parted = watch.noted(" parts of ");
    assert!(parted >= 2, "tiers solved in parts: {parted}");
    assert!(watch.noted("parts swapped back in") >= 2);
    let written = files.finish(None, &perfectplay_db::Derivable::NONE).unwrap();
    assert!(std::fs::read(&written.path).unwrap() == whole, "the same bytes as the whole solve");
    // The solve without a store for parts refuses such a tier, as before.
    let refused = solve(
        &game,
        SolveOptions { memory_limit: Some(LIMIT), ..SolveOptions::default() },
        &NoProgress,
        Some(&mut perfectplay_db::Writer::new(dir.path().join("w.ppdb"), &game, true)),
    );
    assert!(matches!(refused, Err(SolveError::OverMemoryLimit { .. })), "{:?}", refused.err());
}

#[test]
fn a_solve_stopped_mid_tier_resumes_from_its_parts() {
    let dir = tempfile::tempdir().unwrap();
    let whole = solved_whole(dir.path());
    let game = game();
    let path = dir.path().join("parts.ppdb");
    let options = SolveOptions { memory_limit: Some(LIMIT), ..SolveOptions::default() };
    // Stopped half way through initialising the first tier in parts, then through its
    // retrograde rounds; each run resumes from what the one before kept.
    for (phase, at) in [(": initialise", 0.5), (": retrograde", 0.3)] {
        let mut files = TierFiles::new(&path, &game, true);
        let watch = Watch { phase, stop_at: Some(at), ..Watch::default() };
        let stopped = solve(&game, options.clone(), &watch, Some(&mut files));
        assert!(matches!(stopped, Err(SolveError::Stopped)), "{phase}: {:?}", stopped.err());
    }
    let mut files = TierFiles::new(&path, &game, true);
    let watch = Watch::default();
    solve(&game, options, &watch, Some(&mut files)).unwrap();
    let notes = watch.notes.lock().unwrap().clone();
    let read_back: Vec<&String> =
        notes.iter().filter(|l| l.contains("initialised by an earlier solve")).collect();
    assert_eq!(read_back.len(), 1, "{notes:#?}");
    let (kept, of) = {
        let words: Vec<&str> = read_back[0].split_whitespace().collect();
        let k = words.iter().position(|&w| w == "of").unwrap();
        (words[k - 1].parse::<usize>().unwrap(), words[k + 1].parse::<usize>().unwrap())
    };
    assert!(kept >= 1 && kept <= of, "{}", read_back[0]);
    let written = files.finish(None, &perfectplay_db::Derivable::NONE).unwrap();
    assert!(std::fs::read(&written.path).unwrap() == whole, "the same bytes as the whole solve");
}

/// Ranks sharing the tiers in parts (threads here, MPI's workers under `solve --mpi`), handed the
/// tiers one at a time as `solve --mpi`'s manager hands them: a tier in parts to every rank, any
/// other to the first alone. Every rank writes its parts to the same directory; the first gathers
/// each tier's values and writes its file. The database is the same, byte for byte.
#[test]
fn tiers_in_parts_shared_over_ranks_give_the_same_database() {
    use perfectplay_core::GameExt;
    use perfectplay_solve::{shared_over_ranks, Ranks, Threads};

    let dir = tempfile::tempdir().unwrap();
    let whole = solved_whole(dir.path());
    let game = game();
    let path = dir.path().join("shared.ppdb");
    let ranks: Vec<std::sync::Arc<dyn Ranks>> =
        Threads::new(3).into_iter().map(|r| std::sync::Arc::new(r) as _).collect();
    let (mut shared, mut alone, mut traded) = (0, 0, 0);
    for tier in game.tiers() {
        let limited = SolveOptions { memory_limit: Some(LIMIT), ..SolveOptions::default() };
        let everyone = shared_over_ranks(&game, tier, &limited);
        let solving = if everyone { ranks.len() } else { 1 };
        let notes: Vec<Vec<String>> = std::thread::scope(|s| {
            let handles: Vec<_> = ranks[..solving]
                .iter()
                .map(|r| {
                    let (game, path) = (&game, &path);
                    s.spawn(move || {
                        let mut files = TierFiles::new(path, game, true);
                        let options = SolveOptions {
                            memory_limit: Some(LIMIT),
                            only: Some(vec![tier]),
                            ranks: everyone.then(|| r.clone()),
                            ..SolveOptions::default()
                        };
                        let watch = Watch::default();
                        solve(game, options, &watch, Some(&mut files)).unwrap();
                        watch.notes.into_inner().unwrap()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        if everyone {
            shared += 1;
            for (rank, notes) in notes.iter().enumerate() {
                let share = format!("solving those numbered {rank} mod 3");
                assert!(notes.iter().any(|l| l.contains(&share)), "{notes:#?}");
                let handed = |l: &&String| l.contains("handed to other ranks");
                traded += notes.iter().filter(handed).filter(|l| !l.contains(" 0 batches")).count();
            }
        } else {
            alone += 1;
        }
    }
    assert!(shared >= 2 && alone >= 2, "tiers shared {shared}, alone {alone}");
    assert!(traded > 0, "no rank handed mail to another");
    let mut files = TierFiles::new(&path, &game, true);
    let options = SolveOptions { memory_limit: Some(LIMIT), ..SolveOptions::default() };
    let watch = Watch::default();
    solve(&game, options, &watch, Some(&mut files)).unwrap();
    assert_eq!(watch.noted("finished by an earlier solve"), game.tiers().len());
    let written = files.finish(None, &perfectplay_db::Derivable::NONE).unwrap();
    assert!(std::fs::read(&written.path).unwrap() == whole, "the same bytes as the whole solve");
}

//! A sparse solve into tier files that counts its analysis as it goes holds only the tiers its
//! later tiers need, puts discovered tiers aside in the files under a memory limit, and writes the
//! same database, byte for byte, as a solve that holds every tier and is analysed after.

use std::sync::Mutex;

use perfectplay_core::Game;
use perfectplay_db::TierFiles;
use perfectplay_solve::{analyze, solve, NoProgress, Progress, SolveOptions};

/// Keeps the notes a solve makes.
#[derive(Default)]
struct Notes(Mutex<Vec<String>>);

impl Progress for Notes {
    fn begin(&self, _label: &str, _total: Option<u64>) {}
    fn advance(&self, _amount: u64) {}
    fn end(&self) {}
    fn note(&self, line: &str) {
        self.0.lock().unwrap().push(line.to_string());
    }
}

#[test]
fn a_sparse_solve_counting_as_it_goes_writes_the_same_database() {
    // Konane without symmetry reduction counts classes by sorting; Connect 4 reduced by its
    // mirror counts each canonical position's images.
    // Each with a limit whose quarter is less than the positions discovered.
    let cases = [("konane", "5x5-corner", false, 2 << 20), ("connect4", "4x4", true, 256 << 10)];
    for (id, variant, canonicalize, limit) in cases {
        let game = perfectplay_games::lookup(id, Some(variant)).unwrap();
        let game: &dyn Game = game.as_ref();
        let dir = tempfile::tempdir().unwrap();

        let whole = dir.path().join("whole").join(format!("{variant}.ppdb"));
        let mut files = TierFiles::new(&whole, game, canonicalize);
        let options = SolveOptions { canonicalize, ..SolveOptions::default() };
        let solution = solve(game, options, &NoProgress, Some(&mut files)).unwrap();
        let (tiers, indices) = (solution.tiers().len(), solution.len());
        assert_eq!(solution.indices(), indices);
        let analysis = analyze(game, &solution, &NoProgress).unwrap();
        assert!(solution.analysis().is_none());
        drop(solution);
        files.finish(Some(&analysis)).unwrap();

        let lean = dir.path().join("lean").join(format!("{variant}.ppdb"));
        let mut files = TierFiles::new(&lean, game, canonicalize);
        let options = SolveOptions {
            canonicalize,
            count: true,
            memory_limit: Some(limit),
            ..SolveOptions::default()
        };
        let notes = Notes::default();
        let solution = solve(game, options, &notes, Some(&mut files)).unwrap();
        assert_eq!(solution.analysis(), Some(&analysis), "{id} {variant}");
        assert!(
            solution.tiers().len() < tiers / 2,
            "{id} {variant}: held {}",
            solution.tiers().len()
        );
        assert_eq!(solution.indices(), indices);
        let notes = notes.0.into_inner().unwrap();
        assert!(notes.iter().any(|n| n.contains("put aside")), "{id} {variant}: {notes:?}");
        let counted = solution.analysis().cloned();
        drop(solution);
        files.finish(counted.as_ref()).unwrap();
        assert!(std::fs::read(&lean).unwrap() == std::fs::read(&whole).unwrap(), "{id} {variant}");
    }
}

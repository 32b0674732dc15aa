//! A tiered solve killed part-way resumes from the tiers it finished: they are read back, not
//! solved again, and the database is the same, byte for byte, as an uninterrupted solve's. A
//! lean sparse solve writes the same database as one that holds every tier.

use std::sync::Mutex;

use perfectplay_core::{Game, GameExt, Tier};
use perfectplay_db::{tier_dir, Database, Shared, TierFiles};
use perfectplay_games::TicTacTwo;
use perfectplay_solve::{
    solve, NoProgress, Progress, ResultSink, SinkError, SolveError, SolveOptions, SolvedTier,
};

/// Records the phases the engine begins (one "tier N: initialise" per tier it solves).
#[derive(Default)]
struct Phases(Mutex<Vec<String>>);

impl Progress for Phases {
    fn begin(&self, label: &str, _total: Option<u64>) {
        self.0.lock().unwrap().push(label.to_string());
    }
    fn advance(&self, _amount: u64) {}
    fn end(&self) {}
    fn note(&self, line: &str) {
        self.0.lock().unwrap().push(line.to_string());
    }
}

impl Phases {
    fn solved_tiers(&self) -> Vec<String> {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter_map(|l| {
                Some(l.strip_prefix("tier ")?.strip_suffix(": initialise")?.to_string())
            })
            .collect()
    }
}

/// Passes tiers to the files until `left` run out, then fails as a killed process would stop:
/// the tier it was handed is lost.
struct Crashing<'a, 'g> {
    files: &'a mut TierFiles<'g>,
    left: usize,
}

impl ResultSink for Crashing<'_, '_> {
    fn tier_solved(&mut self, tier: &SolvedTier) -> Result<(), SinkError> {
        if self.left == 0 {
            return Err("killed".into());
        }
        self.left -= 1;
        self.files.tier_solved(tier)
    }
    fn resume(&mut self, tier: Tier) -> Result<Option<SolvedTier>, SinkError> {
        self.files.resume(tier)
    }
    fn keeps_tiers(&self) -> bool {
        true
    }
    fn kept(&mut self, tier: Tier) -> Result<bool, SinkError> {
        self.files.kept(tier)
    }
    fn reload(&mut self, tier: Tier) -> Result<Option<SolvedTier>, SinkError> {
        self.files.reload(tier)
    }
}

#[test]
fn killed_solve_resumes_and_writes_the_same_database() {
    let game = TicTacTwo::from_variant("2-marks").unwrap();
    let tiers = game.tiers();
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.ppdb");
    let mut files = TierFiles::new(&whole, &game, true);
    solve(&game, SolveOptions::default(), &NoProgress, Some(&mut files)).unwrap();
    files.finish(None, &perfectplay_db::Derivable::NONE).unwrap();
    assert!(!tier_dir(&whole).exists(), "the work directory is removed");

    let path = dir.path().join("resumed.ppdb");
    let finished = 3;
    let mut files = TierFiles::new(&path, &game, true);
    let crash = solve(
        &game,
        SolveOptions::default(),
        &NoProgress,
        Some(&mut Crashing { files: &mut files, left: finished }),
    );
    assert!(matches!(crash, Err(SolveError::Sink(_))), "{crash:?}");
    assert!(!path.exists(), "no database from a killed solve");
    assert_eq!(std::fs::read_dir(tier_dir(&path)).unwrap().count(), finished);

    let phases = Phases::default();
    let mut files = TierFiles::new(&path, &game, true);
    solve(&game, SolveOptions::default(), &phases, Some(&mut files)).unwrap();
    assert_eq!(files.resumed(), &tiers[..finished]);
    assert_eq!(files.written(), &tiers[finished..]);
    let solved: Vec<String> = tiers[finished..].iter().map(|&t| game.tier_name(t)).collect();
    assert_eq!(phases.solved_tiers(), solved, "finished tiers are not solved again");
    files.finish(None, &perfectplay_db::Derivable::NONE).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(&whole).unwrap());
    Database::open(&path).unwrap().verify().unwrap();
}

#[test]
fn a_damaged_tier_file_is_solved_again() {
    let game = TicTacTwo::from_variant("2-marks").unwrap();
    let tiers = game.tiers();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.ppdb");
    let mut files = TierFiles::new(&path, &game, true);
    let crash = solve(
        &game,
        SolveOptions::default(),
        &NoProgress,
        Some(&mut Crashing { files: &mut files, left: 2 }),
    );
    assert!(crash.is_err());
    // A flipped bit in the second tier's last byte (a value block).
    let damaged = tier_dir(&path).join(format!("tier-{}.ppdb", tiers[1].0));
    let mut bytes = std::fs::read(&damaged).unwrap();
    *bytes.last_mut().unwrap() ^= 0x10;
    std::fs::write(&damaged, bytes).unwrap();

    let mut files = TierFiles::new(&path, &game, true);
    solve(&game, SolveOptions::default(), &NoProgress, Some(&mut files)).unwrap();
    assert_eq!(files.resumed(), &tiers[..1]);
    assert_eq!(files.discarded(), &[damaged]);
    assert_eq!(files.written(), &tiers[1..]);
    let written = files.finish(None, &perfectplay_db::Derivable::NONE).unwrap();
    Database::open(&written.path).unwrap().verify().unwrap();
}

/// Under a memory limit, tiers an earlier solve finished are not read back unless a later tier
/// needs them; their blocks are still checked against their checksums, so a damaged file is solved
/// again rather than failing the final write, whichever tier it holds.
#[test]
fn a_damaged_tier_file_is_solved_again_under_a_memory_limit() {
    let game = perfectplay_games::FoxAndGeese::from_variant("4-geese").unwrap();
    let tiers = game.tiers();
    let dir = tempfile::tempdir().unwrap();
    let mut files = TierFiles::new(dir.path().join("whole.ppdb"), &game, true);
    solve(&game, SolveOptions::default(), &NoProgress, Some(&mut files)).unwrap();
    let whole = files.finish(None, &perfectplay_db::Derivable::NONE).unwrap().path;
    let options = SolveOptions { memory_limit: Some(1 << 30), ..SolveOptions::default() };
    // The first tier finished, and the last.
    for victim in [0, tiers.len() - 2] {
        let path = dir.path().join(format!("lean{victim}.ppdb"));
        let mut files = TierFiles::new(&path, &game, true);
        let left = tiers.len() - 1;
        let crash = solve(
            &game,
            options.clone(),
            &NoProgress,
            Some(&mut Crashing { files: &mut files, left }),
        );
        assert!(crash.is_err());
        let damaged = tier_dir(&path).join(format!("tier-{}.ppdb", tiers[victim].0));
        let mut bytes = std::fs::read(&damaged).unwrap();
        *bytes.last_mut().unwrap() ^= 0x10;
        std::fs::write(&damaged, bytes).unwrap();

        let mut files = TierFiles::new(&path, &game, true);
        solve(&game, options.clone(), &NoProgress, Some(&mut files)).unwrap();
        assert_eq!(files.discarded(), &[damaged]);
        let mut redone = vec![tiers[victim]];
        redone.push(*tiers.last().unwrap());
        assert_eq!(files.written(), &redone[..]);
        let written = files.finish(None, &perfectplay_db::Derivable::NONE).unwrap();
        assert!(std::fs::read(&written.path).unwrap() == std::fs::read(&whole).unwrap());
    }
}

#[test]
fn memory_limit_refuses_a_tier_that_cannot_fit() {
    let game = TicTacTwo::from_variant("2-marks").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut files = TierFiles::new(dir.path().join("db.ppdb"), &game, true);
    // Too little even for a tier in parts of a few chunks (at 512 KiB, the largest tiers are
    // solved in parts: `tests/parts.rs`).
    let options = SolveOptions { memory_limit: Some(64 << 10), ..SolveOptions::default() };
    let refused = solve(&game, options, &NoProgress, Some(&mut files));
    assert!(matches!(refused, Err(SolveError::OverMemoryLimit { .. })), "{refused:?}");
    // Enough for the largest tier and its children: tiers no longer needed are dropped.
    let mut files = TierFiles::new(dir.path().join("db.ppdb"), &game, true);
    let options = SolveOptions { memory_limit: Some(2 << 20), ..SolveOptions::default() };
    let solution = solve(&game, options, &NoProgress, Some(&mut files)).unwrap();
    assert!(solution.tiers().len() < game.tiers().len(), "tiers were dropped");
    let whole = files.load().unwrap();
    assert_eq!(whole.tiers().len(), game.tiers().len());
    assert!(whole.get(&game, game.start()).is_some());
}

/// A sparse game (Konane: no declared child tiers) under a memory limit drops each tier once no
/// later tier's moves reach it, as discovery found them: the solve ends holding fewer tiers, and
/// every position read back from the files has the value a solve in memory gives it.
#[test]
fn memory_limit_drops_the_tiers_of_sparse_games_no_later_tier_reaches() {
    let game =
        perfectplay_games::Konane::new(4, 4, perfectplay_games::KonaneStart::Corner).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut files = TierFiles::new(dir.path().join("db.ppdb"), &game, true);
    let options = SolveOptions { memory_limit: Some(64 << 20), ..SolveOptions::default() };
    let solution = solve(&game, options, &NoProgress, Some(&mut files)).unwrap();
    assert!(solution.tiers().len() < files.tiers(), "tiers were dropped");
    assert!(solution.get(&game, game.start()).is_some());
    let back = files.load().unwrap();
    let whole = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    assert_eq!(back.len(), whole.len());
    // The lean solve held more on its way than at its end; one that keeps every tier, most at
    // its end.
    assert!(solution.held_most() > solution.heap_bytes());
    assert_eq!(whole.held_most(), whole.heap_bytes());
    for t in whole.tiers() {
        for i in 0..t.space.len() {
            let p = t.space.position(i);
            assert_eq!(back.get(&game, p), Some(t.values.get(i as usize)), "{p:?}");
        }
    }
}

/// Under a limit that a tier's child tiers do not fit in whole (Fox and Geese: a chain of captures
/// may land in most tiers with fewer geese), the held tiers are compressed in memory, and the
/// database is the same, byte for byte, as a solve without a limit.
#[test]
fn memory_limit_compresses_held_tiers_and_changes_no_byte() {
    let game = perfectplay_games::FoxAndGeese::from_variant("5-geese").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut files = TierFiles::new(dir.path().join("whole.ppdb"), &game, true);
    let whole = solve(&game, SolveOptions::default(), &NoProgress, Some(&mut files)).unwrap();
    let whole_bytes = whole.heap_bytes() as u64;
    let whole_path = files.finish(None, &perfectplay_db::Derivable::NONE).unwrap().path;
    // Room for the largest tier's own work (the engine's estimate: 5 bytes an index in a tier
    // below 2^32 indices, and a bit for the bitmap of canonical indices) and a tenth of the
    // values: tiers held sparse where one value holds seven in eight of their indices, in
    // compressed blocks where none does. With a sixty-fourth, sparse ones are squeezed into
    // blocks too.
    let own = game
        .tiers()
        .iter()
        .map(|&t| 5 * game.tier_size(t) + game.tier_size(t).div_ceil(64) * 8)
        .max()
        .unwrap();
    // The number just before `what` in a note (0 where the note does not say it).
    let number = |note: &str, what: &str| -> u32 {
        let before = note.split(what).next().filter(|_| note.contains(what));
        before.and_then(|b| b.rsplit(['(', ' ']).next()?.parse().ok()).unwrap_or(0)
    };
    for share in [10, 64] {
        let limit = own + whole_bytes / share;
        let mut files = TierFiles::new(dir.path().join(format!("packed{share}.ppdb")), &game, true);
        let options = SolveOptions { memory_limit: Some(limit), ..SolveOptions::default() };
        let phases = Phases::default();
        solve(&game, options, &phases, Some(&mut files)).unwrap();
        let notes = phases.0.into_inner().unwrap();
        let sum = |what: &str| notes.iter().map(|n| number(n, what)).sum::<u32>();
        let (packed, sparse) = (sum(" held tiers compressed"), sum(" of them sparse"));
        let squeezed = sum(" sparse ones squeezed");
        if share == 10 {
            assert!(sparse > 0 && packed > sparse && squeezed == 0, "{notes:?}");
        } else {
            assert!(squeezed > 0, "{notes:?}");
        }
        let packed_path = files.finish(None, &perfectplay_db::Derivable::NONE).unwrap().path;
        assert!(std::fs::read(&whole_path).unwrap() == std::fs::read(packed_path).unwrap());
    }
}

/// A solve of 5 geese beside the database of 4 geese copies the tiers they share
/// ([`perfectplay_core::TierIndex::variants_sharing`]) and solves only the others; its database
/// is the same, byte for byte, as a solve of 5 geese alone; so is it beside a damaged database of
/// 4 geese, which is passed over from the damage on. A database of another game is passed over.
/// 4 geese beside the database of 5 geese copies all of its tiers from it.
#[test]
fn a_variant_copies_the_tiers_it_shares_from_a_solved_one() {
    let small = perfectplay_games::FoxAndGeese::from_variant("4-geese").unwrap();
    let game = perfectplay_games::FoxAndGeese::from_variant("5-geese").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("foxandgeese");
    let mut files = TierFiles::new(dir.path().join("alone.ppdb"), &game, true);
    solve(&game, SolveOptions::default(), &NoProgress, Some(&mut files)).unwrap();
    let alone = files.finish(None, &perfectplay_db::Derivable::NONE).unwrap().path;

    let path = data.join("5-geese.ppdb");
    let mut files = TierFiles::new(&path, &game, true);
    assert_eq!(files.adopt_shared(), Shared::default(), "no database beside it yet");
    let mut small_files =
        TierFiles::new(perfectplay_db::variant_path(&path, "4-geese"), &small, true);
    solve(&small, SolveOptions::default(), &NoProgress, Some(&mut small_files)).unwrap();
    small_files.finish(None, &perfectplay_db::Derivable::NONE).unwrap();

    let four = "4-geese".to_string();
    let shared: Vec<Tier> =
        game.tiers().into_iter().filter(|&t| game.variants_sharing(t).contains(&four)).collect();
    assert_eq!(shared.len(), small.tiers().len(), "every tier of 4 geese, and no other");
    let mut files = TierFiles::new(&path, &game, true);
    assert_eq!(files.adopt_shared().copied, vec![("4-geese".to_string(), shared.len())]);
    assert_eq!(files.adopted(), &shared[..]);
    let phases = Phases::default();
    solve(&game, SolveOptions::default(), &phases, Some(&mut files)).unwrap();
    assert_eq!(files.resumed(), &shared[..]);
    let solved: Vec<String> = game
        .tiers()
        .into_iter()
        .filter(|t| !shared.contains(t))
        .map(|t| game.tier_name(t))
        .collect();
    assert_eq!(phases.solved_tiers(), solved, "the shared tiers are not solved");
    files.finish(None, &perfectplay_db::Derivable::NONE).unwrap();
    assert!(std::fs::read(&path).unwrap() == std::fs::read(&alone).unwrap());

    // 6 geese finds every tier it shares in the database of 5 geese.
    let six = perfectplay_games::FoxAndGeese::from_variant("6-geese").unwrap();
    let mut files = TierFiles::new(perfectplay_db::variant_path(&path, "6-geese"), &six, true);
    let five = ("5-geese".to_string(), game.tiers().len());
    assert_eq!(files.adopt_shared().copied, vec![five]);

    // A damaged block in the database beside it: that database is passed over from the tier
    // that fails its check on, the rest is solved, and the database is the same.
    let damaged = dir.path().join("damaged").join("5-geese.ppdb");
    let four = perfectplay_db::variant_path(&damaged, "4-geese");
    std::fs::create_dir_all(damaged.parent().unwrap()).unwrap();
    let mut bytes = std::fs::read(perfectplay_db::variant_path(&path, "4-geese")).unwrap();
    *bytes.last_mut().unwrap() ^= 0x10;
    std::fs::write(&four, bytes).unwrap();
    let mut files = TierFiles::new(&damaged, &game, true);
    let passed = files.adopt_shared();
    assert_eq!(passed.passed_over.len(), 1, "{passed:?}");
    assert!(files.adopted().len() < shared.len(), "{passed:?}");
    solve(&game, SolveOptions::default(), &NoProgress, Some(&mut files)).unwrap();
    files.finish(None, &perfectplay_db::Derivable::NONE).unwrap();
    assert!(std::fs::read(&damaged).unwrap() == std::fs::read(&alone).unwrap());

    // Another game's database under the name of 4 geese is passed over.
    let elsewhere = dir.path().join("elsewhere").join("5-geese.ppdb");
    let other = TicTacTwo::from_variant("2-marks").unwrap();
    let named = perfectplay_db::variant_path(&elsewhere, "4-geese");
    let mut files = TierFiles::new(named, &other, true);
    solve(&other, SolveOptions::default(), &NoProgress, Some(&mut files)).unwrap();
    files.finish(None, &perfectplay_db::Derivable::NONE).unwrap();
    let mut files = TierFiles::new(&elsewhere, &game, true);
    assert_eq!(files.adopt_shared(), Shared::default());

    // 4 geese beside the 5-geese database alone copies every tier, solves none, and writes the
    // database of 4 geese solved on its own.
    let smaller = dir.path().join("smaller").join("4-geese.ppdb");
    std::fs::create_dir_all(smaller.parent().unwrap()).unwrap();
    std::fs::copy(&path, perfectplay_db::variant_path(&smaller, "5-geese")).unwrap();
    let mut files = TierFiles::new(&smaller, &small, true);
    let five = ("5-geese".to_string(), small.tiers().len());
    assert_eq!(files.adopt_shared().copied, vec![five]);
    let phases = Phases::default();
    solve(&small, SolveOptions::default(), &phases, Some(&mut files)).unwrap();
    assert!(phases.solved_tiers().is_empty(), "{:?}", phases.solved_tiers());
    files.finish(None, &perfectplay_db::Derivable::NONE).unwrap();
    let four_path = perfectplay_db::variant_path(&path, "4-geese");
    assert!(std::fs::read(&smaller).unwrap() == std::fs::read(four_path).unwrap());
}

/// Counts the tiers read back whole from the files it passes on to.
struct Counting<'a, 'g> {
    files: &'a mut TierFiles<'g>,
    reads: usize,
}

impl ResultSink for Counting<'_, '_> {
    fn tier_solved(&mut self, tier: &SolvedTier) -> Result<(), SinkError> {
        self.files.tier_solved(tier)
    }
    fn resume(&mut self, tier: Tier) -> Result<Option<SolvedTier>, SinkError> {
        let back = self.files.resume(tier)?;
        self.reads += usize::from(back.is_some());
        Ok(back)
    }
    fn keeps_tiers(&self) -> bool {
        true
    }
    fn kept(&mut self, tier: Tier) -> Result<bool, SinkError> {
        self.files.kept(tier)
    }
    fn reload(&mut self, tier: Tier) -> Result<Option<SolvedTier>, SinkError> {
        let back = self.files.reload(tier)?;
        self.reads += usize::from(back.is_some());
        Ok(back)
    }
}

/// A solve whose solution nobody reads (`solve --no-analysis`: no `hold_all`) reads a tier it
/// finds in its files only when a tier it solves needs it: 4 geese beside the database of 5 geese
/// reads none of the tiers it copies, where a solve that returns them all reads each. Both write
/// the database of 4 geese solved alone, byte for byte.
#[test]
fn a_solve_without_hold_all_reads_no_tier_it_does_not_need() {
    let small = perfectplay_games::FoxAndGeese::from_variant("4-geese").unwrap();
    let game = perfectplay_games::FoxAndGeese::from_variant("5-geese").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut files = TierFiles::new(dir.path().join("alone.ppdb"), &small, true);
    solve(&small, SolveOptions::default(), &NoProgress, Some(&mut files)).unwrap();
    let alone = files.finish(None, &perfectplay_db::Derivable::NONE).unwrap().path;
    let five = dir.path().join("data").join("5-geese.ppdb");
    let mut files = TierFiles::new(&five, &game, true);
    solve(&game, SolveOptions::default(), &NoProgress, Some(&mut files)).unwrap();
    files.finish(None, &perfectplay_db::Derivable::NONE).unwrap();

    for (hold_all, reads) in [(false, 0), (true, small.tiers().len())] {
        let path = dir.path().join(format!("hold-{hold_all}")).join("4-geese.ppdb");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::copy(&five, perfectplay_db::variant_path(&path, "5-geese")).unwrap();
        let mut files = TierFiles::new(&path, &small, true);
        assert_eq!(files.adopted().len(), 0);
        assert_eq!(files.adopt_shared().copied.len(), 1);
        let mut counting = Counting { files: &mut files, reads: 0 };
        let options = SolveOptions { hold_all, ..SolveOptions::default() };
        let solution = solve(&small, options, &NoProgress, Some(&mut counting)).unwrap();
        assert_eq!(counting.reads, reads, "hold_all {hold_all}");
        assert_eq!(solution.tiers().len(), reads);
        files.finish(None, &perfectplay_db::Derivable::NONE).unwrap();
        assert!(std::fs::read(&path).unwrap() == std::fs::read(&alone).unwrap());
    }
}

/// A sparse solve into tier files that counts its analysis as it goes holds only the tiers its
/// later tiers need, puts discovered tiers aside in the files under a memory limit, and writes the
/// same database, byte for byte, as a solve that holds every tier and is analysed after.
#[test]
fn a_sparse_solve_counting_as_it_goes_writes_the_same_database() {
    // Konane without symmetry reduction counts classes by sorting; Connect 4 reduced by its
    // mirror counts each canonical position's images. Each with a limit whose quarter is less
    // than the positions discovered.
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
        let analysis = perfectplay_solve::analyze(game, &solution, &NoProgress).unwrap();
        assert!(solution.analysis().is_none());
        drop(solution);
        files.finish(Some((&analysis, &[])), &perfectplay_db::Derivable::NONE).unwrap();

        // Under the limit, and without one (as `perfectplay solve` runs it).
        for memory_limit in [Some(limit), None] {
            let lean =
                dir.path().join(format!("lean-{memory_limit:?}")).join(format!("{variant}.ppdb"));
            let mut files = TierFiles::new(&lean, game, canonicalize);
            let options =
                SolveOptions { canonicalize, count: true, memory_limit, ..SolveOptions::default() };
            let notes = Phases::default();
            let solution = solve(game, options, &notes, Some(&mut files)).unwrap();
            let case = format!("{id} {variant} under {memory_limit:?}");
            assert_eq!(solution.analysis(), Some(&analysis), "{case}");
            assert!(solution.tiers().len() < tiers / 2, "{case}: held {}", solution.tiers().len());
            assert_eq!(solution.indices(), indices);
            let notes = notes.0.into_inner().unwrap();
            let aside = notes.iter().any(|n| n.contains("put aside"));
            assert_eq!(aside, memory_limit.is_some(), "{case}: {notes:?}");
            let counted = solution.analysis().cloned();
            drop(solution);
            files
                .finish(counted.as_ref().map(|a| (a, &[][..])), &perfectplay_db::Derivable::NONE)
                .unwrap();
            assert!(std::fs::read(&lean).unwrap() == std::fs::read(&whole).unwrap(), "{case}");
        }
    }
}

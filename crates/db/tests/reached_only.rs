//! A solve of the positions the start reaches only ([`SolveOptions::reached`], what `solve` does
//! where it stores a tiered game's analysis): every index reached holds the whole solve's value,
//! every other canonical index reads as absent, never as a value that was not solved; written
//! with the tiers that follow from their children derived, every position reached answers the
//! same; and a whole solve does not take such tier files for finished tiers.

use std::path::Path;
use std::sync::Arc;

use perfectplay_core::{Game, GameExt, Position};
use perfectplay_db::{Database, Fetch, Found, TierFiles, Writer};
use perfectplay_solve::{reach_tiered, solve, NoProgress, Reached, SolveOptions};

struct Dir(std::path::PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The positions `reached` holds solved into the tier files of the database `path`, as `solve`
/// solves them where it stores the analysis.
fn solve_reached<'g>(game: &'g dyn Game, reached: &Arc<Reached>, path: &Path) -> TierFiles<'g> {
    let mut files = TierFiles::new(path, game, true);
    files.reached_only();
    let options =
        SolveOptions { reached: Some(reached.clone()), hold_all: false, ..Default::default() };
    solve(game, options, &NoProgress, Some(&mut files)).unwrap();
    files
}

/// `game` solved whole (every position) into a database at `path`, opened.
fn solve_whole(game: &dyn Game, path: &std::path::Path) -> Database {
    let solution = solve(game, SolveOptions::default(), &NoProgress, None).unwrap();
    let mut w = Writer::new(path, game, true);
    for tier in solution.tiers() {
        w.add_tier(tier).unwrap();
    }
    w.finish().unwrap();
    Database::open(path).unwrap()
}

#[test]
fn only_the_reached_positions_are_solved_and_the_rest_read_as_absent() {
    let dir = Dir(std::env::temp_dir().join(format!("perfectplay-reached-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).unwrap();
    let game = perfectplay_games::lookup("sixmensmorris", None).unwrap();
    let game: &dyn Game = game.as_ref();
    let whole_path = dir.0.join("whole.ppdb");
    let whole = solve_whole(game, &whole_path);

    let reached = Arc::new(reach_tiered(game, &NoProgress).unwrap());
    let path = dir.0.join("reached.ppdb");
    solve_reached(game, &reached, &path).finish(None, &perfectplay_db::Derivable::NONE).unwrap();
    let db = Database::open(&path).unwrap();
    db.verify().unwrap();
    assert!(db.is_pruned());

    let (mut kept, mut absent) = (0u64, 0u64);
    for t in game.tiers() {
        let mut marks = vec![false; game.tier_size(t) as usize];
        reached.reached_run(t, 0, &mut marks);
        for (i, &is_reached) in marks.iter().enumerate() {
            let at = |db: &Database| db.get_stored_with(t, Position(i as u64), Fetch::Read);
            let found = at(&db).unwrap();
            if is_reached {
                let Found::Value(old) = at(&whole).unwrap() else { unreachable!() };
                assert_eq!(found, Found::Value(old), "tier {} index {i}", game.tier_name(t));
                kept += 1;
            } else if game.tier_position(t, i as u64).is_some_and(|p| game.canonical(p) == p) {
                assert_eq!(found, Found::Absent, "tier {} index {i}", game.tier_name(t));
                absent += 1;
            }
        }
    }
    eprintln!(
        "six men's morris: {kept} reached, {absent} canonical unreached; {} bytes, whole {}",
        std::fs::metadata(&path).unwrap().len(),
        std::fs::metadata(&whole_path).unwrap().len()
    );
    assert!(kept > 0 && absent > kept / 10, "{kept} reached, {absent} absent");
    // Through the game's positions: the start and its moves answer as the whole file does.
    let mut children = Vec::new();
    game.children(game.start(), &mut children);
    for p in std::iter::once(game.start()).chain(children) {
        assert_eq!(db.get(game, p).unwrap(), whole.get(game, p).unwrap());
    }

    // The same solve written as `solve` writes it, the tiers that follow in one step from their
    // child tiers derived: every position reached answers as the whole file does.
    let derived_path = dir.0.join("derived.ppdb");
    let derivable = perfectplay_db::derivable(game);
    assert!(!derivable.tiers.is_empty() && !derivable.from.is_empty());
    solve_reached(game, &reached, &derived_path).finish(None, &derivable).unwrap();
    let derived = Database::open(&derived_path).unwrap();
    derived.verify().unwrap();
    let mut answered = 0u64;
    for t in game.tiers() {
        let mut marks = vec![false; game.tier_size(t) as usize];
        reached.reached_run(t, 0, &mut marks);
        for (i, _) in marks.iter().enumerate().filter(|(_, &m)| m) {
            let p = game.tier_position(t, i as u64).unwrap();
            let found = derived.get(game, p).unwrap();
            assert_eq!(found, whole.get(game, p).unwrap(), "tier {} index {i}", game.tier_name(t));
            answered += 1;
        }
    }
    let derived_bytes = std::fs::metadata(&derived_path).unwrap().len();
    eprintln!("derived: {}, {derived_bytes} bytes, {answered} answered", derivable.describe());
    assert_eq!(answered, kept);
    assert!(derived_bytes < std::fs::metadata(&path).unwrap().len());

    // A whole solve finds tier files of the positions reached only and solves those tiers again.
    let again = dir.0.join("again.ppdb");
    let mut files = TierFiles::new(&again, game, true);
    files.reached_only();
    let only_start = [game.tier(game.canonical(game.start()))];
    let lower: Vec<_> = game.tiers().into_iter().filter(|t| !only_start.contains(t)).collect();
    let options = SolveOptions {
        reached: Some(reached.clone()),
        hold_all: false,
        only: Some(lower.clone()),
        ..Default::default()
    };
    solve(game, options, &NoProgress, Some(&mut files)).unwrap();
    let mut files = TierFiles::new(&again, game, true);
    let options = SolveOptions { hold_all: false, ..Default::default() };
    solve(game, options, &NoProgress, Some(&mut files)).unwrap();
    let pruned_redone = files.redone().len();
    assert!(pruned_redone > 0 && pruned_redone <= lower.len(), "{pruned_redone} redone");
    files.finish(None, &perfectplay_db::Derivable::NONE).unwrap();
    let again = Database::open(&again).unwrap();
    assert!(!again.is_pruned());
    for t in game.tiers() {
        for i in 0..game.tier_size(t) {
            let Some(p) = game.tier_position(t, i).filter(|&p| game.canonical(p) == p) else {
                continue;
            };
            assert_eq!(again.get(game, p).unwrap(), whole.get(game, p).unwrap());
        }
    }
}

/// A solve given the marks' only reference frees each tier's as the tier is solved (what
/// `solve` does once it has kept them beside the tier files), and writes the same file as one
/// whose caller holds them through it.
#[test]
fn a_solve_that_frees_the_marks_as_it_goes_writes_the_same_file() {
    let dir = Dir(std::env::temp_dir().join(format!("perfectplay-freed-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).unwrap();
    let game = perfectplay_games::lookup("sixmensmorris", None).unwrap();
    let game: &dyn Game = game.as_ref();
    let reached = Arc::new(reach_tiered(game, &NoProgress).unwrap());
    let limit = Some(reached.heap_bytes() + (256 << 20));
    let write = |name: &str, reached: Arc<Reached>| {
        let path = dir.0.join(name);
        let mut files = TierFiles::new(&path, game, true);
        files.reached_only();
        let options = SolveOptions {
            reached: Some(reached),
            hold_all: false,
            memory_limit: limit,
            ..Default::default()
        };
        solve(game, options, &NoProgress, Some(&mut files)).unwrap();
        files.finish(None, &perfectplay_db::derivable(game)).unwrap();
        std::fs::read(&path).unwrap()
    };
    let held = write("held.ppdb", reached.clone());
    // The marks stay whole where the caller holds them.
    assert!(game.tiers().iter().all(|&t| reached.is_complete(t)));
    let freed = write("freed.ppdb", Arc::new(reach_tiered(game, &NoProgress).unwrap()));
    assert!(held.len() > 1000);
    assert!(held == freed, "{} bytes held, {} freed", held.len(), freed.len());
}

/// Bagh-Chal's placement tiers leave their tier with every move, so `solve` derives every other
/// one from its children: each position the start reaches answers as the whole solve's file says.
#[test]
fn bagh_chals_derived_placements_answer_every_position_reached_as_the_whole_solve() {
    let dir = Dir(std::env::temp_dir().join(format!("perfectplay-bagh-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).unwrap();
    let game = perfectplay_games::lookup("baghchal", Some("4x4")).unwrap();
    let game: &dyn Game = game.as_ref();
    let whole_path = dir.0.join("whole.ppdb");
    let whole = solve_whole(game, &whole_path);

    let reached = Arc::new(reach_tiered(game, &NoProgress).unwrap());
    let derivable = perfectplay_db::derivable(game);
    let placements = game.tiers().into_iter().filter(|&t| !game.moves_within(t)).count();
    assert!(derivable.tiers.len() * 3 > placements, "{} derived", derivable.tiers.len());
    let path = dir.0.join("derived.ppdb");
    solve_reached(game, &reached, &path).finish(None, &derivable).unwrap();
    let db = Database::open(&path).unwrap();
    db.verify().unwrap();
    let (mut answered, mut derived) = (0u64, 0u64);
    for t in game.tiers() {
        let mut marks = vec![false; game.tier_size(t) as usize];
        reached.reached_run(t, 0, &mut marks);
        for (i, _) in marks.iter().enumerate().filter(|(_, &m)| m).step_by(7) {
            let p = game.tier_position(t, i as u64).unwrap();
            let found = db.get(game, p).unwrap();
            assert_eq!(found, whole.get(game, p).unwrap(), "tier {} index {i}", game.tier_name(t));
            answered += 1;
            derived += u64::from(derivable.tiers.contains(&t));
        }
    }
    let (bytes, whole_bytes) =
        (std::fs::metadata(&path).unwrap().len(), std::fs::metadata(&whole_path).unwrap().len());
    eprintln!("bagh-chal 4x4: {answered} answered ({derived} derived); {bytes} bytes, whole {whole_bytes}");
    assert!(answered > 500_000 && derived > 100_000, "{answered} answered, {derived} derived");
}

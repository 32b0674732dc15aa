//! A pruned database (`analyze --prune`): every index the start reaches keeps its value, every
//! other index holds either its value or the absent code, and the file is smaller.

use perfectplay_core::{Game, GameExt, Position, Tier};
use perfectplay_db::{Database, Fetch, Found, Writer};
use perfectplay_solve::{reach_tiered, solve, NoProgress, SolveOptions};

struct Dir(std::path::PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Six Men's Morris solved whole into `<dir>/whole.ppdb`, in a fresh directory named `name`.
fn six_mens_morris(name: &str) -> (Dir, Box<dyn Game>, std::path::PathBuf) {
    let dir = Dir(std::env::temp_dir().join(format!("perfectplay-{name}-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).unwrap();
    let game = perfectplay_games::lookup("sixmensmorris", None).unwrap();
    let solution = solve(game.as_ref(), SolveOptions::default(), &NoProgress, None).unwrap();
    let whole_path = dir.0.join("whole.ppdb");
    let mut w = Writer::new(&whole_path, game.as_ref(), true);
    for tier in solution.tiers() {
        w.add_tier(tier).unwrap();
    }
    w.finish().unwrap();
    (dir, game, whole_path)
}

#[test]
fn pruning_keeps_every_reachable_value_and_only_true_values() {
    let (dir, game, whole_path) = six_mens_morris("prune");
    let game: &dyn Game = game.as_ref();
    let pruned_path = dir.0.join("pruned.ppdb");
    let whole = Database::open(&whole_path).unwrap();

    let reached = reach_tiered(game, &NoProgress).unwrap();
    let mut w = Writer::new(&pruned_path, game, true);
    let keep = |t, first, out: &mut [bool]| reached.reached_run(t, first, out);
    w.add_tables_pruned(&whole, &keep, &perfectplay_db::Derivable::NONE).unwrap();
    w.finish().unwrap();
    let pruned = Database::open(&pruned_path).unwrap();
    pruned.verify().unwrap();
    assert!(pruned.is_pruned() && !whole.is_pruned());
    assert_eq!(pruned.version(), perfectplay_db::VERSION);

    let (mut kept, mut absent, mut held_anyway) = (0u64, 0u64, 0u64);
    for t in game.tiers() {
        let mut marks = vec![false; game.tier_size(t) as usize];
        reached.reached_run(t, 0, &mut marks);
        for (i, &is_reached) in marks.iter().enumerate() {
            let at =
                |db: &Database| db.get_stored_with(t, Position(i as u64), Fetch::Read).unwrap();
            let (old, new) = (at(&whole), at(&pruned));
            let Found::Value(old) = old else { panic!("tier {t:?} index {i}: {old:?}") };
            match new {
                Found::Value(v) => {
                    assert_eq!(v, old, "tier {} index {i}", game.tier_name(t));
                    if is_reached {
                        kept += 1;
                    } else {
                        held_anyway += 1;
                    }
                }
                Found::Absent => {
                    assert!(!is_reached, "tier {} index {i} was reached", game.tier_name(t));
                    absent += 1;
                }
                Found::NotCached => unreachable!(),
            }
        }
        assert_eq!(reached.count(t), marks.iter().filter(|&&m| m).count() as u64);
    }
    let (whole_len, pruned_len) = (
        std::fs::metadata(&whole_path).unwrap().len(),
        std::fs::metadata(&pruned_path).unwrap().len(),
    );
    eprintln!(
        "six men's morris: {kept} reached, {absent} absent, {held_anyway} unreached holding \
         their values; {whole_len} bytes -> {pruned_len}"
    );
    assert!(absent > kept / 10, "a tenth of the index at least is out of reach");
    assert!(pruned_len * 10 < whole_len * 7, "{pruned_len} bytes against {whole_len}");

    // Through the game's positions: the start and its moves answer as before.
    let start = game.start();
    let mut children = Vec::new();
    game.children(start, &mut children);
    for p in std::iter::once(start).chain(children) {
        assert_eq!(pruned.get(game, p).unwrap(), whole.get(game, p).unwrap());
        assert!(pruned.get(game, p).unwrap().is_some());
    }
    // A tier's table read whole: reached indices as stored.
    let t = Tier(game.tier(game.canonical(start)).0);
    let loaded = pruned.load_tier(t).unwrap().unwrap();
    assert_eq!(
        loaded.values.get(game.tier_index(game.canonical(start)) as usize),
        whole.get(game, start).unwrap().unwrap()
    );
}

#[test]
fn derived_tiers_answer_every_reachable_position_from_their_children() {
    let (dir, game, whole_path) = six_mens_morris("derive");
    let game: &dyn Game = game.as_ref();
    let derived_path = dir.0.join("derived.ppdb");
    let whole = Database::open(&whole_path).unwrap();

    // Six Men's Morris: the placements with an odd number of pieces in hand, whose children
    // (one fewer in hand) are kept; and black's turns in the moving tiers where white has more
    // pieces.
    let derivable = perfectplay_db::derivable(game);
    let derived = &derivable.tiers;
    assert!(!derived.is_empty() && !derivable.from.is_empty());
    for &t in derived {
        assert!(!game.moves_within(t) && game.tier_name(t).starts_with('('));
        assert!(game.child_tiers(t).iter().all(|c| !derived.contains(c)));
    }
    let from = |t| derivable.from.iter().find(|&&(u, _)| u == t).map(|&(_, f)| f);
    for &(t, f) in &derivable.from {
        assert!(game.moves_within(t) && f < game.tier_size(t));
    }
    let reached = reach_tiered(game, &NoProgress).unwrap();
    let mut w = Writer::new(&derived_path, game, true);
    w.add_tables_pruned(&whole, &|t, first, out| reached.reached_run(t, first, out), &derivable)
        .unwrap();
    w.finish().unwrap();
    let db = Database::open(&derived_path).unwrap();
    db.verify().unwrap();

    let mut checked = 0u64;
    for t in game.tiers() {
        let mut marks = vec![false; game.tier_size(t) as usize];
        reached.reached_run(t, 0, &mut marks);
        for (i, _) in marks.iter().enumerate().filter(|(_, &m)| m) {
            let p = game.tier_position(t, i as u64).unwrap();
            assert_eq!(
                db.get(game, p).unwrap(),
                whole.get(game, p).unwrap(),
                "{}",
                game.position_to_string(p)
            );
            checked += 1;
        }
        if derived.contains(&t) || from(t).is_some() {
            // By index it is an error, not an answer; whole, it is computed.
            let first = from(t).unwrap_or(0);
            assert!(matches!(
                db.get_stored_with(t, Position(first), Fetch::Read),
                Err(perfectplay_db::DbError::Derived { .. })
            ));
            if first > 0 {
                assert!(db.get_stored_with(t, Position(first - 1), Fetch::Read).is_ok());
                assert!(matches!(db.load_tier(t), Err(perfectplay_db::DbError::Derived { .. })));
            }
            let loaded = db.load_tier_of(game, t).unwrap().unwrap();
            let full = whole.load_tier(t).unwrap().unwrap();
            for (i, _) in marks.iter().enumerate().filter(|(_, &m)| m) {
                assert_eq!(loaded.values.get(i), full.values.get(i));
            }
        }
    }
    let (whole_len, derived_len) = (
        std::fs::metadata(&whole_path).unwrap().len(),
        std::fs::metadata(&derived_path).unwrap().len(),
    );
    eprintln!(
        "six men's morris: {} tiers derived, {} in part, {checked} reached positions answered; \
         {whole_len} bytes -> {derived_len}",
        derived.len(),
        derivable.from.len()
    );
    assert!(derived_len * 2 < whole_len, "{derived_len} bytes against {whole_len}");
}

#[test]
fn a_search_through_the_placements_alone_prunes_them_and_keeps_the_moving_phase_whole() {
    let (dir, game, whole_path) = six_mens_morris("one-pass");
    let game: &dyn Game = game.as_ref();
    let pruned_path = dir.0.join("pruned.ppdb");
    let whole = Database::open(&whole_path).unwrap();

    let all = reach_tiered(game, &NoProgress).unwrap();
    let placements = perfectplay_solve::reach_tiered_one_pass(game, &NoProgress).unwrap();
    // Counting needs every tier's marks.
    let nothing = |_: Tier| -> Result<std::borrow::Cow<'_, perfectplay_solve::SolvedTier>, _> {
        unreachable!()
    };
    assert!(perfectplay_solve::count_reached(game, &placements, &nothing, &NoProgress).is_err());
    for t in game.tiers() {
        let n = game.tier_size(t) as usize;
        let (mut a, mut b) = (vec![false; n], vec![false; n]);
        all.reached_run(t, 0, &mut a);
        placements.reached_run(t, 0, &mut b);
        if game.moves_within(t) {
            // The moving phase: not searched, so kept whole.
            assert!(!placements.is_complete(t) && b.iter().all(|&x| x));
        } else {
            // A placement: what the whole search found, exactly.
            assert!(placements.is_complete(t), "{}", game.tier_name(t));
            assert_eq!(a, b, "{}", game.tier_name(t));
        }
    }
    let mut w = Writer::new(&pruned_path, game, true);
    let keep = |t, first, out: &mut [bool]| placements.reached_run(t, first, out);
    w.add_tables_pruned(&whole, &keep, &perfectplay_db::Derivable::NONE).unwrap();
    w.finish().unwrap();
    let pruned = Database::open(&pruned_path).unwrap();
    pruned.verify().unwrap();
    let crcs =
        |t: &perfectplay_db::TableHeader| t.value_blocks.iter().map(|b| b.crc).collect::<Vec<_>>();
    let mut placements_pruned = 0;
    for (old, new) in whole.header().tables.iter().zip(&pruned.header().tables) {
        // Moving-phase tables copied as they were; placement tables pruned (or copied where
        // nothing in them is absent).
        let same = old.dictionary == new.dictionary && crcs(old) == crcs(new) && !new.absent;
        if game.moves_within(Tier(old.tier)) {
            assert!(same, "{}", game.tier_name(Tier(old.tier)));
        } else {
            assert!(same || new.absent, "{}", game.tier_name(Tier(old.tier)));
            placements_pruned += usize::from(new.absent);
        }
    }
    assert!(placements_pruned > 10, "{placements_pruned} placement tables pruned");
    for t in game.tiers() {
        let mut marks = vec![false; game.tier_size(t) as usize];
        all.reached_run(t, 0, &mut marks);
        for (i, _) in marks.iter().enumerate().filter(|(_, &m)| m) {
            let at =
                |db: &Database| db.get_stored_with(t, Position(i as u64), Fetch::Read).unwrap();
            assert_eq!(at(&pruned), at(&whole), "{} index {i}", game.tier_name(t));
        }
    }
    let (whole_len, pruned_len) = (
        std::fs::metadata(&whole_path).unwrap().len(),
        std::fs::metadata(&pruned_path).unwrap().len(),
    );
    eprintln!("six men's morris, placements pruned: {whole_len} bytes -> {pruned_len}");
    assert!(pruned_len * 10 < whole_len * 7, "{pruned_len} bytes against {whole_len}");
}

#[test]
fn a_whole_file_derived_answers_every_position_as_before() {
    // `db upgrade --derive` of a whole solve's file: every canonical position (a sample of
    // each tier's indices) answers as before, stored or derived.
    let (dir, game, whole_path) = six_mens_morris("upgrade");
    let game: &dyn Game = game.as_ref();
    let whole = Database::open(&whole_path).unwrap();
    let path = dir.0.join("derived.ppdb");
    let derivable = perfectplay_db::derivable(game);
    let mut w = Writer::new(&path, game, true);
    w.add_tables_deriving(&whole, &derivable).unwrap();
    w.finish().unwrap();
    let db = Database::open(&path).unwrap();
    db.verify().unwrap();
    let mut checked = 0u64;
    for t in game.tiers() {
        for i in (0..game.tier_size(t)).step_by(5) {
            let Some(p) = game.tier_position(t, i).filter(|&p| game.canonical(p) == p) else {
                continue;
            };
            let before = whole.get(game, p).unwrap();
            assert_eq!(db.get(game, p).unwrap(), before, "{}", game.position_to_string(p));
            checked += 1;
        }
    }
    let (before, after) =
        (std::fs::metadata(&whole_path).unwrap().len(), std::fs::metadata(&path).unwrap().len());
    eprintln!("{}: {checked} positions answered; {before} bytes -> {after}", derivable.describe());
    assert!(checked > 100_000 && after < before, "{checked}: {before} -> {after}");
}

//! Databases written by earlier format versions still read, and copy into the current layout.
//!
//! `data/*-v1.ppdb` were written by `perfectplay solve` at format version 1 (bit-packed codes):
//! Tic-Tac-Toe (a sorted table) and Five Field Kono 4x4 (dense tables of several blocks).
//! `data/tictactoe-regular-v4.ppdb` was written at version 4 (no count of positions stored).

use std::path::PathBuf;

use perfectplay_db::{CodeLayout, Database, Writer};
use perfectplay_solve::{solve, NoProgress, SolveOptions};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// Every position of a solve in memory reads back from `db` with the same value.
fn agrees_with_a_solve(db: &Database, id: &str, variant: &str) -> u64 {
    let game = perfectplay_games::lookup(id, Some(variant)).unwrap();
    db.check_game(game.as_ref()).unwrap();
    let solution = solve(game.as_ref(), SolveOptions::default(), &NoProgress, None).unwrap();
    let mut checked = 0;
    for t in solution.tiers() {
        for i in 0..t.space.len() {
            let p = t.space.position(i);
            assert_eq!(db.get_stored(t.tier, p).unwrap(), Some(t.values.get(i as usize)), "{p:?}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn version_1_files_read_and_upgrade_to_byte_codes() {
    let dir = tempfile::tempdir().unwrap();
    for (file, id, variant) in [
        ("tictactoe-regular-v1.ppdb", "tictactoe", "regular"),
        ("fivefieldkono-4x4-regular-v1.ppdb", "fivefieldkono", "4x4-regular"),
    ] {
        let old = Database::open(fixture(file)).unwrap();
        assert!(old.header().tables.iter().all(|t| t.layout == CodeLayout::Packed));
        old.verify().unwrap();
        let checked = agrees_with_a_solve(&old, id, variant);
        assert!(checked > 700, "{file}: {checked} positions");

        let game = perfectplay_games::lookup(id, Some(variant)).unwrap();
        let path = dir.path().join(file);
        let mut w = Writer::new(&path, game.as_ref(), true);
        w.add_tables_from(&old).unwrap();
        w.finish().unwrap();
        let new = Database::open(&path).unwrap();
        assert_eq!(std::fs::read(&path).unwrap()[8..12], perfectplay_db::VERSION.to_le_bytes());
        assert!(new.header().tables.iter().all(|t| t.bits == 0 || t.layout == CodeLayout::Bytes));
        new.verify().unwrap();
        assert_eq!(agrees_with_a_solve(&new, id, variant), checked);
    }
}

#[test]
fn version_4_files_read_and_upgrade_block_for_block() {
    let old = Database::open(fixture("tictactoe-regular-v4.ppdb")).unwrap();
    assert_eq!(old.version(), 4);
    old.verify().unwrap();
    assert!(old.header().tables.iter().all(|t| t.stored == t.positions));
    let checked = agrees_with_a_solve(&old, "tictactoe", "regular");
    assert!(checked > 700, "{checked} positions");

    let dir = tempfile::tempdir().unwrap();
    let game = perfectplay_games::lookup("tictactoe", Some("regular")).unwrap();
    let path = dir.path().join("tictactoe.ppdb");
    let mut w = Writer::new(&path, game.as_ref(), true);
    w.add_tables_from(&old).unwrap();
    w.finish().unwrap();
    let new = Database::open(&path).unwrap();
    assert_eq!(new.version(), perfectplay_db::VERSION);
    // The same blocks, byte for byte (their checksums), and the same answers.
    let crcs = |db: &Database| -> Vec<u32> {
        let tables = db.header().tables.iter();
        tables
            .flat_map(|t| t.value_blocks.iter().chain(t.key_blocks.iter().map(|k| &k.block)))
            .map(|b| b.crc)
            .collect()
    };
    assert_eq!(crcs(&new), crcs(&old));
    assert_eq!(agrees_with_a_solve(&new, "tictactoe", "regular"), checked);
}

/// Sorted tables' key blocks are compressed at their own level ([`perfectplay_db::KEY_ZSTD_LEVEL`],
/// 8 against the values' 9): a file written at the default levels and one written at level 9
/// throughout hold the same answers, every position of the solve read back from each.
#[test]
fn key_blocks_at_their_own_level_read_back_every_position() {
    let dir = tempfile::tempdir().unwrap();
    for (id, variant) in [("konane", "5x5-corner"), ("tictactoe", "regular"), ("quarto", "3x3")] {
        let game = perfectplay_games::lookup(id, Some(variant)).unwrap();
        let mut checked = Vec::new();
        for (name, level) in [("default", None), ("nine", Some(9))] {
            let path = dir.path().join(format!("{id}-{name}.ppdb"));
            let mut w = Writer::new(&path, game.as_ref(), true);
            if let Some(level) = level {
                w = w.with_level(level);
            }
            solve(game.as_ref(), SolveOptions::default(), &NoProgress, Some(&mut w)).unwrap();
            w.finish().unwrap();
            let db = Database::open(&path).unwrap();
            assert!(db.header().tables.iter().any(|t| !t.key_blocks.is_empty()), "{id}: sorted");
            db.verify().unwrap();
            checked.push(agrees_with_a_solve(&db, id, variant));
        }
        assert!(checked[0] > 700 && checked[0] == checked[1], "{id}: {checked:?}");
    }
}

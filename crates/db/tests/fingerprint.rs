//! A database solved under other rules or another index than this build's is refused, never
//! read as if it were this build's: not when it is opened for its game, not when a solve copies a
//! tier from it, not when a solve resumes from its tier files.

use std::path::Path;

use perfectplay_core::{
    Game, GameExt, Move, ParseError, Player, Position, PositionSpace, SizeClass, Tier, Value,
};
use perfectplay_db::{
    game_fingerprint, tier_dir, tier_fingerprint, Database, DbError, TierFiles, Writer,
};
use perfectplay_games::{FoxAndGeese, FuchsUndHenne};
use perfectplay_solve::{solve, NoProgress, SolveOptions};

/// A subtraction game: 20 counters, a move takes 1 to `most` of them, and whoever cannot move
/// loses. The variant's name does not say `most`: two builds with different rules.
#[derive(Debug)]
struct Take {
    most: u64,
}

const COUNTERS: u64 = 20;

impl Game for Take {
    fn id(&self) -> &'static str {
        "take"
    }
    fn name(&self) -> &'static str {
        "Take"
    }
    fn variant(&self) -> String {
        "20".into()
    }
    fn start(&self) -> Position {
        Position(COUNTERS)
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        (p.0 == 0).then_some(Value::Lose)
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        out.extend((1..=self.most.min(p.0)).map(|k| Move(k as u32)));
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        Position(p.0 - u64::from(mv.0))
    }
    fn to_move(&self, _: Position) -> Player {
        Player::First
    }
    fn position_to_string(&self, p: Position) -> String {
        p.0.to_string()
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        Ok(Position(text.parse().unwrap_or(0)))
    }
    fn move_to_string(&self, _: Position, mv: Move) -> String {
        mv.0.to_string()
    }
    fn move_syntax(&self) -> String {
        "a count".into()
    }
    fn size_class(&self) -> SizeClass {
        SizeClass::Small
    }
    fn space(&self) -> PositionSpace<'_> {
        PositionSpace::Dense { size: COUNTERS + 1 }
    }
}

/// Rewrites a database's header as `change` leaves it (the fields changed keep their widths, so
/// the blocks stay where they are), as a file written by another build would hold it.
fn rewrite_header(path: &Path, change: impl FnOnce(&mut perfectplay_db::Header)) {
    let mut header = Database::open(path).unwrap().header().clone();
    let old_len = header.encoded_len();
    change(&mut header);
    let mut bytes = std::fs::read(path).unwrap();
    let encoded = header.encode();
    assert_eq!(encoded.len(), old_len);
    bytes[..old_len].copy_from_slice(&encoded);
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn a_database_of_other_rules_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = perfectplay_db::path_for(dir.path(), "take", "20");
    let two = Take { most: 2 };
    let mut w = Writer::new(&path, &two, true);
    solve(&two, SolveOptions::default(), &NoProgress, Some(&mut w)).unwrap();
    w.finish().unwrap();
    let db = Database::open(&path).unwrap();
    assert_eq!(db.header().fingerprint, game_fingerprint(&two));
    db.check_game(&two).unwrap();

    // Taking up to three: the same id, variant and size, other values.
    let three = Take { most: 3 };
    assert_ne!(game_fingerprint(&two), game_fingerprint(&three));
    let e = db.check_game(&three).unwrap_err();
    assert!(matches!(e, DbError::StaleRules { .. }), "{e}");
    let text = e.to_string();
    assert!(text.contains("rules near the start") && text.contains("solve --force"), "{text}");

    // A file without a fingerprint (format versions 1 to 3) is not checked.
    rewrite_header(&path, |h| h.fingerprint = 0);
    Database::open(&path).unwrap().check_game(&three).unwrap();
}

#[test]
fn shared_tiers_have_the_same_fingerprint_in_every_variant() {
    let four = FoxAndGeese::from_variant("4-geese").unwrap();
    let five = FoxAndGeese::from_variant("5-geese").unwrap();
    for tier in four.tiers() {
        assert!(five.variants_sharing(tier).contains(&"4-geese".to_string()));
        assert_eq!(tier_fingerprint(&four, tier), tier_fingerprint(&five, tier), "{tier:?}");
    }
    let mut prints: Vec<u64> = five.tiers().iter().map(|&t| tier_fingerprint(&five, t)).collect();
    prints.sort_unstable();
    prints.dedup();
    assert_eq!(prints.len(), five.tiers().len(), "every tier its own fingerprint");
    assert_ne!(game_fingerprint(&four), game_fingerprint(&five));

    // The far ends: 4 geese's tiers in 15 geese, 9 hens' in 12 hens.
    let fifteen = FoxAndGeese::from_variant("15-geese").unwrap();
    for tier in four.tiers() {
        assert_eq!(tier_fingerprint(&four, tier), tier_fingerprint(&fifteen, tier), "{tier:?}");
    }
    let nine = FuchsUndHenne::from_variant("9-hens").unwrap();
    let twelve = FuchsUndHenne::from_variant("12-hens").unwrap();
    for tier in nine.tiers() {
        assert_eq!(tier_fingerprint(&nine, tier), tier_fingerprint(&twelve, tier), "{tier:?}");
    }
}

#[test]
fn a_tier_this_build_does_not_have_is_refused_and_a_copy_vouches_for_nothing() {
    let four = FoxAndGeese::from_variant("4-geese").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("4-geese.ppdb");
    let mut w = Writer::new(&path, &four, true);
    solve(&four, SolveOptions::default(), &NoProgress, Some(&mut w)).unwrap();
    w.finish().unwrap();

    // A tier numbered otherwise than this build numbers them: refused, not looked up.
    let renumbered = dir.path().join("renumbered.ppdb");
    std::fs::copy(&path, &renumbered).unwrap();
    rewrite_header(&renumbered, |h| h.tables[0].tier = 999_999);
    let e = Database::open(&renumbered).unwrap().check_game(&four).unwrap_err();
    assert!(matches!(e, DbError::StaleRules { .. }) && e.to_string().contains("999999"), "{e}");

    // A file without fingerprints (formats 1 to 3), copied: the copy has none either.
    rewrite_header(&path, |h| {
        h.fingerprint = 0;
        h.tables.iter_mut().for_each(|t| t.fingerprint = 0);
    });
    let old = Database::open(&path).unwrap();
    let copy = dir.path().join("copy.ppdb");
    let mut w = Writer::new(&copy, &four, true);
    w.add_tables_from(&old).unwrap();
    w.finish().unwrap();
    let copied = Database::open(&copy).unwrap();
    assert_eq!(copied.header().fingerprint, 0);
    assert!(copied.header().tables.iter().all(|t| t.fingerprint == 0));
    copied.check_game(&four).unwrap();
}

#[test]
fn a_tier_of_other_rules_is_neither_copied_nor_resumed() {
    let four = FoxAndGeese::from_variant("4-geese").unwrap();
    let five = FoxAndGeese::from_variant("5-geese").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("foxandgeese").join("5-geese.ppdb");
    let four_path = perfectplay_db::variant_path(&path, "4-geese");
    let mut files = TierFiles::new(&four_path, &four, true);
    solve(&four, SolveOptions::default(), &NoProgress, Some(&mut files)).unwrap();
    files.finish(None, &perfectplay_db::Derivable::NONE).unwrap();

    // The 4-geese file as a build with other rules for one tier would have written it.
    let stale = four.tiers()[5];
    rewrite_header(&four_path, |h| {
        let t = h.tables.iter_mut().find(|t| t.tier == stale.0).unwrap();
        t.fingerprint ^= 1;
    });
    let e = Database::open(&four_path).unwrap().check_game(&four).unwrap_err();
    let text = e.to_string();
    let name = four.tier_name(stale);
    assert!(matches!(e, DbError::StaleRules { .. }) && text.contains(&name), "{text}");

    // The solve beside it copies the tiers before the stale one, then passes the file over.
    let mut files = TierFiles::new(&path, &five, true);
    let shared = files.adopt_shared();
    assert_eq!(shared.passed_over.len(), 1, "{shared:?}");
    assert!(shared.passed_over[0].contains(&name), "{shared:?}");
    assert!(!files.adopted().contains(&stale));
    assert!(files.adopted().len() < four.tiers().len());

    // A tier file of other rules is removed and its tier solved again.
    let tier_file = tier_dir(&path).join(format!("tier-{}.ppdb", files.adopted()[0].0));
    rewrite_header(&tier_file, |h| h.tables[0].fingerprint ^= 1);
    let mut files = TierFiles::new(&path, &five, true);
    solve(&five, SolveOptions::default(), &NoProgress, Some(&mut files)).unwrap();
    assert_eq!(files.discarded(), &[tier_file]);
    let written = files.finish(None, &perfectplay_db::Derivable::NONE).unwrap();
    let db = Database::open(&written.path).unwrap();
    db.check_game(&five).unwrap();
    let fingerprints = db.header().tables.iter().map(|t| (t.tier, t.fingerprint));
    for (tier, print) in fingerprints {
        assert_eq!(print, tier_fingerprint(&five, Tier(tier)));
    }
}

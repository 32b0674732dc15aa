//! Nine Men's Morris at full scale, against its database (`perfectplay solve ninemensmorris
//! --no-analysis --memory-limit 16GiB`; BENCHMARKS.md says how it was run). Both tests are
//! ignored in the default suite and fail, not pass, when the database is missing:
//!
//! ```text
//! PERFECTPLAY_FULL=1 PERFECTPLAY_DATA=/path/to/data \
//!   cargo test --release -p perfectplay --test ninemensmorris_full -- --ignored --nocapture
//! ```
//!
//! - `tables_4_3_and_b5`: the analysis, counted from the database one tier at a time, equals
//!   003 Table 4.3 in every row the reference holds (and its totals), and Table B.5's tier rows;
//!   the start is a draw.
//! - `sampled_positions_agree_with_children`: 100,000 positions drawn across all tiers (weighted
//!   by tier size), each one's stored value the best over its children's stored values.

use std::collections::BTreeMap;
use std::path::PathBuf;

use perfectplay_core::{Game, GameExt, Remoteness, Tier, Value, ValueRemoteness};
use perfectplay_db::Database;
use perfectplay_games::Morris;
use rayon::prelude::*;

fn database(game: &Morris) -> Database {
    assert_eq!(
        std::env::var("PERFECTPLAY_FULL").as_deref(),
        Ok("1"),
        "set PERFECTPLAY_FULL=1 to run the full-scale checks"
    );
    let dir = std::env::var_os("PERFECTPLAY_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("perfectplay-data"));
    let path = perfectplay_db::path_for(&dir, game.id(), &game.variant());
    let db = Database::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    db.check_game(game).unwrap();
    db
}

fn reference(name: &str) -> Vec<Vec<String>> {
    let path = format!("{}/../../../shared/reference/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .map(|l| l.split('\t').map(String::from).collect())
        .collect()
}

#[test]
#[ignore = "full scale: needs the solved database (see the module documentation)"]
fn tables_4_3_and_b5() {
    let game = Morris::nine("regular").unwrap();
    let db = database(&game);
    let read = |t: Tier| match db.load_tier(t) {
        Ok(Some(solved)) => Ok(std::borrow::Cow::Owned(solved)),
        Ok(None) => Err(perfectplay_solve::SolveError::Inconsistent { what: format!("{t:?}") }),
        Err(e) => Err(perfectplay_solve::SolveError::Sink(e.to_string())),
    };
    let (analysis, lines) =
        perfectplay_solve::analyze_tiered_from(&game, &read, &perfectplay_solve::NoProgress)
            .unwrap();
    // Everything counted, before any comparison (a mismatch then shows beside the whole table).
    eprintln!("{}", analysis.to_tsv());
    for l in &lines {
        eprintln!(
            "{}\t{}\t{}\t{:?}\t{:?}",
            l.name, l.reachable, l.canonical, l.max_win, l.max_lose
        );
    }
    assert_eq!(db.get(&game, game.start()).unwrap().map(|v| v.value()), Some(Value::Draw));
    assert_eq!((analysis.total(), analysis.canonical_total()), (296_852_156_051, 18_558_930_949));
    let ours: BTreeMap<(String, String), (u64, u64)> = analysis
        .rows()
        .map(|r| {
            let rem = r.value.remoteness().map_or("-".to_string(), |x| x.0.to_string());
            ((r.value.value().to_string(), rem), (r.count, r.canonical_count))
        })
        .collect();
    for row in reference("ninemensmorris.tsv") {
        let key = (row[0].clone(), row[1].clone());
        let want = (row[2].parse().unwrap(), row[3].parse().unwrap());
        assert_eq!(ours.get(&key), Some(&want), "Table 4.3 row {key:?}");
    }
    let by_name: BTreeMap<String, _> = lines.iter().map(|l| (l.name.clone(), l)).collect();
    for row in reference("ninemensmorris-phase2-tiers.tsv") {
        let name = format!("(0,{},{})", row[0], row[1]);
        let line = by_name.get(&name).unwrap_or_else(|| panic!("no tier {name}"));
        let want = (
            row[3].parse::<u64>().unwrap(),
            row[4].parse::<u64>().unwrap(),
            row[5].parse::<u16>().ok(),
            row[6].parse::<u16>().ok(),
        );
        assert_eq!(
            (line.reachable, line.canonical, line.max_win, line.max_lose),
            want,
            "Table B.5 row {name}"
        );
    }
}

#[test]
#[ignore = "full scale: needs the solved database (see the module documentation)"]
fn sampled_positions_agree_with_children() {
    let game = Morris::nine("regular").unwrap();
    let db = database(&game);
    let tiers = game.tiers();
    let sizes: Vec<u64> = tiers.iter().map(|&t| game.tier_size(t)).collect();
    let total: u64 = sizes.iter().sum();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    // The sample first (deterministic), then the checks on every core.
    let (mut sample, mut tiers_seen) = (Vec::new(), std::collections::HashSet::new());
    while sample.len() < 100_000 {
        let (mut index, mut k) = (next() % total, 0);
        while index >= sizes[k] {
            index -= sizes[k];
            k += 1;
        }
        let tier = tiers[k];
        let Some(p) = game.tier_position(tier, index) else { continue };
        if game.canonical(p) != p {
            continue;
        }
        sample.push(p);
        tiers_seen.insert(tier);
    }
    let started = std::time::Instant::now();
    let children_read: usize = sample
        .par_iter()
        .map(|&p| {
            let got = db.get(&game, p).unwrap().expect("stored");
            let (want, read) = match game.primitive(p) {
                Some(v) => (ValueRemoteness::new(v, Remoteness(0)), 0),
                None => {
                    let mut children = Vec::new();
                    game.children(p, &mut children);
                    let best = children
                        .iter()
                        .map(|&c| db.get(&game, c).unwrap().expect("child stored").to_parent())
                        .max()
                        .expect("a child");
                    (best, children.len())
                }
            };
            assert_eq!(got, want, "{}", game.position_to_string(p));
            read
        })
        .sum();
    println!(
        "{} positions checked in {} tiers against {children_read} children ({:.1} s)",
        sample.len(),
        tiers_seen.len(),
        started.elapsed().as_secs_f64()
    );
}

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

mod full;

use std::collections::BTreeMap;

use full::database;
use perfectplay_core::{Game, Tier, Value};
use perfectplay_games::Morris;

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
    let started = std::time::Instant::now();
    let (tiers_seen, children_read) = full::sampled_check(&game, &db, 100_000);
    println!(
        "100000 positions checked in {tiers_seen} tiers against {children_read} children ({:.1} s)",
        started.elapsed().as_secs_f64()
    );
}

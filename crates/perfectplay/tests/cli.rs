//! The binary end to end: listings, queries, analyses, terminal play, and every kind of bad input
//! answered with what was expected and exit code 2.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs the binary with a data directory that holds no database: answers come from solves in
/// memory.
fn run(args: &[&str], stdin: &str) -> Output {
    let empty = std::env::temp_dir().join(format!("perfectplay-cli-empty-{}", std::process::id()));
    run_in(&empty, args, stdin)
}

/// An empty scratch directory for the test `name`, removed at its end.
fn fresh(name: &str) -> common::Scratch {
    common::Scratch::new(&format!("cli-{name}"))
}

fn run_in(data: &std::path::Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args(args)
        .env("NO_COLOR", "1")
        .env("PERFECTPLAY_DATA", data)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into(), String::from_utf8_lossy(&o.stderr).into())
}

#[test]
fn games_lists_ids_names_and_variants() {
    let o = run(&["games"], "");
    assert!(o.status.success());
    let (out, _) = text(&o);
    assert!(out.contains("tictactoe\tTic-Tac-Toe"));
    assert!(out.contains("konane\tKonane"));
    assert!(out.contains("6x6-center"));
}

#[test]
fn query_reports_value_and_every_move() {
    let o = run(&["query", "tictactoe", "start"], "");
    assert!(o.status.success());
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["value"], "tie");
    assert_eq!(json["remoteness"], 9);
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 9);
    assert!(moves.iter().all(|m| m["value"] == "tie" && m["remoteness"] == 8));

    // A position with a winning move: X to move, X wins at once with c1.
    let o = run(&["query", "tictactoe", "xx-oo----"], "");
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["value"], "win");
    assert_eq!(json["remoteness"], 1);
    assert_eq!(json["moves"][0]["move"], "c1");
    assert_eq!(json["moves"][0]["value"], "win");
    assert_eq!(json["moves"][0]["deltaRemoteness"], 0);

    // Konane: a position the start does not reach is solved on demand.
    let o = run(&["query", "konane", "--variant", "4x4-corner", "xo../..../..../.... x"], "");
    assert!(o.status.success(), "{}", text(&o).1);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["value"], "win");
    assert_eq!(json["moves"][0]["move"], "a1c1");
}

#[test]
fn analyze_prints_the_reference_format() {
    let o = run(&["analyze", "tictactoe", "--format", "tsv"], "");
    assert!(o.status.success());
    let (out, _) = text(&o);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("value\tremoteness\tcount\tcanonical_count"));
    let (all, canonical) = lines.fold((0u64, 0u64), |(a, c), l| {
        let f: Vec<&str> = l.split('\t').collect();
        (a + f[2].parse::<u64>().unwrap(), c + f[3].parse::<u64>().unwrap())
    });
    assert_eq!((all, canonical), (5478, 765));
}

#[test]
fn bad_input_says_what_was_expected_and_exits_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["query", "chess", "start"], "expected one of: tictactoe, tictactwo, konane"),
        (&["query", "tictactwo", ".xx../.o.../...../...../..... c3 o"], "the grid has not moved"),
        (&["query", "tictactwo", "...../.xxx./..o../...../..... c3 x"], "turns alternate"),
        (&["query", "tictactwo", "...../...../...../...../..... a1 x"], "grid's center"),
        (&["query", "konane", "--variant", "9x9-corner", "start"], "RxC-corner or RxC-center"),
        (&["query", "konane", "--variant", "8x8-corner", "start"], "at most 63 cells"),
        (&["query", "tictactoe", "--variant", "misere", "start"], "expected regular"),
        (&["query", "tictactoe", "xxxxxxxxx"], "illegal position"),
        (&["query", "tictactoe", "hello"], "expected 9 cells"),
        (&["query", "konane", "--variant", "4x4-corner", "oo../..../..../.... x"], "other color"),
        (&["query", "konane", "--variant", "4x4-corner", "xo.. x"], "4 rows of 4 cells"),
        (&["analyze", "tictactoe", "--format", "xml"], "possible values"),
        (&["solve"], "Usage"),
        (&["solve", "tictactwo", "--memory-limit", "lots"], "expected a size like 12GiB"),
        (
            &["solve", "tictactwo", "--variant", "3-marks", "--memory-limit", "1MiB"],
            "over the 1 MiB limit",
        ),
        (&["analyze", "tictactoe", "--tiers"], "not solved by tiers"),
        (&["query", "tictactwo", "--variant", "5-marks", "start"], "regular | 3-marks | 2-marks"),
        (
            &["query", "fuchsundhenne", "--variant", "9-hens", "start"],
            "too many to solve in memory",
        ),
    ];
    for (args, expected) in cases {
        let o = run(args, "");
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err:?} lacks {expected:?}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// A build without the `mpi` feature says how to get `--mpi` (with it: `tests/mpi.rs`).
#[cfg(not(feature = "mpi"))]
#[test]
fn mpi_without_the_feature_says_how_to_build_it() {
    let o = run(&["solve", "tictactwo", "--variant", "2-marks", "--mpi"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("--features mpi"), "{}", text(&o).1);
}

#[test]
fn terminal_play_shows_values_refuses_bad_moves_and_undoes() {
    let o = run(&["play", "tictactoe", "--computer", "none"], "ps\nzz\nb2\nu\nb2\nq\n");
    assert!(o.status.success());
    let (out, _) = text(&o);
    assert!(out.contains("TURN: X"));
    assert!(out.contains("(X should tie in 9)"));
    assert!(out.contains("Tying Moves:"));
    assert!(out.contains("illegal move \"zz\"; legal moves: a1 b1 c1 a2 b2 c2 a3 b3 c3"));
    assert!(out.contains("(O should tie in 8)"));

    // Against the computer, which plays perfectly: X blunders and loses.
    let o = run(&["play", "tictactoe", "--computer", "second"], "b1\na3\nc3\nq\n");
    let (out, _) = text(&o);
    assert!(out.contains("Computer (O) plays"));

    // The computer playing both sides finishes a tie.
    let o = run(&["play", "tictactoe", "--computer", "both"], "");
    let (out, _) = text(&o);
    assert!(out.contains("Game over: a tie."), "{out}");

    let o = run(&["play", "konane", "--variant", "4x4-corner", "--computer", "both"], "");
    let (out, _) = text(&o);
    assert!(out.contains("Game over: white wins."), "{out}");
}

/// Quarto's regular game is searched live: a late position's query answers at once; play from
/// the start goes on without values where a position takes longer than `--think` (the computer
/// then plays its first move), and shows them where the search ends; solving or analyzing it
/// whole is refused with exit 2.
#[test]
fn quarto_is_searched_live_in_the_terminal() {
    let o = run(&["query", "quarto", "-D2F--0-56E--4-73"], "");
    assert!(o.status.success(), "{:?}", text(&o));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((report["value"].as_str(), report["remoteness"].as_i64()), (Some("tie"), Some(7)));
    let o = run(&["play", "quarto", "--think", "1"], "A\nb23\nq\n");
    assert!(o.status.success(), "{:?}", text(&o));
    let (out, _) = text(&o);
    assert!(
        out.contains("(values unknown: searching this position takes longer than 1 s"),
        "{out}"
    );
    assert!(out.contains("Computer (second) plays"), "{out}");
    // Late in a game the values show.
    let o = run(&["play", "quarto", "--computer", "both", "--think", "1"], "");
    let (out, _) = text(&o);
    assert!(out.contains("Game over:"), "{out}");
    assert!(out.contains(" should "), "{out}");
    for args in [&["solve", "quarto"][..], &["analyze", "quarto"]] {
        let o = run(args, "");
        assert_eq!(o.status.code(), Some(2));
        assert!(text(&o).1.contains("searched live"), "{:?}", text(&o));
    }
}

#[test]
fn fivefieldkono_small_board_queries_and_plays() {
    let o = run(&["query", "fivefieldkono", "--variant", "4x4-regular", "start"], "");
    assert!(o.status.success(), "{}", text(&o).1);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["position"], "oooo/o..o/x..x/xxxx x");
    assert_eq!(json["value"], "tie");
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6);
    // Every move is worth what its child is worth to the mover, best first.
    assert!(moves.iter().all(|m| m["value"] == "tie"));

    // 000 Figures 4.2 and 4.3: the board, the turn, the prediction, and `ps` grouped by value.
    let o = run(
        &["play", "fivefieldkono", "--variant", "4x4-regular", "--computer", "none"],
        "ps\na2b3\nq\n",
    );
    let (out, _) = text(&o);
    assert!(o.status.success());
    assert!(out.contains("4  (o) (o) (o) (o)\n"), "{out}");
    assert!(out.contains("(x) white, (o) black\n"), "{out}");
    assert!(out.contains("TURN: white\n(white should tie in"), "{out}");
    assert!(out.contains("Tying Moves:\n  a2b3"), "{out}");
    assert!(out.contains("3  (o) (x) ( ) (o)"), "{out}");
    assert!(out.contains("TURN: black"));

    // A pebble on the wrong diagonal network is refused with the reason, exit 2.
    let o =
        run(&["query", "fivefieldkono", "--variant", "4x4-regular", "oooo/o.o./x..x/xxxx x"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("network"), "{}", text(&o).1);
    let o = run(&["query", "fivefieldkono", "--variant", "9x9-regular", "start"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("lose-if-stuck"));
}

#[test]
fn solve_writes_a_database_that_query_play_and_analyze_read() {
    let data = fresh("db");
    let analyze = &["analyze", "konane", "--variant", "4x4-corner", "--format", "tsv"];
    let in_memory = run(analyze, "");
    assert!(String::from_utf8_lossy(&in_memory.stderr).contains("no database at"));

    let o = run_in(&data, &["solve", "konane", "--variant", "4x4-corner"], "");
    assert!(o.status.success(), "{}", text(&o).1);
    let file = data.join("konane").join("4x4-corner.ppdb");
    assert!(text(&o).0.contains(&format!("database:   {}", file.display())), "{}", text(&o).0);
    assert!(file.exists());

    // A second solve finds it; --force solves again.
    let o = run_in(&data, &["solve", "konane", "--variant", "4x4-corner"], "");
    assert!(text(&o).0.contains("already solved"), "{}", text(&o).0);
    let o = run_in(&data, &["solve", "konane", "--variant", "4x4-corner", "--force"], "");
    assert!(text(&o).0.contains("database:"), "{}", text(&o).0);

    // Answers from the file match answers from memory, with no solve.
    for args in [&analyze[..], &["query", "konane", "--variant", "4x4-corner", "start"]] {
        let from_disk = run_in(&data, args, "");
        assert!(from_disk.status.success(), "{}", text(&from_disk).1);
        assert!(!text(&from_disk).1.contains("no database"), "{}", text(&from_disk).1);
        assert_eq!(from_disk.stdout, run(args, "").stdout, "{args:?}");
    }
    let recount = run_in(&data, &[analyze, &["--recount"][..]].concat(), "");
    assert_eq!(recount.stdout, in_memory.stdout);
    let o = run_in(&data, &["play", "konane", "--variant", "4x4-corner", "--computer", "both"], "");
    assert!(text(&o).0.contains("Game over: white wins."), "{}", text(&o).0);

    let o = run_in(&data, &["db", "info", file.to_str().unwrap()], "");
    let (out, _) = text(&o);
    assert!(out.contains("game:         konane (4x4-corner)"), "{out}");
    assert!(out.contains("per canonical reachable"), "{out}");
    let o = run_in(&data, &["db", "verify", file.to_str().unwrap()], "");
    assert!(o.status.success() && text(&o).0.contains("every block"), "{}", text(&o).1);

    // A damaged file: the command that reads it says which file and what, exit 2.
    let good = std::fs::read(&file).unwrap();
    for (at, args) in [
        (good.len() - 1, &["db", "verify", file.to_str().unwrap()][..]),
        (20, &["query", "konane", "--variant", "4x4-corner", "start"]),
    ] {
        let mut bytes = good.clone();
        bytes[at] ^= 0x40;
        std::fs::write(&file, &bytes).unwrap();
        let o = run_in(&data, args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let (_, err) = text(&o);
        assert!(err.contains("4x4-corner.ppdb") && err.contains("corrupt"), "{err}");
    }
    let mut bytes = good;
    bytes.truncate(100);
    std::fs::write(&file, &bytes).unwrap();
    let o = run_in(&data, &["query", "konane", "--variant", "4x4-corner", "start"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("truncated"), "{}", text(&o).1);
    let o = run_in(&data, &["db", "info", "/nonexistent.ppdb"], "");
    assert_eq!(o.status.code(), Some(2));
}

/// `db count` counts every canonical position of a tiered game's database by side to move and
/// value; the 4-geese figures are those `four_geese_every_position_counted_as_the_plain_model_
/// counts_it` (perfectplay-solve) finds with a plain solver of its own. A pruned file, and a
/// game without tiers, are refused with exit 2.
#[test]
fn db_count_counts_every_position_by_mover_and_winner() {
    let data = fresh("count");
    let o = run_in(&data, &["solve", "foxandgeese", "--variant", "4-geese", "--no-analysis"], "");
    assert!(o.status.success(), "{}", text(&o).1);
    let file = data.join("foxandgeese").join("4-geese.ppdb");
    let o = run_in(&data, &["db", "count", file.to_str().unwrap()], "");
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains("geese to move: lose 275154, draw 401377, tie 0, win 0"), "{out}");
    assert!(out.contains("fox   to move: lose 0, draw 202429, tie 0, win 391919"), "{out}");
    assert!(out.contains("won by geese 0, won by fox 667073, draws 603806, ties 0; 1270879 in all"));

    // A pruned file holds no values for what the start does not reach: refused.
    let o = run_in(&data, &["analyze", "foxandgeese", "--variant", "4-geese", "--prune"], "");
    assert!(o.status.success(), "{}", text(&o).1);
    let o = run_in(&data, &["db", "count", file.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("pruned"), "{}", text(&o).1);

    let o = run_in(&data, &["solve", "tictactoe"], "");
    assert!(o.status.success(), "{}", text(&o).1);
    let file = data.join("tictactoe").join("regular.ppdb");
    let o = run_in(&data, &["db", "count", file.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("no tier index"), "{}", text(&o).1);
}

/// A version 1 database answers as it is, and `db upgrade` rewrites it in this build's format
/// with the same answers.
#[test]
fn a_version_1_database_answers_and_upgrades() {
    let data = fresh("v1");
    let dir = data.join("fivefieldkono");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("4x4-regular.ppdb");
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/../db/tests/data/");
    std::fs::copy(format!("{fixture}fivefieldkono-4x4-regular-v1.ppdb"), &file).unwrap();
    let query = &["query", "fivefieldkono", "--variant", "4x4-regular", "start"];
    let in_memory = run(query, "");
    let before = run_in(&data, query, "");
    assert!(before.status.success(), "{}", text(&before).1);
    assert!(!text(&before).1.contains("no database"), "{}", text(&before).1);
    assert_eq!(before.stdout, in_memory.stdout);
    let info = run_in(&data, &["db", "info", file.to_str().unwrap()], "");
    assert!(text(&info).0.contains("format:       version 1"), "{}", text(&info).0);

    let o = run_in(&data, &["db", "upgrade", file.to_str().unwrap()], "");
    assert!(o.status.success(), "{}", text(&o).1);
    assert!(
        text(&o).0.contains("version 1")
            && text(&o).0.contains(&format!("-> version {}", perfectplay_db::VERSION)),
        "{}",
        text(&o).0
    );
    let info = run_in(&data, &["db", "info", file.to_str().unwrap()], "");
    let current = format!("format:       version {}", perfectplay_db::VERSION);
    assert!(text(&info).0.contains(&current), "{}", text(&info).0);
    assert!(text(&info).0.contains("(Bytes)"), "{}", text(&info).0);
    assert_eq!(run_in(&data, query, "").stdout, in_memory.stdout);
    let o = run_in(&data, &["db", "upgrade", "/nonexistent.ppdb"], "");
    assert_eq!(o.status.code(), Some(2));
}

/// Runs the binary with `args` on the data directory `data` and kills it (SIGKILL) once `done`
/// says so, or after 300 s.
fn kill_once(data: &std::path::Path, args: &[&str], done: impl Fn() -> bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args(args)
        .env("PERFECTPLAY_DATA", data)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("binary runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    while !done() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

/// A solve killed (SIGKILL) after its first tier resumes from the tiers it finished, says so,
/// and writes the same database, byte for byte, as a solve that was never stopped.
#[test]
fn killed_solve_resumes_with_the_same_database() {
    let base = fresh("kill");
    let solve = ["solve", "tictactwo", "--variant", "3-marks", "--no-analysis"];
    let (whole, killed) = (base.join("whole"), base.join("killed"));
    let o = run_in(&whole, &solve, "");
    assert!(o.status.success(), "{}", text(&o).1);
    let file = |data: &std::path::Path| data.join("tictactwo").join("3-marks.ppdb");
    let tiers = killed.join("tictactwo").join("3-marks.ppdb.tiers");

    let finished_tiers = || {
        std::fs::read_dir(&tiers).map_or(0, |d| {
            d.filter(|e| {
                e.as_ref().is_ok_and(|e| e.file_name().to_string_lossy().starts_with("tier-"))
            })
            .count()
        })
    };
    kill_once(&killed, &solve, || finished_tiers() > 0);
    let kept = finished_tiers();
    assert!(kept >= 1, "no tier was finished before the deadline");
    assert!(!file(&killed).exists(), "the solve finished before it was killed");

    let o = run_in(&killed, &solve, "");
    assert!(o.status.success(), "{}", text(&o).1);
    assert!(text(&o).0.contains("resumed:    tiers (3,3)"), "{}", text(&o).0);
    assert_eq!(std::fs::read(file(&killed)).unwrap(), std::fs::read(file(&whole)).unwrap());
    assert!(!tiers.exists(), "the tier files are removed once the database is written");
}

/// A solve that stores its analysis searches what the start reaches first and keeps the marks
/// beside its tier files: killed after the search, it resumes with the marks read back, not
/// searched again (as does a solve of a chosen tier), and writes the same database as a solve
/// that was never stopped.
#[test]
fn a_solve_killed_after_its_search_reads_the_marks_back() {
    let base = fresh("kill-search");
    let solve = ["solve", "tictactwo", "--variant", "3-marks"];
    let (whole, killed) = (base.join("whole"), base.join("killed"));
    let o = run_in(&whole, &solve, "");
    assert!(o.status.success(), "{}", text(&o).1);
    assert!(text(&o).0.contains("canonical indices searched first"), "{}", text(&o).0);
    assert!(text(&o).0.contains("kept:       the marks"), "{}", text(&o).0);
    let file = |data: &std::path::Path| data.join("tictactwo").join("3-marks.ppdb");
    let marks = killed.join("tictactwo").join("3-marks.ppdb.tiers").join("reached.marks");

    kill_once(&killed, &solve, || marks.exists());
    assert!(marks.exists(), "the marks were not kept before the deadline");
    assert!(!file(&killed).exists(), "the solve finished before it was killed");
    // A tier chosen beside them is solved as the resumed solve solves it, only what they mark
    // (a tier solved whole would store the positions not reached, and the file would differ).
    let o = run_in(&killed, &[&solve[..], &["--tier", "(3,3)"]].concat(), "");
    assert!(o.status.success(), "{}", text(&o).1);
    assert!(text(&o).0.contains("read back from the search of an earlier solve"), "{}", text(&o).0);

    let o = run_in(&killed, &solve, "");
    assert!(o.status.success(), "{}", text(&o).1);
    let summary = text(&o).0;
    assert!(summary.contains("read back from the search of an earlier solve"), "{summary}");
    assert!(!summary.contains("searched first"), "{summary}");
    assert_eq!(std::fs::read(file(&killed)).unwrap(), std::fs::read(file(&whole)).unwrap());
    assert!(!marks.exists(), "the marks go with the tier files once the database is written");
}

#[test]
fn chosen_tiers_are_solved_alone_and_the_rest_resumes_from_them() {
    let base = fresh("tiers");
    let (whole, parts) = (base.join("whole"), base.join("parts"));
    let solve = ["solve", "tictactwo", "--variant", "2-marks", "--no-analysis"];
    let file = |data: &std::path::Path| data.join("tictactwo").join("2-marks.ppdb");
    let o = run_in(&whole, &solve, "");
    assert!(o.status.success(), "{}", text(&o).1);

    // A tier whose child tiers are not finished is refused, naming the one it needs.
    let o = run_in(&parts, &[&solve[..], &["--tier", "(1,1)"]].concat(), "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("tier (2,1) is needed by tier (1,1)"), "{}", text(&o).1);
    // Unknown names and --force are refused with what was expected.
    let o = run_in(&parts, &[&solve[..], &["--tier", "(9,9)"]].concat(), "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("named as `db info` prints it"), "{}", text(&o).1);
    let o = run_in(&parts, &[&solve[..], &["--tier", "(2,2)", "--force"]].concat(), "");
    assert_eq!(o.status.code(), Some(2));

    let o = run_in(&parts, &[&solve[..], &["--tier", "(2,2)", "--tier", "(2,1)"]].concat(), "");
    assert!(o.status.success(), "{}", text(&o).1);
    assert!(text(&o).0.contains("(2,2) (2,1) solved into"), "{}", text(&o).0);
    assert!(!file(&parts).exists(), "chosen tiers alone write no database");
    let o = run_in(&parts, &solve, "");
    assert!(o.status.success(), "{}", text(&o).1);
    assert!(text(&o).0.contains("resumed:    tiers (2,2) (2,1)"), "{}", text(&o).0);
    assert_eq!(std::fs::read(file(&parts)).unwrap(), std::fs::read(file(&whole)).unwrap());
}

/// A database solved without its analysis gets it stored by the first `analyze --tiers` (which
/// counts everything anyway), and later `analyze` runs print those counts: equal to the analysis
/// a solve stores itself.
#[test]
fn a_tier_analysis_is_stored_in_a_database_solved_without_one() {
    let base = fresh("store");
    let (with, without) = (base.join("with"), base.join("without"));
    let solve = ["solve", "tictactwo", "--variant", "2-marks"];
    let o = run_in(&with, &solve, "");
    assert!(o.status.success(), "{}", text(&o).1);
    let o = run_in(&without, &[&solve[..], &["--no-analysis"]].concat(), "");
    assert!(o.status.success(), "{}", text(&o).1);
    let file = without.join("tictactwo").join("2-marks.ppdb");
    let info = |data: &std::path::Path| {
        let f = data.join("tictactwo").join("2-marks.ppdb");
        text(&run_in(data, &["db", "info", f.to_str().unwrap()], "")).0
    };
    assert!(info(&without).contains("analysis:     none"), "{}", info(&without));
    let before = std::fs::metadata(&file).unwrap().len();

    let tiers = ["analyze", "tictactwo", "--variant", "2-marks", "--tiers", "--format", "tsv"];
    let first = run_in(&without, &tiers, "");
    assert!(first.status.success(), "{}", text(&first).1);
    assert!(text(&first).1.contains("stored the analysis in"), "{}", text(&first).1);
    assert!(std::fs::metadata(&file).unwrap().len() > before);
    // The second count finds the analysis stored and leaves the file alone.
    let second = run_in(&without, &tiers, "");
    assert_eq!(text(&second).0, text(&first).0);
    assert!(!text(&second).1.contains("stored the analysis"), "{}", text(&second).1);

    let analyze = ["analyze", "tictactwo", "--variant", "2-marks", "--format", "tsv"];
    let stored = text(&run_in(&without, &analyze, "")).0;
    assert!(stored.lines().count() > 1, "{stored}");
    assert_eq!(stored, text(&run_in(&with, &analyze, "")).0);
    // The solve stored its tier lines too: printed at once, the same as counted after.
    assert!(info(&with).contains("tier lines"), "{}", info(&with));
    let from_solve = run_in(&with, &tiers, "");
    assert!(from_solve.status.success(), "{}", text(&from_solve).1);
    assert!(!text(&from_solve).1.contains("stored the analysis"), "{}", text(&from_solve).1);
    assert_eq!(text(&from_solve).0, text(&first).0);
}

/// A solve that stores its analysis counts each tier as it solves it, into the tier's file; a
/// tier file without its count (here the moving tier, solved alone, whole, without the analysis)
/// is counted after the solve from its values read back. Either way the analysis is the one
/// counted from the finished database. Three Men's Morris: classes reached exchanged too.
#[test]
fn tiers_are_counted_as_they_are_solved_and_the_others_after() {
    let base = fresh("shares");
    let (straight, mixed) = (base.join("straight"), base.join("mixed"));
    let solve = ["solve", "threemensmorris"];
    let o = run_in(&straight, &solve, "");
    assert!(o.status.success(), "{}", text(&o).1);
    assert!(text(&o).0.contains("every tier counted as it was solved"), "{}", text(&o).0);

    let alone = ["--no-analysis", "--tier", "(0,3,3)"];
    let o = run_in(&mixed, &[&solve[..], &alone].concat(), "");
    assert!(o.status.success(), "{}", text(&o).1);
    let o = run_in(&mixed, &solve, "");
    assert!(o.status.success(), "{}", text(&o).1);
    let summary = text(&o).0;
    assert!(summary.contains("resumed:    tiers (0,3,3)"), "{summary}");
    let file = |data: &std::path::Path| {
        data.join("threemensmorris").join("regular.ppdb").to_string_lossy().into_owned()
    };
    let info = text(&run_in(&mixed, &["db", "info", &file(&mixed)], "")).0;
    let tiers = info.lines().filter(|l| l.trim_start().starts_with("tier ")).count();
    let during = format!("; {} tiers counted as they were solved", tiers - 1);
    assert!(summary.contains(&during), "{summary}");

    // What each solve stored: its rows (wins, losses and ties of several remotenesses) and
    // tier lines.
    let stored = |data: &std::path::Path, what: &[&str]| {
        let args = [&["analyze", "threemensmorris", "--format", "tsv"], what];
        let o = run_in(data, &args.concat(), "");
        assert!(o.status.success(), "{}", text(&o).1);
        text(&o).0
    };
    for what in [&[][..], &["--tiers"][..]] {
        assert_eq!(stored(&mixed, what), stored(&straight, what), "{what:?}");
        assert!(stored(&mixed, what).lines().count() > 5, "{}", stored(&mixed, what));
    }
    // The lines and rows stored are those counted again from the file.
    for what in [&["--recount"][..], &["--tiers", "--recount"][..]] {
        let recounted = stored(&mixed, what);
        assert_eq!(recounted, stored(&mixed, &what[..what.len() - 1]), "{what:?}");
    }
}

#[test]
fn a_pruned_database_answers_what_the_start_reaches_and_refuses_the_rest() {
    let data = fresh("prune");
    let o = run_in(&data, &["solve", "sixmensmorris", "--no-analysis"], "");
    assert!(o.status.success(), "{}", text(&o).1);
    // White closed a mill on the top row, yet black still has all it placed: the mill's
    // removal never happened, so the start does not reach this position.
    let unreached = "www---bbb------- w 3 3";
    let before = run_in(&data, &["query", "sixmensmorris", unreached], "");
    assert!(before.status.success(), "{}", text(&before).1);
    let start_before = run_in(&data, &["query", "sixmensmorris", "start"], "");
    let odd_position = "w--------------- b 5 6";
    let odd_before = run_in(&data, &["query", "sixmensmorris", odd_position], "");

    let file = data.join("sixmensmorris/regular.ppdb");
    let size = |f: &std::path::Path| std::fs::metadata(f).unwrap().len();
    let whole = size(&file);
    let o = run_in(&data, &["analyze", "sixmensmorris", "--prune", "--format", "tsv"], "");
    assert!(o.status.success(), "{}", text(&o).1);
    assert!(text(&o).1.contains("only the reachable positions' values"), "{}", text(&o).1);
    assert!(size(&file) * 10 < whole * 7, "{} bytes against {whole}", size(&file));
    // The counts are those of the whole database: stored, printed again at once.
    let stored = run_in(&data, &["analyze", "sixmensmorris", "--format", "tsv"], "");
    assert_eq!(stored.stdout, o.stdout);
    let info = run_in(&data, &["db", "info", file.to_str().unwrap()], "");
    assert!(text(&info).0.contains("and absent"), "{}", text(&info).0);
    // The tier lines were stored too; recounted from the pruned file they are the same.
    let tiers = run_in(&data, &["analyze", "sixmensmorris", "--tiers", "--format", "tsv"], "");
    assert!(tiers.status.success() && text(&tiers).1.is_empty(), "{}", text(&tiers).1);
    let args = ["analyze", "sixmensmorris", "--tiers", "--recount", "--format", "tsv"];
    assert_eq!(run_in(&data, &args, "").stdout, tiers.stdout);

    assert_eq!(run_in(&data, &["query", "sixmensmorris", "start"], "").stdout, start_before.stdout);
    // Stored as absent, or holding its value (where that cost nothing) with a child absent.
    for unreached in [unreached, "wwww-ww---bbb--- w 0 0"] {
        let after = run_in(&data, &["query", "sixmensmorris", unreached], "");
        assert_eq!(after.status.code(), Some(2), "{}", text(&after).0);
        assert!(text(&after).1.contains("not reachable from the start"), "{}", text(&after).1);
    }

    // Derived tiers: the placements with an odd number in hand are answered from their
    // children, every move's value as before (the start's moves lead into such a tier).
    let pruned = size(&file);
    let o = run_in(&data, &["analyze", "sixmensmorris", "--prune", "--derive"], "");
    assert!(o.status.success(), "{}", text(&o).1);
    assert!(text(&o).1.contains("tiers derived from their children"), "{}", text(&o).1);
    assert!(size(&file) < pruned, "{} bytes against {pruned}", size(&file));
    assert_eq!(run_in(&data, &["query", "sixmensmorris", "start"], "").stdout, start_before.stdout);
    let odd = run_in(&data, &["query", "sixmensmorris", odd_position], "");
    assert!(odd.status.success(), "{}", text(&odd).1);
    assert_eq!(odd.stdout, odd_before.stdout);
    // `db prune` (the placements searched alone) on the whole database: the same answers.
    let copy = data.join("copy");
    std::fs::create_dir_all(copy.join("sixmensmorris")).unwrap();
    let solved = run_in(&copy, &["solve", "sixmensmorris", "--no-analysis"], "");
    assert!(solved.status.success(), "{}", text(&solved).1);
    let copied = copy.join("sixmensmorris/regular.ppdb");
    let o = run_in(&copy, &["db", "prune", copied.to_str().unwrap(), "--derive"], "");
    assert!(o.status.success(), "{}", text(&o).1);
    assert!(text(&o).0.contains("tiers searched through"), "{}", text(&o).0);
    assert!(size(&copied) * 2 < whole, "{} bytes against {whole}", size(&copied));
    for (p, before) in [("start", &start_before), (odd_position, &odd_before)] {
        assert_eq!(run_in(&copy, &["query", "sixmensmorris", p], "").stdout, before.stdout);
    }

    // Derived tiers recounted: computed from their children, the same lines.
    assert_eq!(run_in(&data, &args, "").stdout, tiers.stdout);
    let o = run_in(&data, &["analyze", "sixmensmorris", "--derive"], "");
    assert_eq!(o.status.code(), Some(2), "--derive needs --prune");
}

/// `prove`: Quarto 3x3's start proven a first-player loss by subproofs kept in a ledger. A run
/// stopped after a few answers, and a last line cut short, go on where they stopped; `--check`
/// says whether the ledger covers the start; the live search's answer agrees with the proof's.
#[test]
fn prove_keeps_subproofs_in_a_ledger_and_resumes() {
    let data = fresh("prove");
    std::fs::create_dir_all(&*data).unwrap();
    let ledger = data.join("ledger.tsv");
    let l = ledger.to_str().unwrap();
    let args = |extra: &[&'static str]| -> Vec<String> {
        let base = ["prove", "quarto", "--variant", "3x3", "--depth", "3", "--ledger", l];
        base.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let prove = |extra: &[&'static str]| {
        let a = args(extra);
        run_in(&data, &a.iter().map(String::as_str).collect::<Vec<_>>(), "")
    };
    let o = prove(&["--most", "5"]);
    assert!(o.status.success(), "{}", text(&o).1);
    let check = prove(&["--check"]);
    assert_eq!(check.status.code(), Some(1), "{}", text(&check).0);
    assert!(text(&check).0.contains("not proven yet"), "{}", text(&check).0);
    let lines = |p: &std::path::Path| std::fs::read_to_string(p).unwrap().lines().count();
    assert_eq!(lines(&ledger), 3 + 5);
    // A stop in the middle of a line: the fragment is dropped, the five answers kept.
    std::fs::OpenOptions::new().append(true).open(&ledger).unwrap().write_all(b"01---").unwrap();
    let o = prove(&[]);
    assert!(o.status.success(), "{}", text(&o).1);
    assert!(text(&o).0.contains("start:      lose (proven"), "{}", text(&o).0);
    let check = prove(&["--check"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check).0);
    let content = std::fs::read_to_string(&ledger).unwrap();
    assert!(content.ends_with('\n') && !content.contains("01---\n"));
    assert!(content.lines().skip(3).all(|line| line.split('\t').count() == 5));
    let answered = lines(&ledger) - 3;
    assert!(answered > 5, "{answered} answers");
    // Proven already: nothing more is asked.
    let again = prove(&[]);
    assert!(text(&again).0.contains("this run:   0 subproofs"), "{}", text(&again).0);
    assert_eq!(lines(&ledger) - 3, answered);
    // The live search: the first player loses in 6.
    let o = run_in(&data, &["query", "quarto", "--variant", "3x3", "start"], "");
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((json["value"].as_str(), json["remoteness"].as_u64()), (Some("lose"), Some(6)));
    // A ledger split at another depth is refused, as is one that is not a ledger.
    let a = ["prove", "quarto", "--variant", "3x3", "--depth", "2", "--ledger", l];
    let o = run_in(&data, &a, "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("depth 3"), "{}", text(&o).1);
    let other = data.join("other.tsv");
    std::fs::write(&other, "position\tvalue\n").unwrap();
    let a = ["prove", "quarto", "--variant", "3x3", "--ledger", other.to_str().unwrap()];
    let o = run_in(&data, &a, "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("not a perfectplay proof ledger"), "{}", text(&o).1);
}

/// The committed ledger of Quarto's proof (`reference/quarto-proof.tsv`) covers the start: the
/// moves above its subproofs walked again from the rules, their answers combine to a tie (003's
/// "Tie in 17").
#[test]
fn the_committed_quarto_ledger_proves_the_start_a_tie() {
    let ledger = concat!(env!("CARGO_MANIFEST_DIR"), "/../../reference/quarto-proof.tsv");
    let copy = fresh("quarto-ledger");
    std::fs::create_dir_all(&*copy).unwrap();
    // Checked on a copy: opening a ledger may rewrite a line cut short.
    let path = copy.join("quarto-proof.tsv");
    std::fs::copy(ledger, &path).unwrap();
    let a = ["prove", "quarto", "--depth", "3", "--check", "--ledger", path.to_str().unwrap()];
    let o = run_in(&copy, &a, "");
    assert_eq!(o.status.code(), Some(0), "{}{}", text(&o).0, text(&o).1);
    assert!(text(&o).0.contains("start:      tie (proven)"), "{}", text(&o).0);
}

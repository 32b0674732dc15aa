//! `solve --mpi` under `mpirun` (a build with `--features mpi`, OpenMPI installed: `scripts/test`
//! installs it): the database is the same, byte for byte, as a solve in one process, and a run
//! whose worker is killed fails, names the tier that worker held, and a rerun finishes it.
#![cfg(feature = "mpi")]

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn scratch(name: &str) -> common::Scratch {
    common::Scratch::new(&format!("mpi-{name}"))
}

/// `perfectplay --data-dir DATA ARGS`, under `mpirun -np RANKS` when `ranks` is given.
fn command(ranks: Option<u32>, data: &Path, args: &[&str]) -> Command {
    let bin = env!("CARGO_BIN_EXE_perfectplay");
    let mut c = match ranks {
        Some(n) => {
            let mut c = Command::new("mpirun");
            // Unbound: a rank solves on every core (OpenMPI binds each to one by default).
            c.args(["--oversubscribe", "--bind-to", "none", "-np", &n.to_string(), bin]);
            c
        }
        None => Command::new(bin),
    };
    // OpenMPI refuses to run as root (CI's containers) unless told it may.
    c.env("OMPI_ALLOW_RUN_AS_ROOT", "1").env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    c.arg("--data-dir").arg(data).args(args);
    c
}

fn run(ranks: Option<u32>, data: &Path, args: &[&str]) -> Output {
    let o = command(ranks, data, args).output().expect("runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).to_string();
    assert!(o.status.success(), "{}\n{}", text(&o.stdout), text(&o.stderr));
    o
}

fn database(data: &Path, game: &str, variant: &str) -> Vec<u8> {
    std::fs::read(data.join(game).join(format!("{variant}.ppdb"))).expect("the database")
}

#[test]
fn solves_under_mpirun_write_the_same_bytes_as_one_process() {
    let base = scratch("same");
    for (game, variant, ranks) in [
        ("sixmensmorris", "regular", 1),
        ("sixmensmorris", "regular", 3),
        ("tictactwo", "3-marks", 3),
    ] {
        let solve = ["solve", game, "--variant", variant];
        let alone = base.join(format!("{game}-alone"));
        if !alone.exists() {
            run(None, &alone, &solve);
        }
        let shared = base.join(format!("{game}-{ranks}"));
        let o = run(Some(ranks), &shared, &[&solve[..], &["--mpi"]].concat());
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains(&format!("mpi:        {ranks} ranks")), "{out}");
        if ranks > 1 {
            // Every tier was handed to a worker, its report timed, and the workers' shares
            // were reported.
            assert!(
                out.contains("rank 2:     tier ") && out.contains("workers:    2, busy"),
                "{out}"
            );
            let handed = out.lines().filter(|l| l.starts_with("rank ") && l.ends_with(')'));
            let timed = out.lines().filter(|l| l.starts_with("rank ") && l.ends_with(" s"));
            assert_eq!(handed.count(), timed.count(), "{out}");
        }
        assert!(
            database(&shared, game, variant) == database(&alone, game, variant),
            "{game} {variant} on {ranks} ranks: the databases differ"
        );
    }
}

/// Under a memory limit that its larger tiers outgrow on their own (or, with `--share-above`,
/// tiers of that many indices), Fuchs und Henne's tiers in parts go to every worker at once: each
/// solves its parts and they trade mail over MPI. The database is the same, byte for byte, as one
/// process's without parts.
#[test]
fn tiers_in_parts_shared_over_the_workers_write_the_same_bytes() {
    let base = scratch("parts");
    let solve = ["solve", "fuchsundhenne", "--variant", "3-hens-goal-3", "--no-analysis"];
    let (alone, shared) = (base.join("alone"), base.join("shared"));
    run(None, &alone, &solve);
    let shared_solve = [&solve[..], &["--memory-limit", "1MiB", "--mpi"]].concat();
    // First the tiers up to (3,12), chosen (two of them in parts); then the rest, resumed.
    let chosen: Vec<String> = (0..=12)
        .map(|r| format!("(2,{r})"))
        .chain((12..=18).map(|r| format!("(3,{r})")))
        .flat_map(|t| ["--tier".to_string(), t])
        .collect();
    let first =
        [&shared_solve[..], &chosen.iter().map(String::as_str).collect::<Vec<_>>()].concat();
    let o = run(Some(4), &shared, &first);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("shared:     tier (3,12) in parts over ranks 1 to 3"), "{out}");
    assert!(!out.contains("tier (3,11)"), "{out}");
    let o = run(Some(4), &shared, &shared_solve);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("resumed:    20 of "), "{out}");
    let parted = out.lines().filter(|l| l.ends_with("in parts over ranks 1 to 3")).count();
    assert!(parted >= 2, "{out}");
    // Every worker reported each shared tier solved.
    for worker in 1..=3 {
        let reports = out
            .lines()
            .filter(|l| l.starts_with(&format!("rank {worker}:")) && l.ends_with(" s"))
            .count();
        assert!(reports >= parted, "rank {worker}: {out}");
    }
    let db = |data: &Path| database(data, "fuchsundhenne", "3-hens-goal-3");
    assert!(db(&alone) == db(&shared), "the databases differ");

    // Without a memory limit, the tiers of at least 300,000 indices are shared, in parts.
    let large = base.join("large");
    let o = run(Some(3), &large, &[&solve[..], &["--share-above", "300000", "--mpi"]].concat());
    let out = String::from_utf8_lossy(&o.stdout);
    let parted = out.lines().filter(|l| l.ends_with("in parts over ranks 1 to 2")).count();
    assert!(parted >= 4 && out.contains("tier (3,9) in parts"), "{out}");
    assert!(!out.contains("tier (3,14) in parts"), "{out}");
    assert!(db(&alone) == db(&large), "the databases differ");
}

/// The pid of the process of MPI rank `rank` whose command line names `data`.
fn pid_of_rank(rank: u32, data: &Path) -> Option<u32> {
    let data = data.to_string_lossy().to_string();
    std::fs::read_dir("/proc").ok()?.flatten().find_map(|e| {
        let pid: u32 = e.file_name().to_str()?.parse().ok()?;
        let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
        let environ = std::fs::read(e.path().join("environ")).ok()?;
        let has = |bytes: &[u8], s: &str| bytes.split(|&b| b == 0).any(|w| w == s.as_bytes());
        let is_rank = has(&environ, &format!("OMPI_COMM_WORLD_RANK={rank}"));
        let ours =
            has(&cmdline, &data) && String::from_utf8_lossy(&cmdline).contains("perfectplay");
        (is_rank && ours).then_some(pid)
    })
}

/// Runs `args` under `mpirun -np ranks` until a line of its output is `at`, then, `wait_ms` later,
/// kills MPI rank `rank`; the run must fail. Every line it printed.
fn kill_rank_once(
    ranks: u32,
    data: &Path,
    args: &[&str],
    at: impl Fn(&str) -> bool,
    wait_ms: u64,
    rank: u32,
) -> Vec<String> {
    let mut child = command(Some(ranks), data, args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mpirun runs");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut seen = Vec::new();
    for line in lines.by_ref() {
        let line = line.expect("a line");
        seen.push(line.clone());
        if at(&line) {
            break;
        }
    }
    assert!(seen.last().is_some_and(|l| at(l)), "{seen:?}");
    std::thread::sleep(std::time::Duration::from_millis(wait_ms));
    let pid = pid_of_rank(rank, data).expect("the rank's process");
    let killed_it = Command::new("kill").args(["-9", &pid.to_string()]).status().unwrap();
    assert!(killed_it.success());
    seen.extend(lines.map_while(Result::ok));
    assert!(!child.wait().unwrap().success(), "the run succeeded with a worker killed: {seen:?}");
    seen
}

#[test]
fn a_killed_worker_fails_the_run_and_a_rerun_finishes_it() {
    let base = scratch("kill");
    let solve = ["solve", "tictactwo", "--variant", "3-marks", "--no-analysis"];
    let (alone, killed) = (base.join("alone"), base.join("killed"));
    run(None, &alone, &solve);

    // Tic-Tac-Two's 3-marks tiers form a chain; the first, (3,3), takes seconds and goes to
    // rank 1, which is killed while it solves it.
    let mpi = [&solve[..], &["--mpi"]].concat();
    let seen = kill_rank_once(3, &killed, &mpi, |l| l == "rank 1:     tier (3,3)", 500, 1);
    // The run's output names the tier the lost worker held; its file was never written.
    assert_eq!(seen.iter().rfind(|l| l.starts_with("rank 1:")).unwrap(), "rank 1:     tier (3,3)");
    assert!(!killed.join("tictactwo").join("3-marks.ppdb").exists());

    // A rerun on another number of ranks finishes with the same bytes.
    let o = run(Some(2), &killed, &[&solve[..], &["--mpi"]].concat());
    assert!(String::from_utf8_lossy(&o.stdout).contains("rank 1:     tier (3,3)"));
    assert!(database(&killed, "tictactwo", "3-marks") == database(&alone, "tictactwo", "3-marks"));
}

/// A worker killed while the workers share a tier in parts fails the run (the others would wait
/// for it); a rerun on fewer ranks resumes from the tier files and the parts kept, and writes the
/// same bytes as one process.
#[test]
fn a_worker_killed_in_a_shared_tier_fails_the_run_and_a_rerun_finishes_it() {
    let base = scratch("kill-shared");
    let solve = ["solve", "fuchsundhenne", "--variant", "3-hens-goal-3", "--no-analysis"];
    let (alone, killed) = (base.join("alone"), base.join("killed"));
    run(None, &alone, &solve);
    let shared = [&solve[..], &["--memory-limit", "1MiB", "--mpi"]].concat();
    kill_rank_once(4, &killed, &shared, |l| l.starts_with("shared:     tier (3,10)"), 0, 2);
    assert!(!killed.join("fuchsundhenne").join("3-hens-goal-3.ppdb").exists());

    let o = run(Some(3), &killed, &shared);
    assert!(String::from_utf8_lossy(&o.stdout).contains("resumed:    "));
    let db = |data: &Path| database(data, "fuchsundhenne", "3-hens-goal-3");
    assert!(db(&killed) == db(&alone), "the databases differ");
}

#[test]
fn games_without_tiers_and_chosen_tiers_not_ready_are_refused() {
    let data = scratch("refused");
    for (ranks, args, expected) in [
        (None, &["solve", "tictactoe", "--mpi"][..], "is not solved by tiers"),
        // (3,2)'s child tier (3,3) is neither chosen nor solved.
        (
            Some(2),
            &["solve", "tictactwo", "--variant", "3-marks", "--mpi", "--tier", "(3,2)"][..],
            "never ready",
        ),
    ] {
        let o = command(ranks, &data, args).output().expect("runs");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains(expected), "{args:?}");
    }
}

/// A damaged tier file is found by the manager's check of the finished tiers (every block against
/// its checksum), removed, and its tier solved again in the same run, which finishes with the same
/// bytes.
#[test]
fn a_damaged_tier_file_is_solved_again() {
    let base = scratch("damaged");
    let solve = ["solve", "tictactwo", "--variant", "3-marks", "--no-analysis"];
    let (alone, damaged) = (base.join("alone"), base.join("damaged"));
    run(None, &alone, &solve);
    run(None, &damaged, &[&solve[..], &["--tier", "(3,3)"]].concat());
    let tiers = damaged.join("tictactwo").join("3-marks.ppdb.tiers");
    let file = std::fs::read_dir(&tiers).unwrap().flatten().next().expect("a tier file").path();
    let mut bytes = std::fs::read(&file).unwrap();
    let middle = bytes.len() / 2;
    for b in &mut bytes[middle..middle + 64] {
        *b ^= 0x5a;
    }
    std::fs::write(&file, bytes).unwrap();

    let o = run(Some(2), &damaged, &[&solve[..], &["--mpi"]].concat());
    let out = String::from_utf8_lossy(&o.stdout);
    let discarded = format!("discarded:  {} failed its checks", file.display());
    assert!(out.contains(&discarded), "{out}");
    assert!(out.contains("rank 1:     tier (3,3)"), "{out}");
    assert!(database(&damaged, "tictactwo", "3-marks") == database(&alone, "tictactwo", "3-marks"));
}

/// `prove --mpi`: the workers answer Quarto 3x3's subproofs, rank 0 keeps the ledger; it proves
/// the start a first-player loss, as the proof in one process does, and every subproof both
/// answered exactly has the same answer in both ledgers.
#[test]
fn proofs_under_mpirun_share_out_subproofs() {
    let base = scratch("prove");
    std::fs::create_dir_all(&*base).unwrap();
    let (one, many) = (base.join("one.tsv"), base.join("many.tsv"));
    let prove = |ledger: &Path| {
        let l = ledger.to_str().unwrap().to_string();
        ["prove", "quarto", "--variant", "3x3", "--depth", "3", "--ledger"]
            .map(String::from)
            .into_iter()
            .chain([l])
    };
    let args: Vec<String> = prove(&one).collect();
    run(None, &base, &args.iter().map(String::as_str).collect::<Vec<_>>());
    let args: Vec<String> = prove(&many).chain(["--mpi".to_string()]).collect();
    let o = run(Some(3), &base, &args.iter().map(String::as_str).collect::<Vec<_>>());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("rank 1:") && out.contains("rank 2:"), "{out}");
    assert!(out.contains("start:      lose (proven)"), "{out}");
    let args: Vec<String> = prove(&many).chain(["--check".to_string()]).collect();
    let o = run(None, &base, &args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(String::from_utf8_lossy(&o.stdout).contains("start:      lose (proven)"));
    let exact = |path: &Path| -> std::collections::HashMap<String, String> {
        let text = std::fs::read_to_string(path).unwrap();
        text.lines()
            .skip(3)
            .filter_map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                (f[1] == f[2]).then(|| (f[0].to_string(), f[1].to_string()))
            })
            .collect()
    };
    let (one, many) = (exact(&one), exact(&many));
    let shared: Vec<&String> = one.keys().filter(|p| many.contains_key(*p)).collect();
    assert!(shared.len() >= 5, "{} subproofs answered exactly by both", shared.len());
    for p in shared {
        assert_eq!(one[p], many[p], "{p}");
    }
}

//! One solve per variant, whichever process runs it: a second solve is refused at once with the
//! holder's pid, the first finishes with the bytes a lone solve writes, a killed solve's lock
//! never blocks, and the server shows (and refuses to repeat) a solve that another process runs,
//! then answers from the database it wrote.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::Server;
use perfectplay_db::SolveLock;

/// A variant that takes a few seconds to solve, so that a second solve can start beside it.
const SLOW: [&str; 4] = ["tictactwo", "--variant", "3-marks", "--no-analysis"];

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("perfectplay-lock-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn command(data: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_perfectplay"));
    c.args(args).env("PERFECTPLAY_DATA", data).env("NO_COLOR", "1");
    c
}

fn run(data: &Path, args: &[&str]) -> Output {
    command(data, args).output().expect("the binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into()
}

fn solve_args(rest: &[&'static str]) -> Vec<&'static str> {
    ["solve"].iter().chain(rest).copied().collect()
}

/// Waits until the variant's lock names `pid` as its holder.
fn wait_for_holder(path: &Path, pid: u32) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while SolveLock::holder(path).unwrap().is_none_or(|h| h.pid != pid) {
        assert!(Instant::now() < deadline, "pid {pid} never took the lock of {}", path.display());
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn a_solve_is_refused_at_once_while_another_holds_the_variant() {
    let data = scratch("held");
    let path = data.join("tictactoe").join("regular.ppdb");
    let lock = SolveLock::acquire(&path, "a test holding the lock").unwrap();
    let asked = Instant::now();
    let o = run(&data, &["solve", "tictactoe"]);
    let took = asked.elapsed();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("tictactoe regular is being solved already"), "{err}");
    assert!(
        err.contains(&format!("pid {} (`a test holding the lock`)", std::process::id())),
        "{err}"
    );
    assert!(took < Duration::from_secs(1), "refused after {took:?}");
    assert!(!path.exists());
    drop(lock);
    let o = run(&data, &["solve", "tictactoe"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(path.exists());
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn of_two_solves_at_once_the_second_is_refused_and_the_first_writes_a_lone_solves_bytes() {
    let (lone, both) = (scratch("lone"), scratch("both"));
    let file = |data: &Path| data.join("tictactwo").join("3-marks.ppdb");
    let o = run(&lone, &solve_args(&SLOW));
    assert!(o.status.success(), "{}", stderr(&o));

    let first = command(&both, &solve_args(&SLOW))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    wait_for_holder(&file(&both), first.id());
    let asked = Instant::now();
    let second = run(&both, &solve_args(&SLOW));
    let took = asked.elapsed();
    let err = stderr(&second);
    assert_eq!(second.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("by pid {} (`perfectplay solve tictactwo", first.id())), "{err}");
    assert!(err.contains(" tier files written"), "{err}");
    assert!(took < Duration::from_secs(1), "refused after {took:?}");

    let first = first.wait_with_output().unwrap();
    assert!(first.status.success(), "{}", stderr(&first));
    assert_eq!(std::fs::read(file(&both)).unwrap(), std::fs::read(file(&lone)).unwrap());
    let _ = std::fs::remove_dir_all(&lone);
    let _ = std::fs::remove_dir_all(&both);
}

#[test]
fn a_killed_solves_lock_never_blocks() {
    let data = scratch("killed");
    let path = data.join("tictactwo").join("3-marks.ppdb");
    let mut child = command(&data, &solve_args(&SLOW))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    wait_for_holder(&path, child.id());
    child.kill().unwrap(); // SIGKILL: nothing of the process's own runs
    child.wait().unwrap();
    assert!(!path.exists(), "the solve finished before it was killed");
    assert!(perfectplay_db::lock_path(&path).exists(), "a killed solve leaves its lock file");
    assert_eq!(SolveLock::holder(&path).unwrap(), None);
    let o = run(&data, &solve_args(&SLOW));
    assert!(o.status.success(), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn the_server_shows_a_solve_another_process_runs_and_refuses_to_start_a_second() {
    let server = Server::start("elsewhere");
    let path = server.data().join("foxandgeese").join("9-geese.ppdb");
    let command = "perfectplay solve foxandgeese --variant 9-geese";
    let lock = SolveLock::acquire(&path, command).unwrap();
    let variant = |listing: &serde_json::Value| {
        listing["variants"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["id"] == "9-geese")
            .cloned()
            .expect("9-geese listed")
    };
    let (status, listing) = server.get("/api/foxandgeese/?all");
    assert_eq!(status, 200);
    let v = variant(&listing);
    assert_eq!(v["status"], "solving", "{v}");
    assert_eq!(v["solving"]["elsewhere"]["pid"], std::process::id(), "{v}");
    assert_eq!(v["solving"]["elsewhere"]["command"], command, "{v}");
    assert!(v["solving"]["phaseTotal"].as_u64().is_some_and(|t| t > 0), "{v}");

    let (status, body) = server.post("/api/foxandgeese/9-geese/solve");
    assert_eq!(status, 409, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(error.contains(&format!("pid {}", std::process::id())), "{error}");

    drop(lock);
    let (_, listing) = server.get("/api/foxandgeese/?all");
    assert_eq!(variant(&listing)["status"], "unsolved");
}

#[test]
fn the_server_answers_from_a_database_another_process_wrote() {
    let server = Server::start("written");
    let (status, before) = server.get("/api/foxandgeese/4-geese/positions/?p=start");
    assert_eq!((status, before["positionValue"].as_str()), (200, Some("unsolved")), "{before}");
    let o = run(server.data(), &["solve", "foxandgeese", "--variant", "4-geese", "--no-analysis"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (status, v) = server.get("/api/foxandgeese/4-geese/");
    assert_eq!(
        (status, v["status"].as_str(), v["source"].as_str()),
        (200, Some("solved"), Some("database")),
        "{v}"
    );
    let (status, p) = server.get("/api/foxandgeese/4-geese/positions/?p=start");
    assert_eq!(status, 200, "{p}");
    assert!(p["moves"].as_array().is_some_and(|m| !m.is_empty()), "{p}");
    assert_ne!(p["positionValue"], "unsolved", "{p}");
}

#[test]
fn a_database_is_not_rewritten_while_its_variant_is_being_solved() {
    let data = scratch("rewrite");
    let o = run(&data, &["solve", "tictactwo", "--variant", "2-marks"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let path = data.join("tictactwo").join("2-marks.ppdb");
    let before = std::fs::read(&path).unwrap();
    let lock = SolveLock::acquire(&path, "a test holding the lock").unwrap();
    let file = path.to_str().unwrap();
    for args in [
        vec!["db", "upgrade", file],
        vec!["db", "prune", file],
        vec!["analyze", "tictactwo", "--variant", "2-marks", "--prune"],
    ] {
        let o = run(&data, &args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(&format!("pid {}", std::process::id())), "{args:?}: {err}");
    }
    assert_eq!(std::fs::read(&path).unwrap(), before);
    drop(lock);
    let o = run(&data, &["db", "prune", file]);
    assert!(o.status.success(), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&data);
}

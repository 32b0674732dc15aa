//! The server's solves: one started from the page (queued, one at a time, at a low CPU priority,
//! with its progress in the variant's listings), and one that another process runs (the CLI's,
//! another server's), seen through the variant's lock: its progress is shown, a second is
//! refused, and once it has written its database the variant answers from it.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::Result;
use axum::extract::{Path as UrlPath, State};
use axum::http::StatusCode;
use axum::Json;
use perfectplay_solve::{Progress, SolveOptions};
use serde_json::{json, Value as JsonValue};

use super::{open_database, Answers, ApiError, AppState, Shared, Variant};
use crate::solving::SolveRequest;

/// A solve started from the page, and its progress (the solver's [`Progress`]).
#[derive(Default)]
pub(super) struct SolveJob {
    status: Mutex<JobStatus>,
}

#[derive(Clone, Default)]
struct JobStatus {
    /// When the solve began (None while queued).
    started: Option<Instant>,
    /// The phase in progress ("tier (3,2): retrograde"), its work done and total.
    phase: String,
    done: u64,
    total: Option<u64>,
    /// The solver's last note: the tier finished, the share of the whole, the time left.
    note: String,
}

impl JobStatus {
    fn to_json(&self) -> JsonValue {
        json!({
            "state": if self.started.is_some() { "solving" } else { "queued" },
            "phase": self.phase,
            "phaseDone": self.done,
            "phaseTotal": self.total,
            "note": self.note,
            "seconds": self.started.map(|s| s.elapsed().as_secs_f64()),
        })
    }
}

impl SolveJob {
    /// Whether it runs (else it waits for the solve before it).
    pub(super) fn is_started(&self) -> bool {
        self.status().started.is_some()
    }
    /// Its progress, as the listings show it.
    pub(super) fn status_json(&self) -> JsonValue {
        self.status().to_json()
    }
    fn status(&self) -> JobStatus {
        self.status.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
    fn update(&self, f: impl FnOnce(&mut JobStatus)) {
        f(&mut self.status.lock().unwrap_or_else(|e| e.into_inner()));
    }
}

impl Progress for SolveJob {
    fn begin(&self, label: &str, total: Option<u64>) {
        self.update(|s| {
            s.phase = label.to_string();
            s.done = 0;
            s.total = total;
        });
    }
    fn advance(&self, amount: u64) {
        self.update(|s| s.done += amount);
    }
    fn end(&self) {}
    fn note(&self, line: &str) {
        self.update(|s| s.note = line.to_string());
    }
}

impl Variant {
    /// Another process's solve of this variant (the CLI's, another server's), if one holds its
    /// lock while it is unsolved here.
    pub(super) fn solved_elsewhere(&self) -> Option<perfectplay_db::Holder> {
        perfectplay_db::SolveLock::holder(&self.path).ok().flatten()
    }

    /// A variant unsolved here may have been solved by another process since: once its database
    /// is there and no solve holds its lock, its answers come from that database.
    pub(super) fn refresh(&self) {
        if !matches!(
            &*self.answers.read().unwrap_or_else(|e| e.into_inner()),
            Answers::Unsolved { .. }
        ) || !self.path.exists()
            || self.solved_elsewhere().is_some()
        {
            return;
        }
        if let Ok(Some(oracle)) = open_database(self.game, &self.store) {
            let mut answers = self.answers.write().unwrap_or_else(|e| e.into_inner());
            if matches!(&*answers, Answers::Unsolved { .. }) {
                *answers = Answers::Ready { oracle: Arc::new(oracle), source: "database" };
            }
        }
    }

    /// The progress of a solve another process runs, in the form of [`JobStatus::to_json`]'s,
    /// with who runs it.
    pub(super) fn elsewhere_json(&self, h: &perfectplay_db::Holder) -> JsonValue {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let (done, total) = crate::solving::tier_progress(self.game, &self.path)
            .map_or((0, None), |(d, t)| (d as u64, Some(t as u64)));
        json!({
            "state": "solving",
            "phase": format!("solved by another process (pid {})", h.pid),
            "phaseDone": done,
            "phaseTotal": total,
            "note": crate::solving::describe_holder(self.game, &self.path, h),
            "seconds": now.saturating_sub(h.started),
            "elsewhere": {"pid": h.pid, "command": h.command, "started": h.started},
        })
    }
}

/// `POST /api/<game>/<variant>/solve`: queues the variant for the background solve (one at a
/// time), which writes its database as `perfectplay solve` does; the variant's listings show the
/// progress, and answers come from the database once it is written.
pub(super) async fn start_solve(
    State(s): Shared,
    UrlPath((game, variant)): UrlPath<(String, String)>,
) -> Result<(StatusCode, Json<JsonValue>), ApiError> {
    let v = s.variant(&game, &variant)?;
    v.refresh();
    if let Some(holder) = v.solved_elsewhere() {
        if matches!(&*v.answers.read().unwrap_or_else(|e| e.into_inner()), Answers::Unsolved { .. })
        {
            let mut body = json!({
                "error": format!(
                    "{game} {variant} is being solved already, by {}",
                    crate::solving::describe_holder(v.game, &v.path, &holder)
                ),
                "expected": "one solve per variant: its progress is in the variant's listing",
            });
            v.status_json(&mut body);
            return Err(ApiError { status: StatusCode::CONFLICT, body });
        }
    }
    let job = {
        let mut answers = v.answers.write().unwrap_or_else(|e| e.into_inner());
        match &*answers {
            Answers::Ready { .. } | Answers::Solving(_) => None,
            Answers::Unsolved { .. } => {
                let job = Arc::new(SolveJob::default());
                *answers = Answers::Solving(job.clone());
                Some(job)
            }
        }
    };
    if let Some(job) = job {
        let state = s.clone();
        std::thread::spawn(move || solve_in_background(&state, &game, &variant, &job));
    }
    let mut o = json!({});
    v.status_json(&mut o);
    Ok((StatusCode::ACCEPTED, Json(o)))
}

/// Runs one queued solve once no other is running, then makes its answers ready (or records why
/// it failed: the variant is then unsolved again, with the error).
fn solve_in_background(s: &AppState, game: &str, variant: &str, job: &SolveJob) {
    let Ok(v) = s.variant(game, variant) else { return };
    let _one_at_a_time = s.solving.lock().unwrap_or_else(|e| e.into_inner());
    job.update(|st| st.started = Some(Instant::now()));
    let command =
        format!("perfectplay serve: a solve started from the page (pid {})", std::process::id());
    let outcome = v
        .store
        .lock(v.game, &command)
        .and_then(|lock| Ok((lock, background_pool()?)))
        .and_then(|(_lock, pool)| {
            pool.install(|| {
                let solve = SolveRequest {
                    game: v.game,
                    path: &v.path,
                    options: SolveOptions::default(),
                    force: false,
                    analysis: true,
                };
                crate::solving::solve_into(solve, job, &mut |_| Ok(()))
            })
        })
        .and_then(|()| {
            open_database(v.game, &v.store)?.ok_or_else(|| {
                anyhow::anyhow!("the solve wrote no database at {}", v.path.display())
            })
        });
    let mut answers = v.answers.write().unwrap_or_else(|e| e.into_inner());
    *answers = match outcome {
        Ok(oracle) => Answers::Ready { oracle: Arc::new(oracle), source: "database" },
        Err(e) => Answers::Unsolved {
            command: format!("perfectplay solve {} --variant {variant}", v.game.id()),
            failed: Some(format!("{e:#}")),
        },
    };
}

/// The threads a background solve runs on: one per core, at a low CPU priority, so that
/// position requests are answered first and a solve takes only the time they leave.
fn background_pool() -> Result<rayon::ThreadPool> {
    Ok(rayon::ThreadPoolBuilder::new()
        .thread_name(|i| format!("solve-{i}"))
        .start_handler(|_| crate::priority::set_niceness(crate::priority::SOLVE))
        .build()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A background solve's thread runs at niceness 10, in the ordinary scheduling class.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_solve_thread_runs_at_niceness_10() {
        let pool = background_pool().unwrap();
        let stat = pool.install(|| std::fs::read_to_string("/proc/thread-self/stat").unwrap());
        // The fields after the command's closing parenthesis start at the third; niceness is
        // the 19th and the scheduling policy the 41st (0: ordinary, 5: idle).
        let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
        assert_eq!((fields[19 - 3], fields[41 - 3]), ("10", "0"), "{stat}");
    }
}

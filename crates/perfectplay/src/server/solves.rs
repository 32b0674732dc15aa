//! The server's solves: one started from the page (queued, one at a time, at a low CPU priority,
//! with its progress in the variant's listings), and one that another process runs (the CLI's,
//! another server's), seen through the variant's lock: its progress is shown, a second is
//! refused, and once it has written its database the variant answers from it.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::Result;
use axum::extract::{Path as UrlPath, State};
use axum::http::StatusCode;
use axum::Json;
use perfectplay_solve::{Progress, SolveOptions};
use serde_json::{json, Value as JsonValue};

use super::cost::{Cost, Rate};
use super::{open_database, Answers, ApiError, AppState, Shared, Variant};
use crate::solving::SolveRequest;

/// A solve started from the page, and its progress (the solver's [`Progress`]).
pub(super) struct SolveJob {
    status: Mutex<JobStatus>,
    /// Its cost, counted when it was asked for.
    cost: Cost,
    /// Asked to stop (cancelled from the page): it stops at the next level of its tier in
    /// progress, and a later solve resumes from the tier files it wrote.
    cancel: AtomicBool,
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
    fn to_json(&self, cost: &Cost) -> JsonValue {
        json!({
            "estimate": cost.seconds(),
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
        let mut o = self.status().to_json(&self.cost);
        o["cancelling"] = json!(self.cancel.load(Relaxed));
        o
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
    fn stopped(&self) -> bool {
        self.cancel.load(Relaxed)
    }
}

impl AppState {
    /// The rates of the solves this server ran (in memory at start-up, or from the page).
    fn rates(&self) -> Vec<Rate> {
        let mut rates = Vec::new();
        for g in &self.games {
            let unlisted = g.unlisted.lock().unwrap_or_else(|e| e.into_inner());
            for v in g.variants.iter().map(|(_, v)| v).chain(unlisted.iter().map(|&(_, v)| v)) {
                rates.extend(v.rate.lock().unwrap_or_else(|e| e.into_inner()).clone());
            }
        }
        rates
    }

    /// What solving `v` will cost here, said before it starts.
    pub(super) fn cost(&self, v: &Variant) -> Cost {
        Cost::new(v.game, v.plan(), &v.path, &self.rates())
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
    let cost = s.cost(v);
    let unsolved =
        matches!(&*v.answers.read().unwrap_or_else(|e| e.into_inner()), Answers::Unsolved { .. });
    if let (true, Some(why)) = (unsolved, cost.refusal()) {
        let mut body = json!({
            "error": format!("a solve of {game} {variant} is refused here: {why}"),
            "expected": "a variant whose solve fits this machine (its `cost` in the listing)",
            "cost": cost.to_json(),
        });
        v.status_json(&mut body);
        return Err(ApiError { status: StatusCode::UNPROCESSABLE_ENTITY, body });
    }
    let job = {
        let mut answers = v.answers.write().unwrap_or_else(|e| e.into_inner());
        match &*answers {
            Answers::Ready { .. } | Answers::Solving(_) => None,
            Answers::Unsolved { .. } => {
                let job = Arc::new(SolveJob {
                    status: Mutex::default(),
                    cost,
                    cancel: AtomicBool::new(false),
                });
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
/// it failed, or what a cancelled solve left: the variant is then unsolved again). A tiered solve
/// holds at most the cost's memory limit, and stores its analysis only where that fits in it
/// (`Cost::analysis_fits`).
fn solve_in_background(s: &AppState, game: &str, variant: &str, job: &SolveJob) {
    let Ok(v) = s.variant(game, variant) else { return };
    let _one_at_a_time = s.solving.lock().unwrap_or_else(|e| e.into_inner());
    let started = Instant::now();
    job.update(|st| st.started = Some(started));
    let command =
        format!("perfectplay serve: a solve started from the page (pid {})", std::process::id());
    let plan = job.cost.plan.as_ref();
    let tiered = v.game.space().is_tiered();
    let options = SolveOptions {
        memory_limit: tiered.then_some(job.cost.memory_limit),
        ..SolveOptions::default()
    };
    // The solve's summary, kept for the listings once it is done.
    let summary = Mutex::new(Vec::new());
    let outcome = v
        .store
        .lock(v.game, &command)
        .and_then(|lock| Ok((lock, background_pool()?)))
        .and_then(|(_lock, pool)| {
            pool.install(|| {
                let solve = SolveRequest {
                    game: v.game,
                    path: &v.path,
                    options,
                    force: false,
                    analysis: plan.is_none() || job.cost.analysis_fits(),
                };
                let mut keep = |line: String| {
                    summary.lock().unwrap_or_else(|e| e.into_inner()).push(line);
                    Ok(())
                };
                crate::solving::solve_into(solve, job, &mut keep)
            })
        })
        .and_then(|()| {
            open_database(v.game, &v.store)?.ok_or_else(|| {
                anyhow::anyhow!("the solve wrote no database at {}", v.path.display())
            })
        });
    let mut answers = v.answers.write().unwrap_or_else(|e| e.into_inner());
    let command = format!("perfectplay solve {} --variant {variant}", v.game.id());
    let summary = summary.into_inner().unwrap_or_else(|e| e.into_inner());
    // A rate only from a solve of every tier here (one that read tiers back would read high).
    let whole = !summary.iter().any(|l| l.starts_with("resumed:") || l.starts_with("shared:"));
    *answers = match outcome {
        Ok(oracle) => {
            if let (Some(plan), true) = (plan, whole) {
                let seconds = started.elapsed().as_secs_f64();
                let rate = Rate {
                    game: v.game.id(),
                    variant: variant.into(),
                    indices: plan.indices,
                    seconds,
                };
                *v.rate.lock().unwrap_or_else(|e| e.into_inner()) = Some(rate);
            }
            *v.last_solve.lock().unwrap_or_else(|e| e.into_inner()) = summary;
            Answers::Ready { oracle: Arc::new(oracle), source: "database" }
        }
        Err(e) if job.cancel.load(Relaxed) && stopped(&e) => {
            let kept = crate::solving::tier_progress(v.game, &v.path)
                .map_or(String::new(), |(done, all)| format!(" ({done} of {all} tier files)"));
            let stopped = format!(
                "cancelled after {:.0} s; a new solve resumes from what it wrote{kept}",
                started.elapsed().as_secs_f64()
            );
            Answers::Unsolved { command, failed: None, stopped: Some(stopped) }
        }
        Err(e) => Answers::Unsolved { command, failed: Some(format!("{e:#}")), stopped: None },
    };
}

/// Whether a solve's error is its stop, as asked.
fn stopped(e: &anyhow::Error) -> bool {
    e.chain().any(|c| matches!(c.downcast_ref(), Some(perfectplay_solve::SolveError::Stopped)))
}

/// `POST /api/<game>/<variant>/solve/cancel`: stops the page's solve of the variant, queued or
/// running (a running one at the next level of its tier in progress); what it wrote stays, and
/// a new solve resumes from it.
pub(super) async fn cancel_solve(
    State(s): Shared,
    UrlPath((game, variant)): UrlPath<(String, String)>,
) -> Result<(StatusCode, Json<JsonValue>), ApiError> {
    let v = s.variant(&game, &variant)?;
    match &*v.answers.read().unwrap_or_else(|e| e.into_inner()) {
        Answers::Solving(job) => job.cancel.store(true, Relaxed),
        _ => {
            return Err(ApiError {
                status: StatusCode::CONFLICT,
                body: json!({
                    "error": format!("no solve of {game} {variant} started from the page runs"),
                    "expected": "a variant being solved from the page (status solving or queued)",
                }),
            })
        }
    }
    let mut o = json!({});
    v.status_json(&mut o);
    Ok((StatusCode::ACCEPTED, Json(o)))
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

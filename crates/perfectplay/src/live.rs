//! Live searches for the server (a game searched live rather than solved: Quarto): each position
//! asked about is searched on a thread of its own, so no request waits on another's search; a
//! request waits a moment for the answer, else answers with the search's progress, and the page
//! asks again.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use perfectplay_core::Position;
use perfectplay_solve::Progress;
use serde_json::{json, Value as JsonValue};

use crate::oracle::{Oracle, PositionReport};

/// How long a request waits for a search before it answers with the progress.
const WAIT: Duration = Duration::from_millis(250);

/// Finished searches kept for later requests (the page asks for the positions it shows again).
const KEEP: usize = 512;

/// A search nobody has asked about for this long stops (the page moved on).
const ABANDONED: Duration = Duration::from_secs(10);

/// Searches running at once: past this many, a new one stops the one asked about least lately
/// if nobody has asked about it for [`IDLE`] (each search uses every core, so more would only
/// share them; a search somebody is waiting for is never stopped for another).
const RUNNING: usize = 4;

/// How long a search is not asked about before a new one may stop it (the page asks every 300 ms
/// while it shows the position).
const IDLE: Duration = Duration::from_secs(2);

/// One position's search: its progress (moves searched of the moves there are) and its answer.
#[derive(Default)]
struct Job {
    started: Option<Instant>,
    last_asked: Option<Instant>,
    /// Told to stop (to make room for a newer search).
    stop: bool,
    /// It stopped before it ended (told to, or abandoned): asked again, it starts again.
    stopped: bool,
    done: u64,
    total: Option<u64>,
    answer: Option<Result<PositionReport, String>>,
}

#[derive(Default)]
struct Shared(Mutex<Job>);

impl Shared {
    fn update(&self, f: impl FnOnce(&mut Job)) {
        f(&mut self.0.lock().unwrap_or_else(|e| e.into_inner()));
    }
}

impl Progress for Shared {
    fn begin(&self, _label: &str, total: Option<u64>) {
        self.update(|j| {
            j.done = 0;
            j.total = total;
        });
    }
    fn advance(&self, amount: u64) {
        self.update(|j| j.done += amount);
    }
    fn end(&self) {}
}

/// What a request gets.
pub enum Answer {
    /// The search is done.
    Ready(PositionReport),
    /// Still searching: the progress, as JSON (`done`, `total`, `seconds`).
    Searching(JsonValue),
}

/// The searches under way and those done lately, by variant and position.
#[derive(Default)]
pub struct LiveSearches {
    jobs: Mutex<HashMap<(String, u64), Arc<Shared>>>,
}

impl std::fmt::Debug for LiveSearches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveSearches").finish_non_exhaustive()
    }
}

impl LiveSearches {
    /// The answer for `p` of the variant named `key`: from a search done before, or from one
    /// started now (or under way) if it ends within [`WAIT`]; else the search's progress.
    pub async fn answer(
        &self,
        key: &str,
        oracle: &Arc<Oracle<'static>>,
        p: Position,
    ) -> Result<Answer, String> {
        let job = self.job(key, oracle, p);
        let waited = Instant::now();
        loop {
            {
                let mut j = job.0.lock().unwrap_or_else(|e| e.into_inner());
                j.last_asked = Some(Instant::now());
                if let Some(answer) = &j.answer {
                    if !j.stopped {
                        return answer.clone().map(Answer::Ready);
                    }
                }
                if j.stopped || waited.elapsed() >= WAIT {
                    return Ok(Answer::Searching(json!({
                        "done": j.done,
                        "total": j.total,
                        "seconds": j.started.map(|s| s.elapsed().as_secs_f64()),
                    })));
                }
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }

    /// The search of `p`, started if there is none (or the last one failed or was stopped).
    fn job(&self, key: &str, oracle: &Arc<Oracle<'static>>, p: Position) -> Arc<Shared> {
        let mut jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(job) = jobs.get(&(key.to_string(), p.0)) {
            let failed = job.0.lock().map_or(true, |j| matches!(j.answer, Some(Err(_))));
            if !failed {
                return job.clone();
            }
        }
        if jobs.len() >= KEEP {
            jobs.retain(|_, j| j.0.lock().map_or(true, |j| j.answer.is_none()));
        }
        let running: Vec<&Arc<Shared>> = jobs
            .values()
            .filter(|j| j.0.lock().is_ok_and(|j| j.answer.is_none() && !j.stop))
            .collect();
        if running.len() >= RUNNING {
            let asked = |j: &&&Arc<Shared>| j.0.lock().ok().and_then(|j| j.last_asked);
            if let Some(oldest) = running.iter().min_by_key(asked) {
                if asked(&oldest).is_some_and(|t| t.elapsed() > IDLE) {
                    oldest.update(|j| j.stop = true);
                }
            }
        }
        let job = Arc::new(Shared::default());
        job.update(|j| (j.started, j.last_asked) = (Some(Instant::now()), Some(Instant::now())));
        jobs.insert((key.to_string(), p.0), job.clone());
        let (oracle, searching) = (oracle.clone(), job.clone());
        std::thread::spawn(move || {
            let abandoned = || {
                let j = searching.0.lock().unwrap_or_else(|e| e.into_inner());
                j.stop || j.last_asked.is_some_and(|t| t.elapsed() > ABANDONED)
            };
            let answer = oracle.report_live(p, &*searching, &abandoned);
            let stopped = answer.as_ref().is_err_and(|e| {
                matches!(e.downcast_ref(), Some(perfectplay_solve::SolveError::Stopped))
            });
            searching.update(|j| {
                j.stopped = stopped;
                j.answer = Some(answer.map_err(|e| format!("{e:#}")));
            });
        });
        job
    }
}

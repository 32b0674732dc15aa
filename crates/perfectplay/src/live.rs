//! Live searches for the server (a game searched live rather than solved: Quarto). Each position
//! asked about gets a search of its own, bounded three ways:
//! - at most [`RUNNING`] run at once: each runs on every core with tables of 2^[`TABLE_BITS`]
//!   entries of 24 bytes in all (96 MiB), so they hold at most [`RUNNING`] x 96 MiB;
//! - the rest wait in a queue of at most [`QUEUED`], taken in turn by client (the one with the
//!   fewest searches running goes next), and one client has at most [`PER_CLIENT`] running or
//!   waiting;
//! - past that, a request is answered [`Answer::Busy`] with the seconds after which to try again
//!   (HTTP 503 with `Retry-After`).
//!
//! A request waits a moment for its answer, else answers with the search's progress (or that it
//! waits its turn), and the page asks again. A search nobody asks about for [`ABANDONED`] stops;
//! one nobody asked about for [`IDLE`] is stopped when another waits for its place.
//!
//! [`TABLE_BITS`]: perfectplay_solve::TABLE_BITS

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use perfectplay_core::{Position, ValueRemoteness};
use perfectplay_solve::Progress;
use serde_json::{json, Value as JsonValue};

use crate::oracle::{Oracle, PositionReport};

/// How long a request waits for a search before it answers with the progress.
const WAIT: Duration = Duration::from_millis(250);

/// Finished searches kept for later requests (the page asks for the positions it shows again).
const KEEP: usize = 512;

/// A search nobody has asked about for this long stops (the page moved on).
const ABANDONED: Duration = Duration::from_secs(10);

/// Searches running at once, at most: each uses every core, so more would only share them.
pub const RUNNING: usize = 2;

/// Searches waiting for their turn, at most.
pub const QUEUED: usize = 16;

/// Searches one client (an IP address) has running or waiting, at most.
pub const PER_CLIENT: usize = 4;

/// How long a search is not asked about before one that waits may take its place (the page asks
/// every 300 ms while it shows the position).
const IDLE: Duration = Duration::from_secs(2);

/// The longest `Retry-After` given.
const MOST_RETRY: f64 = 60.0;

/// One position's search: its progress (moves searched of the moves there are) and its answer.
#[derive(Default)]
struct Job {
    /// Who asked for it first.
    client: Option<IpAddr>,
    /// When it started (None while it waits its turn).
    started: Option<Instant>,
    last_asked: Option<Instant>,
    /// Told to stop (to make room for a search that waits).
    stop: bool,
    /// It stopped before it ended (told to, or abandoned): asked again, it starts again.
    stopped: bool,
    done: u64,
    total: Option<u64>,
    /// The children's values found so far.
    known: HashMap<Position, ValueRemoteness>,
    answer: Option<Result<PositionReport, String>>,
}

#[derive(Default)]
struct Shared(Mutex<Job>);

impl Shared {
    fn job(&self) -> MutexGuard<'_, Job> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
    fn update(&self, f: impl FnOnce(&mut Job)) {
        f(&mut self.job());
    }
    /// Whether asked again it starts again (it failed or was stopped).
    fn over(&self) -> bool {
        matches!(self.job().answer, Some(Err(_)))
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
    /// Still searching, or waiting its turn: the progress, as JSON (`done`, `total`, `seconds`,
    /// `queued`), and the children's values found so far.
    Searching(JsonValue, HashMap<Position, ValueRemoteness>),
    /// Too many searches running and waiting: ask again after this many seconds.
    Busy { retry_after: u64, why: String },
}

/// A search that waits for its turn.
struct Waiting {
    client: IpAddr,
    job: Arc<Shared>,
    oracle: Arc<Oracle<'static>>,
    position: Position,
}

/// The searches: under way, waiting, and done lately.
#[derive(Default)]
struct Searches {
    jobs: HashMap<(String, u64), Arc<Shared>>,
    queue: VecDeque<Waiting>,
    /// Searches running, by client.
    running: HashMap<IpAddr, usize>,
    /// The mean time of a finished search lately (for `Retry-After`), if any finished.
    seconds: Option<f64>,
}

/// The searches under way and those done lately, by variant and position.
#[derive(Default)]
pub struct LiveSearches {
    inner: Arc<Mutex<Searches>>,
}

impl std::fmt::Debug for LiveSearches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveSearches").finish_non_exhaustive()
    }
}

/// The place in `queue` (the waiting searches' clients, first come first) that goes next: the
/// first of the clients with the fewest searches running.
fn next_turn(
    queue: impl Iterator<Item = IpAddr>,
    running: &HashMap<IpAddr, usize>,
) -> Option<usize> {
    queue
        .enumerate()
        .min_by_key(|&(i, client)| (running.get(&client).copied().unwrap_or(0), i))
        .map(|(i, _)| i)
}

impl Searches {
    fn running(&self) -> usize {
        self.running.values().sum()
    }

    /// The searches `client` asked for that run or wait and that it asked about lately (one
    /// it moved on from does not count against it).
    fn held_by(&self, client: IpAddr) -> usize {
        let lately = |j: &Job| j.last_asked.is_some_and(|t| t.elapsed() <= IDLE);
        self.jobs
            .values()
            .filter(|j| {
                let j = j.job();
                j.client == Some(client) && j.answer.is_none() && !j.stop && lately(&j)
            })
            .count()
    }

    /// Seconds after which a place is likely free: a search's time for each round of [`RUNNING`]
    /// ahead.
    fn retry_after(&self) -> u64 {
        let rounds = (self.queue.len() / RUNNING + 1) as f64;
        (self.seconds.unwrap_or(2.0) * rounds).clamp(1.0, MOST_RETRY).ceil() as u64
    }

    /// Stops the running search asked about least lately, if nobody asked about it for [`IDLE`].
    fn stop_idle(&self) {
        let running: Vec<&Arc<Shared>> = self
            .jobs
            .values()
            .filter(|j| {
                let j = j.job();
                j.started.is_some() && j.answer.is_none() && !j.stop
            })
            .collect();
        let asked = |j: &Arc<Shared>| j.job().last_asked;
        if let Some(oldest) = running.into_iter().min_by_key(|j| asked(j)) {
            if asked(oldest).is_some_and(|t| t.elapsed() > IDLE) {
                oldest.update(|j| j.stop = true);
            }
        }
    }

    /// Drops the finished searches once there are [`KEEP`] of them, and the waiting ones nobody
    /// asks about any more (asked again, they start again).
    fn forget(&mut self) {
        if self.jobs.len() >= KEEP {
            self.jobs.retain(|_, j| j.job().answer.is_none());
        }
        self.queue.retain(|w| {
            let abandoned = w.job.job().last_asked.is_some_and(|t| t.elapsed() > ABANDONED);
            if abandoned {
                w.job.update(|j| {
                    j.stopped = true;
                    j.answer = Some(Err("not asked about lately".into()));
                });
            }
            !abandoned
        });
    }
}

impl LiveSearches {
    /// The answer for `p` of the variant named `key`, asked by `client`: from a search done
    /// before, or from one started now (or under way) if it ends within [`WAIT`]; else the
    /// search's progress; or busy, when no search can start or wait for `client` now.
    pub async fn answer(
        &self,
        key: &str,
        client: IpAddr,
        oracle: &Arc<Oracle<'static>>,
        p: Position,
    ) -> Result<Answer, String> {
        let job = match self.job(key, client, oracle, p) {
            Ok(job) => job,
            Err((retry_after, why)) => return Ok(Answer::Busy { retry_after, why }),
        };
        let waited = Instant::now();
        loop {
            {
                let mut j = job.job();
                j.last_asked = Some(Instant::now());
                if let Some(answer) = &j.answer {
                    if !j.stopped {
                        return answer.clone().map(Answer::Ready);
                    }
                }
                if j.stopped || waited.elapsed() >= WAIT {
                    let progress = json!({
                        "done": j.done,
                        "total": j.total,
                        "seconds": j.started.map(|s| s.elapsed().as_secs_f64()),
                        "queued": j.started.is_none() && !j.stopped,
                    });
                    return Ok(Answer::Searching(progress, j.known.clone()));
                }
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }

    /// How many searches run and wait now.
    pub fn load(&self) -> (usize, usize) {
        let s = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        (s.running(), s.queue.len())
    }

    /// The search of `p`, queued if there is none (or the last one failed or was stopped); the
    /// seconds to wait and why, if it can neither run nor wait.
    fn job(
        &self,
        key: &str,
        client: IpAddr,
        oracle: &Arc<Oracle<'static>>,
        p: Position,
    ) -> Result<Arc<Shared>, (u64, String)> {
        let mut s = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let id = (key.to_string(), p.0);
        if let Some(job) = s.jobs.get(&id) {
            if !job.over() {
                return Ok(job.clone());
            }
        }
        s.forget();
        if s.running() >= RUNNING {
            s.stop_idle();
        }
        if s.held_by(client) >= PER_CLIENT {
            let why = format!("you have {PER_CLIENT} positions searched or waiting already");
            return Err((s.retry_after(), why));
        }
        if s.running() >= RUNNING && s.queue.len() >= QUEUED {
            let why = format!("{RUNNING} searches run and {QUEUED} wait");
            return Err((s.retry_after(), why));
        }
        let job = Arc::new(Shared::default());
        job.update(|j| (j.client, j.last_asked) = (Some(client), Some(Instant::now())));
        s.jobs.insert(id, job.clone());
        s.queue.push_back(Waiting {
            client,
            job: job.clone(),
            oracle: oracle.clone(),
            position: p,
        });
        dispatch(&self.inner, &mut s);
        Ok(job)
    }
}

/// Starts waiting searches, in turn, while fewer than [`RUNNING`] run.
fn dispatch(inner: &Arc<Mutex<Searches>>, s: &mut Searches) {
    while s.running() < RUNNING {
        let Some(turn) = next_turn(s.queue.iter().map(|w| w.client), &s.running) else { break };
        let Some(w) = s.queue.remove(turn) else { break };
        *s.running.entry(w.client).or_default() += 1;
        let started = Instant::now();
        w.job.update(|j| j.started = Some(started));
        let inner = inner.clone();
        std::thread::spawn(move || {
            // Below requests, above solves; the search's own threads inherit it.
            crate::priority::set_niceness(crate::priority::LIVE_SEARCH);
            let searching = &w.job;
            let abandoned = || {
                let j = searching.job();
                j.stop || j.last_asked.is_some_and(|t| t.elapsed() > ABANDONED)
            };
            let found = |child: Position, v: ValueRemoteness| {
                searching.update(|j| {
                    j.known.insert(child, v);
                });
            };
            let answer = w.oracle.report_live(w.position, &**searching, &abandoned, &found);
            let stopped = answer.as_ref().is_err_and(|e| {
                matches!(e.downcast_ref(), Some(perfectplay_solve::SolveError::Stopped))
            });
            searching.update(|j| {
                j.stopped = stopped;
                j.answer = Some(answer.map_err(|e| format!("{e:#}")));
            });
            let mut s = inner.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(n) = s.running.get_mut(&w.client) {
                *n -= 1;
                if *n == 0 {
                    s.running.remove(&w.client);
                }
            }
            if !stopped {
                let secs = started.elapsed().as_secs_f64();
                s.seconds = Some(s.seconds.map_or(secs, |mean| 0.8 * mean + 0.2 * secs));
            }
            dispatch(&inner, &mut s);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_turn_goes_to_the_client_with_fewest_searches_running_then_the_first_come() {
        let (a, b, c): (IpAddr, IpAddr, IpAddr) =
            ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap(), "10.0.0.3".parse().unwrap());
        let none = HashMap::new();
        assert_eq!(next_turn([a, a, b].into_iter(), &none), Some(0));
        assert_eq!(next_turn(std::iter::empty(), &none), None);
        // a runs one: b's, though it came later, goes first; then c's (first come among zero).
        let running = HashMap::from([(a, 1)]);
        assert_eq!(next_turn([a, a, b].into_iter(), &running), Some(2));
        assert_eq!(next_turn([a, c, b].into_iter(), &running), Some(1));
        let running = HashMap::from([(a, 1), (b, 2)]);
        assert_eq!(next_turn([b, a, b].into_iter(), &running), Some(1));
    }

    #[test]
    fn retry_after_grows_with_the_queue_within_bounds() {
        let mut s = Searches { seconds: Some(3.0), ..Searches::default() };
        assert_eq!(s.retry_after(), 3);
        s.seconds = Some(0.01);
        assert_eq!(s.retry_after(), 1);
        s.seconds = Some(1000.0);
        assert_eq!(s.retry_after(), MOST_RETRY as u64);
    }
}

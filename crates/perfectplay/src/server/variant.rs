//! A variant as the server holds it: where its answers come from (a database with its block
//! cache, a solve in memory, a live search, or not yet), and its status in the listings.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::Instant;

use anyhow::Result;
use perfectplay_core::{Game, GameExt, SizeClass};
use perfectplay_solve::{SolveOptions, SolvePlan};
use serde_json::{json, Value as JsonValue};

use super::cost::Rate;
use super::SolveJob;
use crate::oracle::Oracle;
use crate::store::Store;
use crate::uwapi;

/// Decoded database blocks the server keeps per variant, at least: 256 MiB holds 5,400 of Five
/// Field Kono's 36,292 blocks (a sixth of the file). See [`cache_budget`].
const SERVER_CACHE_BYTES: usize = 256 << 20;

/// The block cache of a database file of `file_len` bytes: twice the file (blocks decode to
/// about three times their compressed size), at least [`SERVER_CACHE_BYTES`] and at most a
/// quarter of the machine's memory. A large game's answer reads a block per child (Nine Men's
/// Morris: about 25, spread over a 9.8 GB file), and a miss costs a whole block's decode.
fn cache_budget(file_len: u64) -> usize {
    let memory = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            let line = m.lines().find(|l| l.starts_with("MemTotal:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kib| kib << 10)
        })
        .unwrap_or(0);
    let wanted = file_len.saturating_mul(2).min(memory / 4);
    usize::try_from(wanted).unwrap_or(usize::MAX).max(SERVER_CACHE_BYTES)
}

/// One variant and where its answers come from.
pub(super) struct Variant {
    pub(super) game: &'static dyn Game,
    /// Where its database is (or will be, once solved from the page).
    pub(super) path: PathBuf,
    /// The data directory it lives in.
    pub(super) store: Store,
    pub(super) answers: RwLock<Answers>,
    /// The Image AutoGUI data as the API sends it, built once.
    pub(super) theme: Option<JsonValue>,
    /// How its AutoGUI maps onto GamesmanUni's.
    pub(super) map: uwapi::Mapping,
    /// Whether some moves come in parts.
    pub(super) multipart: bool,
    /// Its solve's size, counted once when first asked ([`perfectplay_solve::plan`]).
    plan: OnceLock<Option<SolvePlan>>,
    /// Its solve's rate, where this server solved it (in memory at start-up, or from the page).
    pub(super) rate: Mutex<Option<Rate>>,
    /// The summary of its solve from the page (`perfectplay solve`'s lines), once it is done.
    pub(super) last_solve: Mutex<Vec<String>>,
}

/// A variant's answers: ready, not solved, or being solved in the background.
pub(super) enum Answers {
    /// From a database or a solve in memory (`source`: "database" or "memory").
    Ready { oracle: Arc<Oracle<'static>>, source: &'static str },
    /// Not solved; `command` solves it from a shell, or the page asks the server to. `failed`:
    /// why the last solve from the page failed; `stopped`: what the last one, cancelled, left.
    Unsolved { command: String, failed: Option<String>, stopped: Option<String> },
    /// Queued for, or in, the server's one background solve at a time.
    Solving(Arc<SolveJob>),
}

impl Variant {
    /// A variant's answers: from its database if there is one, searched live where the game is,
    /// solved in memory if it is small, else unsolved with the command that solves it.
    pub(super) fn load(store: &Store, game: &'static dyn Game, log: bool) -> Result<Variant> {
        let v = game.variant();
        let (theme, map) = match game.image_autogui() {
            Some(t) => {
                let (json, map) = uwapi::theme(game, &t);
                (Some(json), map)
            }
            None => (None, uwapi::Mapping::default()),
        };
        let path = store.path(game);
        let mut rate = None;
        let answers = if let Some(oracle) = open_database(game, store)? {
            Answers::Ready { oracle: Arc::new(oracle), source: "database" }
        } else if Oracle::searched_live(game) {
            Answers::Ready { oracle: Arc::new(Oracle::live(game)), source: "live" }
        } else if game.size_class() == SizeClass::Small {
            let started = Instant::now();
            let oracle = Oracle::solve_quietly(game, SolveOptions::default())?;
            let secs = started.elapsed().as_secs_f64();
            if log {
                eprintln!("solved {} {v} in memory ({secs:.2} s)", game.id());
            }
            // A rate measured here, for the time a larger solve will take.
            rate = perfectplay_solve::plan(game).map(|plan| Rate {
                game: game.id(),
                variant: v.to_string(),
                indices: plan.indices,
                seconds: secs,
            });
            Answers::Ready { oracle: Arc::new(oracle), source: "memory" }
        } else {
            let command = format!("perfectplay solve {} --variant {v}", game.id());
            Answers::Unsolved { command, failed: None, stopped: None }
        };
        Ok(Variant {
            game,
            path,
            store: store.clone(),
            answers: RwLock::new(answers),
            theme,
            map,
            multipart: game.is_multipart(),
            plan: OnceLock::new(),
            rate: Mutex::new(rate),
            last_solve: Mutex::new(Vec::new()),
        })
    }

    /// Its solve's size ([`perfectplay_solve::plan`]), counted on the first call.
    pub(super) fn plan(&self) -> Option<SolvePlan> {
        self.plan.get_or_init(|| perfectplay_solve::plan(self.game)).clone()
    }

    pub(super) fn status(&self) -> &'static str {
        match &*self.answers.read().unwrap_or_else(|e| e.into_inner()) {
            Answers::Ready { .. } => "solved",
            Answers::Unsolved { .. } => "unsolved",
            Answers::Solving(job) => {
                if job.is_started() {
                    "solving"
                } else {
                    "queued"
                }
            }
        }
    }

    /// The status fields of the listings: `status`, `source`, and `solveCommand`, `solveError`
    /// or `solving` (the progress) where they apply.
    pub(super) fn status_json(&self, o: &mut JsonValue) {
        self.refresh();
        o["status"] = json!(self.status());
        let answers = self.answers.read().unwrap_or_else(|e| e.into_inner());
        let elsewhere = match &*answers {
            Answers::Unsolved { .. } => self.solved_elsewhere(),
            _ => None,
        };
        if let Some(holder) = elsewhere {
            o["status"] = json!("solving");
            o["source"] = json!("unsolved");
            o["solving"] = self.elsewhere_json(&holder);
            return;
        }
        match &*answers {
            Answers::Ready { source, .. } => {
                o["source"] = json!(source);
                let summary = self.last_solve.lock().unwrap_or_else(|e| e.into_inner());
                if !summary.is_empty() {
                    o["solvedHere"] = json!(*summary);
                }
            }
            Answers::Unsolved { command, failed, stopped } => {
                o["source"] = json!("unsolved");
                o["solveCommand"] = json!(command);
                if let Some(e) = failed {
                    o["solveError"] = json!(e);
                }
                if let Some(s) = stopped {
                    o["solveStopped"] = json!(s);
                }
            }
            Answers::Solving(job) => {
                o["source"] = json!("unsolved");
                o["solving"] = job.status_json();
            }
        }
    }

    pub(super) fn oracle(&self) -> Option<Arc<Oracle<'static>>> {
        self.refresh();
        match &*self.answers.read().unwrap_or_else(|e| e.into_inner()) {
            Answers::Ready { oracle, .. } => Some(oracle.clone()),
            _ => None,
        }
    }
}

/// A variant's answers from its database, opened with the server's block cache; `None` where it
/// has none.
pub(super) fn open_database(
    game: &'static dyn Game,
    store: &Store,
) -> Result<Option<Oracle<'static>>> {
    let db = store.database_cached(game, cache_budget)?;
    Ok(db.map(|db| Oracle::from_database(game, db)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_cache_grows_with_the_file_up_to_a_quarter_of_memory() {
        assert_eq!(cache_budget(1 << 20), SERVER_CACHE_BYTES);
        let big = cache_budget(1 << 34);
        assert!(big >= SERVER_CACHE_BYTES);
        if let Some(kib) = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|m| m.lines().next()?.split_whitespace().nth(1)?.parse::<usize>().ok())
        {
            assert!(big <= (kib << 10) / 4 || big == SERVER_CACHE_BYTES, "{big}");
        }
    }
}

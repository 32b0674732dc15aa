//! `perfectplay solve GAME --mpi` under `mpirun -np N`: the tier solver across processes and
//! machines (cargo feature `mpi`). Rank 0 manages: it hands each worker a tier whose child tiers
//! are solved, and the next when the worker reports back (solve / report / terminate messages,
//! as GamesmanOne's tier manager). Workers solve their tier on every core of their machine, read
//! its child tiers from the shared directory's tier files and write its own there, exactly as
//! `solve --tier` does. When every tier is solved, rank 0 writes the database from the tier
//! files, as a resumed solve does, so the bytes are the same as a solve in one process.
//!
//! A tier that outgrows `--memory-limit` on its own, or has at least `--share-above` indices, is
//! solved in parts, and its parts are shared over every worker: the manager lets the running
//! tiers finish, then hands that tier to all of them. Each initialises and solves the parts it
//! owns; between two levels of the retrograde rounds they trade the mail for each other's parts
//! over MPI (`distributed/ranks.rs`), and the first worker gathers the values and writes the
//! tier's file. Only then is the next tier handed out.
//!
//! Faults: a worker that dies leaves its tier without a file (files are written to a temporary
//! name and renamed), and MPI ends the run with a failure; the manager has named each tier as it
//! handed it out. A rerun, with any number of ranks or without MPI, finds the finished tiers and
//! solves the rest; a damaged tier file is found when it is read back, removed and solved again.
//! A tier shared over the workers fails them all (a worker that fails it ends the run), and a
//! rerun resumes it from the parts each had initialised, whatever the number of ranks.

pub mod proof;
mod ranks;

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use mpi::point_to_point::MatchedReceiveVec;
use mpi::traits::{Communicator, Destination, Source};
use perfectplay_core::{Game, GameExt, Tier};
use perfectplay_db::TierFiles;
use perfectplay_solve::{shared_over_ranks, Progress, ResultSink, SolveOptions};

use crate::solving::{self, SolveRequest};

/// Messages, each two words: what, and the tier.
const SOLVE: u64 = 1;
const SOLVED: u64 = 2;
const FAILED: u64 = 3;
const TERMINATE: u64 = 4;
/// A tier in parts, handed to every worker at once.
const SHARE: u64 = 5;

/// Solves `game` into `path` as [`solving::solve_into`] does, with the tiers shared out over the
/// ranks of the MPI run. Every rank calls it; rank 0 writes the summary to `out`.
pub fn solve_into(
    job: SolveRequest<'_>,
    progress: &dyn Progress,
    out: &mut dyn FnMut(String) -> std::io::Result<()>,
) -> Result<()> {
    let SolveRequest { game, path, options, force, analysis } = job;
    if !game.space().is_tiered() {
        bail!("--mpi: {} is not solved by tiers; solve it without --mpi", game.id());
    }
    let universe = mpi::initialize().context("--mpi: MPI could not be initialized")?;
    let world = universe.world();
    let (rank, size) = (world.rank(), world.size());
    if rank != 0 {
        if let Err(e) = work(game, path, &options, analysis, &world) {
            // The manager would wait for this worker's report forever: end the whole run.
            eprintln!("error: {e:#}");
            world.abort(2);
        }
        return Ok(());
    }
    // One solve per variant: the manager holds the variant's lock for the whole run.
    let _lock = match solving::lock(game, path, &solving::command_line()) {
        Ok(lock) => lock,
        Err(e) => {
            stop(&world);
            return Err(e);
        }
    };
    let started = Instant::now();
    if size > 1 {
        match manage(game, path, force, &options, &world, out) {
            // Every worker is idle: they are stopped, and the run ends as the manager found, its
            // error, if any, the exit status of rank 0 and so of `mpirun`. (`MPI_Abort` is kept
            // for busy workers: OpenMPI 4.1.4's `mpirun` died of a segmentation fault after an
            // abort in 1 of 60 refused runs, six at a time on 2 cores; 0 of 120 ended so.)
            Ok(outcome) => {
                stop(&world);
                outcome?;
            }
            Err(e) => {
                // Workers may still solve a tier; ending the run ends them too.
                eprintln!("error: {e:#}");
                world.abort(2);
            }
        }
    } else {
        out("mpi:        one rank: it solves every tier itself".into())?;
    }
    // Every tier has its file now (or, with one rank, is solved here): the database from them.
    let force = force && size == 1;
    solving::solve_into(SolveRequest { game, path, options, force, analysis }, progress, out)?;
    out(format!("mpi:        {size} ranks, {:.2} s in all", started.elapsed().as_secs_f64()))?;
    Ok(())
}

/// Tells every worker, each idle, to stop.
fn stop(world: &mpi::topology::SimpleCommunicator) {
    for worker in 1..world.size() {
        world.process_at_rank(worker).send(&[TERMINATE, 0][..]);
    }
}

/// The next message from `source`, waited for without spinning: MPI's blocking receive polls,
/// holding a core that a worker on the same machine needs (measured: Tic-Tac-Two on 2 ranks took
/// 282 s against 185 s on one).
fn receive<S: Source>(source: &S) -> (Vec<u64>, mpi::point_to_point::Status) {
    loop {
        if let Some(probed) = source.immediate_matched_probe() {
            return probed.matched_receive_vec::<u64>();
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

/// A worker's progress: its notes (a tier's parts, its time) on standard error, after its rank.
struct Notes(i32);

impl Progress for Notes {
    fn begin(&self, _label: &str, _total: Option<u64>) {}
    fn advance(&self, _amount: u64) {}
    fn end(&self) {}
    fn note(&self, line: &str) {
        eprintln!("rank {}: {line}", self.0);
    }
}

/// A worker: solves each tier it is handed into its tier file and reports, until told to stop.
/// Where the run stores the analysis, only what the start reaches, as one process does: the
/// worker searches it first, before its first tier (a tier shared in parts is solved whole).
fn work(
    game: &dyn Game,
    path: &Path,
    options: &SolveOptions,
    analysis: bool,
    world: &mpi::topology::SimpleCommunicator,
) -> Result<()> {
    let manager = world.process_at_rank(0);
    let mut reached = None;
    let mut searched = false;
    loop {
        let (message, _) = receive(&manager);
        match message[..] {
            [what @ (SOLVE | SHARE), tier] => {
                let tier = Tier(tier as u32);
                let shared = what == SHARE;
                let notes = Notes(world.rank());
                if !searched && analysis && solving::reaches_first(game, options) {
                    reached = solving::reach_first_search(game, &notes, &mut |_| Ok(()))?;
                }
                searched = true;
                let ranks = shared.then(|| Arc::new(ranks::Workers::of(world)) as _);
                let reached = if shared { None } else { reached.clone() };
                let options =
                    SolveOptions { only: Some(vec![tier]), ranks, reached, ..options.clone() };
                let job = SolveRequest { game, path, options, force: false, analysis: false };
                let solved = solving::solve_into(job, &notes, &mut |_| Ok(()));
                let report = match solved {
                    Ok(()) => SOLVED,
                    Err(e) if shared => {
                        // The workers sharing the tier may wait for this one: end the run.
                        bail!("tier {} in parts: {e:#}", game.tier_name(tier))
                    }
                    Err(e) => {
                        eprintln!("rank {}: tier {}: {e:#}", world.rank(), game.tier_name(tier));
                        FAILED
                    }
                };
                manager.send(&[report, u64::from(tier.0)][..]);
            }
            [TERMINATE, _] => return Ok(()),
            _ => bail!("rank {}: an unknown message {message:?} from the manager", world.rank()),
        }
    }
}

/// The manager: hands out the tiers whose child tiers are solved (every tier, or those chosen by
/// `options.only`), one a worker (a tier [`shared_over_ranks`] to every worker, once all are
/// idle), until all are solved or one fails. It returns, with every worker idle, the run's
/// outcome: an error where a tier failed or some were never ready. Its own error may leave
/// workers busy.
fn manage(
    game: &dyn Game,
    path: &Path,
    force: bool,
    options: &SolveOptions,
    world: &mpi::topology::SimpleCommunicator,
    out: &mut dyn FnMut(String) -> std::io::Result<()>,
) -> Result<Result<()>> {
    let started = Instant::now();
    let mut files = TierFiles::new(path, game, true);
    if force {
        files.clear()?;
    } else {
        solving::adopt_shared(&mut files, out)?;
    }
    let tiers = game.tiers();
    let mut solved = HashSet::new();
    for &t in &tiers {
        if files.kept(t).map_err(anyhow::Error::msg)? {
            solved.insert(t);
        }
    }
    for p in files.discarded() {
        out(format!("discarded:  {} failed its checks; its tier is solved again", p.display()))?;
    }
    if !solved.is_empty() {
        out(format!(
            "resumed:    {} of {} tiers solved by an earlier run",
            solved.len(),
            tiers.len()
        ))?;
    }
    let children: HashMap<Tier, Vec<Tier>> =
        tiers.iter().map(|&t| (t, game.child_tiers(t))).collect();
    let chosen = |t: &Tier| options.only.as_ref().is_none_or(|only| only.contains(t));
    let mut waiting: Vec<Tier> =
        tiers.iter().copied().filter(|t| chosen(t) && !solved.contains(t)).collect();
    let workers = world.size() - 1;
    // Idle workers, the longest idle first.
    let mut idle: VecDeque<i32> = (1..=workers).collect();
    // Per worker its tier and when it was handed out.
    let mut busy: HashMap<i32, (Tier, Instant)> = HashMap::new();
    let (mut busy_secs, mut stalled_secs) = (0.0f64, 0.0f64);
    let mut failed = Vec::new();
    loop {
        // Hand out what is ready, lowest tiers first (the order `tiers` lists them in).
        while failed.is_empty() && !idle.is_empty() {
            let ready = waiting.iter().position(|t| children[t].iter().all(|c| solved.contains(c)));
            let Some(i) = ready else { break };
            if workers > 1 && shared_over_ranks(game, waiting[i], options) {
                // A tier in parts waits for every worker.
                if !busy.is_empty() {
                    break;
                }
                let tier = waiting.remove(i);
                out(format!(
                    "shared:     tier {} in parts over ranks 1 to {workers}",
                    game.tier_name(tier)
                ))?;
                for worker in idle.drain(..) {
                    world.process_at_rank(worker).send(&[SHARE, u64::from(tier.0)][..]);
                    out(format!("rank {worker}:     tier {}", game.tier_name(tier)))?;
                    busy.insert(worker, (tier, Instant::now()));
                }
                break;
            }
            let tier = waiting.remove(i);
            let worker = idle.pop_front().context("no idle worker")?;
            world.process_at_rank(worker).send(&[SOLVE, u64::from(tier.0)][..]);
            out(format!("rank {worker}:     tier {}", game.tier_name(tier)))?;
            busy.insert(worker, (tier, Instant::now()));
        }
        if busy.is_empty() {
            break;
        }
        let waited = Instant::now();
        let stalled = idle.len();
        let (message, status) = receive(&world.any_process());
        stalled_secs += waited.elapsed().as_secs_f64() * stalled as f64;
        let worker = status.source_rank();
        let (tier, since) = busy.remove(&worker).context("a report from a worker with no tier")?;
        let secs = since.elapsed().as_secs_f64();
        busy_secs += secs;
        idle.push_back(worker);
        match message[..] {
            [SOLVED, t] if t == u64::from(tier.0) => {
                out(format!(
                    "rank {worker}:     tier {} solved in {secs:.1} s",
                    game.tier_name(tier)
                ))?;
                // A shared tier is solved once every worker sharing it has reported.
                if !busy.values().any(|&(t, _)| t == tier) {
                    solved.insert(tier);
                }
            }
            [FAILED, t] if t == u64::from(tier.0) => failed.push((tier, worker)),
            _ => bail!("rank {worker}: an unexpected report {message:?} for tier {}", tier.0),
        }
    }
    let wall = started.elapsed().as_secs_f64();
    let capacity = wall * f64::from(workers);
    let shares = out(format!(
        "workers:    {workers}, busy {:.1}% of {wall:.2} s; {:.1}% idle with no tier ready",
        100.0 * busy_secs / capacity.max(1e-9),
        100.0 * stalled_secs / capacity.max(1e-9),
    ));
    Ok(shares.map_err(anyhow::Error::from).and_then(|()| verdict(game, options, &failed, &waiting)))
}

/// The run's outcome once no worker is busy: the first tier that failed, or those never ready.
fn verdict(
    game: &dyn Game,
    options: &SolveOptions,
    failed: &[(Tier, i32)],
    waiting: &[Tier],
) -> Result<()> {
    if let Some(&(tier, worker)) = failed.first() {
        bail!(
            "tier {} failed on rank {worker} (its error is on that rank's standard error); \
             run again to resume",
            game.tier_name(tier)
        );
    }
    if !waiting.is_empty() {
        let names: Vec<String> = waiting.iter().map(|&t| game.tier_name(t)).collect();
        bail!(
            "tiers {} were never ready: {}",
            names.join(" "),
            if options.only.is_some() {
                "their child tiers must be solved first (chosen too, or in the tier files)"
            } else {
                "their child tiers are not listed before them"
            }
        );
    }
    Ok(())
}

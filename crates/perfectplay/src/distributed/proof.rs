//! `perfectplay prove GAME --mpi` under `mpirun -np N`: a split proof's subproofs shared out over
//! the ranks (cargo feature `mpi`). Rank 0 manages: it combines the ledger's answers, hands each
//! idle worker the next subproof that could still change the start's bounds (the whole question,
//! win, tie or lose: with other answers still to come, no narrower window is known to do), and
//! appends each answer to the ledger as it comes back, until the start is proven. Workers keep
//! their prover's table from one subproof to the next. A stopped run resumes from the ledger, with
//! any number of ranks or without MPI.

use std::collections::{HashMap, VecDeque};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use mpi::traits::{Communicator, Destination};
use perfectplay_core::{Game, Position};
use perfectplay_db::{Ledger, LedgerLine};
use perfectplay_solve::{Bounds, SplitProof};

use super::receive;
use crate::commands::prove::Prover;

/// Messages: what, then its words. `ASK position`; `ANSWER position score+1 nodes microseconds`.
const ASK: u64 = 1;
const ANSWER: u64 = 2;
const TERMINATE: u64 = 3;

/// What this rank did.
pub enum Ran {
    /// There was one rank: nothing; the caller proves alone.
    Alone,
    /// A worker: answered what it was asked; the manager reports.
    Worker,
    /// The manager: the ledger holds every answer the ranks found.
    Managed,
}

/// Every rank calls it: rank 0 opens the `ledger` and manages, the others answer subproofs with
/// tables of 2^`bits`.
pub fn prove(
    game: &dyn Game,
    split: &SplitProof<'_, dyn Game + '_>,
    ledger: &dyn Fn() -> Result<Ledger>,
    bits: u32,
    out: &mut dyn FnMut(String) -> std::io::Result<()>,
) -> Result<Ran> {
    let universe = mpi::initialize().context("--mpi: MPI could not be initialized")?;
    let world = universe.world();
    if world.size() == 1 {
        return Ok(Ran::Alone);
    }
    if world.rank() != 0 {
        if let Err(e) = work(game, bits, &world) {
            eprintln!("error: {e:#}");
            world.abort(2);
        }
        return Ok(Ran::Worker);
    }
    let managed = ledger().and_then(|mut ledger| manage(game, split, &mut ledger, &world, out));
    for worker in 1..world.size() {
        world.process_at_rank(worker).send(&[TERMINATE][..]);
    }
    managed.map(|()| Ran::Managed)
}

fn work(game: &dyn Game, bits: u32, world: &mpi::topology::SimpleCommunicator) -> Result<()> {
    let manager = world.process_at_rank(0);
    let mut prover = Prover::new(game, bits);
    loop {
        let (message, _) = receive(&manager);
        match message[..] {
            [ASK, code] => {
                let (t, before) = (Instant::now(), prover.nodes());
                let score = prover.bound(Position(code), -1, 1)?;
                let micros = t.elapsed().as_micros() as u64;
                let answer = [ANSWER, code, (score + 1) as u64, prover.nodes() - before, micros];
                manager.send(&answer[..]);
            }
            [TERMINATE] => return Ok(()),
            _ => bail!("rank {}: an unknown message {message:?} from the manager", world.rank()),
        }
    }
}

fn manage(
    game: &dyn Game,
    split: &SplitProof<'_, dyn Game + '_>,
    ledger: &mut Ledger,
    world: &mpi::topology::SimpleCommunicator,
    out: &mut dyn FnMut(String) -> std::io::Result<()>,
) -> Result<()> {
    let mut known = ledger.known()?;
    let mut idle: VecDeque<i32> = (1..world.size()).collect();
    let mut asked: HashMap<i32, Position> = HashMap::new();
    loop {
        let combined = split.combine(&known);
        if combined.root.value().is_some() {
            return Ok(());
        }
        let busy: Vec<Position> = asked.values().copied().collect();
        let mut next = combined.open.iter().filter(|p| !busy.contains(p));
        while let Some(&worker) = idle.front() {
            let Some(&p) = next.next() else { break };
            idle.pop_front();
            world.process_at_rank(worker).send(&[ASK, p.0][..]);
            asked.insert(worker, p);
        }
        if asked.is_empty() {
            bail!("the ledger's answers leave the start open with no subproof left to ask");
        }
        let (message, status) = receive(&world.any_process());
        let worker = status.source_rank();
        let p = asked.remove(&worker).context("an answer from a worker that was asked nothing")?;
        idle.push_back(worker);
        let [ANSWER, code, score, nodes, micros] = message[..] else {
            bail!("rank {worker}: an unexpected message {message:?}");
        };
        if code != p.0 {
            bail!("rank {worker}: an answer for {code}, asked {}", p.0);
        }
        let bounds = Bounds::exact(score as i8 - 1);
        let now = known.get(&p).map_or(bounds, |b| b.meet(bounds));
        known.insert(p, now);
        let seconds = micros as f64 / 1e6;
        ledger.append(game, LedgerLine { position: p, bounds, nodes, seconds })?;
        out(format!(
            "rank {worker}:     {} {}: {nodes} nodes in {seconds:.2} s",
            game.position_to_string(p),
            perfectplay_core::Value::of_score(bounds.lo)
        ))?;
    }
}

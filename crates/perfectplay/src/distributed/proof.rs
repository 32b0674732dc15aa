//! `perfectplay prove GAME --mpi` under `mpirun -np N`: a split proof's subproofs shared out over
//! the ranks (cargo feature `mpi`). Rank 0 manages: it hands each idle worker the next question
//! the proof's walk would ask given the answers so far (a subproof and its window, those not
//! answered yet taken to be ties, [`SplitProof::questions`]), and appends each answer to the
//! ledger as it comes back, until the start is proven. Workers keep their prover's table from one
//! subproof to the next. A stopped run resumes from the ledger, with any number of ranks or
//! without MPI.

use std::collections::{HashMap, VecDeque};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use mpi::traits::{Communicator, Destination};
use perfectplay_core::{Game, Position, Value};
use perfectplay_db::{Ledger, LedgerLine};
use perfectplay_solve::{Bounds, SplitProof};

use super::receive;
use crate::commands::prove::Prover;

/// Messages: what, then its words (scores plus one): `ASK position alpha beta`; `ANSWER position
/// score nodes microseconds`.
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
            [ASK, code, alpha, beta] => {
                let (t, before) = (Instant::now(), prover.nodes());
                let (alpha, beta) = (alpha as i8 - 1, beta as i8 - 1);
                let score = prover.bound(Position(code), alpha, beta)?;
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
    // Per worker, the subproof it was asked and the window.
    let mut asked: HashMap<i32, (Position, i8, i8)> = HashMap::new();
    loop {
        let combined = split.combine(&known);
        if combined.root.value().is_some() {
            return Ok(());
        }
        // The walk's next questions, else (its windows all decided by answers that do not yet
        // combine) every open subproof's whole question.
        let busy: Vec<Position> = asked.values().map(|q| q.0).collect();
        let mut next: Vec<(Position, i8, i8)> = split.questions(&known, 0);
        next.retain(|q| !busy.contains(&q.0));
        if next.is_empty() {
            next =
                combined.open.iter().filter(|p| !busy.contains(p)).map(|&p| (p, -1, 1)).collect();
        }
        for question in next {
            let Some(worker) = idle.pop_front() else { break };
            let (p, alpha, beta) = question;
            let ask = [ASK, p.0, (alpha + 1) as u64, (beta + 1) as u64];
            world.process_at_rank(worker).send(&ask[..]);
            asked.insert(worker, question);
        }
        if asked.is_empty() {
            bail!("the ledger's answers leave the start open with no subproof left to ask");
        }
        let (message, status) = receive(&world.any_process());
        let worker = status.source_rank();
        let (p, alpha, beta) =
            asked.remove(&worker).context("an answer from a worker that was asked nothing")?;
        idle.push_back(worker);
        let [ANSWER, code, score, nodes, micros] = message[..] else {
            bail!("rank {worker}: an unexpected message {message:?}");
        };
        if code != p.0 {
            bail!("rank {worker}: an answer for {code}, asked {}", p.0);
        }
        let bounds = Bounds::from_search(score as i8 - 1, alpha, beta);
        let now = known.get(&p).map_or(bounds, |b| b.meet(bounds));
        known.insert(p, now);
        let seconds = micros as f64 / 1e6;
        ledger.append(game, LedgerLine { position: p, bounds, nodes, seconds })?;
        out(format!(
            "rank {worker}:     {} at least {}, at most {}: {nodes} nodes in {seconds:.2} s",
            game.position_to_string(p),
            Value::of_score(bounds.lo),
            Value::of_score(bounds.hi)
        ))?;
    }
}

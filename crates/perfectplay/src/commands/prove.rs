//! `perfectplay prove`: the start's value alone (win, tie or lose), proven by subproofs whose
//! answers are kept in a ledger ([`perfectplay_db::Ledger`]) as they are found: the positions a
//! few moves below the start, up to symmetry ([`SplitProof`]). A run stops at a limit or a kill
//! and the next run, here or on another machine with the ledger, goes on from there; `--check`
//! says whether the ledger's answers cover the start, walking the moves above them again.

use std::cell::Cell;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use perfectplay_core::{Game, Position, Value, ValueProver};
use perfectplay_db::{Ledger, LedgerLine};
use perfectplay_solve::{AlphaBeta, Bounds, Combined, SplitProof};

use crate::store::Store;
use crate::GameArgs;

/// What `prove` is asked for besides the game.
pub struct ProveArgs {
    /// The ledger (default: `<data-dir>/<game>/<variant>.proof.tsv`).
    pub ledger: Option<PathBuf>,
    pub depth: u32,
    pub table_bits: u32,
    pub check: bool,
    /// Stop after this many new answers, or once this much time has gone.
    pub most: Option<usize>,
    pub seconds: Option<f64>,
    /// Share the subproofs out over the ranks of an MPI run.
    pub mpi: bool,
}

/// A game's own prover where it has one, else the engine's alpha-beta search.
pub(crate) enum Prover<'g> {
    Own(Box<dyn ValueProver + 'g>),
    Search(Box<AlphaBeta<'g, dyn Game + 'g>>),
}

impl<'g> Prover<'g> {
    pub(crate) fn new(game: &'g dyn Game, bits: u32) -> Prover<'g> {
        match game.search_kernel().and_then(|k| k.prover(bits)) {
            Some(own) => Prover::Own(own),
            None => Prover::Search(Box::new(AlphaBeta::with_table_bits(game, bits))),
        }
    }

    pub(crate) fn bound(&mut self, p: Position, alpha: i8, beta: i8) -> Result<i8> {
        match self {
            Prover::Own(own) => own.bound(p, alpha, beta, &|| false).context("the prover stopped"),
            Prover::Search(search) => Ok(search.bound(p, alpha, beta)?),
        }
    }

    pub(crate) fn nodes(&self) -> u64 {
        match self {
            Prover::Own(own) => own.nodes(),
            Prover::Search(search) => search.nodes(),
        }
    }
}

/// Why a proof run ended before the start was proven.
enum Stop {
    Limit,
    Failed(anyhow::Error),
}

impl<E: Into<anyhow::Error>> From<E> for Stop {
    fn from(e: E) -> Stop {
        Stop::Failed(e.into())
    }
}

pub fn prove(
    store: &Store,
    args: &GameArgs,
    a: ProveArgs,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let game = crate::load_game(args)?;
    let game = game.as_ref();
    let path = a.ledger.clone().unwrap_or_else(|| store.path(game).with_extension("proof.tsv"));
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let split = SplitProof::new(game, game.start(), a.depth);
    if a.mpi {
        #[cfg(feature = "mpi")]
        {
            use crate::distributed::proof::{self, Ran};
            let mut print = |line: String| writeln!(out, "{line}");
            // Only rank 0 opens the ledger.
            let open = || Ok(Ledger::open(&path, game, a.depth)?);
            match proof::prove(game, &split, &open, a.table_bits, &mut print)? {
                Ran::Worker => return Ok(ExitCode::SUCCESS),
                Ran::Managed => {
                    let ledger = open()?;
                    let combined = split.combine(&ledger.known()?);
                    summary(game, &ledger, &combined, out)?;
                    return Ok(ExitCode::SUCCESS);
                }
                Ran::Alone => writeln!(out, "mpi:        one rank: it proves alone")?,
            }
        }
        #[cfg(not(feature = "mpi"))]
        anyhow::bail!(
            "--mpi: this perfectplay was built without MPI; build it with `cargo build \
             --release --features mpi` and run it under `mpirun`"
        );
    }
    let mut ledger = Ledger::open(&path, game, a.depth)?;
    writeln!(out, "ledger:     {} ({} lines)", path.display(), ledger.lines.len())?;
    if a.check {
        let combined = split.combine(&ledger.known()?);
        summary(game, &ledger, &combined, out)?;
        return Ok(if combined.root.value().is_some() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        });
    }
    let mut known = ledger.known()?;
    let mut prover = Prover::new(game, a.table_bits);
    let (started, asked, last) = (Instant::now(), Cell::new(0usize), Cell::new((0u64, 0.0f64)));
    let limit = a.seconds.map(Duration::from_secs_f64);
    let mut answer = |p: Position, alpha: i8, beta: i8| -> Result<i8, Stop> {
        if a.most.is_some_and(|m| asked.get() >= m) || limit.is_some_and(|l| started.elapsed() >= l)
        {
            return Err(Stop::Limit);
        }
        asked.set(asked.get() + 1);
        let (t, before) = (Instant::now(), prover.nodes());
        let score = prover.bound(p, alpha, beta).map_err(Stop::Failed)?;
        last.set((prover.nodes() - before, t.elapsed().as_secs_f64()));
        Ok(score)
    };
    let mut found = |p: Position, bounds: Bounds| -> Result<(), Stop> {
        let (nodes, seconds) = last.get();
        ledger.append(game, LedgerLine { position: p, bounds, nodes, seconds })?;
        writeln!(
            out,
            "answered:   {} at least {}, at most {}: {nodes} nodes in {seconds:.2} s",
            game.position_to_string(p),
            Value::of_score(bounds.lo),
            Value::of_score(bounds.hi)
        )?;
        Ok(())
    };
    let ended = split.prove(&mut known, &mut answer, &mut found);
    match ended {
        Ok(_) | Err(Stop::Limit) => {}
        Err(Stop::Failed(e)) => return Err(e),
    }
    writeln!(
        out,
        "this run:   {} subproofs answered in {:.1} s",
        asked.get(),
        started.elapsed().as_secs_f64()
    )?;
    let combined = split.combine(&ledger.known()?);
    summary(game, &ledger, &combined, out)?;
    Ok(ExitCode::SUCCESS)
}

/// What the ledger shows of the start.
fn summary(
    game: &dyn Game,
    ledger: &Ledger,
    combined: &Combined,
    out: &mut impl Write,
) -> Result<()> {
    let nodes: u64 = ledger.lines.iter().map(|l| l.nodes).sum();
    let seconds: f64 = ledger.lines.iter().map(|l| l.seconds).sum();
    let rate = if seconds > 0.0 { nodes as f64 / seconds / 1e6 } else { 0.0 };
    writeln!(
        out,
        "subproofs:  {} answered ({} lines, {nodes} nodes in {seconds:.1} s, {rate:.2} M nodes/s)",
        combined.answered,
        ledger.lines.len(),
    )?;
    match combined.root.value() {
        Some(v) => writeln!(out, "start:      {v} (proven)")?,
        None => {
            let Bounds { lo, hi } = combined.root;
            let open = combined.open.len();
            writeln!(
                out,
                "start:      at least {}, at most {} (not proven yet; {open} subproofs open)",
                Value::of_score(lo),
                Value::of_score(hi)
            )?;
            if let Some(&p) = combined.open.first() {
                writeln!(out, "next open:  {}", game.position_to_string(p))?;
            }
        }
    }
    Ok(())
}

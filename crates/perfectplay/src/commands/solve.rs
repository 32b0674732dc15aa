//! `perfectplay solve`: a variant solved into its database, under its lock, resuming from its
//! tier files (and with `--mpi`, over the ranks of an MPI run).

use std::io::Write;

use anyhow::Result;
use perfectplay_core::{Game, GameExt, Tier};

use crate::oracle::Oracle;
use crate::solving::SolveRequest;
use crate::store::Store;
use crate::{progress, solving, GameArgs};

/// What `solve` is asked for besides the game.
pub struct SolveArgs {
    pub force: bool,
    pub no_analysis: bool,
    pub memory_limit: Option<u64>,
    pub only_tiers: Vec<String>,
    pub mpi: bool,
    pub share_above: Option<u64>,
}

pub fn solve(store: &Store, args: &GameArgs, s: SolveArgs, out: &mut impl Write) -> Result<()> {
    let game = crate::load_game(args)?;
    refuse_live(game.as_ref(), "solved whole")?;
    let only = chosen_tiers(game.as_ref(), &s.only_tiers)?;
    if s.force && only.is_some() {
        anyhow::bail!("--force clears every tier file; it cannot be given with --tier");
    }
    // One solve per variant: under MPI the manager (rank 0) takes the lock for the run.
    let _lock =
        if s.mpi { None } else { Some(store.lock(game.as_ref(), &solving::command_line())?) };
    if !s.force && only.is_none() {
        if let Some(db) = store.database(game.as_ref())? {
            writeln!(out, "already solved: {} (--force solves again)", db.path().display())?;
            if let Some(start) = db.get(game.as_ref(), game.start())? {
                writeln!(out, "{}", solving::start_line(game.as_ref(), start))?;
            }
            return Ok(());
        }
    }
    let mut options = args.options();
    options.memory_limit = s.memory_limit;
    options.only = only;
    options.share_above = s.share_above;
    let analysis = !s.no_analysis;
    let mut print = |line: String| writeln!(out, "{line}");
    let bar = progress::Bar::new();
    // With --mpi, the tiers shared out over the ranks of an MPI run.
    #[cfg(feature = "mpi")]
    let solve_into = if s.mpi { crate::distributed::solve_into } else { solving::solve_into };
    #[cfg(not(feature = "mpi"))]
    let solve_into = if s.mpi {
        anyhow::bail!(
            "--mpi: this perfectplay was built without MPI; build it with `cargo build \
             --release --features mpi` (needs OpenMPI: `apt-get install openmpi-bin \
             libopenmpi-dev libclang-dev`) and run it under `mpirun`"
        )
    } else {
        solving::solve_into
    };
    let path = store.path(game.as_ref());
    let job = SolveRequest { game: game.as_ref(), path: &path, options, force: s.force, analysis };
    solve_into(job, &bar, &mut print)
}

/// How soon mimalloc gives the memory a solve frees back to the system. mimalloc reads it from
/// the environment when the process starts, so the process starts itself again, once, with it set
/// (where it is set already, or that fails, it goes on as it is).
/// - Under `--memory-limit`, at once (`0`). mimalloc's own delay (10 ms, and only once the thread
///   that freed it allocates again) let a solve that drops a tier's large buffers (a tier in parts,
///   its best results from lower tiers) hold them on, up to 18% over the limit (measured on Fuchs
///   und Henne's tier (10,40), BENCHMARKS.md).
/// - Without one, never (`-1`): memory given back and taken again is cleared again by the kernel.
///   Konane 6x6 center, the same build: 730.2 s with mimalloc's delay (162.5 s of it the
///   kernel's), 649.7 s never giving back (45.9 s), peak RSS 5,958,312 against 7,453,264 KB;
///   a delay of 1 s or 10 s gave back less of the time (BENCHMARKS.md). Giving back only free
///   ranges of 64 MiB or more (`MIMALLOC_MINIMAL_PURGE_SIZE`) every minute or five kept the
///   center's peak under 6 GiB (5.54 to 5.74 GB against 6.37 to 6.65 GB) but cost 19 to 43 s
///   there and 17 s on the corner (BENCHMARKS.md, issue 54's thirteenth session). A delay set
///   in the environment is kept: `MIMALLOC_PURGE_DELAY=6000 MIMALLOC_MINIMAL_PURGE_SIZE=64MiB`
///   chooses that trade.
#[cfg(unix)]
pub fn choose_purge_delay(limited: bool) {
    use std::os::unix::process::CommandExt;
    const DELAY: &str = "MIMALLOC_PURGE_DELAY";
    if std::env::var_os(DELAY).is_some() {
        return;
    }
    if let Ok(exe) = std::env::current_exe() {
        // `exec` returns only if it failed.
        let _ = std::process::Command::new(exe)
            .args(std::env::args_os().skip(1))
            .env(DELAY, if limited { "0" } else { "-1" })
            .exec();
    }
}

/// Elsewhere the solve goes on as it is.
#[cfg(not(unix))]
pub fn choose_purge_delay(_limited: bool) {}

/// The tiers named by `solve --tier` (None when none is named).
fn chosen_tiers(game: &dyn Game, names: &[String]) -> Result<Option<Vec<Tier>>> {
    if names.is_empty() {
        return Ok(None);
    }
    if !game.space().is_tiered() {
        anyhow::bail!("--tier: {} is not solved by tiers", game.id());
    }
    let tiers = game.tiers();
    let chosen = names
        .iter()
        .map(|name| {
            tiers.iter().copied().find(|&t| game.tier_name(t) == *name).ok_or_else(|| {
                anyhow::anyhow!(
                    "--tier: expected a tier of {} named as `db info` prints it, like {}; got {name:?}",
                    game.id(),
                    tiers.last().map(|&t| game.tier_name(t)).unwrap_or_default()
                )
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Some(chosen))
}

/// A game answered by live search is too large to solve or analyze whole here: says so, and
/// what works instead.
pub fn refuse_live(game: &dyn Game, what: &str) -> Result<()> {
    if Oracle::searched_live(game) {
        anyhow::bail!(
            "{} {} is too large to be {what} on one machine; its positions are searched live \
             instead: `perfectplay query {id} --variant {v} <position>`, `perfectplay play {id} \
             --variant {v}` or the server (a smaller variant solves whole: {})",
            game.id(),
            game.variant(),
            perfectplay_games::catalog()
                .iter()
                .find(|e| e.id == game.id())
                .map_or(String::new(), |e| e.variant_syntax.to_string()),
            id = game.id(),
            v = game.variant(),
        );
    }
    Ok(())
}

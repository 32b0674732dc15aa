//! `perfectplay analyze`: reachable positions counted per value and remoteness, all and
//! canonical (per tier with `--tiers`), from the counts stored with a database, from its values,
//! or from a solve in memory; `--prune` rewrites the database with only what the start reaches.

use std::io::Write;
use std::time::Instant;

use anyhow::Result;
use perfectplay_core::{Game, GameExt};
use perfectplay_db::Database;

use super::solve::refuse_live;
use crate::store::Store;
use crate::{progress, solving, Format, GameArgs};

/// What `analyze` is asked for besides the game.
pub struct AnalyzeArgs {
    pub format: Format,
    pub recount: bool,
    pub tiers: bool,
    pub prune: bool,
    pub derive: bool,
}

/// Where an analysis reads and solves: the store, the game, and how the game was asked for.
type Place<'a> = (&'a Store, &'a dyn Game, &'a GameArgs);

pub fn analyze(store: &Store, args: &GameArgs, a: AnalyzeArgs, out: &mut impl Write) -> Result<()> {
    let game = crate::load_game(args)?;
    let game = game.as_ref();
    refuse_live(game, "analyzed")?;
    if (a.tiers || a.prune) && !game.space().is_tiered() {
        let flag = if a.tiers { "--tiers" } else { "--prune" };
        anyhow::bail!("{flag}: {} is not solved by tiers with a dense index", game.id());
    }
    // The counts stored with the database, unless they are to be counted again.
    let stored = match a.recount || a.prune {
        true => None,
        false => store.database(game)?,
    };
    if a.tiers {
        by_tier((store, game, args), a, stored, out)
    } else {
        whole((store, game, args), a, stored, out)
    }
}

/// `analyze --tiers`: the tier lines.
fn by_tier(
    at: Place<'_>,
    a: AnalyzeArgs,
    db: Option<Database>,
    out: &mut impl Write,
) -> Result<()> {
    let ((store, game, args), AnalyzeArgs { format, prune, derive, .. }) = (at, a);
    let stored = db.map(|db| db.tier_lines(game)).filter(|l| !l.is_empty());
    let lines = match stored {
        Some(lines) => lines,
        None => tiered_analysis(game, store, args, prune.then_some(derive))?.1,
    };
    let rem = |r: Option<u16>| r.map_or("-".to_string(), |r| r.to_string());
    let rows = lines.iter().map(|l| {
        [
            l.name.clone(),
            l.reachable.to_string(),
            l.canonical.to_string(),
            rem(l.max_win),
            rem(l.max_lose),
        ]
    });
    match format {
        Format::Tsv => {
            writeln!(out, "tier\treachable\tcanonical_count\tmax_win\tmax_lose")?;
            for row in rows {
                writeln!(out, "{}", row.join("\t"))?;
            }
        }
        Format::Table => {
            let line = |f: [String; 5]| {
                format!("{:<8} {:>14} {:>14} {:>8} {:>8}", f[0], f[1], f[2], f[3], f[4])
            };
            let header = ["tier", "reachable", "canonical", "max win", "max lose"];
            writeln!(out, "{}", line(header.map(String::from)))?;
            for row in rows {
                writeln!(out, "{}", line(row))?;
            }
            let reachable: u64 = lines.iter().map(|l| l.reachable).sum();
            let canonical: u64 = lines.iter().map(|l| l.canonical).sum();
            let total = ["total", &reachable.to_string(), &canonical.to_string(), "", ""];
            writeln!(out, "{}", line(total.map(String::from)))?;
        }
    }
    Ok(())
}

/// `analyze`: the whole game's counts.
fn whole(at: Place<'_>, a: AnalyzeArgs, db: Option<Database>, out: &mut impl Write) -> Result<()> {
    let ((store, game, args), AnalyzeArgs { format, prune, derive, .. }) = (at, a);
    let stored = db.and_then(|db| db.analysis());
    let analysis = match stored {
        Some(a) => a,
        None if game.space().is_tiered() => {
            tiered_analysis(game, store, args, prune.then_some(derive))?.0
        }
        None => with_solution(game, store, args, |solution| {
            Ok(perfectplay_solve::analyze(game, solution, &progress::Bar::new())?)
        })?,
    };
    match format {
        Format::Tsv => write!(out, "{}", analysis.to_tsv())?,
        Format::Table => write!(out, "{}", analysis.to_table())?,
    }
    Ok(())
}

/// Runs `f` on the game's whole solution: its database read back whole if there is one, else a
/// solve in memory (which says so).
fn with_solution<T>(
    game: &dyn Game,
    store: &Store,
    args: &GameArgs,
    f: impl FnOnce(&perfectplay_solve::Solution) -> Result<T>,
) -> Result<T> {
    if let Some(db) = store.database(game)? {
        return f(&db.load()?);
    }
    let oracle = store.oracle(game, args.options())?;
    let crate::oracle::Source::Memory(solution) = oracle.source() else {
        anyhow::bail!("the database appeared while solving: run analyze again");
    };
    f(solution)
}

/// A tiered game's analysis: from its database one tier at a time where there is one (a
/// database may be larger than memory), else from a solve in memory. With `prune`, the database
/// is rewritten with only the reachable positions' values (and, with `Some(true)`, no values for
/// the tiers that can be derived from their children).
fn tiered_analysis(
    game: &dyn Game,
    store: &Store,
    args: &GameArgs,
    prune: Option<bool>,
) -> Result<(perfectplay_solve::Analysis, Vec<perfectplay_solve::TierReport>)> {
    let path = store.path(game);
    if prune.is_some() && !store.is_solved(game) {
        anyhow::bail!("--prune: no database at {} (solve the game first)", path.display());
    }
    // A rewrite of the database holds the variant's lock, as a solve does.
    let _lock = match prune {
        Some(_) => Some(store.lock(game, &solving::command_line())?),
        None => None,
    };
    if let Some(db) = store.database(game)? {
        let read = |t: perfectplay_core::Tier| match db.load_tier_of(game, t) {
            Ok(Some(solved)) => Ok(std::borrow::Cow::Owned(solved)),
            Ok(None) => Err(perfectplay_solve::SolveError::Inconsistent {
                what: format!("tier {} is not in {}", game.tier_name(t), path.display()),
            }),
            Err(e) => Err(perfectplay_solve::SolveError::Sink(Box::new(e))),
        };
        let bar = progress::Bar::new();
        let reached = perfectplay_solve::reach_tiered(game, &bar)?;
        let counted = perfectplay_solve::count_reached(game, &reached, &read, &bar)?;
        if let Some(derive) = prune {
            store_analysis(game, &db, &counted, Some((&reached, derive)))?;
        } else if db.analysis().is_none() || db.header().tier_lines.is_empty() {
            // The marks first: the rewrite holds every block of the file in memory.
            drop(reached);
            // Storing saves the next count; the counts are printed either way.
            if let Err(e) = store_analysis(game, &db, &counted, None) {
                eprintln!("warning: the counts were not stored in {}: {e:#}", path.display());
            }
        }
        return Ok(counted);
    }
    with_solution(game, store, args, |solution| {
        Ok(perfectplay_solve::analyze_tiered(game, solution, &progress::Bar::new())?)
    })
}

/// Rewrites a database (solved with `--no-analysis`) with the analysis just counted from it (the
/// whole game's rows and the tier lines), so that a later `analyze` prints it at once: counting a large game takes as long as solving it.
/// With `prune`, only the values of the indices reached are kept (`analyze --prune`), and none of
/// the derivable tiers' if it says so (`--derive`).
fn store_analysis(
    game: &dyn Game,
    db: &Database,
    (analysis, lines): &(perfectplay_solve::Analysis, Vec<perfectplay_solve::TierReport>),
    prune: Option<(&perfectplay_solve::Reached, bool)>,
) -> Result<()> {
    let started = Instant::now();
    let before = db.header().file_len;
    let mut writer = perfectplay_db::Writer::new(db.path(), game, db.header().canonical);
    match prune {
        Some((reached, derive)) => {
            let derived = match derive {
                true => perfectplay_db::derivable(game),
                false => perfectplay_db::Derivable::NONE,
            };
            writer = writer.with_level(perfectplay_db::PRUNED_ZSTD_LEVEL);
            let keep = |t, first, out: &mut [bool]| reached.reached_run(t, first, out);
            writer.add_tables_pruned(db, &keep, &derived)?;
            if derive {
                eprintln!("{}", derived.describe());
            }
        }
        None => writer.add_tables_from(db)?,
    }
    writer.set_analysis(analysis);
    writer.set_tier_lines(lines);
    let written = writer.finish()?;
    eprintln!(
        "stored the analysis{} in {} ({} bytes, {} before; {:.1} s)",
        if prune.is_some() { " and only the reachable positions' values" } else { "" },
        db.path().display(),
        written.bytes,
        before,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

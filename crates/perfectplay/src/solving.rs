//! Solving a variant into its database: the tier files as it goes (a stopped solve resumes from
//! them), then the database with its analysis. Shared by `perfectplay solve` and the server's
//! solves started from the page.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use perfectplay_core::{Game, GameExt, Tier, ValueRemoteness};
use perfectplay_db::{DbError, Holder, KeptReached, SolveLock, TierFiles};
use perfectplay_solve::{Progress, Reached, SolveError, SolveOptions, Tally};

/// The most tiers the summary names as read back; the others are counted.
const RESUMED_NAMED: usize = 12;

/// A solve to run: `game` into the database at `path` (with `options.only`, only those tiers
/// into the tier files), from nothing where `force`, with the analysis stored where `analysis`.
pub struct SolveRequest<'a> {
    pub game: &'a dyn Game,
    pub path: &'a Path,
    pub options: SolveOptions,
    pub force: bool,
    pub analysis: bool,
}

/// Runs a solve ([`SolveRequest`]), reporting each summary line to `out` as it is known.
pub fn solve_into(
    job: SolveRequest<'_>,
    progress: &dyn Progress,
    out: &mut dyn FnMut(String) -> std::io::Result<()>,
) -> Result<()> {
    let SolveRequest { game, path, options, force, analysis } = job;
    let started = Instant::now();
    let only = options.only.clone();
    // Without an analysis nothing reads the solution but the start's value: the solve holds
    // only what its tiers still need. A sparse game's analysis is counted tier by tier during
    // the solve, where its tiers allow (then too it holds only what its tiers still need). A
    // tiered game's is counted after the solve from its tier files, one tier at a time
    // (`count_tiered`), so its solve holds only what its tiers need as well.
    let tiered = game.space().is_tiered();
    let in_memory = analysis && !tiered;
    // Each tier goes to its own file as it is solved; a solve that was killed resumes
    // from the tiers it finished (unless --force).
    let mut tiers = TierFiles::new(path, game, options.canonicalize);
    if force {
        tiers.clear()?;
    }
    // A tiered game's analysis searches the positions its start reaches: searched first (or
    // given, an MPI worker's, or kept by the solve this one resumes), only they are solved, and
    // the others are stored as absent.
    let (reached, kept) = match &options.reached {
        Some(given) => (Some(given.clone()), false),
        None if analysis && only.is_none() && reaches_first(game, &options) => {
            reach_first(game, &tiers, progress, out)?
        }
        // Chosen tiers beside an earlier solve's kept marks are solved as it solves them: only
        // what the start reaches, as their child tiers' files hold it.
        // The other tiers' marks are freed at once (under a limit, the marks held count).
        None if analysis && reaches_first(game, &options) => {
            let why = (SOLVED_ONLY, "every position solved", None);
            let mut kept = kept_marks(game, &tiers, why, out)?;
            if let (Some(marks), Some(only)) = (kept.as_mut().and_then(Arc::get_mut), &only) {
                for t in game.tiers().into_iter().filter(|t| !only.contains(t)) {
                    marks.release(t);
                }
            }
            let kept_any = kept.is_some();
            (kept, kept_any)
        }
        None => (None, false),
    };
    let reaches = reached.is_some();
    if reaches {
        tiers.reached_only();
    }
    // Marks kept beside the tier files go to the solve alone, which frees each tier's once it is
    // solved; the analysis reads them back.
    let held = if kept { None } else { reached.clone() };
    let options = SolveOptions { hold_all: in_memory, count: in_memory, reached, ..options };
    if !force && only.is_none() {
        adopt_shared(&mut tiers, out)?;
    }
    let solution = perfectplay_solve::solve(game, options, progress, Some(&mut tiers))?;
    let secs = started.elapsed().as_secs_f64();
    if let Some(only) = only {
        let names: Vec<String> = only.iter().map(|&t| game.tier_name(t)).collect();
        out(format!(
            "tiers:      {} solved into {} in {secs:.2} s",
            names.join(" "),
            perfectplay_db::tier_dir(path).display()
        ))?;
        return Ok(());
    }
    // The tiers copied from another variant are on the `shared:` line; a long list (a long
    // solve's hundreds of tiers) is cut.
    let resumed: Vec<_> =
        tiers.resumed().iter().filter(|t| !tiers.adopted().contains(t)).copied().collect();
    if !resumed.is_empty() {
        let mut names: Vec<String> =
            resumed.iter().take(RESUMED_NAMED).map(|&t| game.tier_name(t)).collect();
        if resumed.len() > RESUMED_NAMED {
            names.push(format!(
                "and {} more ({} in all)",
                resumed.len() - RESUMED_NAMED,
                resumed.len()
            ));
        }
        out(format!("resumed:    tiers {} read back from an earlier solve", names.join(" ")))?;
    }
    for p in tiers.discarded() {
        out(format!("discarded:  {} failed its checks; its tier was solved again", p.display()))?;
    }
    if !tiers.redone().is_empty() {
        let names: Vec<String> = tiers.redone().iter().map(|&t| game.tier_name(t)).collect();
        out(format!(
            "redone:     tiers {} held only the positions reached; solved again whole",
            names.join(" ")
        ))?;
    }
    // A solve under a memory limit may have dropped tiers: read them back for the
    // analysis, or only the start's for the summary.
    let counted = solution.analysis().cloned();
    let dropped = solution.tiers().len() < tiers.tiers();
    let solution = if dropped && in_memory && counted.is_none() { tiers.load()? } else { solution };
    let start = match solution.get(game, game.start()) {
        Some(start) => start,
        None => {
            let c = game.canonical(game.start());
            let tier = tiers.tier(game.tier(c))?.context("the start was not solved")?;
            perfectplay_solve::Solution::from_tiers(vec![tier], solution.is_canonical())
                .get(game, game.start())
                .context("the start was not solved")?
        }
    };
    let stored = if game.space().is_tiered() {
        game.tiers().iter().map(|&t| game.tier_size(t)).sum()
    } else {
        solution.indices()
    };
    out(format!("game:       {} ({})", game.name(), game.variant()))?;
    out(start_line(game, start))?;
    out(format!(
        "positions:  {stored} {}{}",
        if reaches { "indexed, those reached solved" } else { "solved" },
        if solution.is_canonical() { " (canonical)" } else { "" }
    ))?;
    out(format!("time:       {secs:.2} s ({:.0} positions/s)", stored as f64 / secs.max(1e-9)))?;
    out(format!("memory:     {} MiB of results held at most", solution.held_most() >> 20))?;
    let analysis = if !analysis {
        None
    } else if tiered {
        drop(solution);
        // Each tier's share counted as it was solved is in its file; only the others need the
        // marks, and their values read back.
        let started = Instant::now();
        let (counted, missing) = tiers.counted_shares()?;
        let reached = match held {
            _ if missing.is_empty() => None,
            Some(held) => Some(held),
            // Read back for the analysis after the solve freed them; where they are no longer
            // readable, the analysis searches again.
            None if kept => {
                let why = ("for the analysis", "searched again", Some(GONE));
                kept_marks(game, &tiers, why, out)?
            }
            None => None,
        };
        let shares = Shares { counted, missing, started };
        count_tiered(game, &tiers, reached.as_deref(), shares, progress, out)?
    } else if let Some(counted) = counted {
        out(format!(
            "reachable:  {} positions, {} canonical (counted during the solve)",
            counted.total(),
            counted.canonical_total(),
        ))?;
        Some((counted, Vec::new()))
    } else {
        let started = Instant::now();
        match perfectplay_solve::analyze(game, &solution, progress) {
            Ok(analysis) => {
                out(format!(
                    "reachable:  {} positions, {} canonical ({:.2} s)",
                    analysis.total(),
                    analysis.canonical_total(),
                    started.elapsed().as_secs_f64()
                ))?;
                drop(solution);
                Some((analysis, Vec::new()))
            }
            Err(perfectplay_solve::SolveError::Unsupported { what }) => {
                out(format!("reachable:  not counted ({what})"))?;
                None
            }
            Err(e) => return Err(e.into()),
        }
    };
    // A file of what the start reaches stores no values for the positions that follow in one
    // step from their children (`db prune --derive`): a reached position's children are reached.
    let derived = match reaches {
        true => perfectplay_db::derivable(game),
        false => perfectplay_db::Derivable::NONE,
    };
    let started = Instant::now();
    let written = tiers.finish(analysis.as_ref().map(|(a, lines)| (a, &lines[..])), &derived)?;
    out(format!(
        "database:   {} ({} bytes, {:.2} s to write{})",
        written.path.display(),
        written.bytes,
        started.elapsed().as_secs_f64(),
        match derived.describe() {
            d if d.is_empty() => d,
            d => format!("; {d}"),
        }
    ))?;
    Ok(())
}

/// Whether a solve of `game` that stores its analysis searches what the start reaches first and
/// solves only that ([`SolveOptions::reached`]): a tiered game reduced by its symmetries, in one
/// process (an MPI run's workers each search, [`crate::distributed`]), where the marks fit beside
/// the largest tier's work under the memory limit (else the whole game is solved, and the
/// analysis searched after it).
pub fn reaches_first(game: &dyn Game, options: &SolveOptions) -> bool {
    let fits =
        |limit: u64| perfectplay_solve::plan(game).is_some_and(|p| p.analysis_bytes <= limit);
    game.space().is_tiered()
        && options.canonicalize
        && game.symmetry_count() > 1
        && options.ranks.is_none()
        && options.memory_limit.is_none_or(fits)
}

/// [`reach_first_search`], its marks kept beside the tier files ([`TierFiles::keep_reached`]),
/// or read back where the solve this one resumes kept them: a stopped solve does not search
/// again. With whether they are kept there.
fn reach_first(
    game: &dyn Game,
    tiers: &TierFiles<'_>,
    progress: &dyn Progress,
    out: &mut dyn FnMut(String) -> std::io::Result<()>,
) -> Result<(Option<Arc<Reached>>, bool)> {
    if let Some(kept) = kept_marks(game, tiers, (SOLVED_ONLY, "searched again", None), out)? {
        return Ok((Some(kept), true));
    }
    let reached = reach_first_search(game, progress, out)?;
    let mut kept = false;
    if let Some(reached) = &reached {
        // Kept only to spare a resumed solve the search: a disk too full for them stops nothing
        // (the tier files then say so, if it stays full).
        let started = Instant::now();
        match tiers.keep_reached(reached) {
            Ok(0) => {}
            Ok(bytes) => {
                kept = true;
                out(format!(
                    "kept:       the marks ({bytes} bytes) for a resumed solve and the analysis \
                     ({:.2} s)",
                    started.elapsed().as_secs_f64()
                ))?
            }
            Err(e) => {
                out(format!("kept:       not the marks ({e}); a resumed solve searches again"))?
            }
        }
    }
    Ok((reached, kept))
}

/// The marks an earlier solve kept beside the tier files, read back for `why.0` (said with their
/// count); `None` where they fail their checks (removed, and what happens then, `why.1`, said)
/// or it kept none (`why.2` said, where there is one).
fn kept_marks(
    game: &dyn Game,
    tiers: &TierFiles<'_>,
    why: (&str, &str, Option<&str>),
    out: &mut dyn FnMut(String) -> std::io::Result<()>,
) -> Result<Option<Arc<Reached>>> {
    let started = Instant::now();
    Ok(match tiers.kept_reached()? {
        KeptReached::Read(reached) => {
            out(format!(
                "reached:    {} canonical indices read back {} ({:.2} s)",
                reached_count(game, &reached),
                why.0,
                started.elapsed().as_secs_f64()
            ))?;
            Some(Arc::new(reached))
        }
        KeptReached::Discarded(path) => {
            out(format!("discarded:  {} failed its checks; {}", path.display(), why.1))?;
            None
        }
        KeptReached::None => {
            if let Some(gone) = why.2 {
                out(format!("reached:    {gone}"))?;
            }
            None
        }
    })
}

/// What an earlier solve's marks read back are for: only what they mark is solved.
const SOLVED_ONLY: &str = "from the search of an earlier solve; only they are solved";
const GONE: &str = "the marks kept are gone; searched again";

fn reached_count(game: &dyn Game, reached: &Reached) -> u64 {
    game.tiers().iter().map(|&t| reached.count(t)).sum()
}

/// The positions a tiered game's start reaches, searched before its solve, so that only they are
/// solved ([`SolveOptions::reached`]); `None` (the whole game solved) where the search does not
/// support the game's start, said in the summary.
pub fn reach_first_search(
    game: &dyn Game,
    progress: &dyn Progress,
    out: &mut dyn FnMut(String) -> std::io::Result<()>,
) -> Result<Option<Arc<Reached>>> {
    let started = Instant::now();
    match perfectplay_solve::reach_tiered(game, progress) {
        Ok(reached) => {
            let count = reached_count(game, &reached);
            out(format!(
                "reached:    {count} canonical indices searched first ({:.2} s, {} of {} tiers \
                 pulled from their parents); only they are solved",
                started.elapsed().as_secs_f64(),
                reached.pulled_tiers(),
                game.tiers().len()
            ))?;
            Ok(Some(Arc::new(reached)))
        }
        Err(SolveError::Unsupported { what }) => {
            out(format!("reached:    not searched first ({what}); every position solved"))?;
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}

/// The shares of a tiered analysis counted as the tiers were solved
/// ([`TierFiles::counted_shares`]), summed, the tiers still to count, and when reading them
/// started.
struct Shares {
    counted: Tally,
    missing: Vec<Tier>,
    started: Instant,
}

/// A tiered game's analysis after its solve: the shares its tiers' files hold, and the tiers
/// without one counted from their files: the positions reachable from the start found over the
/// dense indices (two bits an index; `reached` where they were searched before the solve), then
/// counted per value-remoteness and per tier (003 Table B.5's lines) with each tier's values read
/// back when its count starts. `None` where the start does not allow counting the positions
/// reached (said in the summary).
fn count_tiered(
    game: &dyn Game,
    tiers: &TierFiles<'_>,
    reached: Option<&Reached>,
    Shares { counted, missing, started }: Shares,
    progress: &dyn Progress,
    out: &mut dyn FnMut(String) -> std::io::Result<()>,
) -> Result<Option<Tally>> {
    let read = |t: Tier| match tiers.tier(t) {
        Ok(Some(solved)) => Ok(solved),
        Ok(None) => Err(SolveError::Inconsistent {
            what: format!("tier {} has no tier file", game.tier_name(t)),
        }),
        Err(e) => Err(SolveError::Sink(Box::new(e))),
    };
    let count = |reached: &Reached| -> Result<Tally, SolveError> {
        let mut whole = counted.clone();
        let total = missing.iter().map(|&t| game.tier_size(t)).sum();
        progress.begin("count", Some(total));
        for &t in &missing {
            let share =
                perfectplay_solve::count_tier(game, reached, t, &read(t)?.values, progress)?;
            perfectplay_solve::add_tally(&mut whole, share);
        }
        progress.end();
        Ok(whole)
    };
    let counted = match reached {
        _ if missing.is_empty() => Ok(counted),
        Some(reached) => count(reached),
        None => perfectplay_solve::reach_tiered(game, progress).and_then(|r| count(&r)),
    };
    match counted {
        Ok((analysis, lines)) => {
            let tiers_total = game.tiers().len();
            let during = match missing.len() {
                0 => "; every tier counted as it was solved".to_string(),
                n if n < tiers_total => {
                    format!("; {} tiers counted as they were solved", tiers_total - n)
                }
                _ => String::new(),
            };
            out(format!(
                "reachable:  {} positions, {} canonical, in {} tiers ({:.2} s{during})",
                analysis.total(),
                analysis.canonical_total(),
                lines.len(),
                started.elapsed().as_secs_f64()
            ))?;
            Ok(Some((analysis, lines)))
        }
        Err(SolveError::Unsupported { what }) => {
            out(format!("reachable:  not counted ({what})"))?;
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}

/// This process's command line, as a solve's lock records it.
pub fn command_line() -> String {
    let mut args = std::env::args();
    let program = args.next().map(|p| {
        std::path::Path::new(&p).file_name().map_or(p.clone(), |n| n.to_string_lossy().into())
    });
    program.into_iter().chain(args).collect::<Vec<_>>().join(" ")
}

/// Takes the lock of the variant whose database is `path` for a solve running `command`: one
/// solve per variant, whichever process runs it ([`SolveLock`]). Another solve holding it is an
/// error that says who (pid, command, since when) and how far it has got.
pub fn lock(game: &dyn Game, path: &Path, command: &str) -> Result<SolveLock> {
    SolveLock::acquire(path, command).map_err(|e| match e {
        DbError::Busy { holder, .. } => anyhow::anyhow!(
            "{} {} is being solved already, by {}; this solve is refused: wait for that one to \
             finish, or stop it (a stopped solve resumes from its tier files)",
            game.id(),
            game.variant(),
            holder.map_or("another process".to_string(), |h| describe_holder(game, path, &h))
        ),
        e => e.into(),
    })
}

/// "pid 1234 (`perfectplay solve ...`), started 2026-11-28 14:02:11 UTC, 37 s ago; 120 of 493
/// tier files written".
pub fn describe_holder(game: &dyn Game, path: &Path, h: &Holder) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut s = format!(
        "pid {} (`{}`), started {}, {} s ago",
        h.pid,
        h.command,
        utc(h.started),
        now.saturating_sub(h.started)
    );
    if let Some((done, total)) = tier_progress(game, path) {
        s += &format!("; {done} of {total} tier files written");
    }
    s
}

/// The tier files written so far and the tiers in all, for a tiered game.
pub fn tier_progress(game: &dyn Game, path: &Path) -> Option<(usize, usize)> {
    game.space()
        .is_tiered()
        .then(|| (perfectplay_db::finished_tier_files(path), game.tiers().len()))
}

/// Seconds since the Unix epoch as "2026-11-28 14:02:11 UTC" (the proleptic Gregorian calendar,
/// days to a civil date as in Howard Hinnant's `civil_from_days`).
pub fn utc(seconds: u64) -> String {
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// Copies into the tier files the tiers that another variant's finished database beside this
/// one holds ([`perfectplay_core::TierIndex::variants_sharing`]), saying how many from which.
pub fn adopt_shared(
    tiers: &mut TierFiles<'_>,
    out: &mut dyn FnMut(String) -> std::io::Result<()>,
) -> Result<()> {
    let started = Instant::now();
    let shared = tiers.adopt_shared();
    for (variant, n) in shared.copied {
        out(format!(
            "shared:     {n} tiers copied from the database of {variant} ({:.2} s)",
            started.elapsed().as_secs_f64()
        ))?;
    }
    for e in shared.passed_over {
        out(format!("shared:     passed over (its tiers are solved instead): {e}"))?;
    }
    Ok(())
}

/// "start:      X should win in 3".
pub fn start_line(game: &dyn Game, start: ValueRemoteness) -> String {
    format!(
        "start:      {} should {}",
        game.player_name(game.to_move(game.start())),
        crate::words(start)
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn utc_dates() {
        assert_eq!(super::utc(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(super::utc(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(super::utc(1_795_876_649), "2026-11-28 14:37:29 UTC");
    }
}

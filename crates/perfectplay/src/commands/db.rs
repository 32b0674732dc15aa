//! `perfectplay db`: database files inspected (`info`, `verify`, `count`) and rewritten in place
//! under the variant's lock (`upgrade`, `prune`).

use std::io::Write;
use std::time::Instant;

use anyhow::Result;
use perfectplay_core::{Game, GameExt, Player, Value};

use crate::store::Store;
use crate::{db_info, progress, solving, DbCommand};

pub fn db(command: DbCommand, out: &mut impl Write) -> Result<()> {
    match command {
        DbCommand::Info { file } => {
            let db = Store::file(&file)?;
            write!(out, "{}", db_info::db_info(&db))?;
        }
        DbCommand::Count { file } => {
            let db = Store::file(&file)?;
            let started = Instant::now();
            let game = perfectplay_games::lookup(&db.header().game, Some(&db.header().variant))
                .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            let game = game.as_ref();
            if !game.space().is_tiered() {
                anyhow::bail!("{}: {} has no tier index to count by", file.display(), game.id());
            }
            db.check_game(game)?;
            let derived = db.header().tables.iter().any(|t| t.stored < t.positions);
            if db.is_pruned() || derived {
                anyhow::bail!(
                    "{}: pruned (it holds only the values of positions the start reaches); count \
                     the database as solved, before `analyze --prune` or `db prune`",
                    file.display()
                );
            }
            let tier = |t| match db.load_tier(t) {
                Ok(Some(solved)) => Ok(std::borrow::Cow::Owned(solved)),
                Ok(None) => Err(perfectplay_solve::SolveError::Sink(
                    format!("{}: no table for tier {}", file.display(), game.tier_name(t)).into(),
                )),
                Err(e) => Err(perfectplay_solve::SolveError::Sink(Box::new(e))),
            };
            let counts =
                perfectplay_solve::count_positions_by_mover(game, &tier, &progress::Bar::new())?;
            write!(out, "{}", position_counts(game, &counts, started.elapsed().as_secs_f64()))?;
        }
        DbCommand::Verify { file } => {
            let db = Store::file(&file)?;
            let started = Instant::now();
            db.verify()?;
            writeln!(
                out,
                "{}: every block reads back and checks ({:.2} s)",
                file.display(),
                started.elapsed().as_secs_f64()
            )?;
        }
        DbCommand::Prune { file, derive } => {
            let db = Store::file(&file)?;
            // A rewrite of the database holds the variant's lock, as a solve does.
            let _lock = perfectplay_db::SolveLock::acquire(&file, &solving::command_line())?;
            let started = Instant::now();
            let before = db.header().file_len;
            let game = perfectplay_games::lookup(&db.header().game, Some(&db.header().variant))
                .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            let game = game.as_ref();
            if !game.space().is_tiered() {
                anyhow::bail!("{}: {} is not solved by tiers", file.display(), game.id());
            }
            let reached = perfectplay_solve::reach_tiered_one_pass(game, &progress::Bar::new())?;
            let searched = started.elapsed().as_secs_f64();
            let derived = match derive {
                true => perfectplay_db::derivable(game),
                false => perfectplay_db::Derivable::NONE,
            };
            let mut writer = perfectplay_db::Writer::new(&file, game, db.header().canonical)
                .with_level(perfectplay_db::PRUNED_ZSTD_LEVEL);
            let keep = |t, first, out: &mut [bool]| reached.reached_run(t, first, out);
            writer.add_tables_pruned(&db, &keep, &derived)?;
            if let Some(a) = db.analysis() {
                writer.set_analysis(&a);
            }
            writer.set_tier_lines(&db.tier_lines(game));
            let written = writer.finish()?;
            let searched_tiers =
                game.tiers().into_iter().filter(|&t| reached.is_complete(t)).count();
            writeln!(
                out,
                "{}: {before} bytes -> {} bytes; {searched_tiers} tiers searched through and \
                 pruned where the start misses indices{} ({searched:.1} s to search, {:.1} s in \
                 all)",
                file.display(),
                written.bytes,
                match derived.describe() {
                    d if d.is_empty() => d,
                    d => format!("; {d}"),
                },
                started.elapsed().as_secs_f64()
            )?;
        }
        DbCommand::Upgrade { file, derive } => {
            let db = Store::file(&file)?;
            // A rewrite of the database holds the variant's lock, as a solve does.
            let _lock = perfectplay_db::SolveLock::acquire(&file, &solving::command_line())?;
            let started = Instant::now();
            let (before, version) = (db.header().file_len, db.version());
            let game = perfectplay_games::lookup(&db.header().game, Some(&db.header().variant))
                .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            let derived = match derive {
                true => perfectplay_db::derivable(game.as_ref()),
                false => perfectplay_db::Derivable::NONE,
            };
            let mut writer =
                perfectplay_db::Writer::new(&file, game.as_ref(), db.header().canonical);
            writer.add_tables_deriving(&db, &derived)?;
            if let Some(a) = db.analysis() {
                writer.set_analysis(&a);
            }
            writer.set_tier_lines(&db.tier_lines(game.as_ref()));
            let written = writer.finish()?;
            writeln!(
                out,
                "{}: version {version}, {before} bytes -> version {}, {} bytes ({:.1} s{})",
                file.display(),
                perfectplay_db::VERSION,
                written.bytes,
                started.elapsed().as_secs_f64(),
                match derived.describe() {
                    d if d.is_empty() => d,
                    d => format!("; {d}"),
                }
            )?;
        }
    }
    Ok(())
}

/// `db count`'s report: [`perfectplay_solve::count_positions_by_mover`]'s counts by the side to
/// move, then by the side that wins.
fn position_counts(game: &dyn Game, counts: &[[u64; 4]; 2], seconds: f64) -> String {
    use std::fmt::Write as _;
    let players = [Player::First, Player::Second];
    let width = players.iter().map(|&p| game.player_name(p).len()).max().unwrap_or(0);
    let mut s = format!(
        "{} ({}): every canonical position, reachable from the start or not\n",
        game.id(),
        game.variant()
    );
    for (p, row) in players.iter().zip(counts) {
        let cells: Vec<String> =
            Value::ALL.iter().map(|&v| format!("{} {}", v.name(), row[v as usize])).collect();
        let _ = writeln!(s, "  {:width$} to move: {}", game.player_name(*p), cells.join(", "));
    }
    let (win, lose) = (Value::Win as usize, Value::Lose as usize);
    let wins = |p: usize| counts[p][win] + counts[1 - p][lose];
    let (draw, tie) = (Value::Draw as usize, Value::Tie as usize);
    let _ = writeln!(
        s,
        "  won by {} {}, won by {} {}, draws {}, ties {}; {} in all ({seconds:.1} s)",
        game.player_name(Player::First),
        wins(0),
        game.player_name(Player::Second),
        wins(1),
        counts[0][draw] + counts[1][draw],
        counts[0][tie] + counts[1][tie],
        counts.iter().flatten().sum::<u64>()
    );
    s
}

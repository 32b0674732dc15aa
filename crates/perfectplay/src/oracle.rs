//! Answers about positions: from a game's database when one exists, else from a solve in memory,
//! and on-demand solves of positions its start does not reach; for a game too large to solve
//! whole that can be searched (Quarto), from a live search of each position asked about.

use anyhow::{anyhow, Result};
use perfectplay_core::{Game, GameExt, Move, Position, StartingAt, Value, ValueRemoteness};
use perfectplay_db::{Database, Fetch, Found};
use perfectplay_solve::{solve, AlphaBeta, NoProgress, Progress, Solution, SolveOptions};
use serde_json::json;

use crate::progress::Bar;

/// Where answers come from.
#[derive(Debug)]
pub enum Source {
    /// A database file, read block by block.
    Disk(Box<Database>),
    /// A solve held in memory.
    Memory(Solution),
    /// A live search of each position asked about (nothing stored between questions).
    Live,
}

impl Source {
    fn get(&self, game: &dyn Game, p: Position) -> Result<Option<ValueRemoteness>> {
        Ok(match self.get_with(game, p, Fetch::Read)? {
            Found::Value(v) => Some(v),
            Found::Absent | Found::NotCached => None,
        })
    }

    fn get_with(&self, game: &dyn Game, p: Position, fetch: Fetch) -> Result<Found> {
        Ok(match self {
            Source::Disk(db) => db.get_with(game, p, fetch)?,
            Source::Memory(s) => s.get(game, p).map_or(Found::Absent, Found::Value),
            // A search is never answered from a cache.
            Source::Live if fetch == Fetch::CachedOnly => Found::NotCached,
            Source::Live => Found::Value(AlphaBeta::new(game).value(p)?),
        })
    }
}

/// A position's report from what was solved ([`Oracle::report_stored`]).
#[derive(Clone, Debug)]
pub enum Stored {
    /// The position's report.
    Report(PositionReport),
    /// The solve did not cover the position (the start does not reach it).
    Unreached,
    /// The answer needs a database block that is not in the cache ([`Fetch::CachedOnly`]).
    NotCached,
}

/// A solved game.
#[derive(Debug)]
pub struct Oracle<'a> {
    game: &'a dyn Game,
    source: Source,
}

/// One move from a position, with what it is worth.
#[derive(Clone, Debug)]
pub struct MoveReport {
    pub mv: Move,
    pub text: String,
    pub child: Position,
    /// The child's value, from the view of the player to move there.
    pub child_value: ValueRemoteness,
    /// What the move is worth to the player making it.
    pub value: ValueRemoteness,
    /// How much worse than the best move, in remoteness (0 for the best moves).
    pub delta_remoteness: u16,
}

/// A position with its value and every move's.
#[derive(Clone, Debug)]
pub struct PositionReport {
    pub position: Position,
    pub value: ValueRemoteness,
    /// Best first.
    pub moves: Vec<MoveReport>,
}

impl<'a> Oracle<'a> {
    /// Solves the game in memory.
    pub fn solve(game: &'a dyn Game, options: SolveOptions) -> Result<Oracle<'a>> {
        let solution = solve(game, options, &Bar::new(), None)?;
        Ok(Oracle { game, source: Source::Memory(solution) })
    }

    /// Solves the game in memory without a progress bar.
    pub fn solve_quietly(game: &'a dyn Game, options: SolveOptions) -> Result<Oracle<'a>> {
        let solution = solve(game, options, &perfectplay_solve::NoProgress, None)?;
        Ok(Oracle { game, source: Source::Memory(solution) })
    }

    /// Answers by searching each position asked about.
    pub fn live(game: &'a dyn Game) -> Oracle<'a> {
        Oracle { game, source: Source::Live }
    }

    /// Whether a game without a database is answered by live search rather than solved: a game
    /// that can be searched and is not small.
    pub fn searched_live(game: &dyn Game) -> bool {
        game.search_kernel().is_some() && game.size_class() != perfectplay_core::SizeClass::Small
    }

    /// Answers from an open database (already checked to be this game's).
    pub fn from_database(game: &'a dyn Game, db: Database) -> Oracle<'a> {
        Oracle { game, source: Source::Disk(Box::new(db)) }
    }

    /// The highest remoteness stored: a fixed scale for a game's value history.
    pub fn highest_remoteness(&self) -> u16 {
        match &self.source {
            Source::Disk(db) => db.highest_remoteness(),
            Source::Memory(s) => s.highest_remoteness(),
            Source::Live => self.game.search_kernel().map_or(0, |k| k.longest_game()),
        }
    }

    /// Where answers come from.
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// A position's value and every move's, best first. A legal position the start does not reach
    /// is solved on demand from itself, except from a pruned database (an error: such a game is
    /// too large to solve on demand).
    pub fn report(&self, p: Position) -> Result<PositionReport> {
        if let Source::Live = self.source {
            return self.report_live(p, &Bar::new(), &|| false, &|_, _| {});
        }
        let pruned = matches!(&self.source, Source::Disk(db) if db.is_pruned());
        let not_reachable = || {
            anyhow!(
                "{} is not reachable from the start, and the database holds only the positions \
                 the start reaches (expected a position reachable from the start)",
                self.game.position_to_string(p)
            )
        };
        let stored = match self.source.get(self.game, p)? {
            Some(value) => self.report_from(&self.source, p, value, Fetch::Read)?,
            None if pruned => return Err(not_reachable()),
            None => {
                let from = StartingAt { game: self.game, start: p };
                let local =
                    Source::Memory(solve(&from, SolveOptions::default(), &Bar::new(), None)?);
                let value =
                    local.get(self.game, p)?.ok_or_else(|| anyhow!("the start was not solved"))?;
                self.report_from(&local, p, value, Fetch::Read)?
            }
        };
        match stored {
            Stored::Report(report) => Ok(report),
            Stored::Unreached if pruned => Err(not_reachable()),
            Stored::Unreached | Stored::NotCached => Err(anyhow!("a move's value was not found")),
        }
    }

    /// [`Oracle::report`], except that a live search still under way after `budget` gives up:
    /// `None` (the moves' values are not known yet). Answers from a solve are never `None`.
    pub fn report_within(
        &self,
        p: Position,
        budget: std::time::Duration,
    ) -> Result<Option<PositionReport>> {
        if !matches!(self.source, Source::Live) {
            return self.report(p).map(Some);
        }
        let started = std::time::Instant::now();
        let over = || started.elapsed() > budget;
        match self.report_live(p, &Bar::new(), &over, &|_, _| {}) {
            Ok(report) => Ok(Some(report)),
            Err(e) if matches!(e.downcast_ref(), Some(perfectplay_solve::SolveError::Stopped)) => {
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// [`Oracle::report`] for a position the solve covered, without a solve on demand (the server
    /// must not start a large solve for a request); with [`Fetch::CachedOnly`], only from blocks
    /// the database's cache holds.
    pub fn report_stored(&self, p: Position, fetch: Fetch) -> Result<Stored> {
        if let Source::Live = self.source {
            return Ok(match fetch {
                Fetch::CachedOnly => Stored::NotCached,
                Fetch::Read => {
                    Stored::Report(self.report_live(p, &NoProgress, &|| false, &|_, _| {})?)
                }
            });
        }
        match self.source.get_with(self.game, p, fetch)? {
            Found::Value(value) => self.report_from(&self.source, p, value, fetch),
            Found::Absent => Ok(Stored::Unreached),
            Found::NotCached => Ok(Stored::NotCached),
        }
    }

    /// A live search's report of `p`: each move's value, searched on every core (one table a
    /// thread; a move is one step of `progress`, and its child's value goes to `found` as soon as
    /// it is known), and the best of them; `stop` is asked now and then whether to give up.
    pub fn report_live(
        &self,
        p: Position,
        progress: &dyn Progress,
        stop: &(dyn Fn() -> bool + Sync),
        found: &(dyn Fn(Position, ValueRemoteness) + Sync),
    ) -> Result<PositionReport> {
        use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
        use std::sync::Mutex;
        let game = self.game;
        let children: Vec<Position> =
            game.legal_moves(p).into_iter().map(|m| game.do_move(p, m)).collect();
        let values: Mutex<std::collections::HashMap<Position, ValueRemoteness>> = Mutex::default();
        let failed = Mutex::new(None);
        let next = AtomicUsize::new(0);
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        // One table a thread, together the size of one search's.
        let bits = perfectplay_solve::TABLE_BITS.saturating_sub(threads.ilog2()).max(16);
        // A failure on one thread stops the others.
        let give_up = std::sync::atomic::AtomicBool::new(false);
        let stop = || stop() || give_up.load(Relaxed);
        progress.begin("searching", Some(children.len() as u64));
        std::thread::scope(|scope| {
            for _ in 0..threads.min(children.len()) {
                scope.spawn(|| {
                    let mut search = AlphaBeta::with_table_bits(game, bits);
                    search.stop_when(&stop);
                    while let Some(&child) = children.get(next.fetch_add(1, Relaxed)) {
                        match search.value(child) {
                            Ok(v) => {
                                values.lock().unwrap_or_else(|e| e.into_inner()).insert(child, v);
                                found(child, v);
                                progress.advance(1);
                            }
                            Err(e) => {
                                // The first failure is the one to report (the others may
                                // be the stops it caused).
                                failed.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                                give_up.store(true, Relaxed);
                                next.store(children.len(), Relaxed);
                            }
                        }
                    }
                });
            }
        });
        progress.end();
        if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(e.into());
        }
        let values = values.into_inner().unwrap_or_else(|e| e.into_inner());
        let value = match game.primitive(p) {
            Some(v) => ValueRemoteness::new(v, perfectplay_core::Remoteness(0)),
            None => values
                .values()
                .map(|v| v.to_parent())
                .max()
                .ok_or_else(|| anyhow!("a position that is not primitive has no moves"))?,
        };
        let report = self.report_with(p, value, false, &mut |child| {
            Ok(values.get(&child).map_or(Found::Absent, |&v| Found::Value(v)))
        });
        match report? {
            Stored::Report(report) => Ok(report),
            _ => Err(anyhow!("a move's value was not found")),
        }
    }

    /// The report of `p`, whose value is known, with its moves' values from `source`.
    fn report_from(
        &self,
        source: &Source,
        p: Position,
        value: ValueRemoteness,
        fetch: Fetch,
    ) -> Result<Stored> {
        // In a pruned database a position the start does not reach may still hold its value (the
        // writer keeps it where that costs nothing), while some of its children are absent.
        let pruned = matches!(source, Source::Disk(db) if db.is_pruned());
        self.report_with(p, value, pruned, &mut |child| source.get_with(self.game, child, fetch))
    }

    /// The report of `p`, whose value is known, with each move's value from `child_value`; a
    /// child not found means `p` is not reached from the start if `absent_unreached`, else an
    /// error.
    fn report_with(
        &self,
        p: Position,
        value: ValueRemoteness,
        absent_unreached: bool,
        child_value: &mut dyn FnMut(Position) -> Result<Found>,
    ) -> Result<Stored> {
        let mut moves = Vec::new();
        for mv in self.game.legal_moves(p) {
            let child = self.game.do_move(p, mv);
            let child_value = match child_value(child)? {
                Found::Value(v) => v,
                Found::NotCached => return Ok(Stored::NotCached),
                Found::Absent if absent_unreached => return Ok(Stored::Unreached),
                Found::Absent => {
                    return Err(anyhow!(
                        "position {} was not solved",
                        self.game.position_to_string(child)
                    ))
                }
            };
            moves.push(MoveReport {
                mv,
                text: self.game.move_to_string(p, mv),
                child,
                child_value,
                value: child_value.to_parent(),
                delta_remoteness: 0,
            });
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.value));
        for m in &mut moves {
            m.delta_remoteness = value.remoteness_or_zero().abs_diff(m.value.remoteness_or_zero());
        }
        Ok(Stored::Report(PositionReport { position: p, value, moves }))
    }
}

fn remoteness_json(vr: ValueRemoteness) -> serde_json::Value {
    match vr.remoteness() {
        Some(r) if vr.value() != Value::Draw => json!(r.0),
        _ => serde_json::Value::Null,
    }
}

impl PositionReport {
    /// The report as JSON: the position, its value and remoteness, and every move with what it is
    /// worth to the mover, its remoteness and the child position.
    pub fn to_json(&self, game: &dyn Game) -> serde_json::Value {
        json!({
            "game": game.id(),
            "variant": game.variant(),
            "position": game.position_to_string(self.position),
            "turn": game.player_name(game.to_move(self.position)),
            "value": self.value.value().name(),
            "remoteness": remoteness_json(self.value),
            "moves": self.moves.iter().map(|m| json!({
                "move": m.text,
                "value": m.value.value().name(),
                "remoteness": remoteness_json(m.child_value),
                "deltaRemoteness": m.delta_remoteness,
                "position": game.position_to_string(m.child),
                "positionValue": m.child_value.value().name(),
            })).collect::<Vec<_>>(),
        })
    }
}

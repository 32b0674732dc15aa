//! The data directory as the application sees it: for each game variant, where its database
//! lives, its solve lock, and where its answers come from (its database, a live search, a solve
//! in memory). The CLI's commands and the server ask the store; nothing else finds or opens a
//! variant's database.

use std::path::{Path, PathBuf};

use anyhow::Result;
use perfectplay_core::{Game, GameExt};
use perfectplay_db::{Database, SolveLock};
use perfectplay_solve::SolveOptions;

use crate::oracle::Oracle;

/// The most indices of a tiered game that `query`, `play` and `analyze` solve in memory when it
/// has no database: 9 geese's 1.7e9 (about 4 minutes and 2 GB) still; 10 geese's 4.3e9, or
/// Fuchs und Henne's 21.7e9, not.
const IN_MEMORY_INDICES: u64 = 2_000_000_000;

/// A data directory: `<dir>/<game>/<variant>.ppdb` and the variant's lock and tier files beside.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
}

impl Store {
    pub fn new(dir: impl Into<PathBuf>) -> Store {
        Store { dir: dir.into() }
    }

    /// Where a variant's database lives (there or not).
    pub fn path(&self, game: &dyn Game) -> PathBuf {
        perfectplay_db::path_for(&self.dir, game.id(), &game.variant())
    }

    /// Whether the variant has a database.
    pub fn is_solved(&self, game: &dyn Game) -> bool {
        self.path(game).exists()
    }

    /// The variant's database, checked to be this game's; `None` where it has none.
    pub fn database(&self, game: &dyn Game) -> Result<Option<Database>> {
        self.database_with(game, |path| Ok(Database::open(path)?))
    }

    /// [`Store::database`] with a block cache of `budget(file length)` bytes (the server's).
    pub fn database_cached(
        &self,
        game: &dyn Game,
        budget: impl Fn(u64) -> usize,
    ) -> Result<Option<Database>> {
        self.database_with(game, |path| {
            let len = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
            Ok(Database::open_with_cache(path, budget(len))?)
        })
    }

    fn database_with(
        &self,
        game: &dyn Game,
        open: impl Fn(&Path) -> Result<Database>,
    ) -> Result<Option<Database>> {
        let path = self.path(game);
        if !path.exists() {
            return Ok(None);
        }
        let db = open(&path)?;
        db.check_game(game)?;
        Ok(Some(db))
    }

    /// A database file named on the command line, whatever game it holds.
    pub fn file(path: &Path) -> Result<Database> {
        Ok(Database::open(path)?)
    }

    /// The variant's lock, for a solve or a rewrite of its database running `command`.
    pub fn lock(&self, game: &dyn Game, command: &str) -> Result<SolveLock> {
        crate::solving::lock(game, &self.path(game), command)
    }

    /// Answers for the command line: the variant's database if it has one, else a live search
    /// for a game searched live, else a solve in memory (saying so on stderr) if it is small
    /// enough; beyond that, an error saying how to solve it.
    pub fn oracle<'a>(&self, game: &'a dyn Game, options: SolveOptions) -> Result<Oracle<'a>> {
        if let Some(db) = self.database(game)? {
            return Ok(Oracle::from_database(game, db));
        }
        if Oracle::searched_live(game) {
            return Ok(Oracle::live(game));
        }
        let path = self.path(game);
        let indices: u64 = game.tiers().iter().map(|&t| game.tier_size(t)).sum();
        if indices > IN_MEMORY_INDICES {
            anyhow::bail!(
                "no database at {}, and {} ({}) has {indices} indices, too many to solve in \
                 memory for one answer: solve it first (`perfectplay solve {} --variant {} \
                 --memory-limit 16GiB`, resumable)",
                path.display(),
                game.name(),
                game.variant(),
                game.id(),
                game.variant()
            );
        }
        eprintln!(
            "no database at {}; solving in memory (`perfectplay solve {} --variant {}` keeps it)",
            path.display(),
            game.id(),
            game.variant()
        );
        Oracle::solve(game, options)
    }
}

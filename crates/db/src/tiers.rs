//! Per-tier files for long solves: each solved tier is written at once to its own database file
//! (one table) in a work directory beside the final file, atomically as every database is. A solve
//! that is killed and run again finds the tiers already written, checks every block of each, and
//! reads them back instead of solving them again; a file that fails its checks is removed and its
//! tier solved again (nothing half-written is trusted, and the atomic rename means a tier file
//! exists only complete). [`TierFiles::finish`] copies the tiers' compressed blocks into the final
//! file (no recompression), then removes the work directory.

use std::path::{Path, PathBuf};

use perfectplay_core::{Game, GameExt, Tier};
use perfectplay_solve::{Analysis, ResultSink, SinkError, SolvedTier, Tally, TierReport};

use crate::reader::Database;
use crate::writer::{Writer, Written};
use crate::DbError;

/// The solve's sink for per-tier files; see the module documentation.
pub struct TierFiles<'g> {
    path: PathBuf,
    dir: PathBuf,
    game: &'g dyn Game,
    canonical: bool,
    /// Tiers read back from an earlier solve.
    resumed: Vec<Tier>,
    /// Tiers written by this solve.
    written: Vec<Tier>,
    /// Every tier handed over or read back, in the solve's order.
    order: Vec<Tier>,
    /// Tier files found damaged and removed.
    discarded: Vec<PathBuf>,
    /// Tiers whose files were copied from another variant's database.
    adopted: Vec<Tier>,
    /// The solve solves only the positions its start reaches ([`TierFiles::reached_only`]).
    reached_only: bool,
    /// Tiers whose files held only the positions reached, solved again whole.
    redone: Vec<Tier>,
    /// The share of the analysis of the tier handed over next ([`ResultSink::tier_counted`]),
    /// stored in its file's header.
    share: Option<(Tier, Tally)>,
}

impl std::fmt::Debug for TierFiles<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TierFiles").field("dir", &self.dir).finish()
    }
}

/// What [`TierFiles::adopt_shared`] did: the variants it copied tiers from, each with the number
/// of tiers, and the databases it passed over after an error (each with the error).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Shared {
    /// (variant, tiers copied from its database).
    pub copied: Vec<(String, usize)>,
    /// "variant: error" for each database given up on while copying.
    pub passed_over: Vec<String>,
}

/// The work directory of a database's per-tier files: `<variant>.ppdb.tiers` beside it.
pub fn tier_dir(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".tiers");
    path.with_file_name(name)
}

/// How many finished tier files the solve of the database at `path` has written so far (the
/// progress of a solve that another process runs).
pub fn finished_tier_files(path: &Path) -> usize {
    std::fs::read_dir(tier_dir(path)).map_or(0, |dir| {
        dir.flatten()
            .filter(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                name.starts_with("tier-") && name.ends_with(".ppdb")
            })
            .count()
    })
}

impl<'g> TierFiles<'g> {
    /// Per-tier files for the database that will be `path`.
    pub fn new(path: impl Into<PathBuf>, game: &'g dyn Game, canonical: bool) -> TierFiles<'g> {
        let path = path.into();
        TierFiles {
            dir: tier_dir(&path),
            path,
            game,
            canonical,
            resumed: Vec::new(),
            written: Vec::new(),
            order: Vec::new(),
            discarded: Vec::new(),
            adopted: Vec::new(),
            reached_only: false,
            redone: Vec::new(),
            share: None,
        }
    }

    /// Says that the solve solves only the positions its start reaches
    /// ([`perfectplay_solve::SolveOptions::reached`]). Without it, a tier file of such a solve
    /// (a pruned table) is not taken for a finished tier but solved again whole: a whole solve
    /// of the tiers above would read values that were never solved.
    pub fn reached_only(&mut self) {
        self.reached_only = true;
    }

    /// Tiers whose files held only the positions reached, solved again by this whole solve.
    pub fn redone(&self) -> &[Tier] {
        &self.redone
    }

    /// Whether tier `tier`'s file holds only the positions reached while this solve needs every
    /// one: then it is removed, to be solved again.
    fn redo_pruned(&mut self, tier: Tier) -> Result<bool, DbError> {
        if self.reached_only {
            return Ok(false);
        }
        let path = self.tier_path(tier);
        let pruned = Database::open(&path)
            .is_ok_and(|db| db.header().tables.iter().any(|t| t.absent && t.tier == tier.0));
        if pruned {
            std::fs::remove_file(&path).map_err(|error| DbError::Io { path, error })?;
            self.redone.push(tier);
        }
        Ok(pruned)
    }

    /// The work directory of the per-tier files.
    pub(crate) fn work_dir(&self) -> &Path {
        &self.dir
    }

    /// The game whose tiers these are.
    pub(crate) fn game(&self) -> &'g dyn Game {
        self.game
    }

    fn tier_path(&self, tier: Tier) -> PathBuf {
        self.dir.join(format!("tier-{}.ppdb", tier.0))
    }

    /// Tiers read back from an earlier solve instead of being solved.
    pub fn resumed(&self) -> &[Tier] {
        &self.resumed
    }

    /// Tiers this solve wrote.
    pub fn written(&self) -> &[Tier] {
        &self.written
    }

    /// Tier files that failed their checks and were removed (their tiers were solved again).
    pub fn discarded(&self) -> &[PathBuf] {
        &self.discarded
    }

    /// Removes the work directory and anything in it (a solve started over with `--force`).
    pub fn clear(&self) -> Result<(), DbError> {
        match std::fs::remove_dir_all(&self.dir) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(DbError::Io { path: self.dir.clone(), error: e })
            }
            _ => Ok(()),
        }
    }

    /// The number of tiers solved or read back so far.
    pub fn tiers(&self) -> usize {
        self.order.len()
    }

    /// One tier's values read back from its file (`None` if it has none).
    pub fn tier(&self, tier: Tier) -> Result<Option<SolvedTier>, DbError> {
        self.read_back(tier)
    }

    /// The shares of the analysis the tier files hold (each counted as its tier was solved,
    /// [`ResultSink::tier_counted`]), summed, and the tiers whose files hold none (a tier
    /// without a file, copied from another variant, or solved without its count).
    pub fn counted_shares(&self) -> Result<(Tally, Vec<Tier>), DbError> {
        let (mut whole, mut missing) = (Tally::default(), Vec::new());
        for tier in self.game.tiers() {
            let path = self.tier_path(tier);
            if !path.exists() {
                missing.push(tier);
                continue;
            }
            let db = Database::open(&path)?;
            let mut lines = db.tier_lines(self.game);
            // A counted tier's file has a line of its own, even where nothing in it is reached.
            if !lines.iter().any(|l| l.tier == tier) {
                missing.push(tier);
                continue;
            }
            lines.retain(|l| l.reachable > 0 || l.canonical > 0);
            perfectplay_solve::add_tally(&mut whole, (db.analysis().unwrap_or_default(), lines));
        }
        Ok((whole, missing))
    }

    /// Every tier's values, read back from the tier files (for an analysis after a solve that
    /// dropped tiers from memory).
    pub fn load(&self) -> Result<perfectplay_solve::Solution, DbError> {
        let mut solved = Vec::with_capacity(self.order.len());
        for &t in &self.order {
            let db = Database::open(self.tier_path(t))?;
            solved.extend(db.load()?.into_tiers());
        }
        Ok(perfectplay_solve::Solution::from_tiers(solved, self.canonical_flag()))
    }

    fn canonical_flag(&self) -> bool {
        self.canonical && self.game.symmetry_count() > 1
    }

    /// Writes the final database from the tier files, in the solve's order, with `analysis` in
    /// its header (the whole game's rows, and a tiered game's tier lines, 003 Table B.5), what
    /// `derived` names ([`crate::derivable`]) left to be derived from children, then removes the
    /// work directory.
    pub fn finish(
        self,
        analysis: Option<(&Analysis, &[perfectplay_solve::TierReport])>,
        derived: &crate::Derivable,
    ) -> Result<Written, DbError> {
        let mut writer = Writer::new(&self.path, self.game, self.canonical);
        for &t in &self.order {
            let db = Database::open(self.tier_path(t))?;
            writer.add_tables_deriving(&db, derived)?;
        }
        if let Some((a, lines)) = analysis {
            writer.set_analysis(a);
            writer.set_tier_lines(lines);
        }
        let written = writer.finish()?;
        self.clear()?;
        Ok(written)
    }

    /// Writes tier `tier`'s file from `db`, the finished database of another variant of the game
    /// that has the same tier ([`GameExt::variants_sharing`]), copying its blocks as they are.
    /// `Ok(false)` where the tier has a file already, or `db` is not such a database or holds the
    /// tier otherwise than whole (pruned, derived, sorted, or of another size). The solve then
    /// reads the file back, every block checked, as a tier of an earlier solve. An error where
    /// the table's fingerprint is not this build's for the tier ([`DbError::StaleRules`]).
    pub fn adopt(&mut self, tier: Tier, db: &Database) -> Result<bool, DbError> {
        let header = db.header();
        let shares = header.game == self.game.id()
            && header.canonical == self.canonical_flag()
            && self.game.variants_sharing(tier).contains(&header.variant);
        let table = header.tables.iter().position(|t| {
            t.tier == tier.0
                && t.kind == crate::TableKind::Dense
                && !t.absent
                && t.stored == t.positions
                && t.positions == self.game.tier_size(tier)
        });
        let (true, Some(table), false) = (shares, table, self.tier_path(tier).exists()) else {
            return Ok(false);
        };
        let stored = &header.tables[table];
        if let Err(expected) = db.check_table_fingerprint(self.game, stored) {
            return Err(db.stale_table(self.game, stored, expected));
        }
        let mut writer = Writer::new(self.tier_path(tier), self.game, self.canonical);
        writer.add_table_of_variant(db, table)?;
        writer.finish()?;
        self.adopted.push(tier);
        Ok(true)
    }

    /// Copies into its tier file each tier without one that a finished database of another
    /// variant beside this one holds ([`GameExt::variants_sharing`], best first). A database that
    /// cannot be opened, or fails a check while a tier is copied, is passed over from then on
    /// (its tiers are then solved, or copied from the next variant) and said in
    /// [`Shared::passed_over`].
    pub fn adopt_shared(&mut self) -> Shared {
        let mut opened: Vec<(String, Option<Database>)> = Vec::new();
        let mut shared = Shared::default();
        for tier in self.game.tiers() {
            if self.tier_path(tier).exists() {
                continue;
            }
            for variant in self.game.variants_sharing(tier) {
                let k = match opened.iter().position(|(v, _)| *v == variant) {
                    Some(k) => k,
                    None => {
                        let path = crate::variant_path(&self.path, &variant);
                        opened.push((variant.clone(), Database::open(path).ok()));
                        opened.len() - 1
                    }
                };
                let Some(db) = &opened[k].1 else { continue };
                match self.adopt(tier, db) {
                    Ok(false) => {}
                    Ok(true) => {
                        match shared.copied.iter_mut().find(|(v, _)| *v == variant) {
                            Some((_, n)) => *n += 1,
                            None => shared.copied.push((variant, 1)),
                        }
                        break;
                    }
                    Err(e) => {
                        shared.passed_over.push(format!("{variant}: {e}"));
                        opened[k].1 = None;
                    }
                }
            }
        }
        shared
    }

    /// Tiers whose files [`TierFiles::adopt`] wrote from another variant's database.
    pub fn adopted(&self) -> &[Tier] {
        &self.adopted
    }

    /// The tier's file, opened and checked through and through; `None` if there is none.
    fn read_back(&self, tier: Tier) -> Result<Option<SolvedTier>, DbError> {
        let path = self.tier_path(tier);
        if !path.exists() {
            return Ok(None);
        }
        let db = Database::open(&path)?;
        db.check_game(self.game)?;
        if db.header().tables.len() != 1 || db.header().tables[0].tier != tier.0 {
            return Err(DbError::Corrupt { path, what: format!("not tier {}'s file", tier.0) });
        }
        db.verify()?;
        Ok(db.load()?.into_tiers().pop())
    }
}

impl ResultSink for TierFiles<'_> {
    fn tier_solved(&mut self, tier: &SolvedTier) -> Result<(), SinkError> {
        let mut writer =
            Writer::new(self.tier_path(tier.tier), self.game, self.canonical).holding_blocks();
        writer.add_tier(tier)?;
        if let Some((_, (analysis, mut lines))) = self.share.take().filter(|s| s.0 == tier.tier) {
            // The tier's own line says that it was counted.
            if !lines.iter().any(|l| l.tier == tier.tier) {
                lines.push(TierReport {
                    tier: tier.tier,
                    name: self.game.tier_name(tier.tier),
                    reachable: 0,
                    canonical: 0,
                    max_win: None,
                    max_lose: None,
                });
            }
            writer.set_analysis(&analysis);
            writer.set_tier_lines(&lines);
        }
        writer.finish()?;
        self.written.push(tier.tier);
        self.order.push(tier.tier);
        Ok(())
    }

    fn resume(&mut self, tier: Tier) -> Result<Option<SolvedTier>, SinkError> {
        if self.redo_pruned(tier)? {
            return Ok(None);
        }
        match self.read_back(tier) {
            Ok(Some(solved)) => {
                self.resumed.push(tier);
                self.order.push(tier);
                Ok(Some(solved))
            }
            Ok(None) => Ok(None),
            Err(_) => {
                let path = self.tier_path(tier);
                std::fs::remove_file(&path)
                    .map_err(|error| DbError::Io { path: path.clone(), error })?;
                self.discarded.push(path);
                Ok(None)
            }
        }
    }

    fn keeps_tiers(&self) -> bool {
        true
    }

    fn keeps_counts(&self) -> bool {
        true
    }

    /// Kept for the tier's file, written next ([`TierFiles::counted_shares`] reads it back).
    fn tier_counted(&mut self, tier: Tier, tally: &Tally) -> Result<(), SinkError> {
        self.share = Some((tier, tally.clone()));
        Ok(())
    }

    /// The tier's file exists, its header names the tier, and every block matches its checksum
    /// (the blocks are decompressed only if a later tier reads the values back). A file that
    /// fails is removed and its tier solved again, rather than failing [`TierFiles::finish`].
    fn kept(&mut self, tier: Tier) -> Result<bool, SinkError> {
        let path = self.tier_path(tier);
        if !path.exists() || self.redo_pruned(tier)? {
            return Ok(false);
        }
        let ok = Database::open(&path).is_ok_and(|db| {
            db.check_game(self.game).is_ok()
                && db.header().tables.len() == 1
                && db.header().tables[0].tier == tier.0
                && db.check_blocks().is_ok()
        });
        if !ok {
            std::fs::remove_file(&path)
                .map_err(|error| DbError::Io { path: path.clone(), error })?;
            self.discarded.push(path);
            return Ok(false);
        }
        self.resumed.push(tier);
        self.order.push(tier);
        Ok(true)
    }

    fn parts(&mut self) -> Option<&mut dyn perfectplay_solve::PartStore> {
        Some(self)
    }

    /// A damaged file is removed, so that the next solve does its tier again.
    fn reload(&mut self, tier: Tier) -> Result<Option<SolvedTier>, SinkError> {
        match self.read_back(tier) {
            Ok(found) => Ok(found),
            Err(e) => {
                let path = self.tier_path(tier);
                let _ = std::fs::remove_file(&path);
                Err(format!("{}: {e} (removed; solve again to redo the tier)", path.display())
                    .into())
            }
        }
    }
}

//! Reading a database: random access through a small cache of decoded blocks, safe to share
//! between threads (positional reads, no seeking; the cache behind a mutex held only to look up
//! and insert).

use std::collections::HashMap;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use perfectplay_core::{Game, GameExt, Position, Tier, ValueRemoteness};
use perfectplay_solve::{
    Analysis, CountRow, Solution, SolvedTier, SortedPositions, TierSpace, TierValues,
};
use rayon::prelude::*;

use crate::cache::{BlockKey, Cache};
use crate::format::{
    decode_header, decode_keys, decode_preamble, value_block_bytes, words_of, BlockRef, Header,
    HeaderProblem, TableHeader, TableKind, PREAMBLE_LEN, VERSION,
};
use crate::DbError;

mod derived;

/// Bytes of decoded blocks a reader keeps by default: 16 MiB, about 255 value blocks of 65,536
/// one-byte codes.
pub const DEFAULT_CACHE_BYTES: usize = 16 << 20;

/// Whether a lookup may read and decompress blocks ([`Database::get_with`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fetch {
    /// Read and decode what the cache lacks.
    Read,
    /// Only what the cache holds: no file read, no decompression (for a caller that must not
    /// wait, such as a server's async worker).
    CachedOnly,
}

/// What a lookup found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// The position's value.
    Value(ValueRemoteness),
    /// The file does not hold the position.
    Absent,
    /// A block the answer needs is not in the cache (only with [`Fetch::CachedOnly`]).
    NotCached,
}

/// An open database file.
#[derive(Debug)]
pub struct Database {
    path: PathBuf,
    file: File,
    header: Header,
    by_tier: HashMap<u32, usize>,
    cache: Mutex<Cache>,
    version: u32,
}

/// Sizes and ratios for `db info`.
#[derive(Clone, Debug)]
pub struct Info {
    /// Bytes on disk.
    pub file_bytes: u64,
    /// Bytes of header (directory included).
    pub header_bytes: u64,
    /// Positions indexed (indices of all tables).
    pub positions: u64,
    /// Positions whose values are stored, not derived ([`crate::TableHeader::stored`]).
    pub stored: u64,
    /// Reachable positions, if the header holds an analysis.
    pub reachable: Option<u64>,
    /// Canonical reachable positions, if the header holds an analysis.
    pub canonical_reachable: Option<u64>,
    /// Bytes the values would take bit-packed, before compression.
    pub packed_bytes: u64,
    /// Bytes of compressed value blocks.
    pub value_bytes: u64,
    /// Bytes of compressed key blocks (sorted tables).
    pub key_bytes: u64,
    /// Blocks of each kind.
    pub value_blocks: u64,
    /// Key blocks.
    pub key_blocks: u64,
}

impl Database {
    /// Opens and checks a database: magic, version, header checksum and consistency, and the
    /// file's length. Blocks are checked when read.
    pub fn open(path: impl AsRef<Path>) -> Result<Database, DbError> {
        Self::open_with_cache(path, DEFAULT_CACHE_BYTES)
    }

    /// [`Database::open`] with a cache of at most `cache_bytes` of decoded blocks (0: none).
    pub fn open_with_cache(
        path: impl AsRef<Path>,
        cache_bytes: usize,
    ) -> Result<Database, DbError> {
        let path = path.as_ref().to_path_buf();
        let io = |e: std::io::Error| DbError::Io { path: path.clone(), error: e };
        let file = File::open(&path).map_err(io)?;
        let actual = file.metadata().map_err(io)?.len();
        let header_problem = |p: HeaderProblem| match p {
            HeaderProblem::NotADatabase => DbError::NotADatabase { path: path.clone() },
            HeaderProblem::Version(v) => {
                DbError::UnsupportedVersion { path: path.clone(), found: v, supported: VERSION }
            }
            HeaderProblem::Short => {
                DbError::Truncated { path: path.clone(), expected: None, actual }
            }
            HeaderProblem::Checksum => {
                DbError::Corrupt { path: path.clone(), what: "header checksum mismatch".into() }
            }
            HeaderProblem::Invalid(what) => DbError::Corrupt { path: path.clone(), what },
        };
        let mut preamble = vec![0u8; PREAMBLE_LEN.min(actual as usize)];
        file.read_exact_at(&mut preamble, 0).map_err(io)?;
        let (len, version) = decode_preamble(&preamble).map_err(header_problem)?;
        if len as u64 > actual {
            return Err(DbError::Truncated { path, expected: None, actual });
        }
        let mut bytes = vec![0u8; len];
        file.read_exact_at(&mut bytes, 0).map_err(io)?;
        let header = decode_header(&bytes).map_err(header_problem)?;
        if header.file_len != actual {
            return Err(if header.file_len > actual {
                DbError::Truncated { path, expected: Some(header.file_len), actual }
            } else {
                DbError::Corrupt {
                    path,
                    what: format!("{} bytes after the data", actual - header.file_len),
                }
            });
        }
        let by_tier = header.tables.iter().enumerate().map(|(i, t)| (t.tier, i)).collect();
        Ok(Database {
            path,
            file,
            header,
            by_tier,
            version,
            cache: Mutex::new(Cache::new(cache_bytes)),
        })
    }

    /// The file's format version.
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The decoded header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Whether positions are stored in canonical form.
    pub fn is_canonical(&self) -> bool {
        self.header.canonical
    }

    /// Refuses a database written for another game or variant, or by a build whose rules or index
    /// of the game differ from this one's (its fingerprints, where it has them: versions 4 and 5).
    pub fn check_game(&self, game: &dyn Game) -> Result<(), DbError> {
        if self.header.game != game.id() || self.header.variant != game.variant() {
            return Err(DbError::WrongGame {
                path: self.path.clone(),
                found: format!("{} ({})", self.header.game, self.header.variant),
                expected: format!("{} ({})", game.id(), game.variant()),
            });
        }
        let found = self.header.fingerprint;
        if found != crate::fingerprint::NONE {
            let expected = crate::fingerprint::game_fingerprint(game);
            if found != expected {
                let what = "rules near the start".into();
                return Err(DbError::StaleRules { path: self.path.clone(), what, found, expected });
            }
        }
        let printed =
            self.header.tables.iter().filter(|t| t.fingerprint != crate::fingerprint::NONE);
        let mut known: Option<std::collections::HashSet<Tier>> = None;
        for t in printed {
            // A tier this build's game does not have (its tiers numbered otherwise) is refused
            // before the game is asked anything about it.
            let known = known.get_or_insert_with(|| game.tiers().into_iter().collect());
            if !known.contains(&Tier(t.tier)) {
                return Err(DbError::StaleRules {
                    path: self.path.clone(),
                    what: format!("tier numbering (the file has a tier {}, this one none)", t.tier),
                    found: t.fingerprint,
                    expected: crate::fingerprint::NONE,
                });
            }
            self.check_table_fingerprint(game, t)
                .map_err(|expected| self.stale_table(game, t, expected))?;
        }
        Ok(())
    }

    /// Whether table `t`'s stored fingerprint, if any, is this build's for its tier in `game`;
    /// `Err` with this build's where not.
    pub(crate) fn check_table_fingerprint(
        &self,
        game: &dyn Game,
        t: &TableHeader,
    ) -> Result<(), u64> {
        if t.fingerprint == crate::fingerprint::NONE {
            return Ok(());
        }
        let expected = crate::fingerprint::tier_fingerprint(game, Tier(t.tier));
        if t.fingerprint == expected {
            Ok(())
        } else {
            Err(expected)
        }
    }

    /// [`DbError::StaleRules`] for table `t` not matching `game`.
    pub(crate) fn stale_table(&self, game: &dyn Game, t: &TableHeader, expected: u64) -> DbError {
        DbError::StaleRules {
            path: self.path.clone(),
            what: format!("tier {} {}'s rules or index", t.tier, game.tier_name(Tier(t.tier))),
            found: t.fingerprint,
            expected,
        }
    }

    /// Whether some table is pruned ([`crate::TableHeader::absent`]): the file then answers
    /// only positions reachable from the start.
    pub fn is_pruned(&self) -> bool {
        self.header.tables.iter().any(|t| t.absent)
    }

    /// The tiered analysis's lines stored by the writer (empty if none), as
    /// [`perfectplay_solve::TierReport`]s named by `game`.
    pub fn tier_lines(&self, game: &dyn Game) -> Vec<perfectplay_solve::TierReport> {
        self.header
            .tier_lines
            .iter()
            .map(|l| perfectplay_solve::TierReport {
                tier: Tier(l.tier),
                name: game.tier_name(Tier(l.tier)),
                reachable: l.reachable,
                canonical: l.canonical,
                max_win: l.max_win,
                max_lose: l.max_lose,
            })
            .collect()
    }

    /// The analysis stored by the writer, if any.
    pub fn analysis(&self) -> Option<Analysis> {
        (!self.header.analysis.is_empty()).then(|| {
            Analysis::from_rows(self.header.analysis.iter().map(|r| CountRow {
                value: r.value,
                count: r.count,
                canonical_count: r.canonical_count,
            }))
        })
    }

    /// The value of any position of `game` (canonicalized first when the file holds canonical
    /// forms); `None` if the file does not hold it.
    pub fn get<G: Game + ?Sized>(
        &self,
        game: &G,
        p: Position,
    ) -> Result<Option<ValueRemoteness>, DbError> {
        Ok(match self.get_with(game, p, Fetch::Read)? {
            Found::Value(v) => Some(v),
            Found::Absent | Found::NotCached => None,
        })
    }

    /// [`Database::get`], reading blocks or not as `fetch` says.
    pub fn get_with<G: Game + ?Sized>(
        &self,
        game: &G,
        p: Position,
        fetch: Fetch,
    ) -> Result<Found, DbError> {
        let p = if self.header.canonical { game.canonical(p) } else { p };
        self.found(game, p, fetch, 0)
    }

    /// The value of a position in stored form in a tier; `None` if the file does not hold it. In
    /// a dense table `p` is the position's index in the tier ([`TierIndex::tier_index`]: the code
    /// itself in a single-tier dense game).
    ///
    /// [`TierIndex::tier_index`]: perfectplay_core::TierIndex::tier_index
    pub fn get_stored(&self, tier: Tier, p: Position) -> Result<Option<ValueRemoteness>, DbError> {
        Ok(match self.get_stored_with(tier, p, Fetch::Read)? {
            Found::Value(v) => Some(v),
            Found::Absent | Found::NotCached => None,
        })
    }

    /// [`Database::get_stored`], reading blocks or not as `fetch` says.
    pub fn get_stored_with(&self, tier: Tier, p: Position, fetch: Fetch) -> Result<Found, DbError> {
        let Some(&t) = self.by_tier.get(&tier.0) else { return Ok(Found::Absent) };
        let table = &self.header.tables[t];
        let index = match table.kind {
            TableKind::Derived => return Err(derived_by_index(&self.path, table.tier)),
            TableKind::Dense => {
                if p.0 >= table.positions {
                    return Ok(Found::Absent);
                }
                if table.derives(p.0) {
                    return Err(derived_by_index(&self.path, table.tier));
                }
                p.0
            }
            TableKind::Sorted => match self.index_in_sorted(t, p.0, fetch)? {
                None => return Ok(Found::NotCached),
                Some(None) => return Ok(Found::Absent),
                Some(Some(i)) => i,
            },
        };
        self.value_at(t, index, fetch)
    }

    /// The index of `key` in sorted table `t` (`Some(None)`: not there; `None`: its key block is
    /// not cached and `fetch` says not to read it).
    fn index_in_sorted(
        &self,
        t: usize,
        key: u64,
        fetch: Fetch,
    ) -> Result<Option<Option<u64>>, DbError> {
        let table = &self.header.tables[t];
        let b = table.key_blocks.partition_point(|k| k.first <= key);
        if b == 0 {
            return Ok(Some(None));
        }
        let b = b - 1;
        let Some(keys) = self.key_block_with(t, b, fetch)? else { return Ok(None) };
        Ok(Some(
            keys.binary_search(&key).ok().map(|j| ((b as u64) << table.key_block_shift) + j as u64),
        ))
    }

    fn value_at(&self, t: usize, index: u64, fetch: Fetch) -> Result<Found, DbError> {
        let table = &self.header.tables[t];
        let code = if table.bits == 0 {
            0
        } else {
            let b = (index >> table.value_block_shift) as usize;
            let Some(words) = self.value_block(t, b, fetch)? else { return Ok(Found::NotCached) };
            table.code_in_block(&words, b, index & ((1 << table.value_block_shift) - 1))
        };
        match table.dictionary.get(code as usize) {
            Some(&v) => Ok(Found::Value(v)),
            None if table.absent && usize::from(code) == table.dictionary.len() => {
                Ok(Found::Absent)
            }
            None => Err(DbError::Corrupt {
                path: self.path.clone(),
                what: format!("tier {}: code {code} outside the dictionary", table.tier),
            }),
        }
    }

    /// A decoded block from the cache, else decoded and cached.
    fn cached(
        &self,
        key: BlockKey,
        decode: impl FnOnce() -> Result<Vec<u64>, DbError>,
    ) -> Result<Arc<Vec<u64>>, DbError> {
        if let Some(b) = self.lock().get(key) {
            return Ok(b);
        }
        let block = Arc::new(decode()?);
        self.lock().insert(key, block.clone());
        Ok(block)
    }

    /// [`Database::cached`], or with [`Fetch::CachedOnly`] only a block the cache holds.
    fn fetched(
        &self,
        key: BlockKey,
        fetch: Fetch,
        decode: impl FnOnce() -> Result<Vec<u64>, DbError>,
    ) -> Result<Option<Arc<Vec<u64>>>, DbError> {
        match fetch {
            Fetch::Read => self.cached(key, decode).map(Some),
            Fetch::CachedOnly => Ok(self.lock().get(key)),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Cache> {
        // A panic elsewhere while holding the lock leaves the cache consistent (every operation
        // is a whole insert or lookup), so a poisoned lock is still usable.
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn value_block(
        &self,
        t: usize,
        b: usize,
        fetch: Fetch,
    ) -> Result<Option<Arc<Vec<u64>>>, DbError> {
        self.fetched(BlockKey::Values { table: t as u32, block: b as u32 }, fetch, || {
            self.decode_value_block(t, b)
        })
    }

    /// The codes of value block `b` of table `t`, read and checked against the dictionary.
    pub(crate) fn value_block_codes(&self, t: usize, b: usize) -> Result<Vec<u16>, DbError> {
        let table = &self.header.tables[t];
        let words = self.decode_value_block(t, b)?;
        let codes: Vec<u16> = (0..table.value_block_positions(b))
            .map(|i| table.code_in_block(&words, b, i))
            .collect();
        self.check_codes(table, codes.iter().map(|&c| usize::from(c)))?;
        Ok(codes)
    }

    fn decode_value_block(&self, t: usize, b: usize) -> Result<Vec<u64>, DbError> {
        let table = &self.header.tables[t];
        let want = value_block_bytes(table.value_block_positions(b), table.bits, table.layout);
        let bytes = self.read_block(table, "value", b, &table.value_blocks[b], want)?;
        Ok(words_of(&bytes))
    }

    fn key_block_with(
        &self,
        t: usize,
        b: usize,
        fetch: Fetch,
    ) -> Result<Option<Arc<Vec<u64>>>, DbError> {
        match fetch {
            Fetch::Read => self.key_block(t, b).map(Some),
            Fetch::CachedOnly => {
                Ok(self.lock().get(BlockKey::Keys { table: t as u32, block: b as u32 }))
            }
        }
    }

    fn key_block(&self, t: usize, b: usize) -> Result<Arc<Vec<u64>>, DbError> {
        self.cached(BlockKey::Keys { table: t as u32, block: b as u32 }, || {
            let table = &self.header.tables[t];
            let r = &table.key_blocks[b];
            let count = table.key_block_keys(b) as usize;
            // A gap is at most 10 varint bytes.
            let payload =
                self.read_block(table, "key", b, &r.block, count.saturating_sub(1) * 10)?;
            decode_keys(r.first, &payload, count).ok_or_else(|| DbError::Corrupt {
                path: self.path.clone(),
                what: format!("tier {}: key block {b} does not decode", table.tier),
            })
        })
    }

    /// The compressed bytes of a block of table `t` (the `b`-th, for messages), checked against
    /// its checksum.
    pub(crate) fn raw_block(&self, t: usize, b: usize, r: &BlockRef) -> Result<Vec<u8>, DbError> {
        let mut buf = vec![0u8; r.len as usize];
        self.file
            .read_exact_at(&mut buf, r.offset)
            .map_err(|e| DbError::Io { path: self.path.clone(), error: e })?;
        if crc32fast::hash(&buf) != r.crc {
            return Err(DbError::Corrupt {
                path: self.path.clone(),
                what: format!("tier {}: block {b}: checksum mismatch", self.header.tables[t].tier),
            });
        }
        Ok(buf)
    }

    /// Reads, checks and decompresses one block. `want`: the exact decompressed size of a value
    /// block, the most a key block may take.
    fn read_block(
        &self,
        table: &TableHeader,
        kind: &str,
        b: usize,
        r: &BlockRef,
        want: usize,
    ) -> Result<Vec<u8>, DbError> {
        let mut buf = vec![0u8; r.len as usize];
        self.file
            .read_exact_at(&mut buf, r.offset)
            .map_err(|e| DbError::Io { path: self.path.clone(), error: e })?;
        let corrupt = |why: &str| DbError::Corrupt {
            path: self.path.clone(),
            what: format!("tier {}: {kind} block {b}: {why}", table.tier),
        };
        if crc32fast::hash(&buf) != r.crc {
            return Err(corrupt("checksum mismatch"));
        }
        let out = zstd::bulk::decompress(&buf, want).map_err(|e| corrupt(&e.to_string()))?;
        if kind == "value" && out.len() != want {
            return Err(corrupt("wrong decompressed size"));
        }
        Ok(out)
    }

    /// Reads every table into memory, for recounting or for answering many positions at once (a
    /// derived table is an error here: [`Database::load_tier_of`] computes one).
    pub fn load(&self) -> Result<Solution, DbError> {
        let tiers = (0..self.header.tables.len())
            .map(|t| self.load_table(t))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Solution::from_tiers(tiers, self.header.canonical))
    }

    /// Reads one tier's table into memory (`None` if the database has no table for it).
    pub fn load_tier(&self, tier: Tier) -> Result<Option<SolvedTier>, DbError> {
        match self.header.tables.iter().position(|table| table.tier == tier.0) {
            Some(t) => self.load_table(t).map(Some),
            None => Ok(None),
        }
    }

    fn load_table(&self, t: usize) -> Result<SolvedTier, DbError> {
        let table = &self.header.tables[t];
        if table.stored < table.positions {
            return Err(derived_by_index(&self.path, table.tier));
        }
        self.load_values(t)
    }

    /// Table `t`'s stored values in index order; a position past those stored gets a
    /// placeholder.
    fn load_values(&self, t: usize) -> Result<SolvedTier, DbError> {
        let table = &self.header.tables[t];
        {
            let space = match table.kind {
                TableKind::Derived => return Err(derived_by_index(&self.path, table.tier)),
                TableKind::Dense => TierSpace::Dense { size: table.positions },
                TableKind::Sorted => {
                    let blocks: Vec<Vec<u64>> = (0..table.key_blocks.len())
                        .into_par_iter()
                        .map(|b| self.key_block(t, b).map(|k| k.to_vec()))
                        .collect::<Result<_, _>>()?;
                    TierSpace::Sorted(SortedPositions::from_sorted(blocks.concat()))
                }
            };
            let per = 1usize << table.value_block_shift;
            let n = table.positions as usize;
            // A pruned table's absent indices read as its first value (a draw if it has none):
            // placeholders that no position reachable from the start asks for.
            let mut dictionary = table.dictionary.clone();
            if dictionary.is_empty() {
                dictionary.push(ValueRemoteness::DRAW);
            }
            let absent = table.dictionary.len();
            let code_at = |words: &[u64], b: usize, i: usize| -> Result<usize, DbError> {
                let code = usize::from(table.code_in_block(words, b, i as u64));
                self.check_codes(table, std::iter::once(code))?;
                Ok(if table.absent && code == absent { 0 } else { code })
            };
            let values = if dictionary.len() <= 256 {
                let mut codes = vec![0u8; n];
                codes.par_chunks_mut(per).enumerate().try_for_each(|(b, out)| {
                    if table.bits > 0 && b < table.value_blocks.len() {
                        let words = self.decode_value_block(t, b)?;
                        let held = table.value_block_positions(b) as usize;
                        for (i, c) in out[..held].iter_mut().enumerate() {
                            *c = code_at(&words, b, i)? as u8;
                        }
                    }
                    Ok::<_, DbError>(())
                })?;
                TierValues::Narrow { dictionary, codes }
            } else {
                let mut values = vec![dictionary[0]; n];
                values.par_chunks_mut(per).enumerate().try_for_each(|(b, out)| {
                    if b >= table.value_blocks.len() {
                        return Ok(());
                    }
                    let words = self.decode_value_block(t, b)?;
                    let held = table.value_block_positions(b) as usize;
                    for (i, v) in out[..held].iter_mut().enumerate() {
                        *v = dictionary[code_at(&words, b, i)?];
                    }
                    Ok::<_, DbError>(())
                })?;
                TierValues::Wide(values)
            };
            Ok(SolvedTier { tier: Tier(table.tier), space, values, care: None, reached: None })
        }
    }

    fn check_codes(
        &self,
        table: &TableHeader,
        mut codes: impl Iterator<Item = usize>,
    ) -> Result<(), DbError> {
        match codes.find(|&c| c >= table.codes()) {
            Some(c) => Err(DbError::Corrupt {
                path: self.path.clone(),
                what: format!("tier {}: code {c} outside the dictionary", table.tier),
            }),
            None => Ok(()),
        }
    }

    /// The highest remoteness (draws count 0), from the header alone: the stored analysis's if
    /// there is one (a pruned file may keep values no reachable position has), else the highest
    /// in any dictionary, one more if derived values (a derived table's, or a table's past those
    /// stored) go one move beyond their children's.
    pub fn highest_remoteness(&self) -> u16 {
        if let Some(a) = self.analysis() {
            return a.rows().map(|r| r.value.remoteness_or_zero()).max().unwrap_or(0);
        }
        let tables = self.header.tables.iter();
        let stored =
            tables.flat_map(|t| &t.dictionary).map(|v| v.remoteness_or_zero()).max().unwrap_or(0);
        let derived = self.header.tables.iter().any(|t| t.stored < t.positions);
        stored + u16::from(derived)
    }

    /// Sizes and ratios.
    pub fn info(&self) -> Info {
        let h = &self.header;
        let sum = |f: &dyn Fn(&TableHeader) -> u64| h.tables.iter().map(f).sum::<u64>();
        let analysis = self.analysis();
        Info {
            file_bytes: h.file_len,
            header_bytes: h.encoded_len() as u64,
            positions: sum(&|t| t.positions),
            stored: sum(&|t| t.stored),
            reachable: analysis.as_ref().map(Analysis::total),
            canonical_reachable: analysis.as_ref().map(Analysis::canonical_total),
            packed_bytes: sum(&|t| (t.stored * u64::from(t.bits)).div_ceil(8)),
            value_bytes: sum(&|t| t.value_blocks.iter().map(|b| u64::from(b.len)).sum()),
            key_bytes: sum(&|t| t.key_blocks.iter().map(|k| u64::from(k.block.len)).sum()),
            value_blocks: sum(&|t| t.value_blocks.len() as u64),
            key_blocks: sum(&|t| t.key_blocks.len() as u64),
        }
    }

    /// Cache hits and misses so far.
    pub fn cache_stats(&self) -> (u64, u64) {
        let c = self.lock();
        (c.hits, c.misses)
    }

    /// Bytes of decoded blocks the cache holds now, and the most it may hold.
    pub fn cache_bytes(&self) -> (usize, usize) {
        let c = self.lock();
        (c.bytes, c.capacity)
    }

    /// Reads every block and checks it against its checksum, decompressing nothing: what a copy
    /// of the blocks ([`crate::Writer::add_tables_from`]) will check, at the cost of reading the
    /// file once.
    pub fn check_blocks(&self) -> Result<(), DbError> {
        for (t, table) in self.header.tables.iter().enumerate() {
            for (b, r) in table.value_blocks.iter().enumerate() {
                self.raw_block(t, b, r)?;
            }
            for (b, k) in table.key_blocks.iter().enumerate() {
                self.raw_block(t, b, &k.block)?;
            }
        }
        Ok(())
    }

    /// Reads and checks every block (what `db verify` runs).
    pub fn verify(&self) -> Result<(), DbError> {
        for (t, table) in self.header.tables.iter().enumerate() {
            (0..table.value_blocks.len())
                .into_par_iter()
                .try_for_each(|b| self.value_block_codes(t, b).map(drop))?;
            (0..table.key_blocks.len())
                .into_par_iter()
                .try_for_each(|b| self.key_block(t, b).map(drop))?;
        }
        Ok(())
    }
}

/// The error of reading a derived table by index: its values are computed per position.
fn derived_by_index(path: &Path, tier: u32) -> DbError {
    DbError::Derived { path: path.to_path_buf(), tier }
}

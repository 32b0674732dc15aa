//! Writing a database: each solved tier becomes a table of compressed blocks as it arrives, its
//! blocks spilled to disk at once ([`Spill`]); [`Writer::finish`] writes the header and copies the
//! blocks after it, to a temporary name, syncs, and renames.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use perfectplay_core::{Game, GameExt, KernelCache};
use perfectplay_solve::{
    Analysis, ResultSink, SinkError, SolvedTier, SortedPositions, TierSpace, TierValues,
};
use rayon::prelude::*;

use crate::format::{
    bits_for, encode_codes, encode_keys, AnalysisRow, BlockRef, CodeLayout, Header, KeyBlockRef,
    TableHeader, TableKind, TierLine,
};
use crate::spill::{hidden_name, Spill};
use crate::DbError;

mod derive;

use derive::derived_header;
pub use derive::{derivable, Derivable};

/// log2 of positions per value block: 65,536 positions, at 6 bits 48 KiB to decode per probe.
pub const VALUE_BLOCK_SHIFT: u8 = 16;
/// log2 of keys per key block.
pub const KEY_BLOCK_SHIFT: u8 = 12;
/// The zstd level: see BENCHMARKS.md for the size and time it buys.
pub const ZSTD_LEVEL: i32 = 9;
/// The zstd level of a sorted table's key blocks (about 12 KB each, where zstd's level 9 turns to
/// a binary tree of matches): smaller than level 9 on Connect 4, QuickCross and Konane, in about
/// half the key blocks' compression time (BENCHMARKS.md, issue 54's fifth session).
pub const KEY_ZSTD_LEVEL: i32 = 8;
/// The levels a sorted table of a solve chooses from, fastest first: the values of positions in
/// code order, and the gaps between their codes, often have no repeats for a deeper search to
/// find (Konane 6x6: values at level 1 smaller than at 9 in a tenth of the time, keys at level 3
/// 2.7% larger than at 8 in 40% of it), where QuickCross's are 40% smaller at 9 and 8.
const SORTED_VALUE_LEVELS: [i32; 3] = [1, 3, ZSTD_LEVEL];
/// [`SORTED_VALUE_LEVELS`] for key blocks.
const SORTED_KEY_LEVELS: [i32; 3] = [1, 3, KEY_ZSTD_LEVEL];
/// A faster level is taken where its sample is at most this many thousandths larger than the
/// smallest level's.
const LEVEL_TOLERANCE: usize = 30;
/// Blocks compressed at each level to choose one: this many, spread over the table.
const LEVEL_SAMPLES: u64 = 8;

/// The zstd level of a pruned rewrite (`analyze --prune`), done once after a solve: a quarter of
/// level 9's speed, 7 to 10% smaller on Six Men's Morris (level 19: under 1% more), and as fast
/// to read.
pub const PRUNED_ZSTD_LEVEL: i32 = 15;

/// Writes one game variant's results to one file. Use it as the solve's [`ResultSink`], then call
/// [`Writer::finish`]; dropping it without finishing leaves no file.
pub struct Writer<'g> {
    path: PathBuf,
    game: &'g dyn Game,
    canonical: bool,
    analysis: Vec<AnalysisRow>,
    tier_lines: Vec<TierLine>,
    /// The tables so far; their block offsets count from the start of `spill`.
    tables: Vec<TableHeader>,
    spill: Spill,
    level: i32,
    key_level: i32,
    /// Whether a sorted table chooses its levels by a sample (unless told a level).
    sampled: bool,
    layout: CodeLayout,
    /// Whether tables came from a file without a fingerprint in its header (formats 1 to 3):
    /// the file written then has none either, since nothing vouched for the rules near the start.
    unchecked: bool,
}

impl std::fmt::Debug for Writer<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer")
            .field("path", &self.path)
            .field("tables", &self.tables.len())
            .finish()
    }
}

/// What a finished write produced.
#[derive(Clone, Debug)]
pub struct Written {
    /// The file.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// Positions stored (every index of every table).
    pub positions: u64,
}

impl<'g> Writer<'g> {
    /// A writer for `game`'s results, to go to `path`. `canonical`: the solve stored canonical
    /// forms only, so a dense table's non-canonical indices are "don't care" (nobody reads them:
    /// the reader canonicalizes first) and take whatever value compresses best.
    pub fn new(path: impl Into<PathBuf>, game: &'g dyn Game, canonical: bool) -> Writer<'g> {
        let path = path.into();
        Writer {
            spill: Spill::new(&path),
            path,
            game,
            canonical: canonical && game.symmetry_count() > 1,
            analysis: Vec::new(),
            tier_lines: Vec::new(),
            tables: Vec::new(),
            level: ZSTD_LEVEL,
            key_level: KEY_ZSTD_LEVEL,
            sampled: true,
            layout: CodeLayout::Bytes,
            unchecked: false,
        }
    }

    /// The zstd level for the blocks, values' and keys' (1-22), every table's. Without it, a
    /// dense table's values are at [`ZSTD_LEVEL`], and a sorted table takes the fastest of
    /// `SORTED_VALUE_LEVELS` (keys: `SORTED_KEY_LEVELS`) whose sample of blocks is within 3%
    /// of the smallest.
    pub fn with_level(mut self, level: i32) -> Self {
        self.level = level;
        self.key_level = level;
        self.sampled = false;
        self
    }

    /// Keeps the compressed blocks in memory until [`Writer::finish`] writes them after the
    /// header, rather than spilling them to disk first: for a writer of one table (a solve's tier
    /// file), whose blocks are all in memory once compressed anyway.
    pub fn holding_blocks(mut self) -> Self {
        self.spill.hold();
        self
    }

    /// How new tables lay out their codes ([`CodeLayout::Bytes`] unless told; the packed layout
    /// of version 1 is kept for tests of reading and upgrading it).
    pub fn with_layout(mut self, layout: CodeLayout) -> Self {
        self.layout = layout;
        self
    }

    /// Stores an analysis of the reachable positions in the header, so `analyze` and `db info`
    /// need not recount.
    pub fn set_analysis(&mut self, analysis: &Analysis) {
        self.analysis = analysis
            .rows()
            .map(|r| AnalysisRow {
                value: r.value,
                count: r.count,
                canonical_count: r.canonical_count,
            })
            .collect();
    }

    /// Stores a tiered analysis's lines in the header, so `analyze --tiers` need not recount.
    pub fn set_tier_lines(&mut self, lines: &[perfectplay_solve::TierReport]) {
        self.tier_lines = lines
            .iter()
            .map(|l| TierLine {
                tier: l.tier.0,
                reachable: l.reachable,
                canonical: l.canonical,
                max_win: l.max_win,
                max_lose: l.max_lose,
            })
            .collect();
    }

    /// Appends a table: its blocks (value blocks, then key blocks, in header order) go to the
    /// spill, and its block references are set to where they lie there. Its fingerprint is as
    /// the caller set it: this build's for a tier solved here; a copied table's own, which
    /// [`crate::Database::check_game`] has found this build's or none (an older format's file,
    /// which a copy does not vouch for).
    fn push(&mut self, mut header: TableHeader, blocks: Vec<Vec<u8>>) -> Result<(), DbError> {
        let references = self.place(&mut header);
        if references != blocks.len()
            || header.blocks().zip(&blocks).any(|(r, b)| r.len as usize != b.len())
        {
            return Err(DbError::Invalid(format!(
                "table of tier {}: {} blocks for {references} references",
                header.tier,
                blocks.len(),
            )));
        }
        self.spill.append(blocks)?;
        self.tables.push(header);
        Ok(())
    }

    /// Gives the table's blocks their places after those of the tables before it (offsets from
    /// the start of the spill, until [`Writer::finish`] knows the header's length); returns how
    /// many blocks it has.
    fn place(&self, header: &mut TableHeader) -> usize {
        let mut offset = self.spill.len();
        let mut count = 0;
        for r in header.blocks_mut() {
            r.offset = offset;
            offset += u64::from(r.len);
            count += 1;
        }
        count
    }

    /// Which of a dense tier's `n` indices name the canonical form of a position, one bit each.
    fn care(&self, tier: &SolvedTier, n: u64, per: u64) -> Vec<u64> {
        let game = self.game;
        let blocks: Vec<Vec<u64>> = (0..n.div_ceil(per))
            .into_par_iter()
            .map(|b| {
                let first = b * per;
                let last = ((b + 1) * per).min(n);
                let mut mask = vec![0u64; (last - first).div_ceil(64) as usize];
                let mut mark = |i: u64| {
                    let k = (i - first) as usize;
                    mask[k / 64] |= 1 << (k % 64);
                };
                if let Some(kernel) = game.kernel() {
                    let mut cache = KernelCache::default();
                    let mut positions = vec![None; (last - first) as usize];
                    kernel.tier_positions(tier.tier, first, &mut positions);
                    for (i, p) in (first..last).zip(positions) {
                        if p.is_some_and(|p| kernel.is_canonical_at(tier.tier, i, p, &mut cache)) {
                            mark(i);
                        }
                    }
                } else {
                    for i in first..last {
                        let p = game.tier_position(tier.tier, i);
                        if p.is_some_and(|p| game.canonical(p) == p) {
                            mark(i);
                        }
                    }
                }
                mask
            })
            .collect();
        // A block holds a whole number of words (`per` is a multiple of 64).
        blocks.concat()
    }

    /// Compresses one tier into a table, its blocks spilled to disk until [`Writer::finish`].
    pub fn add_tier(&mut self, tier: &SolvedTier) -> Result<(), DbError> {
        let unpacked;
        let values = match &tier.values {
            TierValues::Packed(p) => {
                unpacked =
                    TierValues::Narrow { dictionary: p.dictionary().to_vec(), codes: p.unpack() };
                &unpacked
            }
            values => values,
        };
        let n = values.len() as u64;
        let per = 1u64 << VALUE_BLOCK_SHIFT;
        let blocks = n.div_ceil(per);
        // In a dense table of a canonical solve, which indices are canonical ("cared for"): one
        // bit each, from the solve where it kept them, else computed once here, since the
        // canonical form is the costly part.
        let computed;
        // Where only the positions reached were solved, a cared-for index not reached is stored
        // as absent (the table is pruned, [`TableHeader::absent`]): not its value, which was not
        // solved.
        let reached = tier.reached.as_deref();
        if reached.is_some_and(|r| r.len() as u64 != n.div_ceil(64)) {
            return Err(DbError::Invalid(format!(
                "tier {}: a bitmap of the positions reached of another length",
                tier.tier.0
            )));
        }
        let care: Option<&[u64]> = match tier.space {
            TierSpace::Dense { .. } if self.canonical => match &tier.care {
                Some(care) if care.len() as u64 == n.div_ceil(64) => Some(care),
                _ => {
                    computed = self.care(tier, n, per);
                    Some(&computed)
                }
            },
            _ => None,
        };
        let cared = |i: u64| care.is_none_or(|m| m[(i / 64) as usize] >> (i % 64) & 1 == 1);
        let is_reached = |i: u64| reached.is_none_or(|m| m[(i / 64) as usize] >> (i % 64) & 1 == 1);
        let kept = |i: u64| cared(i) && is_reached(i);
        // The absent code only where some index needs it, word by word.
        let absent = reached.is_some_and(|r| {
            r.par_iter().enumerate().any(|(k, &w)| {
                let tail = n - 64 * k as u64;
                let valid = if tail >= 64 { u64::MAX } else { (1u64 << tail) - 1 };
                care.map_or(u64::MAX, |c| c[k]) & !w & valid != 0
            })
        });
        // The dictionary: every value present, most frequent first (code 0 is also the filler
        // at the start of a block).
        let histogram = histogram(values, blocks, per, &kept);
        let (code_of, dictionary) = file_dictionary(&histogram)?;
        let absent_code = dictionary.len() as u16;
        let bits = bits_for(dictionary.len() + usize::from(absent));
        // A narrow table's codes map to the file's through their dictionary.
        let narrow = match values {
            TierValues::Narrow { dictionary, codes } => Some((
                dictionary.iter().map(|vr| code_of[vr.to_bits() as usize]).collect::<Vec<u16>>(),
                codes,
            )),
            _ => None,
        };
        let code = |i: u64| match &narrow {
            Some((file_code, codes)) => file_code[usize::from(codes[i as usize])],
            None => code_of[values.get(i as usize).to_bits() as usize],
        };
        let layout = self.layout;
        let raw_block = |b: u64| {
            let range = b * per..((b + 1) * per).min(n);
            let mut prev = 0u16;
            let codes = range.clone().map(|i| {
                if cared(i) {
                    prev = if is_reached(i) { code(i) } else { absent_code };
                }
                prev
            });
            encode_codes(codes, (range.end - range.start) as usize, bits, layout)
        };
        let sorted = matches!(tier.space, TierSpace::Sorted(_));
        let value_payloads: Vec<Vec<u8>> = if bits == 0 {
            Vec::new()
        } else {
            let level = match sorted && self.sampled {
                true => choose_level(blocks, &SORTED_VALUE_LEVELS, raw_block)?,
                false => self.level,
            };
            (0..blocks)
                .into_par_iter()
                .map_init(Packer::new(level), |packer, b| packer.compress(&raw_block(b)))
                .collect::<Result<_, _>>()
                .map_err(compressing)?
        };
        let (kind, key_payloads, firsts) = match &tier.space {
            TierSpace::Dense { .. } => (TableKind::Dense, Vec::new(), Vec::new()),
            TierSpace::Sorted(s) => {
                let (payloads, firsts) = key_blocks(s, self.key_level, self.sampled)?;
                (TableKind::Sorted, payloads, firsts)
            }
        };
        let block_ref =
            |p: &Vec<u8>| BlockRef { offset: 0, len: p.len() as u32, crc: crc32fast::hash(p) };
        let header = TableHeader {
            tier: tier.tier.0,
            kind,
            positions: n,
            stored: n,
            dictionary,
            bits,
            layout,
            absent,
            fingerprint: crate::fingerprint::tier_fingerprint(self.game, tier.tier),
            value_block_shift: VALUE_BLOCK_SHIFT,
            value_blocks: value_payloads.iter().map(block_ref).collect(),
            key_block_shift: KEY_BLOCK_SHIFT,
            key_blocks: key_payloads
                .iter()
                .zip(firsts)
                .map(|(p, first)| KeyBlockRef { first, block: block_ref(p) })
                .collect(),
        };
        let mut blocks = value_payloads;
        blocks.extend(key_payloads);
        self.push(header, blocks)
    }

    /// Copies every table of another database of the same game (a tier file): its compressed
    /// blocks as they are, read from its file once, by [`Writer::finish`], and each checked
    /// against its checksum there (the file must stay until then), except that value blocks
    /// in another layout than this writer's (a version 1 file's packed codes) are decoded, checked
    /// and compressed again in this writer's layout.
    pub fn add_tables_from(&mut self, db: &crate::reader::Database) -> Result<(), DbError> {
        self.add_tables_deriving(db, &Derivable::NONE)
    }

    /// Copies table `t` of `db`, a database of another variant of the game whose tier the caller
    /// has checked is this game's too ([`crate::TierFiles::adopt`]), as
    /// [`Writer::add_tables_from`] copies tables.
    pub(crate) fn add_table_of_variant(
        &mut self,
        db: &crate::reader::Database,
        t: usize,
    ) -> Result<(), DbError> {
        self.copy_table(db, t)
    }

    /// Copies table `t` of `db` as [`Writer::add_tables_from`] does.
    fn copy_table(&mut self, db: &crate::reader::Database, t: usize) -> Result<(), DbError> {
        {
            let mut header = db.header().tables[t].clone();
            let mut blocks = if header.bits > 0 && header.layout != self.layout {
                let (level, layout) = (self.level, self.layout);
                let blocks = (0..header.value_blocks.len())
                    .into_par_iter()
                    .map_init(Packer::new(level), |packer, b| {
                        let codes = db.value_block_codes(t, b)?;
                        let raw =
                            encode_codes(codes.iter().copied(), codes.len(), header.bits, layout);
                        packer.compress(&raw).map_err(compressing)
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                header.layout = layout;
                for (r, p) in header.value_blocks.iter_mut().zip(&blocks) {
                    *r = BlockRef { offset: 0, len: p.len() as u32, crc: crc32fast::hash(p) };
                }
                blocks
            } else {
                // Read once, at the final copy, and checked there.
                let source: Vec<BlockRef> = header.blocks().cloned().collect();
                self.place(&mut header);
                self.spill.append_from(db.path(), source);
                self.tables.push(header);
                return Ok(());
            };
            for (b, k) in header.key_blocks.iter().enumerate() {
                blocks.push(db.raw_block(t, b, &k.block)?);
            }
            self.push(header, blocks)
        }
    }

    /// Copies every table of another database of the same game, keeping only the values of the
    /// indices `keep` names: `keep(tier, first, out)` says for each of the indices
    /// `first..first + out.len()` of a tier whether to keep it. The others are stored as absent
    /// (the table becomes pruned, [`TableHeader::absent`]), and the dictionary is recounted over
    /// the kept values; a table left with no absent index is copied as it is. Sorted tables,
    /// whose keys already name only what they hold, are copied as they are too. What `derived`
    /// names ([`derivable`]) keeps no values, as [`Writer::add_tables_deriving`] writes it.
    pub fn add_tables_pruned(
        &mut self,
        db: &crate::reader::Database,
        keep: &(dyn Fn(perfectplay_core::Tier, u64, &mut [bool]) + Sync),
        derived: &Derivable,
    ) -> Result<(), DbError> {
        db.check_game(self.game)?;
        self.unchecked |= db.header().fingerprint == crate::fingerprint::NONE;
        let (level, layout) = (self.level, self.layout);
        for (t, old) in db.header().tables.iter().enumerate() {
            if let Some(header) = derived_header(old, &derived.tiers) {
                self.push(header, Vec::new())?;
                continue;
            }
            if old.kind != TableKind::Dense {
                self.copy_table(db, t)?;
                continue;
            }
            let tier = perfectplay_core::Tier(old.tier);
            let stored = derived.stored(old);
            let per = 1u64 << old.value_block_shift;
            let blocks = stored.div_ceil(per) as usize;
            let absent_old = old.dictionary.len() as u16;
            // One block's codes in the old dictionary, with `absent_old` where not kept.
            let kept_codes = |b: usize| -> Result<Vec<u16>, DbError> {
                let first = b as u64 * per;
                let n = per.min(stored - first) as usize;
                let mut codes =
                    if old.bits == 0 { vec![0u16; n] } else { db.value_block_codes(t, b)? };
                codes.truncate(n);
                let mut kept = vec![false; n];
                keep(tier, first, &mut kept);
                // An index not kept may hold its value or the absent code, both true: it takes
                // its value where that repeats the code before it (a longer run), else absent.
                let mut prev = codes.first().copied().unwrap_or(absent_old);
                for (c, &k) in codes.iter_mut().zip(&kept) {
                    if !k && *c != prev {
                        *c = absent_old;
                    }
                    prev = *c;
                }
                Ok(codes)
            };
            // The kept values, most frequent first, as `add_tier` orders a dictionary.
            let counts = (0..blocks)
                .into_par_iter()
                .map(|b| {
                    let mut h = vec![0u64; old.dictionary.len() + 1];
                    for c in kept_codes(b)? {
                        h[usize::from(c)] += 1;
                    }
                    Ok(h)
                })
                .try_reduce(
                    || vec![0u64; old.dictionary.len() + 1],
                    |mut a, b| {
                        a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                        Ok(a)
                    },
                )?;
            if counts[old.dictionary.len()] == 0 {
                // Every index kept: the table as it is, or its part stored.
                match stored < old.stored {
                    true => self.copy_table_part(db, t, stored)?,
                    false => self.copy_table(db, t)?,
                }
                continue;
            }
            let mut present: Vec<usize> =
                (0..old.dictionary.len()).filter(|&c| counts[c] > 0).collect();
            present.sort_by(|&a, &b| counts[b].cmp(&counts[a]).then(a.cmp(&b)));
            let dictionary: Vec<_> = present.iter().map(|&c| old.dictionary[c]).collect();
            let mut new_code = vec![dictionary.len() as u16; old.dictionary.len() + 1];
            for (code, &c) in present.iter().enumerate() {
                new_code[c] = code as u16;
            }
            // Absent only if some index needs it (a tier of one value reached or not stays so).
            let absent = counts[old.dictionary.len()] > 0;
            let bits = bits_for(dictionary.len() + usize::from(absent));
            let payloads: Vec<Vec<u8>> = if bits == 0 {
                Vec::new()
            } else {
                (0..blocks)
                    .into_par_iter()
                    .map_init(Packer::new(level), |packer, b| {
                        let codes = kept_codes(b)?;
                        let raw = encode_codes(
                            codes.iter().map(|&c| new_code[usize::from(c)]),
                            codes.len(),
                            bits,
                            layout,
                        );
                        packer.compress(&raw).map_err(compressing)
                    })
                    .collect::<Result<_, _>>()?
            };
            let header = TableHeader {
                stored,
                dictionary,
                bits,
                layout,
                absent,
                value_blocks: payloads
                    .iter()
                    .map(|p| BlockRef { offset: 0, len: p.len() as u32, crc: crc32fast::hash(p) })
                    .collect(),
                ..old.clone()
            };
            self.push(header, payloads)?;
        }
        Ok(())
    }

    /// Writes the file: to a temporary name beside `path`, synced, then renamed over `path` (and
    /// the directory synced), so a reader sees either no file or a complete one.
    pub fn finish(mut self) -> Result<Written, DbError> {
        let mut header = Header {
            game: self.game.id().to_string(),
            variant: self.game.variant(),
            canonical: self.canonical,
            file_len: 0,
            fingerprint: match self.unchecked {
                true => crate::fingerprint::NONE,
                false => crate::fingerprint::game_fingerprint(self.game),
            },
            analysis: std::mem::take(&mut self.analysis),
            tier_lines: std::mem::take(&mut self.tier_lines),
            tables: std::mem::take(&mut self.tables),
        };
        // Block references have fixed widths, so the header's length does not depend on them;
        // the spilled blocks follow the header.
        let base = header.encoded_len() as u64;
        for t in &mut header.tables {
            for r in t.blocks_mut() {
                r.offset += base;
            }
        }
        let offset = base + self.spill.len();
        header.file_len = offset;
        let bytes = header.encode();
        let positions = header.tables.iter().map(|t| t.positions).sum();
        let tmp = temporary_name(&self.path);
        let io = |e: std::io::Error| DbError::Io { path: tmp.clone(), error: e };
        let result = (|| {
            if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .map_err(|e| DbError::Io { path: dir.into(), error: e })?;
            }
            let mut file = File::create(&tmp).map_err(io)?;
            file.write_all(&bytes).map_err(io)?;
            self.spill.copy_into(&mut file, &tmp)?;
            file.sync_all().map_err(io)?;
            drop(file);
            std::fs::rename(&tmp, &self.path)
                .map_err(|e| DbError::Io { path: self.path.clone(), error: e })?;
            if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
                // Makes the rename itself durable.
                File::open(dir)
                    .and_then(|d| d.sync_all())
                    .map_err(|e| DbError::Io { path: dir.into(), error: e })?;
            }
            Ok(())
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result?;
        Ok(Written { path: self.path.clone(), bytes: offset, positions })
    }
}

impl ResultSink for Writer<'_> {
    fn tier_solved(&mut self, tier: &SolvedTier) -> Result<(), SinkError> {
        Ok(self.add_tier(tier)?)
    }
}

/// The name the file is written under before it is renamed ([`hidden_name`]).
fn temporary_name(path: &Path) -> PathBuf {
    hidden_name(path, "tmp")
}

/// How many cared-for positions hold each value (indexed by value bits).
fn histogram(
    values: &TierValues,
    blocks: u64,
    per: u64,
    cared: &(dyn Fn(u64) -> bool + Sync),
) -> Vec<u64> {
    let n = values.len() as u64;
    (0..blocks)
        .into_par_iter()
        .fold(
            || vec![0u64; 1 << 15],
            |mut h, b| {
                let range = b * per..((b + 1) * per).min(n);
                match values {
                    TierValues::Narrow { dictionary, codes } => {
                        let mut local = [0u64; 256];
                        for i in range.filter(|&i| cared(i)) {
                            local[codes[i as usize] as usize] += 1;
                        }
                        for (code, &k) in local.iter().enumerate().filter(|(_, &k)| k > 0) {
                            h[dictionary[code].to_bits() as usize] += k;
                        }
                    }
                    // `add_tier` unpacks a packed tier first.
                    TierValues::Wide(_) | TierValues::Packed(_) => {
                        for i in range.filter(|&i| cared(i)) {
                            h[values.get(i as usize).to_bits() as usize] += 1;
                        }
                    }
                }
                h
            },
        )
        .reduce(
            || vec![0u64; 1 << 15],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        )
}

/// A table's dictionary from the histogram of its values' bits: every value present, most
/// frequent first (code 0 is also the filler at the start of a block); with each value's code by
/// its bits.
fn file_dictionary(
    histogram: &[u64],
) -> Result<(Vec<u16>, Vec<perfectplay_core::ValueRemoteness>), DbError> {
    let mut present: Vec<(u64, u16)> =
        histogram.iter().enumerate().filter(|(_, &c)| c > 0).map(|(b, &c)| (c, b as u16)).collect();
    present.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut code_of = vec![0u16; 1 << 15];
    let mut dictionary = Vec::with_capacity(present.len());
    for (code, &(_, bits)) in present.iter().enumerate() {
        code_of[bits as usize] = code as u16;
        dictionary.push(
            perfectplay_core::ValueRemoteness::from_bits(bits)
                .ok_or_else(|| DbError::Invalid(format!("value bits {bits:#x}")))?,
        );
    }
    Ok((code_of, dictionary))
}

/// A sorted table's key blocks, compressed, with each block's first key: at `level`, or where
/// `sampled` at a level [`choose_level`] takes from [`SORTED_KEY_LEVELS`].
fn key_blocks(
    s: &SortedPositions,
    level: i32,
    sampled: bool,
) -> Result<(Vec<Vec<u8>>, Vec<u64>), DbError> {
    let per = 1usize << KEY_BLOCK_SHIFT;
    let count = s.len().div_ceil(per);
    let keys_of = |b: usize, keys: &mut Vec<u64>| {
        keys.clear();
        s.keys_into(b * per..((b + 1) * per).min(s.len()), keys);
    };
    let level = match sampled {
        true => choose_level(count as u64, &SORTED_KEY_LEVELS, |b| {
            let mut keys = Vec::with_capacity(per);
            keys_of(b as usize, &mut keys);
            encode_keys(&keys)
        })?,
        false => level,
    };
    let blocks: Vec<(u64, Vec<u8>)> = (0..count)
        .into_par_iter()
        .map_init(
            || (Packer::new(level)(), Vec::with_capacity(per)),
            |(packer, keys), b| {
                keys_of(b, keys);
                let payload = packer.compress(&encode_keys(keys))?;
                Ok((keys[0], payload))
            },
        )
        .collect::<Result<_, std::io::Error>>()
        .map_err(compressing)?;
    let (firsts, payloads) = blocks.into_iter().unzip();
    Ok((payloads, firsts))
}

/// The first of `levels` (fastest first) whose compression of a sample of a table's `blocks`
/// (at most [`LEVEL_SAMPLES`], spread evenly; `raw` gives a block's bytes) is at most
/// [`LEVEL_TOLERANCE`] thousandths larger than the smallest level's. The same blocks give the
/// same level, so a table's bytes depend on its contents alone.
fn choose_level(blocks: u64, levels: &[i32], raw: impl Fn(u64) -> Vec<u8>) -> Result<i32, DbError> {
    let picked = blocks.min(LEVEL_SAMPLES);
    let sample: Vec<Vec<u8>> = (0..picked).map(|i| raw(i * blocks / picked)).collect();
    let sizes: Vec<usize> = levels
        .par_iter()
        .map(|&level| {
            let mut packer = Packer::new(level)();
            sample.iter().map(|b| packer.compress(b).map(|c| c.len())).sum()
        })
        .collect::<std::io::Result<_>>()
        .map_err(compressing)?;
    let least = sizes.iter().copied().min().unwrap_or(0);
    let within = |size: usize| size * 1000 <= least * (1000 + LEVEL_TOLERANCE);
    Ok(levels.iter().zip(&sizes).find(|&(_, &size)| within(size)).map_or(levels[0], |(&l, _)| l))
}

/// A compressor's error as the writer's.
fn compressing(e: std::io::Error) -> DbError {
    DbError::Invalid(format!("compressing: {e}"))
}

/// A zstd context for one worker of a parallel loop over blocks, made once for all the blocks the
/// worker takes rather than once per block (making one was 1% of Connect 4 6x4's solve).
struct Packer(std::io::Result<zstd::bulk::Compressor<'static>>);

impl Packer {
    /// A maker of packers at `level`, for `map_init`.
    fn new(level: i32) -> impl Fn() -> Packer + Sync + Send {
        move || Packer(zstd::bulk::Compressor::new(level))
    }

    /// One block compressed: the same bytes as `zstd::bulk::compress` at the level.
    fn compress(&mut self, raw: &[u8]) -> std::io::Result<Vec<u8>> {
        match &mut self.0 {
            Ok(c) => c.compress(raw),
            Err(e) => Err(std::io::Error::new(e.kind(), e.to_string())),
        }
    }
}

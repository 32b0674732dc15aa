//! The reachability search's marks kept beside the per-tier files, so that a stopped solve that
//! searched what its start reaches first ([`perfectplay_solve::SolveOptions::reached`]) resumes
//! without searching again: `reached.marks` in their work directory, written once the search
//! ends (to a temporary name, synced, renamed), removed with the directory when the database is
//! written.
//!
//! Layout, little-endian (`docs/database-format.md`, "The reachability marks"):
//!
//! | field | bytes |
//! | --- | --- |
//! | magic `PPMARKS1` | 8 |
//! | game id, variant: each a u16 length and UTF-8 bytes | |
//! | the game's fingerprint ([`crate::game_fingerprint`]) | 8 |
//! | tiers: count (u32), then per tier its number (u32), fingerprint (u64) and words (u64) | |
//! | CRC-32 of the above | 4 |
//! | per tier: its words (u64 each), then their CRC-32 | 8 words + 4 |
//!
//! A file that is short, fails a checksum or holds another game, variant, rules or index is not
//! read: it is removed, and the search runs again.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use perfectplay_core::{Game, GameExt};
use perfectplay_solve::{marks_words, Reached};

use crate::fingerprint::{game_fingerprint, tier_fingerprint};
use crate::tiers::TierFiles;
use crate::DbError;

const MAGIC: &[u8; 8] = b"PPMARKS1";
/// Words converted and checksummed at a time.
const CHUNK_WORDS: usize = 1 << 17;

impl TierFiles<'_> {
    fn marks_path(&self) -> PathBuf {
        self.work_dir().join("reached.marks")
    }

    /// Keeps the marks of a whole search (every tier's complete) for a later solve of these tier
    /// files ([`TierFiles::kept_reached`]); the bytes written. `Ok(0)` (nothing written) where
    /// some tier's marks are not complete.
    pub fn keep_reached(&self, reached: &Reached) -> Result<u64, DbError> {
        let game = self.game();
        let tiers = game.tiers();
        let Some(marks) = tiers.iter().map(|&t| reached.tier_marks(t)).collect::<Option<Vec<_>>>()
        else {
            return Ok(0);
        };
        let mut header = Vec::new();
        header.extend_from_slice(MAGIC);
        for name in [game.id().to_string(), game.variant()] {
            header.extend_from_slice(&(name.len() as u16).to_le_bytes());
            header.extend_from_slice(name.as_bytes());
        }
        header.extend_from_slice(&game_fingerprint(game).to_le_bytes());
        header.extend_from_slice(&(tiers.len() as u32).to_le_bytes());
        for (&t, words) in tiers.iter().zip(&marks) {
            header.extend_from_slice(&t.0.to_le_bytes());
            header.extend_from_slice(&tier_fingerprint(game, t).to_le_bytes());
            header.extend_from_slice(&(words.len() as u64).to_le_bytes());
        }
        header.extend_from_slice(&crc32fast::hash(&header).to_le_bytes());

        let path = self.marks_path();
        let dir = self.work_dir();
        std::fs::create_dir_all(dir).map_err(|error| DbError::Io { path: dir.into(), error })?;
        let tmp = path.with_extension("marks.tmp");
        let io = |error| DbError::Io { path: tmp.clone(), error };
        let write = || -> Result<u64, DbError> {
            let mut file = BufWriter::new(File::create(&tmp).map_err(io)?);
            file.write_all(&header).map_err(io)?;
            let mut bytes = Vec::with_capacity(CHUNK_WORDS * 8);
            let mut written = header.len() as u64;
            for words in &marks {
                let mut crc = crc32fast::Hasher::new();
                for chunk in words.chunks(CHUNK_WORDS) {
                    bytes.clear();
                    bytes.extend(chunk.iter().flat_map(|w| w.load(Relaxed).to_le_bytes()));
                    crc.update(&bytes);
                    file.write_all(&bytes).map_err(io)?;
                }
                file.write_all(&crc.finalize().to_le_bytes()).map_err(io)?;
                written += words.len() as u64 * 8 + 4;
            }
            let file = file.into_inner().map_err(|e| io(e.into_error()))?;
            file.sync_all().map_err(io)?;
            drop(file);
            std::fs::rename(&tmp, &path)
                .map_err(|error| DbError::Io { path: path.clone(), error })?;
            File::open(dir)
                .and_then(|d| d.sync_all())
                .map_err(|error| DbError::Io { path: dir.into(), error })?;
            Ok(written)
        };
        let result = write();
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result
    }

    /// The marks an earlier solve of these tier files kept ([`TierFiles::keep_reached`]), if
    /// any; a file damaged or of other rules is removed ([`KeptReached::Discarded`]).
    pub fn kept_reached(&self) -> Result<KeptReached, DbError> {
        let path = self.marks_path();
        let file = match File::open(&path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(KeptReached::None),
            Err(error) => return Err(DbError::Io { path, error }),
        };
        match read_marks(self.game(), BufReader::with_capacity(1 << 20, file)) {
            Ok(reached) => Ok(KeptReached::Read(reached)),
            Err(Unreadable) => {
                std::fs::remove_file(&path)
                    .map_err(|error| DbError::Io { path: path.clone(), error })?;
                Ok(KeptReached::Discarded(path))
            }
        }
    }
}

/// What [`TierFiles::kept_reached`] found.
#[derive(Debug)]
pub enum KeptReached {
    /// No marks were kept.
    None,
    /// The marks, every check passed.
    Read(Reached),
    /// The file at this path was short, failed a checksum or was of another game, variant,
    /// rules or index, and was removed.
    Discarded(PathBuf),
}

/// Why a marks file is not read (never shown: the file is removed and the search runs again).
struct Unreadable;

impl From<std::io::Error> for Unreadable {
    fn from(_: std::io::Error) -> Unreadable {
        Unreadable
    }
}

fn read_marks(game: &dyn Game, mut file: impl Read) -> Result<Reached, Unreadable> {
    let mut header = Vec::new();
    let mut take = |file: &mut dyn Read, n: usize| -> Result<Vec<u8>, Unreadable> {
        let mut b = vec![0; n];
        file.read_exact(&mut b)?;
        header.extend_from_slice(&b);
        Ok(b)
    };
    let u16_of = |b: Vec<u8>| u16::from_le_bytes([b[0], b[1]]);
    let u32_of = |b: Vec<u8>| u32::from_le_bytes(b.try_into().unwrap_or([0; 4]));
    let u64_of = |b: Vec<u8>| u64::from_le_bytes(b.try_into().unwrap_or([0; 8]));
    if take(&mut file, 8)? != MAGIC {
        return Err(Unreadable);
    }
    for expected in [game.id().to_string(), game.variant()] {
        let n = u16_of(take(&mut file, 2)?) as usize;
        if take(&mut file, n)? != expected.as_bytes() {
            return Err(Unreadable);
        }
    }
    if u64_of(take(&mut file, 8)?) != game_fingerprint(game) {
        return Err(Unreadable);
    }
    let tiers = game.tiers();
    if u32_of(take(&mut file, 4)?) as usize != tiers.len() {
        return Err(Unreadable);
    }
    for &t in &tiers {
        let matches = u32_of(take(&mut file, 4)?) == t.0
            && u64_of(take(&mut file, 8)?) == tier_fingerprint(game, t)
            && u64_of(take(&mut file, 8)?) == marks_words(game, t);
        if !matches {
            return Err(Unreadable);
        }
    }
    let crc = crc32fast::hash(&header);
    let mut stored = [0; 4];
    file.read_exact(&mut stored)?;
    if u32::from_le_bytes(stored) != crc {
        return Err(Unreadable);
    }
    let mut bits = Vec::with_capacity(tiers.len());
    let mut bytes = vec![0u8; CHUNK_WORDS * 8];
    for &t in &tiers {
        let n = marks_words(game, t) as usize;
        let mut words = Vec::with_capacity(n);
        let mut crc = crc32fast::Hasher::new();
        while words.len() < n {
            let chunk = &mut bytes[..(n - words.len()).min(CHUNK_WORDS) * 8];
            file.read_exact(chunk)?;
            crc.update(chunk);
            words.extend(
                chunk
                    .chunks_exact(8)
                    .map(|b| AtomicU64::new(u64::from_le_bytes(b.try_into().unwrap_or([0; 8])))),
            );
        }
        file.read_exact(&mut stored)?;
        if u32::from_le_bytes(stored) != crc.finalize() {
            return Err(Unreadable);
        }
        bits.push(words);
    }
    // Nothing may follow.
    if file.read(&mut stored)? != 0 {
        return Err(Unreadable);
    }
    Reached::from_marks(game, bits).map_err(|_| Unreadable)
}

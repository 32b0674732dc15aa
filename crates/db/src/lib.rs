//! The on-disk results format: the only crate that knows the file layout
//! (`docs/database-format.md` describes it byte by byte).
//!
//! A database file holds one game variant's results as tables, one per tier (a dense game is one
//! table). Each table's values are codes into its own value-remoteness dictionary, bit-packed with
//! the fewest bits that hold them, cut into blocks of 65,536 positions, each compressed with zstd
//! and checksummed; a sorted table also stores its positions' keys in delta-coded blocks. The
//! header (magic, version, game, variant, tables, block directory) carries its own checksum, so a
//! flipped bit anywhere is an error, never a wrong answer.
//!
//! [`Writer`] receives solved tiers as the solve's [`perfectplay_solve::ResultSink`] and writes the
//! file atomically; [`TierFiles`] writes each tier to its own file as it is solved, so a killed
//! solve resumes, and assembles the final file at the end; [`Database`] answers single positions
//! through a block cache, or loads whole.

mod cache;
mod fingerprint;
mod format;
mod ledger;
mod lock;
mod marks;
mod parts;
mod reader;
mod spill;
mod tiers;
mod writer;

use std::path::{Path, PathBuf};

pub use fingerprint::{game_fingerprint, tier_fingerprint};
pub use format::{
    AnalysisRow, CodeLayout, Header, TableHeader, TableKind, TierLine, MAGIC, OLDEST_VERSION,
    VERSION,
};
pub use ledger::{Ledger, LedgerLine};
pub use lock::{lock_path, Holder, SolveLock};
pub use marks::KeptReached;
pub use reader::{Database, Fetch, Found, Info, DEFAULT_CACHE_BYTES};
pub use tiers::{finished_tier_files, tier_dir, Shared, TierFiles};
pub use writer::{
    derivable, Derivable, Writer, Written, KEY_BLOCK_SHIFT, KEY_ZSTD_LEVEL, PRUNED_ZSTD_LEVEL,
    VALUE_BLOCK_SHIFT, ZSTD_LEVEL,
};

/// What went wrong with a database file. Every variant names the file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DbError {
    /// The operating system refused a read or write. (The error is in the message, not the
    /// error's source, so that a report of the whole chain says it once.)
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
    /// The file does not start with the database magic bytes.
    #[error("{}: not a perfectplay database (wrong magic bytes)", path.display())]
    NotADatabase {
        /// The file.
        path: PathBuf,
    },
    /// A format version this build cannot read.
    #[error("{}: format version {found}, this build reads versions {} to {supported}",
            path.display(), OLDEST_VERSION)]
    UnsupportedVersion {
        /// The file.
        path: PathBuf,
        /// The file's version.
        found: u32,
        /// The newest version this build reads.
        supported: u32,
    },
    /// The file is shorter than its header says (or than a header).
    #[error("{}: truncated: {actual} bytes{}", path.display(),
            expected.map_or(String::new(), |e| format!(", the header says {e}")))]
    Truncated {
        /// The file.
        path: PathBuf,
        /// The length the header gives, if the header could be read.
        expected: Option<u64>,
        /// The file's length.
        actual: u64,
    },
    /// A checksum mismatch or an impossible field.
    #[error("{}: corrupt: {what}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// The file holds another game or variant.
    #[error("{}: holds {found}, not {expected}", path.display())]
    WrongGame {
        /// The file.
        path: PathBuf,
        /// What it holds.
        found: String,
        /// What was asked for.
        expected: String,
    },
    /// The file was written for other rules or another index of its game than this build's: its
    /// fingerprint ([`game_fingerprint`], [`tier_fingerprint`]) differs.
    #[error("{}: solved by a build whose {what} differ from this build's (fingerprint {found:016x}, \
             this build's {expected:016x}); solve it again (`solve --force`)", path.display())]
    StaleRules {
        /// The file.
        path: PathBuf,
        /// What the fingerprint covers: "rules near the start" or "tier N's rules or index".
        what: String,
        /// The stored fingerprint.
        found: u64,
        /// This build's.
        expected: u64,
    },
    /// A derived table, or a derived position of a table stored in part, read by index: such
    /// values are computed per position ([`Database::get`], [`Database::load_tier_of`]).
    #[error("{}: tier {tier} is derived, in whole or in part, from its children; its values \
             are read per position", path.display())]
    Derived {
        /// The file.
        path: PathBuf,
        /// The tier.
        tier: u32,
    },
    /// Another solve of the variant holds its lock ([`SolveLock`]).
    #[error("{}: a solve of this variant is running{}", path.display(),
            holder.as_ref().map_or(String::new(), |h| format!(" (pid {}: {})", h.pid, h.command)))]
    Busy {
        /// The lock file.
        path: PathBuf,
        /// Who holds it, if its file says.
        holder: Option<Holder>,
    },
    /// Results the writer cannot store.
    #[error("cannot store these results: {0}")]
    Invalid(String),
}

/// Where a game variant's database lives under a data directory:
/// `<dir>/<game>/<variant>.ppdb`, with any character outside `[A-Za-z0-9._-]` in the variant
/// replaced by `_` (and a leading dot too, so no name is hidden).
pub fn path_for(dir: &Path, game: &str, variant: &str) -> PathBuf {
    dir.join(clean_name(game)).join(format!("{}.ppdb", clean_name(variant)))
}

/// The database of another variant of the same game, beside the database at `path`
/// ([`path_for`]).
pub fn variant_path(path: &Path, variant: &str) -> PathBuf {
    path.with_file_name(format!("{}.ppdb", clean_name(variant)))
}

/// A name as a file name: see [`path_for`].
fn clean_name(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || "._-".contains(c) { c } else { '_' })
        .collect();
    if out.starts_with('.') || out.is_empty() {
        out.insert(0, '_');
    }
    out
}

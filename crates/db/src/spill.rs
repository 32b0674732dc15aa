//! A writer's compressed blocks, kept on disk as its tables arrive rather than in memory: the
//! header, which must come first in the file, is known only when the last table is in, and a
//! large game's blocks (Nine Men's Morris: 3.6 GB) are more than a rewrite should hold.

use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::DbError;

/// Blocks appended one after another to a hidden file beside the target, created at the first
/// block and removed when the spill is dropped.
pub(crate) struct Spill {
    path: PathBuf,
    file: Option<BufWriter<File>>,
    len: u64,
}

impl Spill {
    /// A spill for the database to be written at `target`.
    pub(crate) fn new(target: &Path) -> Spill {
        // Two writers in one process (tests) may aim at the same target.
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let what = format!("blocks-{}", NEXT.fetch_add(1, Relaxed));
        Spill { path: hidden_name(target, &what), file: None, len: 0 }
    }

    /// Bytes appended so far.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// Appends `blocks` in order.
    pub(crate) fn append(&mut self, blocks: &[Vec<u8>]) -> Result<(), DbError> {
        if blocks.iter().all(|b| b.is_empty()) {
            return Ok(());
        }
        let io = |e: std::io::Error| DbError::Io { path: self.path.clone(), error: e };
        if self.file.is_none() {
            if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .map_err(|e| DbError::Io { path: dir.into(), error: e })?;
            }
            let file = File::options()
                .read(true)
                .write(true)
                .create(true)
                .truncate(true)
                .open(&self.path)
                .map_err(io)?;
            self.file = Some(BufWriter::with_capacity(1 << 20, file));
        }
        let w = self.file.as_mut().expect("created above");
        for b in blocks {
            w.write_all(b).map_err(io)?;
            self.len += b.len() as u64;
        }
        Ok(())
    }

    /// Copies everything appended, in order, to the end of `out`.
    pub(crate) fn copy_into(&mut self, out: &mut File) -> Result<(), DbError> {
        let Some(w) = self.file.take() else { return Ok(()) };
        let io = |e: std::io::Error| DbError::Io { path: self.path.clone(), error: e };
        let mut file = w.into_inner().map_err(|e| io(e.into_error()))?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        let copied = std::io::copy(&mut file, out).map_err(io)?;
        if copied != self.len {
            return Err(DbError::Invalid(format!(
                "{}: {copied} bytes read back of {} written",
                self.path.display(),
                self.len
            )));
        }
        Ok(())
    }
}

impl Drop for Spill {
    fn drop(&mut self) {
        if self.file.take().is_some() || self.len > 0 {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// `.<name>.<what>.<pid>` beside the target: never mistaken for a database by name, and two
/// processes writing the same target do not share it.
pub(crate) fn hidden_name(path: &Path, what: &str) -> PathBuf {
    let name = path.file_name().map_or_else(|| "db".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{what}.{}", std::process::id()))
}

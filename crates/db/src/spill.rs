//! A writer's compressed blocks, kept on disk as its tables arrive rather than in memory: the
//! header, which must come first in the file, is known only when the last table is in, and a
//! large game's blocks (Nine Men's Morris: 3.6 GB) are more than a rewrite should hold. Blocks
//! copied from another file stay there until the final copy, which reads them once.

use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::format::BlockRef;
use crate::DbError;

/// Blocks in order: appended one after another to a hidden file beside the target (created at
/// the first block and removed when the spill is dropped), or named in another file.
pub(crate) struct Spill {
    path: PathBuf,
    file: Option<BufWriter<File>>,
    /// Bytes of every block so far, in the spill file or elsewhere.
    len: u64,
    segments: Vec<Segment>,
    /// Whether blocks appended stay in memory rather than going to the spill file.
    hold: bool,
}

/// A run of a spill's blocks.
enum Segment {
    /// This many bytes of the spill file, following the previous such segment's.
    Own(u64),
    /// Blocks of another file, each checked against its checksum as it is copied.
    From { path: PathBuf, blocks: Vec<BlockRef> },
    /// Blocks held in memory.
    Held(Vec<Vec<u8>>),
}

/// The most bytes read from another file at once in [`Spill::copy_into`].
const COPY_CHUNK: u64 = 16 << 20;

impl Spill {
    /// A spill for the database to be written at `target`.
    pub(crate) fn new(target: &Path) -> Spill {
        // Two writers in one process (tests) may aim at the same target.
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let what = format!("blocks-{}", NEXT.fetch_add(1, Relaxed));
        let path = hidden_name(target, &what);
        Spill { path, file: None, len: 0, segments: Vec::new(), hold: false }
    }

    /// Keeps the blocks appended from now on in memory until the final copy: for a writer of
    /// one table, whose blocks are in memory anyway (a solve's tier file), which then writes
    /// them once.
    pub(crate) fn hold(&mut self) {
        self.hold = true;
    }

    /// Bytes appended so far.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// Appends `blocks` in order.
    pub(crate) fn append(&mut self, blocks: Vec<Vec<u8>>) -> Result<(), DbError> {
        if blocks.iter().all(|b| b.is_empty()) {
            return Ok(());
        }
        if self.hold {
            self.len += blocks.iter().map(|b| b.len() as u64).sum::<u64>();
            self.segments.push(Segment::Held(blocks));
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
        let mut added = 0;
        for b in &blocks {
            w.write_all(b).map_err(io)?;
            added += b.len() as u64;
        }
        self.len += added;
        match self.segments.last_mut() {
            Some(Segment::Own(n)) => *n += added,
            _ => self.segments.push(Segment::Own(added)),
        }
        Ok(())
    }

    /// Appends `blocks` of the file at `path` in order, to be read from there by
    /// [`Spill::copy_into`] (which checks each against its checksum): the file must stay as it is
    /// until then.
    pub(crate) fn append_from(&mut self, path: &Path, blocks: Vec<BlockRef>) {
        self.len += blocks.iter().map(|b| u64::from(b.len)).sum::<u64>();
        self.segments.push(Segment::From { path: path.to_path_buf(), blocks });
    }

    /// Copies everything appended, in order, to the end of `out`.
    pub(crate) fn copy_into(&mut self, out: &mut File, out_path: &Path) -> Result<(), DbError> {
        let io =
            |path: &Path, e: std::io::Error| DbError::Io { path: path.to_path_buf(), error: e };
        let mut own = match self.file.take() {
            Some(w) => {
                let mut file = w.into_inner().map_err(|e| io(&self.path, e.into_error()))?;
                file.seek(SeekFrom::Start(0)).map_err(|e| io(&self.path, e))?;
                Some(file)
            }
            None => None,
        };
        let mut copied = 0;
        let mut buf = Vec::new();
        for segment in &self.segments {
            match segment {
                Segment::Own(n) => {
                    let file = own.as_mut().ok_or_else(|| {
                        DbError::Invalid(format!("{}: never written", self.path.display()))
                    })?;
                    let done =
                        std::io::copy(&mut file.take(*n), out).map_err(|e| io(&self.path, e))?;
                    if done != *n {
                        return Err(DbError::Invalid(format!(
                            "{}: {done} bytes read back of {n} written",
                            self.path.display()
                        )));
                    }
                    copied += done;
                }
                Segment::From { path, blocks } => {
                    copied += copy_blocks(path, blocks, (out, out_path), &mut buf)?;
                }
                Segment::Held(blocks) => {
                    let mut w = BufWriter::with_capacity(1 << 20, &mut *out);
                    for b in blocks {
                        w.write_all(b).map_err(|e| io(out_path, e))?;
                        copied += b.len() as u64;
                    }
                    w.flush().map_err(|e| io(out_path, e))?;
                }
            }
        }
        if copied != self.len {
            return Err(DbError::Invalid(format!(
                "{}: {copied} bytes copied of {}",
                self.path.display(),
                self.len
            )));
        }
        Ok(())
    }
}

/// Copies `blocks` of the file at `path` to the end of `out`, each checked against its checksum,
/// reading runs of adjacent blocks at once; returns the bytes copied.
fn copy_blocks(
    path: &Path,
    blocks: &[BlockRef],
    (out, out_path): (&mut File, &Path),
    buf: &mut Vec<u8>,
) -> Result<u64, DbError> {
    let io = |e: std::io::Error| DbError::Io { path: path.to_path_buf(), error: e };
    let file = File::open(path).map_err(io)?;
    let mut copied = 0;
    let mut b = 0;
    while b < blocks.len() {
        // A run of blocks each starting where the one before ends, up to the chunk's size.
        let start = blocks[b].offset;
        let mut end = b;
        let mut bytes = 0;
        while end < blocks.len()
            && blocks[end].offset == start + bytes
            && (end == b || bytes + u64::from(blocks[end].len) <= COPY_CHUNK)
        {
            bytes += u64::from(blocks[end].len);
            end += 1;
        }
        buf.resize(bytes as usize, 0);
        file.read_exact_at(buf, start).map_err(io)?;
        let mut at = 0;
        for (k, r) in blocks[b..end].iter().enumerate() {
            let block = &buf[at..at + r.len as usize];
            if crc32fast::hash(block) != r.crc {
                return Err(DbError::Corrupt {
                    path: path.to_path_buf(),
                    what: format!("block at byte {}: checksum mismatch", blocks[b + k].offset),
                });
            }
            at += r.len as usize;
        }
        out.write_all(buf).map_err(|e| DbError::Io { path: out_path.to_path_buf(), error: e })?;
        copied += bytes;
        b = end;
    }
    Ok(copied)
}

impl Drop for Spill {
    fn drop(&mut self) {
        // The spill file exists where it was opened (and the final copy took it, or not).
        if self.file.is_some() || self.segments.iter().any(|s| matches!(s, Segment::Own(_))) {
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

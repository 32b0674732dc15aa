//! One solve per variant: an operating-system file lock on `<variant>.ppdb.lock`, beside the
//! database.
//!
//! Every solve of a variant (the CLI's, one started from the page, an MPI run's manager) holds it
//! from its start to its end, so that two solves never write the same tier files or assemble the
//! same database. The lock is the operating system's (`flock` on Linux): it goes when the process
//! that holds it ends, however it ends, so a killed solve never leaves a lock that blocks (its file
//! stays behind, unlocked, until the next solve's lock replaces it). A solve that ends removes
//! the file while it still holds it; whoever locks a file checks that it is still the one of that
//! name, so that two processes never hold two files of one name. What the file says (the
//! holder's pid, when it started, its command) is read only while someone holds it.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::DbError;

/// How often, and how far apart, [`SolveLock::acquire`] tries before it says the lock is held: a
/// look at the lock by [`SolveLock::holder`] holds it (shared) for a moment.
const TRIES: u32 = 5;
const TRY_GAP: Duration = Duration::from_millis(10);

/// The lock of one variant's solve, held until dropped.
#[derive(Debug)]
pub struct SolveLock {
    file: File,
    path: PathBuf,
}

impl Drop for SolveLock {
    fn drop(&mut self) {
        // Removed while still held (the file closes after this): a process that opened it
        // before finds it is no longer the file of that name once it locks it.
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// Whether `file` is still the file named `path` (a lock's holder may have removed it).
#[cfg(unix)]
fn still_named(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

/// Elsewhere the file's identity is not at hand: a file of the name is taken as the one.
#[cfg(not(unix))]
fn still_named(_file: &File, path: &Path) -> bool {
    path.exists()
}

/// Who holds a variant's lock, as its holder wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    /// The holding process.
    pub pid: u32,
    /// When it took the lock, in seconds since the Unix epoch.
    pub started: u64,
    /// What it runs (`perfectplay solve ...`, or the server's solve from the page).
    pub command: String,
}

/// The lock file of the variant whose database is at `path`.
pub fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    path.with_file_name(name)
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> DbError + '_ {
    move |error| DbError::Io { path: path.to_path_buf(), error }
}

impl SolveLock {
    /// Takes the lock of the variant whose database is at `path` for this process, recording
    /// `command`; [`DbError::Busy`] with its holder if another solve holds it.
    pub fn acquire(path: &Path, command: &str) -> Result<SolveLock, DbError> {
        let lock = lock_path(path);
        if let Some(dir) = lock.parent() {
            std::fs::create_dir_all(dir).map_err(io(dir))?;
        }
        let open = || {
            OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&lock)
                .map_err(io(&lock))
        };
        let mut file = open()?;
        let mut busy = 0;
        loop {
            match file.try_lock() {
                Ok(()) if !still_named(&file, &lock) => {
                    // Its holder finished and removed it: the lock is the new file's.
                    file = open()?;
                }
                Ok(()) => {
                    let started =
                        SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
                    let line = format!("{}\t{started}\t{command}\n", std::process::id());
                    file.set_len(0).map_err(io(&lock))?;
                    file.write_all(line.as_bytes()).map_err(io(&lock))?;
                    file.sync_data().map_err(io(&lock))?;
                    return Ok(SolveLock { file, path: lock });
                }
                Err(TryLockError::WouldBlock) => {
                    busy += 1;
                    if busy == TRIES {
                        break;
                    }
                    std::thread::sleep(TRY_GAP);
                }
                Err(TryLockError::Error(error)) => return Err(DbError::Io { path: lock, error }),
            }
        }
        Err(DbError::Busy { holder: read_holder(&mut file), path: lock })
    }

    /// Who holds the lock of the variant whose database is at `path` now, if anyone.
    pub fn holder(path: &Path) -> Result<Option<Holder>, DbError> {
        let lock = lock_path(path);
        let mut file = match File::open(&lock) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(DbError::Io { path: lock, error: e }),
        };
        match file.try_lock_shared() {
            Ok(()) => Ok(None),
            Err(TryLockError::WouldBlock) => Ok(Some(read_holder(&mut file).unwrap_or(Holder {
                pid: 0,
                started: 0,
                command: "a solve that has not yet written who it is".into(),
            }))),
            Err(TryLockError::Error(error)) => Err(DbError::Io { path: lock, error }),
        }
    }
}

/// The holder a lock file names (None if it names none, as while its holder writes it).
fn read_holder(file: &mut File) -> Option<Holder> {
    let mut text = String::new();
    file.read_to_string(&mut text).ok()?;
    let mut fields = text.trim_end_matches('\n').splitn(3, '\t');
    Some(Holder {
        pid: fields.next()?.parse().ok()?,
        started: fields.next()?.parse().ok()?,
        command: fields.next()?.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_with_the_holder_and_taken_once_the_first_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game").join("variant.ppdb");
        assert_eq!(SolveLock::holder(&path).unwrap(), None);
        let first = SolveLock::acquire(&path, "perfectplay solve game").unwrap();
        let holder = SolveLock::holder(&path).unwrap().expect("held");
        assert_eq!(
            (holder.pid, holder.command.as_str()),
            (std::process::id(), "perfectplay solve game")
        );
        match SolveLock::acquire(&path, "a second solve") {
            Err(DbError::Busy { holder: Some(h), path: p }) => {
                assert_eq!(h, holder);
                assert_eq!(p, dir.path().join("game").join("variant.ppdb.lock"));
            }
            other => panic!("a second lock was not refused: {other:?}"),
        }
        drop(first);
        // A finished solve's lock is gone, file and all.
        assert!(!lock_path(&path).exists());
        assert_eq!(SolveLock::holder(&path).unwrap(), None);
        let second = SolveLock::acquire(&path, "a second solve").unwrap();
        assert_eq!(SolveLock::holder(&path).unwrap().unwrap().command, "a second solve");
        drop(second);
    }

    #[test]
    fn the_lock_file_sits_beside_the_database() {
        assert_eq!(lock_path(Path::new("d/g/v.ppdb")), Path::new("d/g/v.ppdb.lock"));
    }
}

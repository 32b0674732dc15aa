//! Where a tier solved in parts keeps them (and a lean sparse solve a waiting tier's positions):
//! `parts-<tier>/<name>.part` in the work directory of the per-tier files, each blob written to a
//! temporary name, synced and renamed (a blob is there whole or not at all), the directory removed
//! once the tier is solved.

use std::io::Write;
use std::path::{Path, PathBuf};

use perfectplay_core::Tier;
use perfectplay_solve::{PartStore, SinkError};

use crate::tiers::TierFiles;
use crate::DbError;

impl TierFiles<'_> {
    fn parts_dir(&self, tier: Tier) -> PathBuf {
        self.work_dir().join(format!("parts-{}", tier.0))
    }
}

/// Writes `bytes` to `path` by way of a temporary name beside it, synced, then renamed.
fn write_durably(path: &Path, bytes: &[u8]) -> Result<(), DbError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|error| DbError::Io { path: dir.into(), error })?;
    let tmp = path.with_extension("part.tmp");
    let io = |error| DbError::Io { path: tmp.clone(), error };
    let mut file = std::fs::File::create(&tmp).map_err(io)?;
    file.write_all(bytes).and_then(|_| file.sync_all()).map_err(io)?;
    drop(file);
    std::fs::rename(&tmp, path).map_err(|error| DbError::Io { path: path.into(), error })
}

impl PartStore for TierFiles<'_> {
    fn put(&mut self, tier: Tier, name: &str, bytes: &[u8]) -> Result<(), SinkError> {
        Ok(write_durably(&self.parts_dir(tier).join(format!("{name}.part")), bytes)?)
    }

    /// Scratch (a part swapped out, mail) is written in place, unsynced: no later solve reads it.
    fn put_scratch(&mut self, tier: Tier, name: &str, bytes: &[u8]) -> Result<(), SinkError> {
        let dir = self.parts_dir(tier);
        std::fs::create_dir_all(&dir).map_err(|error| DbError::Io { path: dir.clone(), error })?;
        let path = dir.join(format!("{name}.part"));
        Ok(std::fs::write(&path, bytes).map_err(|error| DbError::Io { path, error })?)
    }

    fn remove(&mut self, tier: Tier, name: &str) -> Result<(), SinkError> {
        let path = self.parts_dir(tier).join(format!("{name}.part"));
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(DbError::Io { path, error: e }.into())
            }
            _ => Ok(()),
        }
    }

    fn get(&mut self, tier: Tier, name: &str) -> Result<Option<Vec<u8>>, SinkError> {
        let path = self.parts_dir(tier).join(format!("{name}.part"));
        match std::fs::read(&path) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(DbError::Io { path, error }.into()),
        }
    }

    fn clear(&mut self, tier: Tier) -> Result<(), SinkError> {
        let dir = self.parts_dir(tier);
        match std::fs::remove_dir_all(&dir) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(DbError::Io { path: dir, error: e }.into())
            }
            _ => Ok(()),
        }
    }
}

//! How solved tiers leave the engine: the [`ResultSink`] a database or memory implements.

use perfectplay_core::Tier;

use crate::{SinkError, SolvedTier};

/// Receives each tier as soon as it is solved (the database writes it; memory keeps it).
pub trait ResultSink {
    /// Called once per tier, lowest tier first.
    fn tier_solved(&mut self, tier: &SolvedTier) -> Result<(), SinkError>;

    /// A tier that an earlier, interrupted solve finished and kept, read back whole and checked;
    /// `None` if there is none (the tier is solved). The default keeps nothing.
    fn resume(&mut self, _tier: Tier) -> Result<Option<SolvedTier>, SinkError> {
        Ok(None)
    }

    /// Whether solved tiers are kept by the sink, so that the solve may drop them from memory
    /// once no tier still to solve needs them (with a memory limit only).
    fn keeps_tiers(&self) -> bool {
        false
    }

    /// Whether the sink holds the tier finished by an earlier, interrupted solve, checked cheaply
    /// (its values are read only if a later tier needs them, by [`ResultSink::reload`]). Used by
    /// solves under a memory limit; the default holds nothing.
    fn kept(&mut self, _tier: Tier) -> Result<bool, SinkError> {
        Ok(false)
    }

    /// A tier the sink holds, read back whole and checked, for a tier that needs it as a child
    /// after it was dropped from memory. The default holds nothing.
    fn reload(&mut self, _tier: Tier) -> Result<Option<SolvedTier>, SinkError> {
        Ok(None)
    }

    /// Whether the sink keeps each tier's share of the analysis ([`ResultSink::tier_counted`]):
    /// a solve of the positions reached ([`crate::SolveOptions::reached`]) then counts each tier
    /// right after solving it, while its values and marks are in memory. The default keeps none.
    fn keeps_counts(&self) -> bool {
        false
    }

    /// Keeps tier `tier`'s share of the analysis ([`crate::count_tier`]), handed over just
    /// before the tier itself ([`ResultSink::tier_solved`]), so that a sink can keep both in one.
    fn tier_counted(&mut self, _tier: Tier, _tally: &crate::Tally) -> Result<(), SinkError> {
        Ok(())
    }

    /// Where a tier too large for the memory limit keeps its parts: a tier that does not fit
    /// whole is solved in parts only where the sink gives a store. The default gives none.
    fn parts(&mut self) -> Option<&mut dyn PartStore> {
        None
    }
}

/// Where a tier solved in parts keeps what is not in memory, by name within the tier: each part's
/// state once initialised (a stopped solve resumes from the last part initialised) and the parts
/// swapped out between the retrograde rounds; and where a lean sparse solve puts a discovered
/// tier's positions aside until its turn. A database writes each blob to a temporary name, syncs
/// and renames it, so a blob is there whole or not at all.
pub trait PartStore {
    /// Keeps `bytes` as the tier's blob `name`, replacing one of that name.
    fn put(&mut self, tier: Tier, name: &str, bytes: &[u8]) -> Result<(), SinkError>;

    /// Keeps `bytes` as scratch: a blob no later solve reads (a part swapped out, mail), so it
    /// need not be synced. The default is [`PartStore::put`].
    fn put_scratch(&mut self, tier: Tier, name: &str, bytes: &[u8]) -> Result<(), SinkError> {
        self.put(tier, name, bytes)
    }

    /// Removes the tier's blob `name`, if kept.
    fn remove(&mut self, tier: Tier, name: &str) -> Result<(), SinkError>;

    /// The tier's blob `name`, if kept.
    fn get(&mut self, tier: Tier, name: &str) -> Result<Option<Vec<u8>>, SinkError>;

    /// Removes every blob of the tier (it is solved, or its parts are planned anew).
    fn clear(&mut self, tier: Tier) -> Result<(), SinkError>;
}

/// A [`PartStore`] in memory, for tests and for solves that keep no files: parts swapped out are
/// held compressed.
#[derive(Debug, Default)]
pub struct MemoryParts {
    blobs: std::collections::BTreeMap<(Tier, String), Vec<u8>>,
    /// Blobs put so far, over every tier.
    pub puts: u64,
}

impl PartStore for MemoryParts {
    fn put(&mut self, tier: Tier, name: &str, bytes: &[u8]) -> Result<(), SinkError> {
        self.puts += 1;
        self.blobs.insert((tier, name.to_string()), bytes.to_vec());
        Ok(())
    }

    fn get(&mut self, tier: Tier, name: &str) -> Result<Option<Vec<u8>>, SinkError> {
        Ok(self.blobs.get(&(tier, name.to_string())).cloned())
    }

    fn remove(&mut self, tier: Tier, name: &str) -> Result<(), SinkError> {
        self.blobs.remove(&(tier, name.to_string()));
        Ok(())
    }

    fn clear(&mut self, tier: Tier) -> Result<(), SinkError> {
        self.blobs.retain(|(t, _), _| *t != tier);
        Ok(())
    }
}

//! A tier's positions put aside in a [`PartStore`] while a solve does not need them (a lean sparse
//! solve's discovered tiers, waiting for their turn), and taken back: the layout and directory in
//! one blob, the keys in blobs of at most [`KEYS_BLOB`] bytes, as scratch (a stopped solve
//! discovers its tiers again).

use perfectplay_core::Tier;
use rayon::prelude::*;

use super::{Keys, SortedPositions};
use crate::{PartStore, SinkError};

/// The most bytes of keys one blob holds.
const KEYS_BLOB: usize = 64 << 20;
/// The layout blob's name; the keys' are `positions-<k>`.
const LAYOUT: &str = "positions";
/// The layout blob's fixed fields: count, least code, shift, key width, blobs of keys.
const HEADER: usize = 8 + 8 + 4 + 1 + 8;

impl SortedPositions {
    /// Puts the positions aside in `store` as tier `tier`'s, and drops them.
    pub(crate) fn put_aside(self, tier: Tier, store: &mut dyn PartStore) -> Result<(), SinkError> {
        self.put_aside_in(tier, store, KEYS_BLOB)
    }

    /// [`SortedPositions::put_aside`] in blobs of keys of at most `blob` bytes.
    fn put_aside_in(
        self,
        tier: Tier,
        store: &mut dyn PartStore,
        blob: usize,
    ) -> Result<(), SinkError> {
        let (width, count) = match &self.keys {
            Keys::Packed(k) => (2, k.len()),
            Keys::Full(k) => (8, k.len()),
        };
        let per_blob = blob / width;
        let blobs = count.div_ceil(per_blob);
        let mut layout = Vec::with_capacity(HEADER + self.directory.len() * 4);
        layout.extend_from_slice(&(self.len as u64).to_le_bytes());
        layout.extend_from_slice(&self.min.to_le_bytes());
        layout.extend_from_slice(&self.shift.to_le_bytes());
        layout.push(width as u8);
        layout.extend_from_slice(&(blobs as u64).to_le_bytes());
        layout.extend(self.directory.iter().flat_map(|d| d.to_le_bytes()));
        store.put_scratch(tier, LAYOUT, &layout)?;
        drop(layout);
        let mut bytes = Vec::with_capacity(blob.min(count * width));
        for b in 0..blobs {
            let range = b * per_blob..((b + 1) * per_blob).min(count);
            bytes.clear();
            bytes.resize(range.len() * width, 0);
            // Laid out on every core: the store's write is the only step on one.
            match &self.keys {
                Keys::Packed(k) => to_bytes(&k[range], &mut bytes, u16::to_le_bytes),
                Keys::Full(k) => to_bytes(&k[range], &mut bytes, u64::to_le_bytes),
            }
            store.put_scratch(tier, &format!("{LAYOUT}-{b}"), &bytes)?;
        }
        Ok(())
    }

    /// Takes back tier `tier`'s positions put aside in `store`, and removes them there.
    pub(crate) fn take_back(tier: Tier, store: &mut dyn PartStore) -> Result<Self, SinkError> {
        let missing = |what: &str| -> SinkError {
            format!("tier {}: its positions put aside are {what}", tier.0).into()
        };
        let layout = store.get(tier, LAYOUT)?.ok_or_else(|| missing("missing"))?;
        if layout.len() < HEADER || !(layout.len() - HEADER).is_multiple_of(4) {
            return Err(missing("damaged"));
        }
        let u64_at = |at: usize| u64::from_le_bytes(layout[at..at + 8].try_into().unwrap());
        let (len, min) = (u64_at(0) as usize, u64_at(8));
        let shift = u32::from_le_bytes(layout[16..20].try_into().unwrap());
        let (width, blobs) = (usize::from(layout[20]), u64_at(21) as usize);
        let directory: Vec<u32> = layout[HEADER..]
            .chunks_exact(4)
            .map(|d| u32::from_le_bytes(d.try_into().unwrap()))
            .collect();
        drop(layout);
        let (mut packed, mut full) = (Vec::new(), Vec::new());
        match width {
            2 => packed.reserve_exact(len),
            8 => full.reserve_exact(len),
            _ => return Err(missing("damaged")),
        }
        for b in 0..blobs {
            let name = format!("{LAYOUT}-{b}");
            let bytes = store.get(tier, &name)?.ok_or_else(|| missing("missing a part"))?;
            if !bytes.len().is_multiple_of(width) {
                return Err(missing("damaged"));
            }
            match width {
                2 => from_bytes(&bytes, &mut packed, u16::from_le_bytes),
                _ => from_bytes(&bytes, &mut full, u64::from_le_bytes),
            }
            store.remove(tier, &name)?;
        }
        store.remove(tier, LAYOUT)?;
        if packed.len() + full.len() != len {
            return Err(missing("damaged"));
        }
        let keys = if width == 2 { Keys::Packed(packed) } else { Keys::Full(full) };
        Ok(SortedPositions { keys, len, min, shift, directory })
    }
}

/// Codes per task of the conversions to and from bytes.
const TASK: usize = 1 << 16;

/// `keys` as little-endian bytes into `out` (exactly as long), on every core.
fn to_bytes<K: Copy + Sync, const W: usize>(keys: &[K], out: &mut [u8], le: fn(K) -> [u8; W]) {
    out.par_chunks_mut(TASK * W).zip(keys.par_chunks(TASK)).for_each(|(out, keys)| {
        for (o, &k) in out.chunks_exact_mut(W).zip(keys) {
            o.copy_from_slice(&le(k));
        }
    });
}

/// The codes of little-endian `bytes` (a whole number of codes) appended to `out`, on every core.
fn from_bytes<K: Copy + Default + Send, const W: usize>(
    bytes: &[u8],
    out: &mut Vec<K>,
    le: fn([u8; W]) -> K,
) {
    let from = out.len();
    out.resize(from + bytes.len() / W, K::default());
    out[from..].par_chunks_mut(TASK).zip(bytes.par_chunks(TASK * W)).for_each(|(out, bytes)| {
        for (o, b) in out.iter_mut().zip(bytes.chunks_exact(W)) {
            *o = le(b.try_into().expect("chunks of W bytes"));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemoryParts;

    /// Positions put aside and taken back are the same set, laid out the same, packed or whole,
    /// over more than one blob of keys, and nothing of them is left in the store.
    #[test]
    fn put_aside_and_taken_back_whole() {
        const BLOB: usize = 4096;
        let dense: Vec<u64> = (0..10_000u64).map(|k| 1_000 + 3 * k).collect();
        let wide: Vec<u64> = (0..5_000u64).map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
        for (t, codes) in [dense, wide, Vec::new()].into_iter().enumerate() {
            let set = SortedPositions::from_unsorted(codes);
            let tier = Tier(t as u32);
            let mut store = MemoryParts::default();
            set.clone().put_aside_in(tier, &mut store, BLOB).unwrap();
            assert!(t == 2 || store.get(tier, "positions-1").unwrap().is_some());
            let back = SortedPositions::take_back(tier, &mut store).unwrap();
            assert_eq!(back.len(), set.len());
            assert_eq!(back.directory, set.directory);
            assert!(back.iter().eq(set.iter()));
            assert!(store.get(tier, LAYOUT).unwrap().is_none());
            assert!(SortedPositions::take_back(tier, &mut store).is_err());
        }
    }
}

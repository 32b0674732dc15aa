//! Solved tiers held compressed in memory: a game whose tiers each need many large child tiers
//! (Fox and Geese: a chain of captures may land in any tier with fewer geese) can hold them all
//! under a memory limit. The codes go in blocks of 4,096, each compressed on its own, and a
//! worker reads them through a small cache of decoded blocks ([`BlockCache`]): neighbouring
//! positions' children lie in neighbouring blocks.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use perfectplay_core::ValueRemoteness;
use rayon::prelude::*;
use zstd::bulk::Decompressor;

/// log2 of the codes per block.
const BLOCK_SHIFT: u32 = 12;
const BLOCK: usize = 1 << BLOCK_SHIFT;
/// zstd's fastest level: a tier is packed once, in the middle of a solve.
const LEVEL: i32 = 1;

/// One-byte codes in compressed blocks, with their dictionary.
#[derive(Clone, Debug)]
pub struct PackedCodes {
    /// The distinct values, by code.
    pub(crate) dictionary: Vec<ValueRemoteness>,
    len: usize,
    blocks: Vec<Block>,
    /// Bytes held, counted once (a solve under a memory limit asks often).
    bytes: usize,
    /// Tells this tier's blocks apart from another's in a [`BlockCache`].
    id: u64,
}

impl PackedCodes {
    /// Compresses `codes` (indices into `dictionary`).
    pub fn pack(dictionary: Vec<ValueRemoteness>, codes: &[u8]) -> PackedCodes {
        static NEXT_ID: AtomicU64 = AtomicU64::new(0);
        let blocks = codes
            .par_chunks(BLOCK)
            .map(|chunk| match zstd::bulk::compress(chunk, LEVEL) {
                Ok(c) if c.len() < chunk.len() => Block::Zstd(c.into_boxed_slice()),
                // Codes that do not shrink (or, in principle, a failed compression) stay as
                // they are.
                _ => Block::Raw(chunk.into()),
            })
            .collect::<Vec<_>>();
        let bytes = blocks
            .iter()
            .map(|b| match b {
                Block::Zstd(c) | Block::Raw(c) => c.len() + std::mem::size_of::<Block>(),
            })
            .sum::<usize>()
            + dictionary.len() * std::mem::size_of::<ValueRemoteness>();
        let id = NEXT_ID.fetch_add(1, Relaxed);
        PackedCodes { dictionary, len: codes.len(), blocks, bytes, id }
    }

    /// The distinct values, by code.
    pub fn dictionary(&self) -> &[ValueRemoteness] {
        &self.dictionary
    }

    /// The number of codes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.bytes
    }

    /// The code at `index`, through a worker's cache.
    #[inline]
    pub fn code(&self, index: usize, cache: &mut BlockCache) -> Option<u8> {
        if index >= self.len {
            return None;
        }
        let b = index >> BLOCK_SHIFT;
        let block = cache.block(self.id, b, |context| self.decode_in(b, context));
        block.get(index & (BLOCK - 1)).copied()
    }

    /// The value at `index`, decoding its block (no cache: for the occasional lookup).
    pub fn get(&self, index: usize) -> ValueRemoteness {
        let block = self.decode(index >> BLOCK_SHIFT);
        self.dictionary[usize::from(block[index & (BLOCK - 1)])]
    }

    /// Every code, in order.
    pub fn unpack(&self) -> Vec<u8> {
        let blocks: Vec<Vec<u8>> =
            (0..self.blocks.len()).into_par_iter().map(|b| self.decode(b)).collect();
        blocks.concat()
    }

    fn decode(&self, b: usize) -> Vec<u8> {
        self.decode_in(b, &mut None)
    }

    /// Block `b`'s codes, through a decompression context kept by the caller (made here the
    /// first time).
    fn decode_in(&self, b: usize, context: &mut Option<Decompressor<'static>>) -> Vec<u8> {
        match &self.blocks[b] {
            Block::Raw(codes) => codes.to_vec(),
            Block::Zstd(c) => {
                let n = BLOCK.min(self.len - (b << BLOCK_SHIFT));
                if context.is_none() {
                    *context = Decompressor::new().ok();
                }
                let decoded = match context {
                    Some(d) => d.decompress(c, n),
                    None => zstd::bulk::decompress(c, n),
                };
                decoded.expect("a block compressed in this process decodes")
            }
        }
    }
}

/// A block of codes as kept.
#[derive(Clone, Debug)]
enum Block {
    Zstd(Box<[u8]>),
    Raw(Box<[u8]>),
}

/// One worker's decoded blocks, a few dozen, each slot holding the last block that mapped to it,
/// and its decompression context: one made for each block took four fifths of a 13-geese solve's
/// time once most of its child tiers were packed.
#[derive(Default)]
pub struct BlockCache {
    slots: Vec<Option<(u64, usize, Vec<u8>)>>,
    context: Option<Decompressor<'static>>,
}

impl std::fmt::Debug for BlockCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let held = self.slots.iter().flatten().count();
        f.debug_struct("BlockCache").field("blocks held", &held).finish()
    }
}

/// Slots per worker: 64 blocks of 4 KiB.
const SLOTS: usize = 64;

impl BlockCache {
    fn block(
        &mut self,
        id: u64,
        b: usize,
        decode: impl FnOnce(&mut Option<Decompressor<'static>>) -> Vec<u8>,
    ) -> &[u8] {
        if self.slots.is_empty() {
            self.slots.resize_with(SLOTS, || None);
        }
        let slot = (b ^ (id as usize).wrapping_mul(0x9E37_79B9)) % SLOTS;
        let hit = matches!(&self.slots[slot], Some((i, k, _)) if *i == id && *k == b);
        if !hit {
            self.slots[slot] = Some((id, b, decode(&mut self.context)));
        }
        &self.slots[slot].as_ref().expect("filled above").2
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfectplay_core::{Remoteness, Value};

    #[test]
    fn codes_read_back_through_the_cache_and_without() {
        let dictionary: Vec<ValueRemoteness> =
            (0..5).map(|r| ValueRemoteness::new(Value::Win, Remoteness(r + 1))).collect();
        // Runs (compressible), noise (kept raw where zstd cannot shrink it), a short last block.
        let mut codes: Vec<u8> = (0..3 * BLOCK).map(|i| (i / 1000 % 5) as u8).collect();
        let mut x = 12345u32;
        codes.extend((0..BLOCK + 77).map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (x >> 16) as u8 % 5
        }));
        let packed = PackedCodes::pack(dictionary.clone(), &codes);
        assert_eq!(packed.len(), codes.len());
        assert!(packed.heap_bytes() < codes.len());
        assert_eq!(packed.unpack(), codes);
        let mut cache = BlockCache::default();
        let other = PackedCodes::pack(dictionary.clone(), &codes[..100]);
        for i in (0..codes.len()).step_by(7).chain((0..codes.len()).rev().step_by(13)) {
            assert_eq!(packed.code(i, &mut cache), Some(codes[i]), "{i}");
            assert_eq!(other.code(i % 100, &mut cache), Some(codes[i % 100]), "{i}");
            assert_eq!(packed.get(i), dictionary[usize::from(codes[i])]);
        }
        assert_eq!(packed.code(codes.len(), &mut cache), None);
    }
}

//! Solved tiers held compressed in memory: a game whose tiers each need many large child tiers
//! (Fox and Geese: a chain of captures may land in any tier with fewer geese) can hold them all
//! under a memory limit. Two forms:
//! - **Sparse**, where one code holds nearly every index (Fox and Geese's draws: 98.7% of the
//!   15-geese indices): a bit per index marks the others, whose codes follow in index order,
//!   found through a count of the marks before every 512th index. 1.125 bits an index plus
//!   a byte for each other code, and a lookup is a bit read, with a count only for the others.
//! - **Blocks** of 4,096 codes, each compressed by zstd on its own, read through a worker's small
//!   cache of decoded blocks ([`BlockCache`]): neighbouring positions' children lie in
//!   neighbouring blocks. Smaller where no code dominates, but a lookup outside the cached blocks
//!   decodes a block.
//!
//! Packing chooses the sparse form where the codes other than the commonest are at most
//! [`SPARSE_SHARE`] of them; [`PackedCodes::squeeze`] turns a sparse form into blocks where even
//! that is too large for a memory limit.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use perfectplay_core::ValueRemoteness;
use rayon::prelude::*;
use zstd::bulk::Decompressor;

/// log2 of the codes per block.
const BLOCK_SHIFT: u32 = 12;
const BLOCK: usize = 1 << BLOCK_SHIFT;
/// zstd's fastest level: a tier is packed once, in the middle of a solve.
const LEVEL: i32 = 1;

/// The sparse form is chosen where the codes other than the commonest are at most one in this
/// many (its size is then at most about a quarter of a byte an index).
const SPARSE_SHARE: usize = 8;

/// One-byte codes held compressed, with their dictionary.
#[derive(Clone, Debug)]
pub struct PackedCodes {
    /// The distinct values, by code.
    pub(crate) dictionary: Vec<ValueRemoteness>,
    len: usize,
    store: Store,
    /// Bytes held, counted once (a solve under a memory limit asks often).
    bytes: usize,
    /// Tells this tier's blocks apart from another's in a [`BlockCache`].
    id: u64,
}

impl PackedCodes {
    /// Compresses `codes` (indices into `dictionary`), sparse where one code holds nearly all.
    pub fn pack(dictionary: Vec<ValueRemoteness>, codes: &[u8]) -> PackedCodes {
        let counts = codes
            .par_chunks(1 << 20)
            .map(|chunk| {
                let mut c = [0usize; 256];
                for &x in chunk {
                    c[usize::from(x)] += 1;
                }
                c
            })
            .reduce(
                || [0usize; 256],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                    a
                },
            );
        let (common, most) =
            counts.iter().enumerate().max_by_key(|&(_, n)| *n).map_or((0, 0), |(c, &n)| (c, n));
        let store = if (codes.len() - most) * SPARSE_SHARE <= codes.len() {
            Store::Sparse(Sparse::new(codes, common as u8))
        } else {
            Store::Blocks(Self::blocks(codes))
        };
        Self::with_store(dictionary, codes.len(), store)
    }

    fn with_store(dictionary: Vec<ValueRemoteness>, len: usize, store: Store) -> PackedCodes {
        static NEXT_ID: AtomicU64 = AtomicU64::new(0);
        let bytes = store.heap_bytes() + dictionary.len() * std::mem::size_of::<ValueRemoteness>();
        let id = NEXT_ID.fetch_add(1, Relaxed);
        PackedCodes { dictionary, len, store, bytes, id }
    }

    /// Turns a sparse form into compressed blocks (smaller where the commonest code's indices
    /// come in long runs); returns whether it did.
    pub fn squeeze(&mut self) -> bool {
        if !matches!(self.store, Store::Sparse(_)) {
            return false;
        }
        // Block by block, without the whole tier's codes at once (this runs to fit a limit).
        let blocks = (0..self.len.div_ceil(BLOCK))
            .into_par_iter()
            .map(|b| compress_block(&self.decode(b)))
            .collect();
        *self =
            Self::with_store(std::mem::take(&mut self.dictionary), self.len, Store::Blocks(blocks));
        true
    }

    /// Whether the codes are held sparse.
    pub fn is_sparse(&self) -> bool {
        matches!(self.store, Store::Sparse(_))
    }

    fn blocks(codes: &[u8]) -> Vec<Block> {
        codes.par_chunks(BLOCK).map(compress_block).collect()
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
        if let Store::Sparse(s) = &self.store {
            return Some(s.code(index));
        }
        let b = index >> BLOCK_SHIFT;
        let block = cache.block(self.id, b, |context| self.decode_in(b, context));
        block.get(index & (BLOCK - 1)).copied()
    }

    /// The value at `index`, decoding its block (no cache: for the occasional lookup).
    pub fn get(&self, index: usize) -> ValueRemoteness {
        if let Store::Sparse(s) = &self.store {
            return self.dictionary[usize::from(s.code(index))];
        }
        let block = self.decode(index >> BLOCK_SHIFT);
        self.dictionary[usize::from(block[index & (BLOCK - 1)])]
    }

    /// Every code, in order.
    pub fn unpack(&self) -> Vec<u8> {
        let blocks: Vec<Vec<u8>> = match &self.store {
            Store::Sparse(s) => {
                return (0..self.len).into_par_iter().map(|i| s.code(i)).collect();
            }
            Store::Blocks(blocks) => {
                (0..blocks.len()).into_par_iter().map(|b| self.decode(b)).collect()
            }
        };
        blocks.concat()
    }

    fn decode(&self, b: usize) -> Vec<u8> {
        self.decode_in(b, &mut None)
    }

    /// Block `b`'s codes, through a decompression context kept by the caller (made here the
    /// first time).
    fn decode_in(&self, b: usize, context: &mut Option<Decompressor<'static>>) -> Vec<u8> {
        let blocks = match &self.store {
            Store::Sparse(s) => {
                let first = (b << BLOCK_SHIFT).min(self.len);
                return (first..(first + BLOCK).min(self.len)).map(|i| s.code(i)).collect();
            }
            Store::Blocks(blocks) => blocks,
        };
        match &blocks[b] {
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

/// A block of codes compressed; codes that do not shrink (or, in principle, a failed
/// compression) stay as they are.
fn compress_block(chunk: &[u8]) -> Block {
    match zstd::bulk::compress(chunk, LEVEL) {
        Ok(c) if c.len() < chunk.len() => Block::Zstd(c.into_boxed_slice()),
        _ => Block::Raw(chunk.into()),
    }
}

/// How the codes are held.
#[derive(Clone, Debug)]
enum Store {
    Sparse(Sparse),
    Blocks(Vec<Block>),
}

impl Store {
    fn heap_bytes(&self) -> usize {
        match self {
            Store::Sparse(s) => s.heap_bytes(),
            Store::Blocks(blocks) => blocks
                .iter()
                .map(|b| match b {
                    Block::Zstd(c) | Block::Raw(c) => c.len() + std::mem::size_of::<Block>(),
                })
                .sum(),
        }
    }
}

/// log2 of the indices a count of marks covers (8 words of marks).
const SPAN_SHIFT: u32 = 9;

/// One code held at nearly every index: a mark per index that holds another, those codes in index
/// order, and per 512 indices the marks before them.
#[derive(Clone, Debug)]
struct Sparse {
    common: u8,
    marks: Vec<u64>,
    before: Vec<u64>,
    others: Vec<u8>,
}

impl Sparse {
    fn new(codes: &[u8], common: u8) -> Sparse {
        let marks: Vec<u64> = codes
            .par_chunks(64)
            .map(|w| w.iter().enumerate().fold(0u64, |m, (k, &c)| m | u64::from(c != common) << k))
            .collect();
        let mut before = Vec::with_capacity(marks.len().div_ceil(8));
        let mut n = 0u64;
        for span in marks.chunks(8) {
            before.push(n);
            n += span.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
        }
        let others = codes.par_iter().copied().filter(|&c| c != common).collect();
        Sparse { common, marks, before, others }
    }

    #[inline]
    fn code(&self, index: usize) -> u8 {
        let (w, bit) = (index >> 6, index & 63);
        let word = self.marks[w];
        if word >> bit & 1 == 0 {
            return self.common;
        }
        let span = index >> SPAN_SHIFT;
        let mut rank = self.before[span] as usize;
        for &m in &self.marks[span << 3..w] {
            rank += m.count_ones() as usize;
        }
        rank += (word & ((1u64 << bit) - 1)).count_ones() as usize;
        self.others[rank]
    }

    fn heap_bytes(&self) -> usize {
        8 * (self.marks.capacity() + self.before.capacity()) + self.others.capacity()
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

    #[test]
    fn one_code_at_nearly_every_index_is_held_sparse_and_reads_back() {
        let dictionary: Vec<ValueRemoteness> =
            (0..7).map(|r| ValueRemoteness::new(Value::Lose, Remoteness(r))).collect();
        // Code 3 nearly everywhere; the others scattered, in a run across spans of 512, and
        // at the first and last index; a length that ends inside a word.
        let mut x = 99u32;
        let mut codes: Vec<u8> = (0..5 * BLOCK + 333)
            .map(|_| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                if (x >> 16).is_multiple_of(20) {
                    (x >> 8) as u8 % 7
                } else {
                    3
                }
            })
            .collect();
        codes[500..1600].iter_mut().enumerate().for_each(|(k, c)| *c = (k % 7) as u8);
        codes[0] = 6;
        *codes.last_mut().unwrap() = 0;
        let mut packed = PackedCodes::pack(dictionary.clone(), &codes);
        assert!(packed.is_sparse());
        assert!(packed.heap_bytes() < codes.len() / 3, "{} bytes", packed.heap_bytes());
        assert_eq!(packed.unpack(), codes);
        let mut cache = BlockCache::default();
        for (i, &c) in codes.iter().enumerate() {
            assert_eq!(packed.code(i, &mut cache), Some(c), "{i}");
            assert_eq!(packed.get(i), dictionary[usize::from(c)]);
        }
        assert_eq!(packed.code(codes.len(), &mut cache), None);
        // Squeezed into blocks, the same codes; a second squeeze does nothing.
        assert!(packed.squeeze());
        assert!(!packed.is_sparse() && !packed.squeeze());
        assert_eq!(packed.unpack(), codes);
        for i in (0..codes.len()).step_by(3) {
            assert_eq!(packed.code(i, &mut cache), Some(codes[i]), "{i}");
            assert_eq!(packed.get(i), dictionary[usize::from(codes[i])]);
        }
        // Where no code holds seven in eight indices, blocks from the start.
        let spread: Vec<u8> = (0..2 * BLOCK).map(|i| (i / 700 % 4) as u8).collect();
        let blocks = PackedCodes::pack(dictionary.clone(), &spread);
        assert!(!blocks.is_sparse());
        assert_eq!(blocks.unpack(), spread);
    }
}

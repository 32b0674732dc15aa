//! The byte layout: the header and its parts, encoded and decoded. `docs/database-format.md` is
//! the same layout in prose; change both together.
//!
//! All integers are little-endian. Decoding never trusts a length: every read is bounds-checked
//! and a short or inconsistent header is an error, never a panic.

use perfectplay_core::ValueRemoteness;

mod payload;

pub use payload::{decode_keys, encode_codes, encode_keys, unpack, words_of};

/// The first eight bytes of every database file. The high first byte and the CR LF / Ctrl-Z
/// catch text-mode transfers, as PNG's signature does.
pub const MAGIC: [u8; 8] = [0x89, b'P', b'P', b'D', b'B', b'\r', b'\n', 0x1a];

/// The format version this build writes (it reads this one and every earlier one).
pub const VERSION: u32 = 5;

/// The oldest format version this build reads.
pub const OLDEST_VERSION: u32 = 1;

/// A stored tier line's "no such remoteness" (no reachable win, or no loss).
const NO_REMOTENESS: u16 = u16::MAX;

/// Magic, version and header length.
pub const PREAMBLE_LEN: usize = 16;

/// How a table's positions are numbered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableKind {
    /// Every index in `0..positions` is a position (the game's own perfect hash).
    Dense,
    /// The positions are sorted keys stored in key blocks; a position's index is its rank.
    Sorted,
    /// No values are stored (version 3): the tier has no moves inside itself, and a position's
    /// value is the best over its children's, which lie in stored tables.
    Derived,
}

/// How a value block's decompressed bytes hold its codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodeLayout {
    /// `bits` bits per code in little-endian 64-bit words (version 1's only layout).
    Packed,
    /// A byte per code, or for codes of 9 to 16 bits every code's low byte, then every code's
    /// high byte (two planes): bytes that zstd models well, a third smaller compressed than
    /// packed codes of 5 to 7 bits (BENCHMARKS.md).
    Bytes,
}

impl CodeLayout {
    fn to_byte(self) -> u8 {
        match self {
            CodeLayout::Packed => 0,
            CodeLayout::Bytes => 1,
        }
    }
}

/// Where one compressed block lies and its checksum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockRef {
    /// Absolute file offset of the compressed bytes.
    pub offset: u64,
    /// Compressed length in bytes.
    pub len: u32,
    /// CRC-32 of the compressed bytes.
    pub crc: u32,
}

/// One key block of a sorted table: its first key and where it lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyBlockRef {
    /// The block's first (smallest) key, kept here so a lookup picks the block without reading.
    pub first: u64,
    /// The block.
    pub block: BlockRef,
}

/// One table: the values of one tier (a dense game is a single table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableHeader {
    /// The tier number.
    pub tier: u32,
    /// How positions are numbered.
    pub kind: TableKind,
    /// The number of positions (indices).
    pub positions: u64,
    /// The positions whose values the value blocks hold: the first ones (version 5). From there
    /// on a position's value is derived from its children, as in a derived table: a dense table
    /// of a tier whose index puts the turns of the side whose every move leads to the other
    /// side's turns last ([`perfectplay_core::TierIndex::derivable_from`]). `positions` where
    /// every value is stored, 0 in a derived table.
    pub stored: u64,
    /// The distinct value-remoteness pairs; a stored code is an index into this list.
    pub dictionary: Vec<ValueRemoteness>,
    /// Bits per code: the fewest that hold `dictionary.len()` codes, one more in a pruned table
    /// (0 when there is one code).
    pub bits: u8,
    /// How the value blocks hold the codes.
    pub layout: CodeLayout,
    /// Whether the table is pruned: code `dictionary.len()` then stands for an index whose value
    /// is not stored, since no position reachable from the start has it (version 3).
    pub absent: bool,
    /// The fingerprint of the tier's rules and index when the table was written
    /// (`crate::fingerprint`; 0: none, as in versions 1 to 3 and for games without tiers).
    pub fingerprint: u64,
    /// log2 of the positions per value block.
    pub value_block_shift: u8,
    /// The value blocks, in index order.
    pub value_blocks: Vec<BlockRef>,
    /// log2 of the keys per key block (sorted tables).
    pub key_block_shift: u8,
    /// The key blocks, in key order (sorted tables; empty for dense).
    pub key_blocks: Vec<KeyBlockRef>,
}

/// One stored analysis row: reachable positions with a value-remoteness, all and canonical.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalysisRow {
    /// The value and remoteness.
    pub value: ValueRemoteness,
    /// Reachable positions with it.
    pub count: u64,
    /// Canonical reachable positions with it.
    pub canonical_count: u64,
}

/// One stored line of a tiered analysis (`analyze --tiers`): a tier's reachable positions,
/// canonical ones, and highest win and lose remoteness (version 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TierLine {
    /// The tier.
    pub tier: u32,
    /// Reachable positions in it.
    pub reachable: u64,
    /// Canonical reachable positions in it.
    pub canonical: u64,
    /// The highest remoteness of a reachable win, if any.
    pub max_win: Option<u16>,
    /// The highest remoteness of a reachable loss, if any.
    pub max_lose: Option<u16>,
}

/// Everything before the data blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The game's id (`perfectplay games`).
    pub game: String,
    /// The variant, as the game writes it.
    pub variant: String,
    /// Whether stored positions are canonical forms (the reader canonicalizes before a lookup).
    pub canonical: bool,
    /// The whole file's length in bytes (a shorter file was truncated).
    pub file_len: u64,
    /// The fingerprint of the variant's rules near the start when the file was written
    /// (`crate::fingerprint`; 0: none, as in versions 1 to 3).
    pub fingerprint: u64,
    /// The reachable positions counted per value-remoteness when the file was written (empty if
    /// the writer did not analyze).
    pub analysis: Vec<AnalysisRow>,
    /// The tiered analysis's lines, if the writer counted them (version 3).
    pub tier_lines: Vec<TierLine>,
    /// The tables, lowest tier first.
    pub tables: Vec<TableHeader>,
}

/// Bits needed for `codes` distinct codes.
pub fn bits_for(codes: usize) -> u8 {
    if codes <= 1 {
        0
    } else {
        (usize::BITS - (codes - 1).leading_zeros()) as u8
    }
}

/// Bytes of a value block's decompressed payload in `layout`: packed codes fill whole 64-bit
/// words; byte codes take one byte each, two for 9 to 16 bits.
pub fn value_block_bytes(positions: u64, bits: u8, layout: CodeLayout) -> usize {
    match layout {
        CodeLayout::Packed => (positions * u64::from(bits)).div_ceil(64) as usize * 8,
        CodeLayout::Bytes => positions as usize * usize::from(bits.div_ceil(8)),
    }
}

impl TableHeader {
    /// Every block's reference, in the file's order: the value blocks, then the key blocks.
    pub(crate) fn blocks(&self) -> impl Iterator<Item = &BlockRef> {
        self.value_blocks.iter().chain(self.key_blocks.iter().map(|k| &k.block))
    }

    /// [`TableHeader::blocks`], to change.
    pub(crate) fn blocks_mut(&mut self) -> impl Iterator<Item = &mut BlockRef> {
        self.value_blocks.iter_mut().chain(self.key_blocks.iter_mut().map(|k| &mut k.block))
    }

    /// The number of codes: the dictionary's, and the absent code in a pruned table.
    pub fn codes(&self) -> usize {
        self.dictionary.len() + usize::from(self.absent)
    }

    /// The number of positions in value block `block`.
    pub fn value_block_positions(&self, block: usize) -> u64 {
        let per = 1u64 << self.value_block_shift;
        (self.stored - block as u64 * per).min(per)
    }

    /// Whether index `index` names a position whose value is derived from its children's
    /// rather than stored (a derived table's every index, a dense table's from `stored` on).
    pub fn derives(&self, index: u64) -> bool {
        self.kind != TableKind::Sorted && index >= self.stored && index < self.positions
    }

    /// The code of position `i` of value block `block`, from the block's decoded words
    /// (`words_of`).
    #[inline]
    pub fn code_in_block(&self, words: &[u64], block: usize, i: u64) -> u16 {
        match self.layout {
            CodeLayout::Packed => unpack(words, i, self.bits),
            CodeLayout::Bytes => {
                let byte = |k: u64| (words[(k / 8) as usize] >> (8 * (k % 8)) & 0xff) as u16;
                match self.bits {
                    0 => 0,
                    1..=8 => byte(i),
                    _ => byte(i) | byte(self.value_block_positions(block) + i) << 8,
                }
            }
        }
    }

    /// The number of keys in key block `block`.
    pub fn key_block_keys(&self, block: usize) -> u64 {
        let per = 1u64 << self.key_block_shift;
        (self.positions - block as u64 * per).min(per)
    }
}

impl Header {
    /// The header's bytes, preamble and trailing CRC included.
    pub fn encode(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(&MAGIC);
        put_u32(&mut b, VERSION);
        put_u32(&mut b, 0); // header length, patched below
        put_str(&mut b, &self.game);
        put_str(&mut b, &self.variant);
        b.push(u8::from(self.canonical));
        put_u64(&mut b, self.file_len);
        put_u64(&mut b, self.fingerprint);
        put_u32(&mut b, self.analysis.len() as u32);
        for row in &self.analysis {
            put_u16(&mut b, row.value.to_bits());
            put_u64(&mut b, row.count);
            put_u64(&mut b, row.canonical_count);
        }
        put_u32(&mut b, self.tier_lines.len() as u32);
        for l in &self.tier_lines {
            put_u32(&mut b, l.tier);
            put_u64(&mut b, l.reachable);
            put_u64(&mut b, l.canonical);
            put_u16(&mut b, l.max_win.unwrap_or(NO_REMOTENESS));
            put_u16(&mut b, l.max_lose.unwrap_or(NO_REMOTENESS));
        }
        put_u32(&mut b, self.tables.len() as u32);
        for t in &self.tables {
            put_u32(&mut b, t.tier);
            b.push(match t.kind {
                TableKind::Dense => 0,
                TableKind::Sorted => 1,
                TableKind::Derived => 2,
            });
            put_u64(&mut b, t.positions);
            put_u64(&mut b, t.stored);
            put_u16(&mut b, t.dictionary.len() as u16);
            for v in &t.dictionary {
                put_u16(&mut b, v.to_bits());
            }
            b.push(t.bits);
            b.push(t.layout.to_byte());
            b.push(u8::from(t.absent));
            put_u64(&mut b, t.fingerprint);
            b.push(t.value_block_shift);
            put_u32(&mut b, t.value_blocks.len() as u32);
            for r in &t.value_blocks {
                put_block(&mut b, r);
            }
            b.push(t.key_block_shift);
            put_u32(&mut b, t.key_blocks.len() as u32);
            for k in &t.key_blocks {
                put_u64(&mut b, k.first);
                put_block(&mut b, &k.block);
            }
        }
        let len = (b.len() + 4) as u32;
        b[12..16].copy_from_slice(&len.to_le_bytes());
        let crc = crc32fast::hash(&b);
        put_u32(&mut b, crc);
        b
    }

    /// The length of the encoded header, for laying out the blocks after it.
    pub fn encoded_len(&self) -> usize {
        self.encode().len()
    }
}

/// Why a header could not be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeaderProblem {
    /// The first bytes are not [`MAGIC`].
    NotADatabase,
    /// A version this build does not read.
    Version(u32),
    /// The header is shorter than its fields say.
    Short,
    /// The header's CRC does not match.
    Checksum,
    /// A field holds an impossible value (with what).
    Invalid(String),
}

/// Reads the preamble: the header's total length and the format version, after checking magic and
/// version.
pub fn decode_preamble(b: &[u8]) -> Result<(usize, u32), HeaderProblem> {
    if b.len() < 8 || b[..8] != MAGIC {
        return Err(HeaderProblem::NotADatabase);
    }
    if b.len() < PREAMBLE_LEN {
        return Err(HeaderProblem::Short);
    }
    let version = u32::from_le_bytes([b[8], b[9], b[10], b[11]]);
    if !(OLDEST_VERSION..=VERSION).contains(&version) {
        return Err(HeaderProblem::Version(version));
    }
    let len = u32::from_le_bytes([b[12], b[13], b[14], b[15]]) as usize;
    if len < PREAMBLE_LEN + 4 {
        return Err(HeaderProblem::Invalid(format!("header length {len}")));
    }
    Ok((len, version))
}

/// Decodes a whole header (`b` is exactly the header's bytes) and checks its consistency.
pub fn decode_header(b: &[u8]) -> Result<Header, HeaderProblem> {
    let (len, version) = decode_preamble(b)?;
    if b.len() < len {
        return Err(HeaderProblem::Short);
    }
    let b = &b[..len];
    let stored_crc = u32::from_le_bytes([b[len - 4], b[len - 3], b[len - 2], b[len - 1]]);
    if crc32fast::hash(&b[..len - 4]) != stored_crc {
        return Err(HeaderProblem::Checksum);
    }
    let mut r = Cursor { b: &b[..len - 4], at: PREAMBLE_LEN };
    let game = r.string()?;
    let variant = r.string()?;
    let canonical = match r.u8()? {
        0 => false,
        1 => true,
        f => return Err(HeaderProblem::Invalid(format!("flags {f}"))),
    };
    let file_len = r.u64()?;
    let fingerprint = if version >= 4 { r.u64()? } else { 0 };
    let rows = r.u32()? as usize;
    let mut analysis = Vec::with_capacity(rows.min(1 << 16));
    for _ in 0..rows {
        analysis.push(AnalysisRow {
            value: r.value()?,
            count: r.u64()?,
            canonical_count: r.u64()?,
        });
    }
    let mut tier_lines = Vec::new();
    if version >= 3 {
        let n = r.u32()? as usize;
        tier_lines.reserve(n.min(r.remaining() / 24));
        for _ in 0..n {
            let mut line = TierLine {
                tier: r.u32()?,
                reachable: r.u64()?,
                canonical: r.u64()?,
                max_win: None,
                max_lose: None,
            };
            let remoteness = |x: u16| (x != NO_REMOTENESS).then_some(x);
            line.max_win = remoteness(r.u16()?);
            line.max_lose = remoteness(r.u16()?);
            tier_lines.push(line);
        }
    }
    let table_count = r.u32()? as usize;
    let mut tables = Vec::with_capacity(table_count.min(1 << 16));
    for _ in 0..table_count {
        let tier = r.u32()?;
        let kind = match r.u8()? {
            0 => TableKind::Dense,
            1 => TableKind::Sorted,
            2 if version >= 3 => TableKind::Derived,
            k => return Err(HeaderProblem::Invalid(format!("table kind {k}"))),
        };
        let positions = r.u64()?;
        let stored = match (version, kind) {
            (5.., _) => r.u64()?,
            (_, TableKind::Derived) => 0,
            _ => positions,
        };
        let dict_len = r.u16()? as usize;
        let mut dictionary = Vec::with_capacity(dict_len);
        for _ in 0..dict_len {
            dictionary.push(r.value()?);
        }
        let bits = r.u8()?;
        let layout = match version {
            1 => CodeLayout::Packed,
            _ => match r.u8()? {
                0 => CodeLayout::Packed,
                1 => CodeLayout::Bytes,
                l => return Err(HeaderProblem::Invalid(format!("code layout {l}"))),
            },
        };
        let absent = match version {
            1 | 2 => false,
            _ => match r.u8()? {
                0 => false,
                1 => true,
                a => return Err(HeaderProblem::Invalid(format!("absent flag {a}"))),
            },
        };
        let table_fingerprint = if version >= 4 { r.u64()? } else { 0 };
        let value_block_shift = r.u8()?;
        let n = r.u32()? as usize;
        let mut value_blocks = Vec::with_capacity(n.min(r.remaining() / 16));
        for _ in 0..n {
            value_blocks.push(r.block()?);
        }
        let key_block_shift = r.u8()?;
        let n = r.u32()? as usize;
        let mut key_blocks = Vec::with_capacity(n.min(r.remaining() / 24));
        for _ in 0..n {
            key_blocks.push(KeyBlockRef { first: r.u64()?, block: r.block()? });
        }
        let table = TableHeader {
            tier,
            kind,
            positions,
            stored,
            dictionary,
            bits,
            layout,
            absent,
            fingerprint: table_fingerprint,
            value_block_shift,
            value_blocks,
            key_block_shift,
            key_blocks,
        };
        check_table(&table, len as u64, file_len)?;
        tables.push(table);
    }
    if r.remaining() != 0 {
        return Err(HeaderProblem::Invalid(format!("{} bytes after the tables", r.remaining())));
    }
    Ok(Header { game, variant, canonical, file_len, fingerprint, analysis, tier_lines, tables })
}

fn check_table(t: &TableHeader, header_len: u64, file_len: u64) -> Result<(), HeaderProblem> {
    let bad = |what: String| Err(HeaderProblem::Invalid(format!("tier {}: {what}", t.tier)));
    if t.kind == TableKind::Derived {
        let stores = !t.dictionary.is_empty() || t.bits > 0 || t.absent || t.stored > 0;
        if stores || !t.value_blocks.is_empty() || !t.key_blocks.is_empty() {
            return bad("a derived table with values".into());
        }
        return Ok(());
    }
    if t.stored > t.positions || (t.kind == TableKind::Sorted && t.stored != t.positions) {
        return bad(format!("{} of {} positions stored", t.stored, t.positions));
    }
    if t.dictionary.is_empty() && t.positions > 0 && !t.absent {
        return bad("empty dictionary".into());
    }
    if t.bits > 16 || bits_for(t.codes()) != t.bits {
        return bad(format!("{} bits for {} codes", t.bits, t.codes()));
    }
    if !(6..=32).contains(&t.value_block_shift) || !(6..=32).contains(&t.key_block_shift) {
        return bad("block size".into());
    }
    let want_values = if t.bits == 0 { 0 } else { t.stored.div_ceil(1 << t.value_block_shift) };
    if t.value_blocks.len() as u64 != want_values {
        return bad(format!("{} value blocks for {} positions", t.value_blocks.len(), t.stored));
    }
    let want_keys = match t.kind {
        TableKind::Dense | TableKind::Derived => 0,
        TableKind::Sorted => t.positions.div_ceil(1 << t.key_block_shift),
    };
    if t.key_blocks.len() as u64 != want_keys {
        return bad(format!("{} key blocks for {} positions", t.key_blocks.len(), t.positions));
    }
    if t.key_blocks.windows(2).any(|w| w[0].first >= w[1].first) {
        return bad("key blocks out of order".into());
    }
    for r in t.blocks() {
        if r.offset < header_len || r.offset + u64::from(r.len) > file_len {
            return bad(format!("block at {} (+{}) outside the data", r.offset, r.len));
        }
    }
    Ok(())
}

struct Cursor<'a> {
    b: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], HeaderProblem> {
        let s = self.b.get(self.at..self.at + n).ok_or(HeaderProblem::Short)?;
        self.at += n;
        Ok(s)
    }
    fn remaining(&self) -> usize {
        self.b.len() - self.at
    }
    fn u8(&mut self) -> Result<u8, HeaderProblem> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, HeaderProblem> {
        let s = self.take(2)?;
        Ok(u16::from_le_bytes([s[0], s[1]]))
    }
    fn u32(&mut self) -> Result<u32, HeaderProblem> {
        let s = self.take(4)?;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }
    fn u64(&mut self) -> Result<u64, HeaderProblem> {
        let s = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(s);
        Ok(u64::from_le_bytes(a))
    }
    fn string(&mut self) -> Result<String, HeaderProblem> {
        let n = self.u16()? as usize;
        let s = self.take(n)?;
        String::from_utf8(s.to_vec()).map_err(|_| HeaderProblem::Invalid("text not UTF-8".into()))
    }
    fn value(&mut self) -> Result<ValueRemoteness, HeaderProblem> {
        let bits = self.u16()?;
        ValueRemoteness::from_bits(bits)
            .ok_or_else(|| HeaderProblem::Invalid(format!("value-remoteness bits {bits:#x}")))
    }
    fn block(&mut self) -> Result<BlockRef, HeaderProblem> {
        Ok(BlockRef { offset: self.u64()?, len: self.u32()?, crc: self.u32()? })
    }
}

fn put_u16(b: &mut Vec<u8>, x: u16) {
    b.extend_from_slice(&x.to_le_bytes());
}
fn put_u32(b: &mut Vec<u8>, x: u32) {
    b.extend_from_slice(&x.to_le_bytes());
}
fn put_u64(b: &mut Vec<u8>, x: u64) {
    b.extend_from_slice(&x.to_le_bytes());
}
fn put_str(b: &mut Vec<u8>, s: &str) {
    put_u16(b, s.len() as u16);
    b.extend_from_slice(s.as_bytes());
}
fn put_block(b: &mut Vec<u8>, r: &BlockRef) {
    put_u64(b, r.offset);
    put_u32(b, r.len);
    put_u32(b, r.crc);
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfectplay_core::{Remoteness, Value};
    use proptest::prelude::*;

    /// A dense table of `positions` codes of `bits` in `layout`, with no blocks.
    fn bare(positions: u64, bits: u8, layout: CodeLayout) -> TableHeader {
        TableHeader {
            tier: 0,
            kind: TableKind::Dense,
            positions,
            stored: positions,
            dictionary: Vec::new(),
            bits,
            layout,
            absent: false,
            fingerprint: 0,
            value_block_shift: 16,
            value_blocks: Vec::new(),
            key_block_shift: 12,
            key_blocks: Vec::new(),
        }
    }

    proptest! {
        #[test]
        fn codes_read_back_in_both_layouts(
            bits in 0u8..=16,
            raw in proptest::collection::vec(any::<u16>(), 0..300),
            bytes_layout in any::<bool>(),
        ) {
            let layout = if bytes_layout { CodeLayout::Bytes } else { CodeLayout::Packed };
            let mask = if bits == 0 { 0 } else { (1u32 << bits) - 1 } as u16;
            let codes: Vec<u16> = raw.iter().map(|c| c & mask).collect();
            let bytes = encode_codes(codes.iter().copied(), codes.len(), bits, layout);
            prop_assert_eq!(bytes.len(), value_block_bytes(codes.len() as u64, bits, layout));
            let words = words_of(&bytes);
            // One block holding the codes, as a reader sees it.
            let table = bare(codes.len() as u64, bits, layout);
            for (i, &c) in codes.iter().enumerate() {
                prop_assert_eq!(table.code_in_block(&words, 0, i as u64), c);
            }
        }

        #[test]
        fn keys_read_back(mut keys in proptest::collection::btree_set(any::<u64>(), 1..200)) {
            let keys: Vec<u64> = std::mem::take(&mut keys).into_iter().collect();
            let payload = encode_keys(&keys);
            prop_assert_eq!(decode_keys(keys[0], &payload, keys.len()), Some(keys.clone()));
            // One key too many or too few is refused, not misread.
            prop_assert_eq!(decode_keys(keys[0], &payload, keys.len() + 1), None);
            if keys.len() > 1 {
                prop_assert_eq!(decode_keys(keys[0], &payload, keys.len() - 1), None);
            }
        }
    }

    #[test]
    fn tier_lines_pruned_and_derived_tables_read_back() {
        let derived = TableHeader {
            tier: 7,
            kind: TableKind::Derived,
            stored: 0,
            ..bare(1000, 0, CodeLayout::Bytes)
        };
        let pruned = TableHeader {
            tier: 9,
            kind: TableKind::Dense,
            stored: 1000,
            dictionary: vec![ValueRemoteness::DRAW],
            bits: 1,
            absent: true,
            fingerprint: 0x0123_4567_89ab_cdef,
            value_blocks: vec![BlockRef { offset: 0, len: 10, crc: 0 }],
            ..derived.clone()
        };
        let mut header = Header {
            game: "g".into(),
            variant: "v".into(),
            canonical: true,
            file_len: 0,
            fingerprint: u64::MAX,
            analysis: Vec::new(),
            tier_lines: vec![
                TierLine { tier: 7, reachable: 5, canonical: 2, max_win: Some(3), max_lose: None },
                TierLine { tier: 9, reachable: 0, canonical: 0, max_win: None, max_lose: Some(0) },
            ],
            tables: vec![derived.clone(), pruned],
        };
        let len = header.encoded_len() as u64;
        header.tables[1].value_blocks[0].offset = len;
        header.file_len = len + 10;
        assert_eq!(decode_header(&header.encode()), Ok(header.clone()));
        // A derived table never holds values; a pruned one needs a bit for its absent code.
        let mut bad = header.clone();
        bad.tables[0].dictionary.push(ValueRemoteness::DRAW);
        assert!(matches!(decode_header(&bad.encode()), Err(HeaderProblem::Invalid(_))));
        let mut bad = header;
        bad.tables[1].bits = 0;
        assert!(matches!(decode_header(&bad.encode()), Err(HeaderProblem::Invalid(_))));
    }

    #[test]
    fn a_table_stored_in_part_reads_back() {
        let blocks = |n: usize| vec![BlockRef { offset: 0, len: 10, crc: 0 }; n];
        let table = TableHeader {
            tier: 3,
            stored: 70_000,
            dictionary: vec![
                ValueRemoteness::DRAW,
                ValueRemoteness::new(Value::Win, Remoteness(1)),
            ],
            value_blocks: blocks(2),
            ..bare(100_000, 1, CodeLayout::Bytes)
        };
        assert_eq!(table.value_block_positions(1), 70_000 - 65_536);
        assert_eq!(
            [69_999, 70_000, 99_999, 100_000].map(|i| table.derives(i)),
            [false, true, true, false]
        );
        let mut header = Header {
            game: "g".into(),
            variant: "v".into(),
            canonical: true,
            file_len: 0,
            fingerprint: 0,
            analysis: Vec::new(),
            tier_lines: Vec::new(),
            tables: vec![table],
        };
        let len = header.encoded_len() as u64;
        for (k, r) in header.tables[0].value_blocks.iter_mut().enumerate() {
            r.offset = len + 10 * k as u64;
        }
        header.file_len = len + 20;
        assert_eq!(decode_header(&header.encode()), Ok(header.clone()));
        // More stored than there are positions, or blocks for another number stored: refused.
        let mut bad = header.clone();
        bad.tables[0].stored = 100_001;
        assert!(matches!(decode_header(&bad.encode()), Err(HeaderProblem::Invalid(_))));
        let mut bad = header;
        bad.tables[0].stored = 60_000;
        assert!(matches!(decode_header(&bad.encode()), Err(HeaderProblem::Invalid(_))));
    }

    #[test]
    fn bits_are_the_fewest_that_hold_the_codes() {
        assert_eq!([1, 2, 3, 4, 5, 64, 65].map(bits_for), [0, 1, 2, 2, 3, 6, 7]);
    }
}

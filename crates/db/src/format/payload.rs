//! A block's payload before compression: value codes packed or as bytes, and sorted keys as
//! gaps (the layouts `docs/database-format.md` gives under "Blocks").

use super::CodeLayout;

/// Packs codes, `bits` each, into little-endian 64-bit words (code `i` at bits `i*bits..`).
fn pack(codes: impl Iterator<Item = u16>, count: usize, bits: u8) -> Vec<u8> {
    let bits = u32::from(bits);
    let mut words = vec![0u64; (count as u64 * u64::from(bits)).div_ceil(64) as usize];
    if bits > 0 {
        for (i, c) in codes.enumerate() {
            let at = i as u64 * u64::from(bits);
            let (w, s) = ((at / 64) as usize, (at % 64) as u32);
            words[w] |= u64::from(c) << s;
            if s + bits > 64 {
                words[w + 1] |= u64::from(c) >> (64 - s);
            }
        }
    }
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Codes laid out as `layout` says, `bits` each (the bytes a value block compresses).
pub fn encode_codes(
    codes: impl Iterator<Item = u16>,
    count: usize,
    bits: u8,
    layout: CodeLayout,
) -> Vec<u8> {
    match layout {
        CodeLayout::Packed => pack(codes, count, bits),
        CodeLayout::Bytes => {
            let planes = usize::from(bits.div_ceil(8));
            let mut b = vec![0u8; count * planes];
            for (i, c) in codes.take(count).enumerate() {
                if planes > 0 {
                    b[i] = c as u8;
                }
                if planes > 1 {
                    b[count + i] = (c >> 8) as u8;
                }
            }
            b
        }
    }
}

/// Little-endian 64-bit words from a decompressed value block's bytes, the last one padded with
/// zeros (how a reader keeps a decoded block).
pub fn words_of(bytes: &[u8]) -> Vec<u64> {
    bytes
        .chunks(8)
        .map(|c| {
            let mut a = [0u8; 8];
            a[..c.len()].copy_from_slice(c);
            u64::from_le_bytes(a)
        })
        .collect()
}

/// The code at `i` in packed words.
#[inline]
pub fn unpack(words: &[u64], i: u64, bits: u8) -> u16 {
    if bits == 0 {
        return 0;
    }
    let bits = u32::from(bits);
    let at = i * u64::from(bits);
    let (w, s) = ((at / 64) as usize, (at % 64) as u32);
    let mut x = words[w] >> s;
    if s + bits > 64 {
        x |= words[w + 1] << (64 - s);
    }
    (x & ((1u64 << bits) - 1)) as u16
}

/// A key block's payload: the gaps between consecutive keys as LEB128 varints (the first key is
/// in the header).
pub fn encode_keys(keys: &[u64]) -> Vec<u8> {
    let mut b = Vec::with_capacity(keys.len() * 2);
    for w in keys.windows(2) {
        let mut d = w[1] - w[0];
        loop {
            let byte = (d & 0x7f) as u8;
            d >>= 7;
            if d == 0 {
                b.push(byte);
                break;
            }
            b.push(byte | 0x80);
        }
    }
    b
}

/// The keys of a key block from its first key and payload; `None` if the payload does not hold
/// exactly `count - 1` strictly increasing gaps.
pub fn decode_keys(first: u64, payload: &[u8], count: usize) -> Option<Vec<u64>> {
    let mut keys = Vec::with_capacity(count);
    keys.push(first);
    let mut at = 0;
    while keys.len() < count {
        let mut d: u64 = 0;
        let mut shift = 0;
        loop {
            let byte = *payload.get(at)?;
            at += 1;
            if shift >= 64 {
                return None;
            }
            d |= u64::from(byte & 0x7f) << shift;
            shift += 7;
            if byte & 0x80 == 0 {
                break;
            }
        }
        if d == 0 {
            return None;
        }
        keys.push(keys.last()?.checked_add(d)?);
    }
    (at == payload.len()).then_some(keys)
}

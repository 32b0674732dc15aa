//! A part of a tier as kept in the [`crate::sink::PartStore`]: its cells, best results from lower
//! tiers and queues as zstd frames, with the tier's dictionary and its words of the bitmap of
//! canonical indices (the layout is in docs/database-format.md); and the LEB128 numbers of mail.

use std::ops::Range;
use std::sync::atomic::{AtomicU16, Ordering::Relaxed};

use perfectplay_core::ValueRemoteness;
use rayon::prelude::*;

use super::parts::{PartCells, Queues};

/// The magic number of a kept part.
const MAGIC: &[u8; 8] = b"ppPART1\0";
/// Raw bytes compressed as one frame when a part is kept.
const FRAME: usize = 1 << 24;

pub(super) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

pub(super) fn get_varint(bytes: &[u8], at: &mut usize) -> u64 {
    let mut v = 0u64;
    let mut shift = 0;
    while let Some(&b) = bytes.get(*at) {
        *at += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            break;
        }
        shift += 7;
    }
    v
}

/// A part as kept in the store.
pub(super) struct Kept {
    pub cells: PartCells,
    pub queues: Queues,
    pub dictionary: Vec<ValueRemoteness>,
    pub care: Vec<u64>,
}

impl Kept {
    /// The part's bytes; without `external`, its best results from outside the tier are left
    /// out (they never change after initialisation: a part swapped out reads them back from its
    /// blob `init-K`).
    pub fn write(
        cells: &PartCells,
        queues: &Queues,
        dictionary: &[ValueRemoteness],
        care: &[u64],
        external: bool,
    ) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        let len = cells.cells.len();
        for v in [cells.first, len as u64, cells.cells.width() as u64, cells.external.len() as u64]
        {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&(dictionary.len() as u64).to_le_bytes());
        for vr in dictionary {
            out.extend_from_slice(&vr.to_bits().to_le_bytes());
        }
        out.extend_from_slice(&(care.len() as u64).to_le_bytes());
        for w in care {
            out.extend_from_slice(&w.to_le_bytes());
        }
        let width = cells.cells.width();
        put_frames(&mut out, len * width, |range, buf| {
            cells.cells.bytes_of(range.start / width..range.end / width, buf)
        });
        out.extend_from_slice(&u64::from(external).to_le_bytes());
        // On disk as the pairs' own bits (none is all ones), as part files were before memory
        // held them inverted.
        let written = if external { cells.external.len() * 2 } else { 0 };
        put_frames(&mut out, written, |range, buf| {
            buf.extend(
                cells.external[range.start / 2..range.end / 2]
                    .iter()
                    .flat_map(|e| (!e.load(Relaxed)).to_le_bytes()),
            );
        });
        for levels in queues.all() {
            out.extend_from_slice(&(levels.len() as u64).to_le_bytes());
            levels.for_each_level(|_, entries| {
                let raw: Vec<u8> = entries.flat_map(|i| (i as u32).to_le_bytes()).collect();
                put_frames(&mut out, raw.len(), |range, buf| buf.extend_from_slice(&raw[range]));
            });
        }
        out
    }

    /// A part read back, and whether its best results from outside the tier were left out.
    pub fn read(bytes: &[u8], range: Range<u64>) -> Option<(Kept, bool)> {
        let mut c = Cursor { bytes, at: 0 };
        if c.take(8)? != MAGIC {
            return None;
        }
        let (first, len, width, external_len) = (c.u64()?, c.u64()?, c.u64()?, c.u64()?);
        if first != range.start || len != range.end - range.start || !(1..=2).contains(&width) {
            return None;
        }
        if external_len > 0 && external_len != len {
            return None;
        }
        let dict_len = c.u64()? as usize;
        let mut dictionary = Vec::with_capacity(dict_len.min(1 << 15));
        for _ in 0..dict_len {
            let b = c.take(2)?;
            dictionary.push(ValueRemoteness::from_bits(u16::from_le_bytes([b[0], b[1]]))?);
        }
        let care_len = c.u64()? as usize;
        let mut care = Vec::with_capacity(care_len.min(1 << 26));
        for _ in 0..care_len {
            care.push(c.u64()?);
        }
        let part = PartCells::new(range, width == 1, external_len > 0, None);
        let w = width as usize;
        c.at = get_frames(bytes, c.at, len as usize * w, |offset, raw| {
            part.cells.set_bytes(offset / w, raw)
        })?;
        let here = c.u64()? == 1;
        let external = if here { external_len as usize * 2 } else { 0 };
        c.at = get_frames(bytes, c.at, external, |offset, raw| {
            for (e, b) in part.external[offset / 2..].iter().zip(raw.chunks_exact(2)) {
                e.store(!u16::from_le_bytes([b[0], b[1]]), Relaxed);
            }
        })?;
        let mut queues = Queues::new(len);
        for levels in queues.all_mut() {
            let count = c.u64()?;
            for r in 0..count {
                let mut raw = Vec::new();
                c.at = get_frames_into(bytes, c.at, &mut raw)?;
                for e in raw.chunks_exact(4) {
                    levels.push(r as u16, u64::from(u32::from_le_bytes([e[0], e[1], e[2], e[3]])));
                }
            }
        }
        Some((Kept { cells: part, queues, dictionary, care }, !here && external_len > 0))
    }

    /// Fills `external` from a part's blob that holds its best results from outside the tier.
    pub fn read_external(bytes: &[u8], external: &[AtomicU16]) -> Option<()> {
        let mut c = Cursor { bytes, at: 0 };
        if c.take(8)? != MAGIC {
            return None;
        }
        let (_, len, _, external_len) = (c.u64()?, c.u64()?, c.u64()?, c.u64()?);
        if external_len != external.len() as u64 || len != external_len {
            return None;
        }
        let dict_len = c.u64()? as usize;
        c.take(dict_len * 2)?;
        let care_len = c.u64()? as usize;
        c.take(care_len * 8)?;
        c.at = skip_frames(bytes, c.at)?;
        if c.u64()? != 1 {
            return None;
        }
        get_frames(bytes, c.at, external.len() * 2, |offset, raw| {
            for (e, b) in external[offset / 2..].iter().zip(raw.chunks_exact(2)) {
                e.store(!u16::from_le_bytes([b[0], b[1]]), Relaxed);
            }
        })?;
        Some(())
    }
}

/// The position after the frames at `at`, without reading them.
fn skip_frames(bytes: &[u8], at: usize) -> Option<usize> {
    let count = u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?) as usize;
    let mut p = at + 8;
    for _ in 0..count {
        let packed = u64::from_le_bytes(bytes.get(p + 8..p + 16)?.try_into().ok()?) as usize;
        p = p.checked_add(16 + packed)?;
    }
    Some(p)
}

/// Reads a kept part front to back.
struct Cursor<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl<'b> Cursor<'b> {
    fn take(&mut self, k: usize) -> Option<&'b [u8]> {
        let s = self.bytes.get(self.at..self.at.checked_add(k)?)?;
        self.at += k;
        Some(s)
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
}

/// Appends `len` raw bytes, produced by `fill` a frame's range at a time, as zstd frames
/// compressed in parallel: the frame count, then each frame's raw and compressed lengths and
/// bytes.
fn put_frames(out: &mut Vec<u8>, len: usize, fill: impl Fn(Range<usize>, &mut Vec<u8>) + Sync) {
    let frames: Vec<(usize, Vec<u8>)> = (0..len.div_ceil(FRAME))
        .into_par_iter()
        .map(|f| {
            let range = f * FRAME..((f + 1) * FRAME).min(len);
            let mut raw = Vec::with_capacity(range.len());
            fill(range, &mut raw);
            let packed = zstd::bulk::compress(&raw, 1).unwrap_or_default();
            (raw.len(), packed)
        })
        .collect();
    out.extend_from_slice(&(frames.len() as u64).to_le_bytes());
    for (raw, packed) in frames {
        out.extend_from_slice(&(raw as u64).to_le_bytes());
        out.extend_from_slice(&(packed.len() as u64).to_le_bytes());
        out.extend_from_slice(&packed);
    }
}

/// Reads frames written by [`put_frames`] of `len` raw bytes, handing each to `each` with its
/// offset (in parallel); the position after them.
fn get_frames(
    bytes: &[u8],
    mut at: usize,
    len: usize,
    each: impl Fn(usize, &[u8]) + Sync,
) -> Option<usize> {
    let count = u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?) as usize;
    at += 8;
    let mut frames = Vec::with_capacity(count);
    let mut offset = 0usize;
    for _ in 0..count {
        let raw = u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?) as usize;
        let packed = u64::from_le_bytes(bytes.get(at + 8..at + 16)?.try_into().ok()?) as usize;
        at += 16;
        frames.push((offset, raw, bytes.get(at..at + packed)?));
        at += packed;
        offset += raw;
    }
    if offset != len {
        return None;
    }
    let ok = frames.into_par_iter().all(|(offset, raw, packed)| {
        match zstd::bulk::decompress(packed, raw) {
            Ok(data) if data.len() == raw => {
                each(offset, &data);
                true
            }
            _ => false,
        }
    });
    ok.then_some(at)
}

/// Reads frames written by [`put_frames`] whole into `out`.
fn get_frames_into(bytes: &[u8], at: usize, out: &mut Vec<u8>) -> Option<usize> {
    let count = u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?) as usize;
    let mut p = at + 8;
    let mut len = 0;
    for _ in 0..count {
        len += u64::from_le_bytes(bytes.get(p..p + 8)?.try_into().ok()?) as usize;
        let packed = u64::from_le_bytes(bytes.get(p + 8..p + 16)?.try_into().ok()?) as usize;
        p += 16 + packed;
    }
    let filled = std::sync::Mutex::new(vec![0u8; len]);
    let end = get_frames(bytes, at, len, |offset, raw| {
        let mut f = filled.lock().unwrap_or_else(|e| e.into_inner());
        f[offset..offset + raw.len()].copy_from_slice(raw);
    })?;
    *out = filled.into_inner().unwrap_or_else(|e| e.into_inner());
    Some(end)
}

#[cfg(test)]
mod tests {
    use super::super::cells::Codes;
    use super::*;

    #[test]
    fn a_kept_part_reads_back_as_written() {
        let range = 4096..4096 + 5000;
        let part = PartCells::new(range.clone(), true, true, None);
        let codes = Codes::new(128);
        for i in (0..5000).step_by(7) {
            part.cells.store(
                i,
                super::super::DECIDED
                    | codes.code(ValueRemoteness::new(
                        perfectplay_core::Value::Win,
                        perfectplay_core::Remoteness(3),
                    )),
            );
            part.external[i].store(i as u16, Relaxed);
        }
        let mut queues = Queues::new(5000);
        queues.win_lose.push(3, 17);
        queues.win_lose.push(3, 2);
        queues.tie_candidates.push(9, 4999);
        let bytes = Kept::write(&part, &queues, &codes.snapshot(), &[5, 6], true);
        let (kept, left_out) = Kept::read(&bytes, range.clone()).unwrap();
        assert!(!left_out);
        let swapped = Kept::write(&part, &queues, &codes.snapshot(), &[], false);
        let (without, left_out) = Kept::read(&swapped, range.clone()).unwrap();
        assert!(left_out && without.cells.external[7].load(Relaxed) == super::super::NO_EXTERNAL);
        Kept::read_external(&bytes, &without.cells.external).unwrap();
        assert_eq!(without.cells.external[7].load(Relaxed), 7);
        assert!(Kept::read(&bytes, 0..5000).is_none(), "another part's range");
        assert_eq!(kept.care, vec![5, 6]);
        assert_eq!(kept.dictionary, codes.snapshot());
        for i in 0..5000 {
            assert_eq!(kept.cells.cells.load(i), part.cells.load(i));
            assert_eq!(kept.cells.external[i].load(Relaxed), part.external[i].load(Relaxed));
        }
        let q = kept.queues;
        assert!(q.win_lose.has(3) && !q.win_lose.has(2));
        assert_eq!(q.win_lose.entries(), 2);
        assert!(q.tie_candidates.has(9));
    }
}

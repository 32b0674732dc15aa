//! The engine's per-position state: one cell a position (a counter of undecided children, or a
//! decided code; a byte where that suffices, else two) and the dictionary of value-remoteness
//! pairs the codes index.

use std::sync::atomic::AtomicUsize;

use super::spare::Spare;
use super::*;
use crate::hint::prefetch;
use crate::memory::zeroed;

/// One cell per position: a counter of undecided children, or `DECIDED | code`.
pub(super) enum Cells {
    Narrow(Vec<AtomicU8>),
    Wide(Vec<AtomicU16>),
}

#[inline]
fn widen(b: u8) -> u16 {
    if b & 0x80 != 0 {
        DECIDED | u16::from(b & 0x7f)
    } else {
        u16::from(b)
    }
}

#[inline]
fn narrow(s: u16) -> u8 {
    if s & DECIDED != 0 {
        0x80 | (s & 0x7f) as u8
    } else {
        s as u8
    }
}

impl Cells {
    /// `n` cells, none counted or decided: two-byte ones in a buffer `spare` holds where given.
    pub(super) fn new(n: usize, one_byte: bool, spare: Option<&Spare>) -> Cells {
        match (one_byte, spare) {
            (true, _) => Cells::Narrow(zeroed(n)),
            (false, Some(spare)) => Cells::Wide(spare.take(n)),
            (false, None) => Cells::Wide(zeroed(n)),
        }
    }

    /// The same cells two bytes wide: each counter and code kept.
    pub(super) fn widened(self) -> Cells {
        match self {
            Cells::Narrow(v) => Cells::Wide(
                v.into_par_iter().map(|c| AtomicU16::new(widen(c.into_inner()))).collect(),
            ),
            wide => wide,
        }
    }

    /// Whether the cells are one byte wide.
    pub(super) fn is_narrow(&self) -> bool {
        matches!(self, Cells::Narrow(_))
    }

    /// The largest counter and the number of dictionary codes a cell holds, one byte or two.
    pub(super) fn limits_of(one_byte: bool) -> (u32, usize) {
        if one_byte {
            (0x7f, 0x80)
        } else {
            (u32::from(DECIDED) - 1, usize::from(DECIDED))
        }
    }

    #[inline]
    pub(super) fn load(&self, i: usize) -> u16 {
        match self {
            Cells::Narrow(v) => widen(v[i].load(Relaxed)),
            Cells::Wide(v) => v[i].load(Relaxed),
        }
    }

    #[inline]
    pub(super) fn store(&self, i: usize, s: u16) {
        match self {
            Cells::Narrow(v) => v[i].store(narrow(s), Relaxed),
            Cells::Wide(v) => v[i].store(s, Relaxed),
        }
    }

    /// Asks for cell `i`'s cache line ahead of an update ([`crate::hint::prefetch`]).
    #[inline]
    pub(super) fn prefetch(&self, i: usize) {
        match self {
            Cells::Narrow(v) => v.get(i).map(prefetch),
            Cells::Wide(v) => v.get(i).map(prefetch),
        };
    }

    /// Compare-and-swap; on failure, the current state.
    #[inline]
    pub(super) fn cas(&self, i: usize, old: u16, new: u16) -> Result<(), u16> {
        match self {
            Cells::Narrow(v) => v[i]
                .compare_exchange_weak(narrow(old), narrow(new), Relaxed, Relaxed)
                .map(|_| ())
                .map_err(widen),
            Cells::Wide(v) => v[i].compare_exchange_weak(old, new, Relaxed, Relaxed).map(|_| ()),
        }
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Cells::Narrow(v) => v.len(),
            Cells::Wide(v) => v.len(),
        }
    }

    /// Decides `i` as `code` unless it is decided already; whether this call decided it.
    #[inline]
    pub(super) fn claim(&self, i: usize, code: u16) -> bool {
        let mut s = self.load(i);
        loop {
            if s & DECIDED != 0 {
                return false;
            }
            match self.cas(i, s, DECIDED | code) {
                Ok(()) => return true,
                Err(now) => s = now,
            }
        }
    }

    /// Bytes a cell takes.
    pub(super) fn width(&self) -> usize {
        match self {
            Cells::Narrow(_) => 1,
            Cells::Wide(_) => 2,
        }
    }

    /// The raw cells of `range`, little-endian, appended to `out`.
    pub(super) fn bytes_of(&self, range: std::ops::Range<usize>, out: &mut Vec<u8>) {
        match self {
            Cells::Narrow(v) => out.extend(v[range].iter().map(|c| c.load(Relaxed))),
            Cells::Wide(v) => {
                out.extend(v[range].iter().flat_map(|c| c.load(Relaxed).to_le_bytes()))
            }
        }
    }

    /// Sets the raw cells from `first` on from little-endian `bytes`.
    pub(super) fn set_bytes(&self, first: usize, bytes: &[u8]) {
        match self {
            Cells::Narrow(v) => {
                for (c, &b) in v[first..].iter().zip(bytes) {
                    c.store(b, Relaxed);
                }
            }
            Cells::Wide(v) => {
                for (c, b) in v[first..].iter().zip(bytes.chunks_exact(2)) {
                    c.store(u16::from_le_bytes([b[0], b[1]]), Relaxed);
                }
            }
        }
    }

    /// The stored code of every cell (decided ones keep theirs, undecided ones are draws),
    /// appended to `out`: codes of a dictionary of at most 256 values.
    pub(super) fn codes_into(&self, out: &mut Vec<u8>) {
        let code = |s: u16| if s & DECIDED != 0 { (s & !DECIDED) as u8 } else { DRAW_CODE as u8 };
        let start = out.len();
        out.resize(start + self.len(), 0);
        out[start..].par_chunks_mut(1 << 16).enumerate().for_each(|(k, run)| {
            for (j, o) in run.iter_mut().enumerate() {
                *o = code(self.load(k * (1 << 16) + j));
            }
        });
    }

    /// The value of every cell, appended to `out` (undecided ones are draws).
    pub(super) fn values_into(
        &self,
        dictionary: &[ValueRemoteness],
        out: &mut Vec<ValueRemoteness>,
    ) {
        out.extend((0..self.len()).map(|i| {
            let s = self.load(i);
            let code = if s & DECIDED != 0 { s & !DECIDED } else { DRAW_CODE };
            dictionary[usize::from(code)]
        }));
    }

    /// The stored codes: decided cells keep their code, undecided ones become draws. Done in
    /// place for one-byte cells; two-byte cells are kept in `spare` where given.
    pub(super) fn into_values(
        self,
        dictionary: Vec<ValueRemoteness>,
        spare: Option<&Spare>,
    ) -> TierValues {
        match self {
            Cells::Narrow(mut v) => {
                v.par_iter_mut().for_each(|c| {
                    let b = c.get_mut();
                    *b = if *b & 0x80 != 0 { *b & 0x7f } else { DRAW_CODE as u8 };
                });
                let codes: Vec<u8> = v.into_iter().map(AtomicU8::into_inner).collect();
                TierValues::Narrow { dictionary, codes }
            }
            Cells::Wide(v) => {
                let code = |s: &AtomicU16| {
                    let s = s.load(Relaxed);
                    if s & DECIDED != 0 {
                        s & !DECIDED
                    } else {
                        DRAW_CODE
                    }
                };
                let values = if dictionary.len() <= 256 {
                    let codes = v.par_iter().map(|c| code(c) as u8).collect();
                    TierValues::Narrow { dictionary, codes }
                } else {
                    TierValues::Wide(
                        v.par_iter().map(|c| dictionary[usize::from(code(c))]).collect(),
                    )
                };
                if let Some(spare) = spare {
                    spare.keep(v);
                }
                values
            }
        }
    }
}

/// The solve's dictionary of value-remoteness pairs, filled as values appear. Lookups are
/// lock-free; a new pair takes a lock once.
pub(super) struct Codes {
    /// By packed value: its code plus one, or 0.
    code_of: Vec<AtomicU16>,
    values: Mutex<Vec<ValueRemoteness>>,
    limit: AtomicUsize,
    pub(super) overflow: AtomicBool,
}

impl Codes {
    pub(super) fn new(limit: usize) -> Codes {
        let codes = Codes {
            code_of: (0..1 << 15).map(|_| AtomicU16::new(0)).collect(),
            values: Mutex::new(Vec::new()),
            limit: AtomicUsize::new(limit),
            overflow: AtomicBool::new(false),
        };
        let draw = codes.code(ValueRemoteness::DRAW);
        debug_assert_eq!(draw, DRAW_CODE);
        codes
    }

    /// The code of a pair, allocating one if needed. When the cells cannot hold another code this
    /// notes the overflow (the attempt is abandoned) and returns the draw code.
    #[inline]
    pub(super) fn code(&self, vr: ValueRemoteness) -> u16 {
        let slot = &self.code_of[usize::from(vr.to_bits())];
        let c = slot.load(Relaxed);
        if c != 0 {
            return c - 1;
        }
        let mut values = self.values.lock().unwrap_or_else(|e| e.into_inner());
        let c = slot.load(Relaxed);
        if c != 0 {
            return c - 1;
        }
        if values.len() >= self.limit.load(Relaxed) {
            self.overflow.store(true, Relaxed);
            return DRAW_CODE;
        }
        values.push(vr);
        let code = (values.len() - 1) as u16;
        slot.store(code + 1, Relaxed);
        code
    }

    /// Gives the pairs of `values` the codes they have there, in order: a dictionary saved with
    /// a part of a tier, read back. False if a pair already has another code.
    pub(super) fn restore(&self, values: &[ValueRemoteness]) -> bool {
        values.iter().enumerate().all(|(code, &vr)| usize::from(self.code(vr)) == code)
    }

    /// The number of codes given.
    pub(super) fn len(&self) -> usize {
        self.values.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Lets the dictionary hold `limit` codes (the cells were widened).
    pub(super) fn raise_limit(&self, limit: usize) {
        self.limit.fetch_max(limit, Relaxed);
    }

    pub(super) fn snapshot(&self) -> Vec<ValueRemoteness> {
        self.values.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

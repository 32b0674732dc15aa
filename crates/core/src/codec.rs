//! Packed codes, typed: a position's parts (a set of points, a point, a count, a flag) each in
//! its own bits of the code, declared once as a [`Field`] and read and written through it, never
//! by shifts and masks by hand.
//!
//! A game declares its fields bottom up, each above the last:
//!
//! ```
//! use perfectplay_core::codec::Field;
//!
//! const WHITE: Field<u32> = Field::first(24);
//! const BLACK: Field<u32> = WHITE.then(24);
//! const BLACK_TO_MOVE: Field<bool> = BLACK.then(1);
//!
//! let code = WHITE.put(0b101) | BLACK.put(0b10) | BLACK_TO_MOVE.put(true);
//! assert_eq!((WHITE.get(code), BLACK.get(code), BLACK_TO_MOVE.get(code)), (0b101, 0b10, true));
//! assert_eq!(BLACK_TO_MOVE.end(), 49);
//! ```
//!
//! The layout is the game's to keep: stored databases hold codes (a sparse game's keys), so a
//! field once declared keeps its bits.

use std::marker::PhantomData;

/// What a field holds: a value that converts to and from its bits.
pub trait FieldValue: Copy {
    /// The value of a field's bits (the bits are below the field's width).
    fn from_bits(bits: u64) -> Self;
    /// The value's bits.
    fn to_bits(self) -> u64;
}

macro_rules! unsigned_field_values {
    ($($t:ty),*) => {$(
        impl FieldValue for $t {
            #[inline]
            fn from_bits(bits: u64) -> Self {
                bits as $t
            }
            #[inline]
            fn to_bits(self) -> u64 {
                self as u64
            }
        }
    )*};
}

unsigned_field_values!(u8, u16, u32, u64, usize);

impl FieldValue for bool {
    #[inline]
    fn from_bits(bits: u64) -> Self {
        bits != 0
    }
    #[inline]
    fn to_bits(self) -> u64 {
        u64::from(self)
    }
}

/// `bits` bits of a code from bit `shift`, holding a `T`.
pub struct Field<T> {
    shift: u32,
    bits: u32,
    value: PhantomData<fn() -> T>,
}

// Derived impls would ask the same of `T`; a field is a pair of numbers whatever it holds.
impl<T> Clone for Field<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Field<T> {}

impl<T> std::fmt::Debug for Field<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Field({}..{})", self.shift, self.shift + self.bits)
    }
}

impl<T: FieldValue> Field<T> {
    /// The field of `bits` bits at the bottom of a code.
    pub const fn first(bits: u32) -> Field<T> {
        Field::at(0, bits)
    }

    /// The field of `bits` bits from bit `shift`.
    pub const fn at(shift: u32, bits: u32) -> Field<T> {
        assert!(bits >= 1 && shift + bits <= 64, "a field lies within 64 bits");
        Field { shift, bits, value: PhantomData }
    }

    /// The field of `bits` bits just above this one, holding a `U`.
    pub const fn then<U: FieldValue>(self, bits: u32) -> Field<U> {
        Field::at(self.end(), bits)
    }

    /// Of a run of equal fields from this one (a cell per point), the `i`-th (0 is this one).
    #[inline]
    pub const fn nth(self, i: u32) -> Field<T> {
        debug_assert!(self.shift + (i + 1) * self.bits <= 64, "a field lies within 64 bits");
        Field { shift: self.shift + i * self.bits, bits: self.bits, value: PhantomData }
    }

    /// The first bit above the field.
    pub const fn end(self) -> u32 {
        self.shift + self.bits
    }

    /// The field's bits, in place.
    pub const fn mask(self) -> u64 {
        (u64::MAX >> (64 - self.bits)) << self.shift
    }

    /// The field's value in `code`.
    #[inline]
    pub fn get(self, code: u64) -> T {
        T::from_bits(code >> self.shift & u64::MAX >> (64 - self.bits))
    }

    /// `value` in the field's place, every other bit clear: a code is the `|` of its fields'.
    #[inline]
    pub fn put(self, value: T) -> u64 {
        let bits = value.to_bits();
        debug_assert!(bits >> (self.bits - 1) >> 1 == 0, "{bits} fits in {self:?}");
        bits << self.shift
    }

    /// `code` with the field's value replaced by `value`.
    #[inline]
    pub fn with(self, code: u64, value: T) -> u64 {
        code & !self.mask() | self.put(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip_and_stay_in_their_bits() {
        const SET: Field<u64> = Field::first(33);
        const POINT: Field<u8> = SET.then(6);
        const FLAG: Field<bool> = POINT.then(1);
        const TOP: Field<u64> = Field::at(40, 24);
        let code = SET.put((1 << 33) - 1) | POINT.put(63) | FLAG.put(true) | TOP.put(0xab_cdef);
        assert_eq!(SET.get(code), (1 << 33) - 1);
        assert_eq!(POINT.get(code), 63);
        assert!(FLAG.get(code));
        assert_eq!(TOP.get(code), 0xab_cdef);
        assert_eq!(FLAG.mask(), 1 << 39);
        assert_eq!(TOP.mask(), 0xffff_ff00_0000_0000);
        assert_eq!(POINT.with(code, 5) ^ code, POINT.put(63 ^ 5));
        assert!(!FLAG.get(FLAG.with(code, false)));
        assert_eq!(format!("{POINT:?}"), "Field(33..39)");
        const CELL: Field<u8> = Field::first(4);
        let cells = (0..9).fold(0, |code, i| code | CELL.nth(i).put(i as u8 + 1));
        assert_eq!(cells, 0x9_8765_4321);
        assert_eq!((CELL.nth(8).get(cells), CELL.nth(8).end()), (9, 36));
    }
}

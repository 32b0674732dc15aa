//! Values, remoteness and their total order (003 section 2.1).

use std::cmp::Ordering;
use std::fmt;

/// The game-theoretic value of a position, from the view of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The player to move loses under perfect play.
    Lose,
    /// Neither side can force the game to end.
    Draw,
    /// The game ends in a tie under perfect play.
    Tie,
    /// The player to move wins under perfect play.
    Win,
}

impl Value {
    /// All values, worst first.
    pub const ALL: [Value; 4] = [Value::Lose, Value::Draw, Value::Tie, Value::Win];

    /// Lower-case name, as used in tables, JSON and the text UI.
    pub fn name(self) -> &'static str {
        match self {
            Value::Lose => "lose",
            Value::Draw => "draw",
            Value::Tie => "tie",
            Value::Win => "win",
        }
    }

    /// Parses a lower-case value name.
    pub fn from_name(name: &str) -> Option<Value> {
        Value::ALL.into_iter().find(|v| v.name() == name)
    }

    /// As a score for the player to move, as a proof of values alone counts them: 1 a win, -1 a
    /// loss, 0 a tie (or a draw).
    pub fn score(self) -> i8 {
        match self {
            Value::Win => 1,
            Value::Lose => -1,
            _ => 0,
        }
    }

    /// The value a score of a game without draws stands for ([`Value::score`]'s inverse).
    pub fn of_score(score: i8) -> Value {
        match score {
            1.. => Value::Win,
            0 => Value::Tie,
            _ => Value::Lose,
        }
    }

    /// The value of this position as seen from the other player.
    #[inline]
    pub fn flip(self) -> Value {
        match self {
            Value::Lose => Value::Win,
            Value::Win => Value::Lose,
            other => other,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How the score a fail-soft search returns bounds the true score, by the window `(alpha,
/// beta)` it was searched in (a search table's entries keep it; 0 is left for an empty entry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Bound {
    /// Inside the window: the true score.
    Exact = 1,
    /// At or above `beta`: the true score is at least this.
    Lower = 2,
    /// At or below `alpha`: the true score is at most this.
    Upper = 3,
}

impl Bound {
    /// The bound a score found in the window `(alpha, beta)` is.
    #[inline]
    pub fn of<T: Ord>(score: T, alpha: T, beta: T) -> Bound {
        if score <= alpha {
            Bound::Upper
        } else if score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }
}

/// The number of moves to the end of the game under perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Remoteness(pub u16);

impl Remoteness {
    /// The largest remoteness the compact encoding holds.
    pub const MAX: Remoteness = Remoteness(ValueRemoteness::REMOTENESS_MASK);
}

impl fmt::Display for Remoteness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A value with its remoteness, packed into 15 bits: the value in bits 13-14, the remoteness in
/// bits 0-12. Draws carry remoteness 0. The packed form never has bit 15 set, so the engine can use
/// that bit to tell a decided position from a counter of undecided children.
///
/// The derived `Ord` is the seeds' order, worst to best: low-remoteness lose, high-remoteness lose,
/// draw, high-remoteness tie, low-remoteness tie, high-remoteness win, low-remoteness win.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ValueRemoteness(u16);

impl ValueRemoteness {
    const REMOTENESS_MASK: u16 = (1 << 13) - 1;
    const VALUE_SHIFT: u32 = 13;

    /// A draw (no remoteness).
    pub const DRAW: ValueRemoteness = ValueRemoteness((1 << Self::VALUE_SHIFT) as u16);

    /// Packs a value and remoteness. The remoteness of a draw is ignored; a remoteness above
    /// [`Remoteness::MAX`] saturates (no seed game comes near 8,191 moves).
    #[inline]
    pub fn new(value: Value, remoteness: Remoteness) -> ValueRemoteness {
        let code = match value {
            Value::Lose => 0u16,
            Value::Draw => 1,
            Value::Tie => 2,
            Value::Win => 3,
        };
        let r = if value == Value::Draw { 0 } else { remoteness.0.min(Self::REMOTENESS_MASK) };
        ValueRemoteness((code << Self::VALUE_SHIFT) | r)
    }

    /// The value.
    #[inline]
    pub fn value(self) -> Value {
        match self.0 >> Self::VALUE_SHIFT {
            0 => Value::Lose,
            1 => Value::Draw,
            2 => Value::Tie,
            _ => Value::Win,
        }
    }

    /// The remoteness; `None` for a draw.
    #[inline]
    pub fn remoteness(self) -> Option<Remoteness> {
        (self.value() != Value::Draw).then_some(Remoteness(self.0 & Self::REMOTENESS_MASK))
    }

    /// The remoteness, 0 for a draw.
    #[inline]
    pub fn remoteness_or_zero(self) -> u16 {
        self.0 & Self::REMOTENESS_MASK
    }

    /// The 15-bit packed form.
    #[inline]
    pub fn to_bits(self) -> u16 {
        self.0
    }

    /// Unpacks the 15-bit form; `None` if bit 15 is set or a draw has a remoteness.
    #[inline]
    pub fn from_bits(bits: u16) -> Option<ValueRemoteness> {
        let vr = ValueRemoteness(bits);
        (bits >> 15 == 0 && (vr.value() != Value::Draw || vr.remoteness_or_zero() == 0))
            .then_some(vr)
    }

    /// What this child is worth to the parent that moves into it: a losing child makes a win one
    /// move further away, a winning child a loss, a tie a tie; a draw stays a draw. The value of a
    /// position is the maximum of this over its children (003 section 2.1).
    #[inline]
    pub fn to_parent(self) -> ValueRemoteness {
        match self.remoteness() {
            None => self,
            Some(r) => ValueRemoteness::new(self.value().flip(), Remoteness(r.0 + 1)),
        }
    }

    /// An integer in the order of [`Ord`] (a larger key is a better value for the player to
    /// move), for comparing many values at the price of one.
    #[inline]
    pub fn order_key(self) -> i32 {
        let r = i32::from(self.remoteness_or_zero());
        match self.value() {
            Value::Lose => -100_000 + r,
            Value::Draw => 0,
            Value::Tie => 100_000 - r,
            Value::Win => 200_000 - r,
        }
    }
}

impl Ord for ValueRemoteness {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        self.order_key().cmp(&other.order_key())
    }
}

impl PartialOrd for ValueRemoteness {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Debug for ValueRemoteness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for ValueRemoteness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.remoteness() {
            None => f.write_str("draw"),
            Some(r) => write!(f, "{} in {}", self.value(), r),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vr(v: Value, r: u16) -> ValueRemoteness {
        ValueRemoteness::new(v, Remoteness(r))
    }

    #[test]
    fn order_is_the_seeds_order() {
        let worst_to_best = [
            vr(Value::Lose, 1),
            vr(Value::Lose, 5),
            ValueRemoteness::DRAW,
            vr(Value::Tie, 9),
            vr(Value::Tie, 2),
            vr(Value::Win, 7),
            vr(Value::Win, 1),
        ];
        for pair in worst_to_best.windows(2) {
            assert!(pair[0] < pair[1], "{} should be worse than {}", pair[0], pair[1]);
        }
    }

    #[test]
    fn parent_of_child() {
        assert_eq!(vr(Value::Lose, 0).to_parent(), vr(Value::Win, 1));
        assert_eq!(vr(Value::Win, 3).to_parent(), vr(Value::Lose, 4));
        assert_eq!(vr(Value::Tie, 0).to_parent(), vr(Value::Tie, 1));
        assert_eq!(ValueRemoteness::DRAW.to_parent(), ValueRemoteness::DRAW);
    }

    #[test]
    fn packing_round_trips() {
        for v in Value::ALL {
            for r in [0u16, 1, 17, 8191] {
                let x = vr(v, r);
                assert_eq!(ValueRemoteness::from_bits(x.to_bits()), Some(x));
                assert_eq!(x.value(), v);
                assert!(x.to_bits() < 1 << 15);
            }
        }
        assert_eq!(ValueRemoteness::from_bits(0x8000), None);
        assert_eq!(ValueRemoteness::from_bits(ValueRemoteness::DRAW.to_bits() | 3), None);
    }
}

//! Topitop (003 section 4.6.1): a 3x3 board, initially empty, and ten building components: 2 blue
//! buckets (B), 2 red buckets (R), 4 small sand hills (S) and 4 large sand hills (L). The first
//! player (blue) places only B, S or L; the second (red) only R, S or L. Nine buildings can stand
//! on a slot, numbered as in 003: 1 B, 2 B on S, 3 B on S on L, 4 R, 5 R on S, 6 R on S on L,
//! 7 S, 8 L, 9 S on L; 7, 8 and 9 are neutral. A turn either places one of one's remaining
//! components on an empty slot (B, R, S, L make buildings 1, 4, 7, 8), or moves a building one
//! step in any of the 8 directions onto an empty slot or onto a building it stacks on: stack(1,7)
//! = 2, stack(2,8) = 3, stack(1,9) = 3, stack(4,7) = 5, stack(5,8) = 6, stack(4,9) = 6, stack(7,8)
//! = 9, and no other (the order matters: the moving building goes on top). Blue may move every
//! building but 4, 5 and 6; red every building but 1, 2 and 3. A neutral building slid onto an
//! empty slot may not be slid straight back by the opponent on the next turn (003 4.6.2's
//! `illegalUndo`, part of the position). A player without a legal move passes. Buildings are
//! never taken apart. Blue wins once two of building 3 stand on the board, red once two of
//! building 6 do. Loopy: a draw where neither side can force its second building.
//!
//! Rules the seed leaves open, and what this module does:
//! - The win is checked after every move: a position with two 3s (or two 6s) is over, lost for
//!   the player to move (only blue makes 3s, only red 6s). Both at once cannot arise.
//! - After a pass, and after any move that is not a neutral building's slide onto an empty slot,
//!   nothing is forbidden. A pass is a move of its own (it changes the player to move).
//! - The slide that may not be undone forbids only that building's step back to the slot it came
//!   from (which is then empty); stacking it elsewhere, or sliding it elsewhere, is allowed.
//!
//! Position code: bits `4 i .. 4 i + 3` the building on slot `i` (0 empty, 1-9), slot `i` at
//! column `i % 3` and row `i / 3` from the top; bit 36 set when red is to move; bits 37-44 the
//! last slide of a neutral building onto an empty slot as `to | from << 4`, or `0xff` for none.
//!
//! Tiers (003 4.6.3): the count of each building, `(c1, ..., c9)`. A placement adds a building,
//! a stacking merges two, so every move leads to a tier with more components placed or, with as
//! many, fewer buildings: tiers are numbered in that order, the most built first. The tiers
//! reached from the empty board (a tier with two 3s or two 6s has no moves) are 2,231 for the
//! regular game, and 003's bound, 41 forbidden-slide values times 2 players times the
//! arrangements, sums to 2,972,507,380 over them. The dense index here keeps the forbidden slide
//! only where one can be: per arrangement, index 0 is "none" and `1 + k * e + j` names the `k`-th
//! neutral building (slot order) as slid from the `j`-th of the `e` empty slots (indices whose
//! two slots are not adjacent name no position); times 2 for the player to move. The
//! arrangement's rank: per building kind 1 to 9, the colex rank of its slots among the slots the
//! kinds before it left. Symmetries: the 8 of the square, each also with the colors exchanged
//! (the rules treat blue and red alike): a tier and its exchange's are solved as the one numbered
//! lower, and in a tier that is its own exchange only positions with blue to move are indexed.
//! 293,799,850 indices in all (587,599,700 without the exchange).
//!
//! Variants: `regular` (003's), and `small` (one B, one R, two S, two L; one building 3 or 6
//! wins), a reduced game for tests.

use crate::prelude::*;

mod gui;
mod index;
#[cfg(test)]
mod tests;
use index::*;

const SLOTS: usize = 9;
// A position's code: a building per slot (slot i's field is `SLOT.nth(i)`), the turn, the last
// slide of a neutral building onto an empty slot (to, from), NO_UNDO where there is none.
const SLOT: Field<u64> = Field::first(4);
const RED_TO_MOVE: Field<bool> = SLOT.nth(SLOTS as u32 - 1).then(1);
const UNDO: Field<u64> = RED_TO_MOVE.then(8);
const NO_UNDO: u64 = 0xff;
/// Buildings by number (index 0 is "empty").
const NEUTRAL: [bool; 10] = [false, false, false, false, false, false, false, true, true, true];
/// The components each building is made of: B, R, S, L.
const PARTS: [[u32; 4]; 10] = [
    [0, 0, 0, 0],
    [1, 0, 0, 0],
    [1, 0, 1, 0],
    [1, 0, 1, 1],
    [0, 1, 0, 0],
    [0, 1, 1, 0],
    [0, 1, 1, 1],
    [0, 0, 1, 0],
    [0, 0, 0, 1],
    [0, 0, 1, 1],
];
/// The building a component makes when placed: B, R, S, L.
const PLACED: [u8; 4] = [1, 4, 7, 8];
const COMPONENT_NAMES: [char; 4] = ['B', 'R', 'S', 'L'];
/// Move codes: `kind << 8 | from << 4 | to`, kind 0 a slide, 1-4 placing B, R, S, L at `to`.
const PASS: Move = Move(5 << 8);

/// stack(moving, standing): the building that results, 0 where it is undefined.
fn stack(moving: u8, standing: u8) -> u8 {
    match (moving, standing) {
        (1, 7) => 2,
        (2, 8) | (1, 9) => 3,
        (4, 7) => 5,
        (5, 8) | (4, 9) => 6,
        (7, 8) => 9,
        _ => 0,
    }
}

/// Whether `player` (0 blue, 1 red) may move building `b`.
fn movable(player: usize, b: u8) -> bool {
    match b {
        1..=3 => player == 0,
        4..=6 => player == 1,
        7..=9 => true,
        _ => false,
    }
}

/// The last neutral slide's slots, (to, from), if the position has one.
fn undo_slots(p: Position) -> Option<(usize, usize)> {
    let u = UNDO.get(p.0);
    (u != NO_UNDO).then_some(((u & 15) as usize, (u >> 4) as usize))
}

/// The parts of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Parts {
    cells: [u8; SLOTS],
    /// 0 blue, 1 red.
    turn: usize,
    /// The last slide of a neutral building onto an empty slot: (to, from).
    undo: Option<(usize, usize)>,
}

impl Parts {
    fn of(p: Position) -> Parts {
        let cells = std::array::from_fn(|i| SLOT.nth(i as u32).get(p.0) as u8);
        Parts { cells, turn: usize::from(RED_TO_MOVE.get(p.0)), undo: undo_slots(p) }
    }

    fn code(&self) -> Position {
        let cells =
            (0..SLOTS).fold(0, |code, i| code | SLOT.nth(i as u32).put(self.cells[i].into()));
        let u = self.undo.map_or(NO_UNDO, |(to, from)| (to | from << 4) as u64);
        Position(cells | RED_TO_MOVE.put(self.turn == 1) | UNDO.put(u))
    }

    /// The count of each building, index 0 unused.
    fn counts(&self) -> [u8; 10] {
        let mut counts = [0u8; 10];
        for &c in &self.cells {
            counts[c as usize] += 1;
        }
        counts[0] = 0;
        counts
    }

    /// The slots holding buildings of kind `b` (0: the empty ones), as a mask.
    fn mask(&self, b: u8) -> u32 {
        self.cells.iter().enumerate().filter(|&(_, &c)| c == b).fold(0, |m, (i, _)| m | 1 << i)
    }
}

/// One tier: its counts and the facts its index needs.
#[derive(Clone, Debug)]
struct TierInfo {
    counts: [u8; 10],
    /// The building kinds present, in order 1-9: (kind, count, radix), the radix `C(free,
    /// count)` with `free` the slots the kinds before it leave.
    kinds: Vec<(u8, u8, u32)>,
    arrangements: u64,
    /// Values of the forbidden-slide part of the index: `1 + neutrals * empties`.
    undo_values: u64,
    empties: u8,
    /// The canonical tiers moves lead to.
    children: Vec<Tier>,
    /// The tier of the exchanged counts (blue's buildings 1-3 and red's 4-6 swapped).
    partner: Tier,
}

/// Topitop.
#[derive(Clone, Debug)]
pub struct Topitop {
    variant: &'static str,
    /// Components per kind: B, R, S, L.
    supply: [u32; 4],
    /// Finished buildings (3 or 6) that win.
    goal: u8,
    board: Board,
    /// Per slot: its neighbors in 8 directions, as a mask.
    adjacent: [u32; SLOTS],
    tiers: Vec<TierInfo>,
    /// Per [`counts_key`]: the tier, `u16::MAX` for none.
    tier_of: Vec<u16>,
    binomial: [[u32; SLOTS + 1]; SLOTS + 1],
    /// Per `k`: the 9-bit masks with `k` bits set, in numeric (colex) order.
    subsets: Vec<Vec<u16>>,
    /// Per symmetry: the image of each slot.
    perms: Vec<[u8; SLOTS]>,
    /// Per 9-bit set of slots and `j`: its `j`-th slot.
    select: Vec<[u8; SLOTS]>,
}

/// A dense key of building counts: c1-c6 are at most 2, c7-c9 at most 4.
fn counts_key(counts: &[u8; 10]) -> Option<usize> {
    let mut key = 0usize;
    for (b, &c) in counts.iter().enumerate().skip(1) {
        let base = if b <= 6 { 3 } else { 5 };
        if usize::from(c) >= base {
            return None;
        }
        key = key * base + usize::from(c);
    }
    Some(key)
}
const KEYS: usize = 729 * 125;

impl Topitop {
    /// The named variant: `regular` or `small`.
    pub fn from_variant(variant: &str) -> Result<Topitop, String> {
        let (variant, supply, goal) = match variant {
            "regular" => ("regular", [2, 2, 4, 4], 2),
            "small" => ("small", [1, 1, 2, 2], 1),
            _ => return Err("regular or small".into()),
        };
        let board = Board::grid(3, 3);
        let symmetries = board.symmetries(&board::SQUARE);
        let mut adjacent = [0u32; SLOTS];
        for (s, a) in adjacent.iter_mut().enumerate() {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if let Some(t) = board.step(s, dx, dy).filter(|&t| t != s) {
                        *a |= 1 << t;
                    }
                }
            }
        }
        let mut binomial = [[0u32; SLOTS + 1]; SLOTS + 1];
        for n in 0..=SLOTS {
            binomial[n][0] = 1;
            for k in 1..=n {
                binomial[n][k] = binomial[n - 1][k - 1] + binomial[n - 1][k];
            }
        }
        let mut subsets = vec![Vec::new(); SLOTS + 1];
        for m in 0u16..1 << SLOTS {
            subsets[m.count_ones() as usize].push(m);
        }
        let perms = (0..symmetries.len())
            .map(|g| std::array::from_fn(|i| symmetries.map(g, i) as u8))
            .collect();
        let select = (0..1u32 << SLOTS)
            .map(|set| {
                let mut slots = [0u8; SLOTS];
                for (j, slot) in board::bits(u64::from(set)).enumerate() {
                    slots[j] = slot as u8;
                }
                slots
            })
            .collect();
        let mut game = Topitop {
            variant,
            supply,
            goal,
            board,
            adjacent,
            tiers: Vec::new(),
            tier_of: vec![u16::MAX; KEYS],
            binomial,
            subsets,
            perms,
            select,
        };
        game.build_tiers();
        Ok(game)
    }

    /// The components of each kind still to be placed, given the buildings' counts.
    fn remaining(&self, counts: &[u8; 10]) -> [u32; 4] {
        let mut left = self.supply;
        for (b, &c) in counts.iter().enumerate() {
            for (l, &part) in left.iter_mut().zip(&PARTS[b]) {
                *l = l.saturating_sub(part * u32::from(c));
            }
        }
        left
    }

    /// Whether counts fit in the supply and on the board.
    fn fits(&self, counts: &[u8; 10]) -> bool {
        let used = (0..4).map(|k| (1..10).map(|b| PARTS[b][k] * u32::from(counts[b])).sum());
        used.zip(self.supply).all(|(u, s): (u32, u32)| u <= s)
            && counts.iter().map(|&c| usize::from(c)).sum::<usize>() <= SLOTS
    }

    /// The player who has won with these counts, if any (0 blue, 1 red).
    fn winner(&self, counts: &[u8; 10]) -> Option<usize> {
        if counts[3] >= self.goal {
            Some(0)
        } else if counts[6] >= self.goal {
            Some(1)
        } else {
            None
        }
    }

    /// The counts a move from a tier can lead to.
    fn child_counts(&self, counts: &[u8; 10]) -> Vec<[u8; 10]> {
        if self.winner(counts).is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for b in PLACED {
            let mut c = *counts;
            c[b as usize] += 1;
            if self.fits(&c) {
                out.push(c);
            }
        }
        for moving in 1..10u8 {
            for standing in 1..10u8 {
                let made = stack(moving, standing);
                if made != 0 && counts[moving as usize] > 0 && counts[standing as usize] > 0 {
                    let mut c = *counts;
                    c[moving as usize] -= 1;
                    c[standing as usize] -= 1;
                    c[made as usize] += 1;
                    out.push(c);
                }
            }
        }
        out
    }

    /// The tiers reached from the empty board, the most built first.
    fn build_tiers(&mut self) {
        let mut seen = vec![[0u8; 10]];
        let mut stack_ = vec![[0u8; 10]];
        while let Some(c) = stack_.pop() {
            for d in self.child_counts(&c) {
                if !seen.contains(&d) {
                    seen.push(d);
                    stack_.push(d);
                }
            }
        }
        // Components placed (more first), then buildings (fewer first), then the counts.
        let key = |c: &[u8; 10]| {
            let components: u32 =
                (1..10).map(|b| PARTS[b].iter().sum::<u32>() * u32::from(c[b])).sum();
            let buildings: u32 = c.iter().map(|&x| u32::from(x)).sum();
            (std::cmp::Reverse(components), buildings, *c)
        };
        seen.sort_by_key(key);
        for (i, c) in seen.iter().enumerate() {
            if let Some(key) = counts_key(c) {
                self.tier_of[key] = i as u16;
            }
        }
        self.tiers = seen
            .iter()
            .map(|counts| {
                let mut kinds = Vec::new();
                let mut left = SLOTS as u8;
                let mut arrangements = 1u64;
                for b in 1..10u8 {
                    let count = counts[b as usize];
                    if count > 0 {
                        let radix = self.binomial[left as usize][count as usize];
                        kinds.push((b, count, radix));
                        arrangements *= u64::from(radix);
                        left -= count;
                    }
                }
                let neutrals = u64::from(counts[7] + counts[8] + counts[9]);
                let tier = |c: &[u8; 10]| self.tier_of_counts(c).expect("a child tier is a tier");
                let canonical = |c: &[u8; 10]| tier(c).min(tier(&swapped(c)));
                let mut children: Vec<Tier> =
                    self.child_counts(counts).iter().map(canonical).collect();
                children.sort_unstable();
                children.dedup();
                TierInfo {
                    counts: *counts,
                    kinds,
                    arrangements,
                    undo_values: 1 + neutrals * u64::from(left),
                    empties: left,
                    children,
                    partner: tier(&swapped(counts)),
                }
            })
            .collect();
    }

    /// The rank of an arrangement among its tier's: per kind present, the colex rank of its
    /// slots among the slots the kinds before it left.
    fn rank(&self, info: &TierInfo, p: Position) -> u64 {
        let mut masks = [0u32; 10];
        for i in 0..SLOTS as u32 {
            masks[SLOT.nth(i).get(p.0) as usize] |= 1 << i;
        }
        let mut free = (1u32 << SLOTS) - 1;
        let mut rank = 0u32;
        for &(b, _, radix) in &info.kinds {
            let mask = masks[b as usize];
            let mut colex = 0;
            for (i, slot) in board::bits(u64::from(mask)).enumerate() {
                let below = (free & ((1 << slot) - 1)).count_ones() as usize;
                colex += self.binomial[below][i + 1];
            }
            rank = rank * radix + colex;
            free &= !mask;
        }
        u64::from(rank)
    }

    /// The arrangement of a rank: the board's code, the neutral buildings' slots and the empty
    /// slots.
    fn unrank(&self, info: &TierInfo, mut rank: u32) -> (u64, u32, u32) {
        let mut colex = [0u32; SLOTS];
        for (k, &(_, _, radix)) in info.kinds.iter().enumerate().rev() {
            colex[k] = rank % radix;
            rank /= radix;
        }
        let (mut code, mut neutral) = (0u64, 0u32);
        let mut free = (1u32 << SLOTS) - 1;
        for (k, &(b, count, _)) in info.kinds.iter().enumerate() {
            let bits = self.subsets[count as usize][colex[k] as usize];
            let select = &self.select[free as usize];
            let mut mask = 0u32;
            for j in board::bits(u64::from(bits)) {
                let slot = select[j];
                mask |= 1 << slot;
                code |= SLOT.nth(slot.into()).put(b.into());
            }
            if NEUTRAL[b as usize] {
                neutral |= mask;
            }
            free &= !mask;
        }
        (code, neutral, free)
    }

    fn info(&self, t: Tier) -> &TierInfo {
        &self.tiers[t.0 as usize]
    }

    fn tier_of_counts(&self, counts: &[u8; 10]) -> Option<Tier> {
        let t = self.tier_of[counts_key(counts)?];
        (t != u16::MAX).then_some(Tier(u32::from(t)))
    }

    fn decode(mv: Move) -> (u32, usize, usize) {
        (mv.0 >> 8, (mv.0 >> 4 & 15) as usize, (mv.0 & 15) as usize)
    }

    /// The forbidden slide's text: the slide that was made, `from` then `to`.
    fn undo_text(&self, (to, from): (usize, usize)) -> String {
        format!("{}{}", self.board.name(from), self.board.name(to))
    }
}

// The catalog's entry: the game's identity and variants, and its rules (this file's header).
crate::entry! {
    ENTRY = Topitop::from_variant, "topitop.rs", "topitop", "Topitop";
    default "regular";
    syntax "regular | small (one B, one R, two S, two L; one finished building wins)";
    listed &["regular", "small"]; also &[]
}

impl Game for Topitop {
    crate::declared!(ENTRY);
    fn variant(&self) -> String {
        self.variant.into()
    }
    fn variant_description(&self) -> String {
        if self.variant == "small" {
            "One bucket each, two small and two large hills; one finished building wins".into()
        } else {
            "Two buckets each, four small and four large hills; two finished buildings win".into()
        }
    }
    fn size_class(&self) -> SizeClass {
        SizeClass::small_if(self.variant == "small")
    }
    fn start(&self) -> Position {
        Parts { cells: [0; SLOTS], turn: 0, undo: None }.code()
    }
    fn to_move(&self, p: Position) -> Player {
        Player::of(Parts::of(p).turn)
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        let q = Parts::of(p);
        self.winner(&q.counts()).map(|w| if w == q.turn { Value::Win } else { Value::Lose })
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let q = Parts::of(p);
        let first = out.len();
        let left = self.remaining(&q.counts());
        let empty = q.mask(0);
        for (k, &n) in left.iter().enumerate() {
            // Blue places B, S, L; red R, S, L.
            if n == 0 || k == 1 - q.turn {
                continue;
            }
            for to in board::bits(u64::from(empty)) {
                out.push(Move((k as u32 + 1) << 8 | to as u32));
            }
        }
        for from in 0..SLOTS {
            let b = q.cells[from];
            if !movable(q.turn, b) {
                continue;
            }
            for to in board::bits(u64::from(self.adjacent[from])) {
                let target = q.cells[to];
                let allowed =
                    if target == 0 { q.undo != Some((from, to)) } else { stack(b, target) != 0 };
                if allowed {
                    out.push(Move((from << 4 | to) as u32));
                }
            }
        }
        if out.len() == first {
            out.push(PASS);
        }
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        let mut q = Parts::of(p);
        q.turn = 1 - q.turn;
        q.undo = None;
        if mv == PASS {
            return q.code();
        }
        let (kind, from, to) = Self::decode(mv);
        if kind > 0 {
            q.cells[to] = PLACED[kind as usize - 1];
        } else {
            let b = q.cells[from];
            q.cells[from] = 0;
            if q.cells[to] == 0 {
                q.cells[to] = b;
                if NEUTRAL[b as usize] {
                    q.undo = Some((to, from));
                }
            } else {
                q.cells[to] = stack(b, q.cells[to]);
            }
        }
        q.code()
    }
    fn position_to_string(&self, p: Position) -> String {
        let q = Parts::of(p);
        let rows = board::rows_to_string(&q.cells, 3, "123456789");
        let mut s = format!("{rows} {}", ['B', 'R'][q.turn]);
        if let Some(u) = q.undo {
            s += " ";
            s += &self.undo_text(u);
        }
        s
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let expected =
            "3 rows of 3 slots joined by /, each - (empty) or a building 1-9 (1 B, 2 B on \
                        S, 3 B on S on L, 4 R, 5 R on S, 6 R on S on L, 7 S, 8 L, 9 S on L), then \
                        the player to move, B or R, then optionally the slide of a neutral \
                        building just made, which may not be undone (e.g. 7--/-1-/--- R a1b1)";
        let malformed = || board::malformed(text, expected);
        let mut words = text.split_whitespace();
        let (rows, turn, undo) = (words.next(), words.next(), words.next());
        if words.next().is_some() {
            return Err(malformed());
        }
        let (rows, turn) = (rows.ok_or_else(malformed)?, turn.ok_or_else(malformed)?);
        let (cells, turn) =
            board::parse_grid_turn(&format!("{rows} {turn}"), 3, 3, "123456789", "BR", expected)?;
        let mut q = Parts { cells: [0; SLOTS], turn, undo: None };
        q.cells.copy_from_slice(&cells);
        if let Some(u) = undo {
            let slot = |name: &str| self.board.cell(&name.to_ascii_lowercase());
            let (from, to) = (u.get(..2).and_then(slot), u.get(2..).and_then(slot));
            let (from, to) = from.zip(to).ok_or_else(malformed)?;
            if !NEUTRAL[q.cells[to] as usize]
                || q.cells[from] != 0
                || self.adjacent[from] >> to & 1 == 0
            {
                return Err(board::illegal(
                    text,
                    "a slide not to be undone goes one step from an empty slot to a neutral \
                     building (7, 8 or 9)",
                ));
            }
            q.undo = Some((to, from));
        }
        let counts = q.counts();
        if !self.fits(&counts) {
            return Err(board::illegal(
                text,
                &format!(
                    "there are {} B, {} R, {} S and {} L components in all",
                    self.supply[0], self.supply[1], self.supply[2], self.supply[3]
                ),
            ));
        }
        if self.tier_of_counts(&counts).is_none() {
            return Err(board::illegal(text, "play stops when one side has won"));
        }
        if self.winner(&counts) == Some(q.turn) {
            return Err(board::illegal(text, "the side that has just won is not to move"));
        }
        Ok(q.code())
    }
    fn move_to_string(&self, _p: Position, mv: Move) -> String {
        if mv == PASS {
            return "pass".into();
        }
        let (kind, from, to) = Self::decode(mv);
        match kind {
            0 => format!("{}{}", self.board.name(from), self.board.name(to)),
            k => format!("{}{}", COMPONENT_NAMES[k as usize - 1], self.board.name(to)),
        }
    }
    fn move_syntax(&self) -> String {
        "a placement is the component (B, R, S or L) and the slot, slots [a-c][1-3] with row 1 at \
         the top (e.g. Sb2); a move is the building's slot and the slot it goes to (e.g. b2c3); \
         pass when there is no other move"
            .into()
    }
    fn board_text(&self, p: Position) -> String {
        let q = Parts::of(p);
        let mut s = board::grid_text(3, 3, |i| {
            if q.cells[i] == 0 {
                '.'
            } else {
                char::from(b'0' + q.cells[i])
            }
        });
        let left = self.remaining(&q.counts());
        let left: Vec<String> =
            COMPONENT_NAMES.iter().zip(left).map(|(c, n)| format!("{n} {c}")).collect();
        s += &format!("to place: {}\n", left.join(", "));
        s += "buildings: 1 B, 2 B/S, 3 B/S/L, 4 R, 5 R/S, 6 R/S/L, 7 S, 8 L, 9 S/L\n";
        if let Some(u) = q.undo {
            s += &format!("the slide {} may not be undone\n", self.undo_text(u));
        }
        s + &format!("{} to move\n", ["blue", "red"][q.turn])
    }
    fn player_names(&self) -> [&'static str; 2] {
        ["blue", "red"]
    }
    perfectplay_core::capabilities!(tier_index, symmetry, gui);
}

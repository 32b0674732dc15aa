//! Topitop's tiers (the pieces on the board) and the index inside each; its symmetries and the exchange of colors.

use super::*;

impl Tiers for Topitop {
    fn tier(&self, p: Position) -> Tier {
        let mut counts = [0u8; 10];
        for i in 0..SLOTS as u32 {
            counts[SLOT.nth(i).get(p.0) as usize] += 1;
        }
        counts[0] = 0;
        // Positions outside the tiers (two 3s and two 6s) are never reached; they share tier 0.
        self.tier_of_counts(&counts).unwrap_or(Tier(0))
    }
    /// 003's 9-tuple of building counts.
    fn tier_name(&self, t: Tier) -> String {
        let c = &self.info(t).counts;
        let parts: Vec<String> = c[1..].iter().map(|x| x.to_string()).collect();
        format!("({})", parts.join(","))
    }
}

impl TierIndex for Topitop {
    /// The canonical tiers: of a tier and its exchange's (the colors swapped), the one numbered
    /// lower.
    fn tiers(&self) -> Vec<Tier> {
        (0..self.tiers.len() as u32).map(Tier).filter(|&t| self.canonical_tier(t) == t).collect()
    }
    fn canonical_tier(&self, tier: Tier) -> Tier {
        tier.min(self.info(tier).partner)
    }
    fn child_tiers(&self, tier: Tier) -> Vec<Tier> {
        self.info(tier).children.clone()
    }
    /// Arrangements times forbidden-slide values times the player to move, except in a tier that
    /// is its own exchange, whose canonical positions have blue to move.
    fn tier_size(&self, tier: Tier) -> u64 {
        let info = self.info(tier);
        let turns = if info.partner == tier { 1 } else { 2 };
        info.arrangements * info.undo_values * turns
    }
    fn tier_index(&self, p: Position) -> u64 {
        let info = self.info(self.tier(p));
        let (empty, neutral) = masks(p);
        let undo = undo_slots(p).map_or(0, |(to, from)| {
            let k = (neutral & ((1 << to) - 1)).count_ones();
            let j = (empty & ((1 << from) - 1)).count_ones();
            1 + u64::from(k) * u64::from(info.empties) + u64::from(j)
        });
        let at = self.rank(info, p) * info.undo_values + undo;
        if info.partner == self.tier(p) {
            at
        } else {
            at * 2 + u64::from(RED_TO_MOVE.get(p.0))
        }
    }
    fn tier_position(&self, tier: Tier, index: u64) -> Option<Position> {
        let info = self.info(tier);
        if index >= self.tier_size(tier) {
            return None;
        }
        let (turn, rest) = if info.partner == tier {
            (0, index)
        } else {
            (RED_TO_MOVE.put(index & 1 == 1), index >> 1)
        };
        let (rank, undo) = (rest / info.undo_values, rest % info.undo_values);
        let (code, neutral, empty) = self.unrank(info, rank as u32);
        let u = if undo == 0 {
            NO_UNDO
        } else {
            let e = u64::from(info.empties);
            let to = self.select[neutral as usize][((undo - 1) / e) as usize];
            let from = self.select[empty as usize][((undo - 1) % e) as usize];
            if self.adjacent[from as usize] >> to & 1 == 0 {
                return None;
            }
            u64::from(to) | u64::from(from) << 4
        };
        Some(Position(code | turn | UNDO.put(u)))
    }
}

/// Counts with blue's buildings (1-3) and red's (4-6) exchanged.
pub(super) fn swapped(counts: &[u8; 10]) -> [u8; 10] {
    let mut c = *counts;
    c[1..4].copy_from_slice(&counts[4..7]);
    c[4..7].copy_from_slice(&counts[1..4]);
    c
}

/// Building `b` with the colors exchanged.
pub(super) const EXCHANGED: [u64; 16] = [0, 4, 5, 6, 1, 2, 3, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/// The empty slots and the slots of neutral buildings.
pub(super) fn masks(p: Position) -> (u32, u32) {
    let (mut empty, mut neutral) = (0u32, 0u32);
    for i in 0..SLOTS {
        let b = SLOT.nth(i as u32).get(p.0) as usize;
        empty |= u32::from(b == 0) << i;
        neutral |= u32::from(NEUTRAL[b]) << i;
    }
    (empty, neutral)
}

impl Topitop {
    /// The image of a position under symmetry `g`.
    #[inline]
    pub(super) fn image(&self, p: Position, g: usize) -> Position {
        let perm = &self.perms[g];
        let mut code = p.0 & RED_TO_MOVE.mask();
        for (i, &to) in perm.iter().enumerate() {
            code |= SLOT.nth(to.into()).put(SLOT.nth(i as u32).get(p.0));
        }
        let u = undo_slots(p)
            .map_or(NO_UNDO, |(to, from)| u64::from(perm[to]) | u64::from(perm[from]) << 4);
        Position(code | UNDO.put(u))
    }
}

impl Topitop {
    /// The position with the colors exchanged: blue's buildings become red's and the other
    /// player is to move.
    pub(super) fn exchange_colors(p: Position) -> Position {
        let mut code = (p.0 & UNDO.mask()) | RED_TO_MOVE.put(!RED_TO_MOVE.get(p.0));
        for i in 0..SLOTS as u32 {
            code |= SLOT.nth(i).put(EXCHANGED[SLOT.nth(i).get(p.0) as usize]);
        }
        Position(code)
    }
}

impl Symmetry for Topitop {
    /// The 8 of the square, each also with the colors exchanged.
    fn symmetry_count(&self) -> usize {
        2 * self.perms.len()
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        for q in [p, Self::exchange_colors(p)] {
            out.extend((0..self.perms.len()).map(|g| self.image(q, g)));
        }
    }
    fn exchange(&self) -> Option<&dyn Exchange> {
        Some(self)
    }
}

impl Exchange for Topitop {
    fn exchanged(&self, p: Position) -> Position {
        Self::exchange_colors(p)
    }
    /// The colors are exchanged where that leads to the canonical tier, or in a tier that is its
    /// own exchange where red is to move; then the least of the 8 board images.
    fn canonical_exchanged(&self, p: Position) -> (Position, bool) {
        let t = self.tier(p);
        let partner = self.info(t).partner;
        let exchanged = if partner == t { RED_TO_MOVE.get(p.0) } else { partner < t };
        let q = if exchanged { Self::exchange_colors(p) } else { p };
        ((0..self.perms.len()).map(|g| self.image(q, g)).min().unwrap_or(q), exchanged)
    }
    /// 003 counts Topitop's positions under the 8 board symmetries: a position and its exchange
    /// are two classes.
    fn merges_classes(&self) -> bool {
        false
    }
}

/// AutoGUI centers: the 9 slots; then per component (B, R, S, L) its place on the panel right
/// of the board and its count beside it; then the pass button.
pub(super) const CELL: f64 = 100.0;
pub(super) const PANEL: usize = SLOTS;
pub(super) const PASS_AT: usize = SLOTS + 8;
/// Tokens: buildings 1-9 are `A` to `I`; counts are digits.
pub(super) const TOKENS: &[u8; 10] = b"-ABCDEFGHI";

/// A building's picture: its components from the bottom up.
pub(super) fn building(b: u8) -> String {
    const BLUE: &str = "#2f6fd6";
    const RED: &str = "#d0402b";
    let parts = PARTS[b as usize];
    let mut svg = String::new();
    // Heights: the large hill, then the small one, then the bucket, stacked from y = 0.42 up.
    let mut base = 0.42;
    if parts[3] == 1 {
        svg += &format!(
            r##"<path d="M-0.46,{base}Q0,{} 0.46,{base}Z" fill="#8d6e3f" stroke="#4a3820" stroke-width="0.03"/>"##,
            base - 0.62
        );
        base -= 0.26;
    }
    if parts[2] == 1 {
        svg += &format!(
            r##"<path d="M-0.3,{base}Q0,{} 0.3,{base}Z" fill="#d8b26e" stroke="#6b5228" stroke-width="0.03"/>"##,
            base - 0.44
        );
        base -= 0.18;
    }
    let top = if parts[0] == 1 {
        Some(BLUE)
    } else if parts[1] == 1 {
        Some(RED)
    } else {
        None
    };
    if let Some(fill) = top {
        let y = base - 0.12;
        svg += &format!(
            r##"<path d="M-0.14,{base}L-0.1,{y}H0.1L0.14,{base}Z" fill="{fill}" stroke="#111" stroke-width="0.03"/><ellipse cy="{y}" rx="0.1" ry="0.035" fill="{fill}" stroke="#111" stroke-width="0.02"/>"##
        );
    }
    svg
}

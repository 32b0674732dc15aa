//! A component's arrangements (000 section 3.3): ranked by the rearranger hash, with per side and
//! rank the ranks one move away, the goal test and the flips' images, built once per board.

use super::{O, X};

/// The arrangements of one component and what the game needs to know about each.
#[derive(Clone, Debug)]
pub(super) struct Component {
    /// Board cell (`y * n + x`) of each slot, in reading order.
    pub(super) cells: Vec<u8>,
    /// Pebbles of each side in this component.
    pub(super) pieces: [u32; 2],
    /// By rank: the slots holding `x` and `o`.
    pub(super) masks: Vec<[u32; 2]>,
    /// Per side: CSR offsets by rank into `targets`.
    pub(super) offsets: [Vec<u32>; 2],
    /// Per side: the ranks one move of that side away.
    pub(super) targets: [Vec<u16>; 2],
    /// By rank: bit `s` set when side `s` occupies every starting point of the other side here.
    pub(super) goal: Vec<u8>,
    /// By rank: the least of the rank and its left-right flip.
    pub(super) min_flip: Vec<u16>,
    /// By rank: the least of the colour-swapped top-bottom flip and its left-right flip.
    pub(super) min_swap: Vec<u16>,
    /// By rank: the left-right flip, and the colour-swapped top-bottom flip.
    pub(super) flip: Vec<u16>,
    pub(super) swap: Vec<u16>,
    /// `count[slots][a][b]`: arrangements of `a` x and `b` o on `slots` slots.
    pub(super) count: Vec<Vec<Vec<u64>>>,
}

impl Component {
    pub(super) fn len(&self) -> usize {
        self.masks.len()
    }

    /// The rearranger rank of an arrangement (slots of `x`, slots of `o`).
    pub(super) fn rank(&self, xm: u32, om: u32) -> usize {
        let slots = self.cells.len();
        let (mut nx, mut no) = (self.pieces[X] as usize, self.pieces[O] as usize);
        let mut r = 0u64;
        for s in 0..slots {
            let rest = slots - s - 1;
            if om >> s & 1 == 1 {
                r += self.count[rest][nx][no];
                no -= 1;
            } else if xm >> s & 1 == 1 {
                r += self.count[rest][nx][no]
                    + if no > 0 { self.count[rest][nx][no - 1] } else { 0 };
                nx -= 1;
            }
        }
        r as usize
    }

    #[inline]
    pub(super) fn successors(&self, side: usize, rank: usize) -> &[u16] {
        let o = &self.offsets[side];
        &self.targets[side][o[rank] as usize..o[rank + 1] as usize]
    }
}

/// The starting cells of side `s` on an `n` x `n` board: its home rank and the two ends of the
/// rank in front.
pub(super) fn start_cells(n: usize, side: usize) -> Vec<(usize, usize)> {
    let (home, front) = if side == X { (n - 1, n - 2) } else { (0, 1) };
    let mut cells: Vec<(usize, usize)> = (0..n).map(|x| (x, home)).collect();
    cells.push((0, front));
    cells.push((n - 1, front));
    cells
}

/// Per number of slots `k`, the arrangements of `a` x pieces and `b` o pieces in `k` slots
/// (`count[k][a][b]`), for ranking.
fn rank_counts(slots: usize) -> Vec<Vec<Vec<u64>>> {
    let mut count = vec![vec![vec![0u64; 8]; 8]; slots + 1];
    for (k, table) in count.iter_mut().enumerate() {
        for (a, row) in table.iter_mut().enumerate() {
            for (b, c) in row.iter_mut().enumerate() {
                if a + b <= k {
                    *c = multinomial(k, a, b);
                }
            }
        }
    }
    count
}

/// Every arrangement of `pieces` (x, o) in `slots` slots, in alphabetical order (blank < o < x),
/// slot 0 most significant.
fn arrangements(slots: usize, pieces: [u32; 2]) -> Vec<[u32; 2]> {
    fn enumerate(slot: usize, slots: usize, left: [u32; 2], m: [u32; 2], out: &mut Vec<[u32; 2]>) {
        if slot == slots {
            if left == [0, 0] {
                out.push(m);
            }
            return;
        }
        let free = (slots - slot) as u32;
        if left[X] + left[O] < free {
            enumerate(slot + 1, slots, left, m, out);
        }
        if left[O] > 0 {
            enumerate(slot + 1, slots, [left[X], left[O] - 1], [m[X], m[O] | 1 << slot], out);
        }
        if left[X] > 0 {
            enumerate(slot + 1, slots, [left[X] - 1, left[O]], [m[X] | 1 << slot, m[O]], out);
        }
    }
    let mut masks = Vec::new();
    enumerate(0, slots, pieces, [0, 0], &mut masks);
    masks
}

impl Component {
    /// Side `side`'s moves from every arrangement of `masks` (in order): per arrangement, the
    /// offset of its first target, and the targets' ranks (a piece steps to an empty diagonal
    /// neighbour).
    pub(super) fn move_targets(
        &self,
        masks: &[[u32; 2]],
        neighbours: &[Vec<usize>],
        side: usize,
    ) -> (Vec<u32>, Vec<u16>) {
        let mut offsets = vec![0u32];
        let mut targets = Vec::new();
        for m in masks {
            let occupied = m[X] | m[O];
            for (s, targets_of_s) in neighbours.iter().enumerate() {
                if m[side] >> s & 1 == 0 {
                    continue;
                }
                for &t in targets_of_s {
                    if occupied >> t & 1 == 0 {
                        let mut next = *m;
                        next[side] ^= 1 << s | 1 << t;
                        targets.push(self.rank(next[X], next[O]) as u16);
                    }
                }
            }
            offsets.push(targets.len() as u32);
        }
        (offsets, targets)
    }
}

pub(super) fn build_component(n: usize, parity: usize) -> Component {
    let cells: Vec<u8> =
        (0..n * n).filter(|c| (c % n + c / n) % 2 == parity).map(|c| c as u8).collect();
    let slot_of = |x: usize, y: usize| cells.iter().position(|&c| c as usize == y * n + x);
    let mut starts = [0u32; 2];
    for side in [X, O] {
        for (x, y) in start_cells(n, side) {
            if let Some(s) = slot_of(x, y) {
                starts[side] |= 1 << s;
            }
        }
    }
    let pieces = [starts[X].count_ones(), starts[O].count_ones()];
    let slots = cells.len();
    let count = rank_counts(slots);
    let masks = arrangements(slots, pieces);
    let mut component = Component {
        cells: cells.clone(),
        pieces,
        masks: Vec::new(),
        offsets: [Vec::new(), Vec::new()],
        targets: [Vec::new(), Vec::new()],
        goal: Vec::new(),
        min_flip: Vec::new(),
        min_swap: Vec::new(),
        flip: Vec::new(),
        swap: Vec::new(),
        count,
    };
    // Diagonal neighbours of each slot.
    let neighbours: Vec<Vec<usize>> = cells
        .iter()
        .map(|&c| {
            let (x, y) = ((c as usize % n) as i32, (c as usize / n) as i32);
            [(-1, -1), (1, -1), (-1, 1), (1, 1)]
                .iter()
                .filter_map(|&(dx, dy)| {
                    let (nx, ny) = (x + dx, y + dy);
                    let inside = (0..n as i32).contains(&nx) && (0..n as i32).contains(&ny);
                    inside.then(|| slot_of(nx as usize, ny as usize)).flatten()
                })
                .collect()
        })
        .collect();
    let image = |m: [u32; 2], f: &dyn Fn(usize, usize) -> (usize, usize), swap: bool| {
        let mut out = [0u32; 2];
        for side in [X, O] {
            for (s, &c) in cells.iter().enumerate() {
                if m[side] >> s & 1 == 1 {
                    let c = c as usize;
                    let (x, y) = f(c % n, c / n);
                    let t = slot_of(x, y).expect("a symmetry keeps each component");
                    out[if swap { 1 - side } else { side }] |= 1 << t;
                }
            }
        }
        out
    };
    for side in [X, O] {
        let (offsets, targets) = component.move_targets(&masks, &neighbours, side);
        component.offsets[side] = offsets;
        component.targets[side] = targets;
    }
    component.goal = masks
        .iter()
        .map(|m| {
            u8::from(m[X] & starts[O] == starts[O]) | u8::from(m[O] & starts[X] == starts[X]) << 1
        })
        .collect();
    if n % 2 == 1 {
        let flip = |x: usize, y: usize| (n - 1 - x, y);
        let turn_over = |x: usize, y: usize| (x, n - 1 - y);
        for m in &masks {
            let r = component.rank(m[X], m[O]);
            let f = image(*m, &flip, false);
            let s = image(*m, &turn_over, true);
            let fs = image(s, &flip, false);
            component.flip.push(component.rank(f[X], f[O]) as u16);
            component.swap.push(component.rank(s[X], s[O]) as u16);
            component.min_flip.push(r.min(component.rank(f[X], f[O])) as u16);
            component
                .min_swap
                .push(component.rank(s[X], s[O]).min(component.rank(fs[X], fs[O])) as u16);
        }
    }
    component.masks = masks;
    component
}

fn multinomial(k: usize, a: usize, b: usize) -> u64 {
    let binomial =
        |n: usize, r: usize| (0..r).fold(1u64, |acc, i| acc * (n - i) as u64 / (i + 1) as u64);
    binomial(k, a) * binomial(k - a, b)
}

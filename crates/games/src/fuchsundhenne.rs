//! Fuchs und Henne (002, Teufl, 2.2, the version 2.2.5 selects): two foxes against 9 to 20 hens
//! on the 33 points of the cross board, with the hen house, the 3x3 square of c5 to e7 at the
//! bottom. The hens open. A hen steps to an empty neighboring point forward (down the board) or
//! sideways, never back and never diagonally. A fox steps along a line of the board to an empty
//! point: every orthogonal line, and the diagonals drawn on it (those through d4, c3 and the other
//! points whose column and row add up to an even number). A fox jumps along a line over an
//! adjacent hen to the empty point just beyond it, capturing it; it may go on jumping, as one
//! move that may stop after any jump. A hen in the hen house cannot be captured.
//!
//! Capturing is compulsory, with 002's penalty: when the foxes step while one of them could have
//! captured, the hens may take one fox off the board as their next move (or move a hen instead).
//! With one fox left, a capture rescues the other: the hens' next move is to put it back on any
//! empty point. The hens win when the hen house is full (9 hens in it), when the foxes cannot
//! move, and when no fox is left. The foxes win when fewer than 9 hens are left (the capture that
//! leaves 8 ends the game, even in the middle of a chain) and when the hens cannot move. Nothing
//! else ends a game: play that can go on for ever is a draw.
//!
//! The start: 002 shows its layouts only in figures that its text does not carry. Here the hens
//! fill the top arm row by row, then rows 3 and 4, each from the middle out (20 hens fill all four
//! rows), and the foxes stand on c7 and e7, the corners of the hen house. Points are named by
//! column (a to g) and row (1 at the top). The variants `N-hens-goal-G` play the same game with
//! G hens in the hen house winning and fewer than G hens losing (small games for tests).
//!
//! Position code: bits 0-32 the hens (points in reading order from c1), bits 33-38 and 39-44 the
//! foxes' points, the lesser first (33: no fox), bit 45 set when the foxes are to move, bits 46-47
//! what the hens' move must or may be (0 a hen's step, 1 a fox's removal or a step, 2 putting the
//! rescued fox back). Tiers: the number of hens and the sum of their rows; a hen's step forward
//! raises the sum and a capture lowers the count, so a tier holds only sideways steps, the foxes'
//! steps, removals and rescues. Symmetry: the left-right mirror. A tier's index is dense over its
//! eight parts (who is to move, what the hens' move is, how many foxes), the foxes' places up to
//! the mirror, and the hens' sets with the tier's row sum ranked by counting.

use std::collections::HashSet;
use std::sync::OnceLock;

use perfectplay_core::autogui::autogui_position;
use perfectplay_core::{
    AutoGuiMove, Entity, Game, ImageAutoGui, ImageGui, KernelCache, Move, MultipartMoves,
    ParseError, Player, Position, SizeClass, Symmetry, Tier, TierIndex, TierKernel, Tiers,
    UndoMoves, Value,
};

use crate::board::{self, Board};
use crate::cross::{self, Cross, StepRanks, N};

/// Points on the board; also the code of "no fox".
const NONE: u8 = N as u8;
const HENS: u64 = (1 << N) - 1;
const FOX_A: u32 = 33;
const FOX_B: u32 = 39;
const FOXES_TO_MOVE: u64 = 1 << 45;
const PENDING_SHIFT: u32 = 46;
/// The hens' next move: a step, a removal or a step, or the rescued fox put back.
const STEP: u8 = 0;
const REMOVE: u8 = 1;
const PLACE: u8 = 2;
/// Move code flags: a fox's capture (the rest is its place in [`FuchsUndHenne::captures`]),
/// a fox taken off, a fox put back (the rest is the point).
const CAPTURE: u32 = 1 << 31;
const TAKE_OFF: u32 = 1 << 30;
const PUT_BACK: u32 = 1 << 29;
/// The hen house's size: the hens' goal in 002's game.
const HOUSE_SIZE: u32 = 9;
/// The order the start's hens fill the board in (see the module's header).
const FILL: [&str; 20] = [
    "d1", "c1", "e1", "d2", "c2", "e2", "d3", "c3", "e3", "b3", "f3", "a3", "g3", "d4", "c4", "e4",
    "b4", "f4", "a4", "g4",
];
const FOX_START: [&str; 2] = ["c7", "e7"];
/// Points per row, top to bottom.
/// Most hens, and the highest sum of their rows plus one.
const MAX_HENS: usize = 20;
const SUMS: usize = 6 * MAX_HENS + 1;
/// Hen counts and row sums, as `k * SUMS + t`.
const STATES: usize = (MAX_HENS + 1) * SUMS;
/// Sets of points left out of a count, by their rows: none, one (1 + row), two (8 + 7 r1 + r2).
const LEFT_OUT: usize = 1 + 7 + 49;

/// The parts of a tier's index, in order: (foxes to move, the hens' move, foxes).
const SECTIONS: [(bool, u8, usize); 8] = [
    (false, STEP, 2),
    (false, STEP, 1),
    (false, REMOVE, 2),
    (false, REMOVE, 1),
    (false, PLACE, 1),
    (true, STEP, 2),
    (true, STEP, 1),
    (true, STEP, 0),
];
/// After the game is over (fewer hens than the goal), only the first two parts.
const OVER_SECTIONS: usize = 2;

/// The board, its move tables and the counts that rank the hens' sets.
#[derive(Debug)]
struct Layout {
    board: Board,
    /// Per point: its row, 0 at the top.
    row: [u32; N],
    /// Per point: its mirror image.
    mirror: [usize; N],
    /// Per point: the points a line joins it to, as a mask.
    lines: [u64; N],
    /// Per point: the (point jumped over, landing point) pairs along lines.
    jumps: Vec<Vec<(u32, u32)>>,
    /// Per point: where a hen may step (forward, sideways), and where a hen on it may have come
    /// from, as masks.
    hen_steps: [u64; N],
    hen_from: [u64; N],
    house: u64,
    /// `tail[(left_out * (N + 1) + from) * STATES + state]`: the sets of `k` hens with row sum `t`
    /// on the points from `from` on, less one point of each row `left_out` names.
    tail: Vec<u32>,
    /// Per number of foxes: their places up to the mirror (points, the lesser first).
    classes: [Vec<[u8; 2]>; 3],
    /// Per pair of points (either may be [`NONE`]): its class among its number of foxes, or
    /// `u16::MAX` where its mirror image is the canonical one.
    class_of: Vec<u16>,
    /// Per number of foxes, class `j` (and one past the last) and state: the sets of the classes
    /// before `j`.
    offsets: [Vec<u64>; 3],
    /// Per part of an index ([`SECTIONS`]) and state: the indices of the parts before it.
    section_start: Vec<u64>,
    cross: &'static Cross,
    /// Per pair of points (either may be [`NONE`]): the rows a count beside foxes there leaves
    /// out ([`Layout::left_out`] of all of them).
    left_out_of: Vec<u8>,
}

impl Layout {
    fn shared() -> &'static Layout {
        static LAYOUT: OnceLock<Layout> = OnceLock::new();
        LAYOUT.get_or_init(Layout::new)
    }

    fn new() -> Layout {
        let cross = Cross::shared();
        let point = |x: i32, y: i32| cross.point_at(x, y);
        let mut edges = Vec::new();
        let (row, mirror, mut lines) = (cross.row, cross.mirror, [0u64; N]);
        let (mut hen_steps, mut hen_from, mut house) = ([0u64; N], [0u64; N], 0u64);
        let mut jumps = vec![Vec::new(); N];
        for (p, &(x, y)) in cross.xy.iter().enumerate() {
            if (2..=4).contains(&x) && y >= 4 {
                house |= 1 << p;
            }
            for (dx, dy) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
                // A diagonal line runs through the points whose coordinates add up to an even
                // number.
                if dx != 0 && dy != 0 && (x + y) % 2 == 1 {
                    continue;
                }
                let Some(q) = point(x + dx, y + dy) else { continue };
                lines[p] |= 1 << q;
                if p < q {
                    edges.push((p, q));
                }
                if let Some(to) = point(x + 2 * dx, y + 2 * dy) {
                    jumps[p].push((q as u32, to as u32));
                }
                if (dy == 1 && dx == 0) || (dy == 0 && dx != 0) {
                    hen_steps[p] |= 1 << q;
                    hen_from[q] |= 1 << p;
                }
            }
        }
        let board = cross.board(&edges);
        let tail = Self::tails(&row);
        let mut layout = Layout {
            board,
            row,
            mirror,
            lines,
            jumps,
            hen_steps,
            hen_from,
            house,
            tail,
            classes: [Vec::new(), Vec::new(), Vec::new()],
            class_of: vec![u16::MAX; (N + 1) * (N + 1)],
            offsets: [Vec::new(), Vec::new(), Vec::new()],
            section_start: Vec::new(),
            left_out_of: Vec::new(),
            cross,
        };
        layout.left_out_of = (0..(N + 1) * (N + 1))
            .map(|i| layout.left_out([(i / (N + 1)) as u8, (i % (N + 1)) as u8], None) as u8)
            .collect();
        layout.fox_classes();
        layout.section_starts();
        layout
    }

    /// The counts of [`Layout::tail`]: the sets on the points from each point on, by dividing
    /// out each left-out row from the counts of all of them.
    fn tails(row: &[u32; N]) -> Vec<u32> {
        let mut tail = vec![0u32; LEFT_OUT * (N + 1) * STATES];
        let mut all = vec![0i64; STATES];
        all[0] = 1;
        for from in (0..=N).rev() {
            if from < N {
                let r = row[from] as usize;
                for k in (1..=MAX_HENS).rev() {
                    for t in r..SUMS {
                        all[k * SUMS + t] += all[(k - 1) * SUMS + t - r];
                    }
                }
            }
            // How many points of each row there are from `from` on.
            let mut have = [0usize; 7];
            (from..N).for_each(|p| have[row[p] as usize] += 1);
            for left_out in 0..LEFT_OUT {
                let rows: Vec<usize> = match left_out {
                    0 => vec![],
                    1..=7 => vec![left_out - 1],
                    _ => vec![(left_out - 8) / 7, (left_out - 8) % 7],
                };
                let mut need = [0usize; 7];
                rows.iter().for_each(|&r| need[r] += 1);
                if (0..7).any(|r| need[r] > have[r]) || (rows.len() == 2 && rows[0] > rows[1]) {
                    continue;
                }
                let mut counts = all.clone();
                for &r in &rows {
                    // Dividing by (1 + x y^r): a set without that point.
                    for k in 1..=MAX_HENS {
                        for t in r..SUMS {
                            counts[k * SUMS + t] -= counts[(k - 1) * SUMS + t - r];
                        }
                    }
                }
                let at = (left_out * (N + 1) + from) * STATES;
                for (slot, &c) in tail[at..at + STATES].iter_mut().zip(&counts) {
                    *slot = c.try_into().expect("a count of sets fits 32 bits");
                }
            }
        }
        tail
    }

    /// The foxes' places up to the mirror and the offsets of their parts of an index.
    fn fox_classes(&mut self) {
        let mirrored = |f: [u8; 2]| {
            let image = f.map(|p| if p == NONE { NONE } else { self.mirror[p as usize] as u8 });
            sorted(image)
        };
        let mut classes: [Vec<[u8; 2]>; 3] = [vec![[NONE, NONE]], Vec::new(), Vec::new()];
        // The canonical image is the one with the lesser code, whose higher field is the
        // second fox's.
        let key = |f: [u8; 2]| (f[1], f[0]);
        for a in 0..N as u8 {
            if key([a, NONE]) <= key(mirrored([a, NONE])) {
                classes[1].push([a, NONE]);
            }
            for b in a + 1..N as u8 {
                if key([a, b]) <= key(mirrored([a, b])) {
                    classes[2].push([a, b]);
                }
            }
        }
        for (count, list) in classes.iter().enumerate() {
            let mut offsets = vec![0u64; (list.len() + 1) * STATES];
            for (j, &foxes) in list.iter().enumerate() {
                self.class_of[foxes[0] as usize * (N + 1) + foxes[1] as usize] = j as u16;
                let left_out = self.left_out(foxes, None);
                for state in 0..STATES {
                    offsets[(j + 1) * STATES + state] =
                        offsets[j * STATES + state] + self.tail_count(left_out, 0, state);
                }
            }
            self.offsets[count] = offsets;
        }
        self.classes = classes;
    }

    /// The indices before each part of a tier's index, for every state.
    fn section_starts(&mut self) {
        let mut start = vec![0u64; SECTIONS.len() * STATES];
        for s in 1..SECTIONS.len() {
            let count = SECTIONS[s - 1].2;
            let total = self.classes[count].len() * STATES;
            for state in 0..STATES {
                start[s * STATES + state] =
                    start[(s - 1) * STATES + state] + self.offsets[count][total + state];
            }
        }
        self.section_start = start;
    }

    /// Which rows a count leaves out: those of the foxes after point `after` (all with `None`).
    fn left_out(&self, foxes: [u8; 2], after: Option<usize>) -> usize {
        let mut rows = foxes
            .iter()
            .filter(|&&f| f != NONE && after.is_none_or(|p| f as usize > p))
            .map(|&f| self.row[f as usize] as usize);
        match (rows.next(), rows.next()) {
            (None, _) => 0,
            (Some(r), None) => 1 + r,
            (Some(a), Some(b)) => 8 + 7 * a.min(b) + a.max(b),
        }
    }

    fn tail_count(&self, left_out: usize, from: usize, state: usize) -> u64 {
        u64::from(self.tail[(left_out * (N + 1) + from) * STATES + state])
    }

    /// The number of sets of `k` hens with row sum `t` beside the foxes.
    fn sets(&self, foxes: [u8; 2], k: usize, t: usize) -> u64 {
        if k > MAX_HENS || t >= SUMS {
            return 0;
        }
        self.tail_count(self.left_out(foxes, None), 0, k * SUMS + t)
    }

    /// A set of hens' rank among the sets of as many hens with the same row sum beside the
    /// foxes: sets without a point come before sets with it, point by point in reading order.
    fn rank(&self, foxes: [u8; 2], hens: u64) -> u64 {
        let mut state = hens.count_ones() as usize * SUMS + self.row_sum(hens) as usize;
        let spans = FoxSpans::new(self, foxes);
        let mut rank = 0;
        for p in board::bits(hens) {
            rank += self.term(&spans, p, state);
            state -= SUMS + self.row[p] as usize;
        }
        rank
    }

    /// A hen's term of a rank: the sets after point `p` whose count and row sum, with `p`'s,
    /// make `state`.
    fn term(&self, spans: &FoxSpans, p: usize, state: usize) -> u64 {
        self.tail_count(spans.left_out(p), p + 1, state)
    }

    /// The set at `rank` (see [`Layout::rank`]).
    fn unrank(&self, foxes: [u8; 2], mut k: usize, mut t: usize, mut rank: u64) -> Option<u64> {
        let taken = fox_mask(foxes);
        let spans = FoxSpans::new(self, foxes);
        let mut hens = 0u64;
        for p in (0..N).filter(|&p| taken >> p & 1 == 0) {
            if k == 0 {
                break;
            }
            let without =
                if k <= MAX_HENS && t < SUMS { self.term(&spans, p, k * SUMS + t) } else { 0 };
            if rank >= without {
                rank -= without;
                hens |= 1 << p;
                k = k.checked_sub(1)?;
                t = t.checked_sub(self.row[p] as usize)?;
            }
        }
        (k == 0 && t == 0 && rank == 0).then_some(hens)
    }

    /// The set after `hens` in rank order beside the foxes ([`Layout::rank`] plus one), `None`
    /// after the last: the last free point without a hen that can take one with the points
    /// before it kept, then the least way to place the rest after it.
    fn next_set(&self, foxes: [u8; 2], hens: u64) -> Option<u64> {
        let taken = fox_mask(foxes);
        let completions = |p: usize, k: usize, t: usize| {
            self.tail_count(self.left_out(foxes, Some(p)), p + 1, k * SUMS + t)
        };
        // The hens after the point looked at, and their row sum.
        let (mut k, mut t) = (0usize, 0usize);
        for p in (0..N).rev() {
            let r = self.row[p] as usize;
            if hens >> p & 1 == 1 {
                (k, t) = (k + 1, t + r);
                continue;
            }
            if taken >> p & 1 == 1 || k == 0 || t < r || completions(p, k - 1, t - r) == 0 {
                continue;
            }
            let mut set = hens & ((1 << p) - 1) | 1 << p;
            let (mut k, mut t) = (k - 1, t - r);
            let mut q = p + 1;
            while k > 0 {
                if taken >> q & 1 == 0 && completions(q, k, t) == 0 {
                    set |= 1 << q;
                    k -= 1;
                    t -= self.row[q] as usize;
                }
                q += 1;
            }
            return Some(set);
        }
        None
    }

    fn mirror_set(&self, set: u64) -> u64 {
        self.cross.mirror_set(set)
    }

    fn row_sum(&self, hens: u64) -> u32 {
        self.cross.row_sum(hens)
    }

    fn point(&self, name: &str) -> u8 {
        self.board.cell(name).expect("a point of the board") as u8
    }
}

/// The left-out rows of a rank's terms change only where a fox is passed: before the first fox,
/// both foxes' rows; between them, the second's; after both, none.
struct FoxSpans {
    before_first: u64,
    between: u64,
    both: usize,
    second: usize,
}

impl FoxSpans {
    fn new(l: &Layout, foxes: [u8; 2]) -> FoxSpans {
        let [a, b] = foxes;
        FoxSpans {
            before_first: (1u64 << a) - 1,
            between: fox_span(a, b),
            both: usize::from(l.left_out_of[usize::from(a) * (N + 1) + usize::from(b)]),
            second: usize::from(l.left_out_of[N * (N + 1) + usize::from(b)]),
        }
    }

    fn left_out(&self, p: usize) -> usize {
        if self.before_first >> p & 1 == 1 {
            self.both
        } else if self.between >> p & 1 == 1 {
            self.second
        } else {
            0
        }
    }
}

/// A set of hens' points and the state of each term of its rank, kept to rank it beside other
/// foxes: the terms' states do not depend on the foxes.
struct HenStates {
    points: [u8; MAX_HENS],
    states: [u16; MAX_HENS],
    k: usize,
}

impl HenStates {
    fn new(l: &Layout, hens: u64, mut state: usize) -> HenStates {
        let mut r = HenStates { points: [0; MAX_HENS], states: [0; MAX_HENS], k: 0 };
        for (j, p) in board::bits(hens).enumerate() {
            r.points[j] = p as u8;
            r.states[j] = state as u16;
            state -= SUMS + l.row[p] as usize;
            r.k = j + 1;
        }
        r
    }

    fn rank(&self, l: &Layout, foxes: [u8; 2]) -> u64 {
        let spans = FoxSpans::new(l, foxes);
        (0..self.k)
            .map(|j| l.term(&spans, usize::from(self.points[j]), usize::from(self.states[j])))
            .sum()
    }
}

/// Two points, the lesser first ([`NONE`] last).
fn sorted(f: [u8; 2]) -> [u8; 2] {
    [f[0].min(f[1]), f[0].max(f[1])]
}

/// The points after `a` and before `b` (either may be [`NONE`], past the last point).
fn fox_span(a: u8, b: u8) -> u64 {
    let below = |p: u8| if p >= 64 { u64::MAX } else { (1u64 << p) - 1 };
    below(b) & !below(a) & !(1 << a.min(63))
}

fn fox_mask(foxes: [u8; 2]) -> u64 {
    foxes.iter().filter(|&&f| f != NONE).fold(0, |m, &f| m | 1 << f)
}

/// The parts of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Parts {
    hens: u64,
    foxes: [u8; 2],
    foxes_to_move: bool,
    /// The hens' next move: [`STEP`], [`REMOVE`] or [`PLACE`].
    pending: u8,
}

impl Parts {
    fn of(p: Position) -> Parts {
        Parts {
            hens: p.0 & HENS,
            foxes: [(p.0 >> FOX_A & 63) as u8, (p.0 >> FOX_B & 63) as u8],
            foxes_to_move: p.0 & FOXES_TO_MOVE != 0,
            pending: (p.0 >> PENDING_SHIFT & 3) as u8,
        }
    }

    fn code(self) -> Position {
        Position(
            self.hens
                | u64::from(self.foxes[0]) << FOX_A
                | u64::from(self.foxes[1]) << FOX_B
                | if self.foxes_to_move { FOXES_TO_MOVE } else { 0 }
                | u64::from(self.pending) << PENDING_SHIFT,
        )
    }

    fn fox_count(self) -> usize {
        self.foxes.iter().filter(|&&f| f != NONE).count()
    }

    fn empty(self) -> u64 {
        HENS & !self.hens & !fox_mask(self.foxes)
    }

    /// The foxes with `from` moved to `to` (`to` = [`NONE`]: taken off).
    fn fox_moved(self, from: u8, to: u8) -> [u8; 2] {
        let other = if self.foxes[0] == from { self.foxes[1] } else { self.foxes[0] };
        sorted([other, to])
    }
}

/// Fuchs und Henne with a number of hens.
#[derive(Clone, Debug)]
pub struct FuchsUndHenne {
    hens: u32,
    goal: u32,
    layout: &'static Layout,
    variant: String,
    /// The start's hens, and the sum of their rows.
    start_hens: u64,
    start_sum: u32,
}

impl FuchsUndHenne {
    /// The variant `N-hens` (N from 9 to 20), or `N-hens-goal-G` (G from 2 to 9, N from G to 20).
    pub fn new(variant: &str) -> Result<FuchsUndHenne, String> {
        let expected = "N-hens, N from 9 to 20 (e.g. 9-hens), or N-hens-goal-G, G from 2 to 9";
        let (count, goal) = match variant.split_once("-hens") {
            Some((n, "")) => (n.parse::<u32>().ok(), Some(HOUSE_SIZE)),
            Some((n, g)) => (n.parse().ok(), g.strip_prefix("-goal-").and_then(|g| g.parse().ok())),
            None => (None, None),
        };
        let (Some(hens), Some(goal)) = (count, goal) else { return Err(expected.into()) };
        if !(2..=HOUSE_SIZE).contains(&goal) || !(goal..=MAX_HENS as u32).contains(&hens) {
            return Err(expected.into());
        }
        let layout = Layout::shared();
        let start_hens =
            FILL[..hens as usize].iter().fold(0, |m, name| m | 1 << layout.point(name));
        let start_sum = layout.row_sum(start_hens);
        Ok(FuchsUndHenne {
            hens,
            goal,
            layout,
            variant: variant.to_string(),
            start_hens,
            start_sum,
        })
    }

    /// Whether some fox could capture.
    fn can_capture(&self, q: Parts) -> bool {
        let (l, empty) = (self.layout, q.empty());
        let prey = q.hens & !l.house;
        q.foxes.iter().filter(|&&f| f != NONE).any(|&f| {
            l.jumps[f as usize].iter().any(|&(over, to)| prey >> over & empty >> to & 1 == 1)
        })
    }

    /// Calls `f(fox, path, hens after)` for each of the foxes' captures: the fox that jumps, the
    /// points it lands on in order, one capture for each different position it can end in (the
    /// first path found to it). A chain stops where the game ends.
    fn captures(&self, q: Parts, mut f: impl FnMut(u8, &[u32], u64)) {
        if !self.can_capture(q) {
            return;
        }
        for &fox in q.foxes.iter().filter(|&&f| f != NONE) {
            let other = fox_mask(q.foxes) & !(1 << fox);
            let mut path = vec![u32::from(fox)];
            let mut seen = Vec::new();
            self.jump_on(q.hens, other, &mut path, &mut seen, &mut |path, hens| f(fox, path, hens));
        }
    }

    fn jump_on(
        &self,
        hens: u64,
        other: u64,
        path: &mut Vec<u32>,
        seen: &mut Vec<(u32, u64)>,
        f: &mut impl FnMut(&[u32], u64),
    ) {
        let l = self.layout;
        let at = *path.last().expect("the fox's point") as usize;
        for &(over, to) in &l.jumps[at] {
            let prey = hens & !l.house;
            if prey >> over & 1 == 0 || (hens | other) >> to & 1 == 1 {
                continue;
            }
            let after = hens & !(1 << over);
            if seen.contains(&(to, after)) {
                continue;
            }
            seen.push((to, after));
            path.push(to);
            f(&path[1..], after);
            if after.count_ones() >= self.goal {
                self.jump_on(after, other, path, seen, f);
            }
            path.pop();
        }
    }

    /// The position after a capture by `fox` that ends on `end` with `hens` left.
    fn after_capture(&self, q: Parts, fox: u8, end: u32, hens: u64) -> Parts {
        let rescue = q.fox_count() == 1 && hens.count_ones() >= self.goal;
        Parts {
            hens,
            foxes: q.fox_moved(fox, end as u8),
            foxes_to_move: false,
            pending: if rescue { PLACE } else { STEP },
        }
    }

    /// Calls `f(from, to)` for each step of the side to move (the foxes' or the hens', not the
    /// captures, removals or rescues).
    fn each_step(&self, q: Parts, mut f: impl FnMut(u8, u8)) {
        let (l, empty) = (self.layout, q.empty());
        if q.foxes_to_move {
            for &fox in q.foxes.iter().filter(|&&f| f != NONE) {
                for to in board::bits(l.lines[fox as usize] & empty) {
                    f(fox, to as u8);
                }
            }
        } else if q.pending != PLACE {
            for from in board::bits(q.hens) {
                for to in board::bits(l.hen_steps[from] & empty) {
                    f(from as u8, to as u8);
                }
            }
        }
    }

    /// Calls `f` with the position after each move (a capture's as [`FuchsUndHenne::captures`]
    /// gives it).
    fn each_child(&self, q: Parts, mut f: impl FnMut(Parts)) {
        if q.foxes_to_move {
            let pending = if self.can_capture(q) { REMOVE } else { STEP };
            self.each_step(q, |from, to| {
                f(Parts { foxes: q.fox_moved(from, to), foxes_to_move: false, pending, ..q })
            });
            self.captures(q, |fox, path, hens| {
                f(self.after_capture(q, fox, path[path.len() - 1], hens))
            });
            return;
        }
        let next = Parts { foxes_to_move: true, pending: STEP, ..q };
        match q.pending {
            PLACE => {
                let fox = q.foxes[0];
                for at in board::bits(q.empty()) {
                    f(Parts { foxes: sorted([fox, at as u8]), ..next });
                }
            }
            pending => {
                if pending == REMOVE {
                    for &fox in q.foxes.iter().filter(|&&f| f != NONE) {
                        f(Parts { foxes: q.fox_moved(fox, NONE), ..next });
                    }
                }
                self.each_step(q, |from, to| {
                    f(Parts { hens: q.hens & !(1 << from) | 1 << to, ..next })
                });
            }
        }
    }

    fn has_move(&self, q: Parts) -> bool {
        let (l, empty) = (self.layout, q.empty());
        if q.foxes_to_move {
            let steps =
                q.foxes.iter().filter(|&&f| f != NONE).any(|&f| l.lines[f as usize] & empty != 0);
            steps || self.can_capture(q)
        } else {
            q.pending != STEP || board::bits(q.hens).any(|h| l.hen_steps[h] & empty != 0)
        }
    }

    /// The capture a move code names: the fox, its path and the hens after it.
    fn capture(&self, q: Parts, k: u32) -> Option<(u8, Vec<u32>, u64)> {
        let mut found = None;
        let mut i = 0;
        self.captures(q, |fox, path, hens| {
            if i == k {
                found = Some((fox, path.to_vec(), hens));
            }
            i += 1;
        });
        found
    }

    fn name(&self, point: u32) -> &str {
        self.layout.board.name(point as usize)
    }

    fn mirrored(&self, q: Parts) -> Parts {
        let l = self.layout;
        let foxes = q.foxes.map(|f| if f == NONE { NONE } else { l.mirror[f as usize] as u8 });
        Parts { hens: l.mirror_set(q.hens), foxes: sorted(foxes), ..q }
    }

    /// The position or its mirror image, whichever has the lesser code: the foxes' places in
    /// their class, and where the mirror keeps them, the lesser set of hens.
    fn canonical_parts(&self, q: Parts) -> Parts {
        let m = self.mirrored(q);
        if m.code() < q.code() {
            m
        } else {
            q
        }
    }

    /// Why a position cannot arise, if it cannot.
    fn illegal(&self, q: Parts) -> Option<String> {
        let count = q.hens.count_ones();
        let foxes = q.fox_count();
        if q.foxes.iter().any(|&f| f > NONE) || q.foxes != sorted(q.foxes) {
            return Some("the foxes' points".into());
        }
        if q.foxes[0] != NONE && q.foxes[0] == q.foxes[1] {
            return Some("two foxes on one point".into());
        }
        if fox_mask(q.foxes) & q.hens != 0 {
            return Some("a fox stands on a free point".into());
        }
        if count > self.hens {
            return Some(format!("this game has {} hens", self.hens));
        }
        if count + 1 < self.goal {
            return Some(format!("the game ended when the foxes left {} hens", self.goal - 1));
        }
        if count < self.goal && (q.foxes_to_move || q.pending != STEP || foxes == 0) {
            return Some(format!("the game ended when the foxes left {} hens", self.goal - 1));
        }
        if q.pending > PLACE || (q.foxes_to_move && q.pending != STEP) {
            return Some("only the hens' move can be a removal or a rescue".into());
        }
        let fits = match (q.foxes_to_move, q.pending) {
            (true, _) => true,
            (false, STEP) => foxes >= 1,
            (false, REMOVE) => foxes >= 1,
            _ => foxes == 1,
        };
        if !fits {
            return Some("no fox to take off or to put back, or a fox without a move".into());
        }
        None
    }

    /// The position's points as rows of 3, 3, 7, 7, 7, 3 and 3 characters.
    fn rows(&self, q: Parts) -> String {
        let foxes = fox_mask(q.foxes);
        Cross::rows_text(|p| {
            if foxes >> p & 1 == 1 {
                'F'
            } else if q.hens >> p & 1 == 1 {
                'H'
            } else {
                '-'
            }
        })
    }

    fn turn(q: Parts) -> &'static str {
        match (q.foxes_to_move, q.pending) {
            (true, _) => "F",
            (false, REMOVE) => "Hx",
            (false, PLACE) => "H+",
            _ => "H",
        }
    }
}

impl Game for FuchsUndHenne {
    fn id(&self) -> &'static str {
        "fuchsundhenne"
    }
    fn name(&self) -> &'static str {
        "Fuchs und Henne"
    }
    fn variant(&self) -> String {
        self.variant.clone()
    }
    fn variant_description(&self) -> String {
        if self.goal == HOUSE_SIZE {
            format!("{} hens against two foxes, 002's selected rules", self.hens)
        } else {
            format!(
                "{} hens against two foxes; {} hens in the hen house win, fewer than {} lose",
                self.hens, self.goal, self.goal
            )
        }
    }
    fn size_class(&self) -> SizeClass {
        SizeClass::Large
    }
    fn start(&self) -> Position {
        let l = self.layout;
        let foxes = sorted(FOX_START.map(|name| l.point(name)));
        Parts { hens: self.start_hens, foxes, foxes_to_move: false, pending: STEP }.code()
    }
    fn to_move(&self, p: Position) -> Player {
        if Parts::of(p).foxes_to_move {
            Player::Second
        } else {
            Player::First
        }
    }
    fn primitive(&self, p: Position) -> Option<Value> {
        let q = Parts::of(p);
        // The side that has won, from the view of the side to move.
        let hens_won = if q.foxes_to_move { Value::Lose } else { Value::Win };
        let foxes_won = if q.foxes_to_move { Value::Win } else { Value::Lose };
        if q.hens.count_ones() < self.goal {
            return Some(foxes_won);
        }
        if (q.hens & self.layout.house).count_ones() >= self.goal {
            return Some(hens_won);
        }
        (!self.has_move(q)).then_some(Value::Lose)
    }
    fn moves(&self, p: Position, out: &mut Vec<Move>) {
        let q = Parts::of(p);
        if !q.foxes_to_move && q.pending == PLACE {
            out.extend(board::bits(q.empty()).map(|at| Move(PUT_BACK | at as u32)));
            return;
        }
        if !q.foxes_to_move && q.pending == REMOVE {
            let foxes = q.foxes.iter().filter(|&&f| f != NONE);
            out.extend(foxes.map(|&f| Move(TAKE_OFF | u32::from(f))));
        }
        self.each_step(q, |from, to| out.push(Move(u32::from(from) << 6 | u32::from(to))));
        if q.foxes_to_move {
            let mut k = 0;
            self.captures(q, |_, _, _| {
                out.push(Move(CAPTURE | k));
                k += 1;
            });
        }
    }
    fn do_move(&self, p: Position, mv: Move) -> Position {
        let q = Parts::of(p);
        let next = Parts { foxes_to_move: !q.foxes_to_move, pending: STEP, ..q };
        if mv.0 & CAPTURE != 0 {
            return match self.capture(q, mv.0 & !CAPTURE) {
                Some((fox, path, hens)) => {
                    self.after_capture(q, fox, path[path.len() - 1], hens).code()
                }
                None => next.code(),
            };
        }
        if mv.0 & TAKE_OFF != 0 {
            return Parts { foxes: q.fox_moved((mv.0 & 63) as u8, NONE), ..next }.code();
        }
        if mv.0 & PUT_BACK != 0 {
            return Parts { foxes: sorted([q.foxes[0], (mv.0 & 63) as u8]), ..next }.code();
        }
        let (from, to) = ((mv.0 >> 6 & 63) as u8, (mv.0 & 63) as u8);
        if q.foxes_to_move {
            let pending = if self.can_capture(q) { REMOVE } else { STEP };
            Parts { foxes: q.fox_moved(from, to), pending, ..next }.code()
        } else {
            Parts { hens: q.hens & !(1 << from) | 1 << to, ..next }.code()
        }
    }
    fn children(&self, p: Position, out: &mut Vec<Position>) {
        self.each_child(Parts::of(p), |child| out.push(child.code()));
    }
    fn position_to_string(&self, p: Position) -> String {
        let q = Parts::of(p);
        format!("{} {}", self.rows(q), Self::turn(q))
    }
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let expected = format!(
            "7 rows of 3, 3, 7, 7, 7, 3 and 3 points from the top, joined by /, each - (empty), \
             H (hen) or F (fox), then the side to move: H (the hens), Hx (the hens, who may take \
             off a fox that missed a capture), H+ (the hens, who put a rescued fox back) or F \
             (the foxes) (e.g. the start: {})",
            self.position_to_string(self.start())
        );
        let t = text.trim();
        let (rows, turn) = t.rsplit_once(' ').ok_or_else(|| board::malformed(text, &expected))?;
        let (foxes_to_move, pending) = match turn.to_ascii_uppercase().as_str() {
            "H" => (false, STEP),
            "HX" => (false, REMOVE),
            "H+" => (false, PLACE),
            "F" => (true, STEP),
            _ => return Err(board::malformed(text, &expected)),
        };
        let points = Cross::parse_rows(rows).ok_or_else(|| board::malformed(text, &expected))?;
        let (mut hens, mut foxes) = (0u64, Vec::new());
        for (p, ch) in points.into_iter().enumerate() {
            match ch {
                'H' | 'h' => hens |= 1 << p,
                'F' | 'f' => foxes.push(p as u8),
                '-' | '.' => {}
                _ => return Err(board::malformed(text, &expected)),
            }
        }
        let foxes = match foxes[..] {
            [] => [NONE, NONE],
            [a] => [a, NONE],
            [a, b] => [a, b],
            _ => return Err(board::illegal(text, "there are two foxes at most")),
        };
        let q = Parts { hens, foxes, foxes_to_move, pending };
        if let Some(why) = self.illegal(q) {
            return Err(board::illegal(text, &why));
        }
        if !self.tier_exists(q.hens.count_ones(), self.layout.row_sum(q.hens)) {
            return Err(board::illegal(text, "hens never move back up the board"));
        }
        Ok(q.code())
    }
    fn move_to_string(&self, p: Position, mv: Move) -> String {
        let q = Parts::of(p);
        if mv.0 & CAPTURE != 0 {
            let Some((fox, path, _)) = self.capture(q, mv.0 & !CAPTURE) else {
                return "?".into();
            };
            let mut s = self.name(u32::from(fox)).to_string();
            path.iter().for_each(|&to| s += self.name(to));
            return s;
        }
        if mv.0 & TAKE_OFF != 0 {
            return format!("x{}", self.name(mv.0 & 63));
        }
        if mv.0 & PUT_BACK != 0 {
            return format!("+{}", self.name(mv.0 & 63));
        }
        format!("{}{}", self.name(mv.0 >> 6 & 63), self.name(mv.0 & 63))
    }
    fn move_syntax(&self) -> String {
        "a move names its points, from where the piece stands to where it lands, points [a-g][1-7] \
         with row 1 at the top (e.g. d3d4; a capture lands two points away: c7c5, and a chain of \
         captures names each landing: c7c5e5); x and a point takes off the fox there (xc5), + and \
         a point puts the rescued fox back there (+d7)"
            .into()
    }
    fn board_text(&self, p: Position) -> String {
        let q = Parts::of(p);
        let l = self.layout;
        let foxes = fox_mask(q.foxes);
        let mut s = l.cross.grid_text(|p| match p {
            p if foxes >> p & 1 == 1 => 'F',
            p if q.hens >> p & 1 == 1 => 'H',
            p if l.house >> p & 1 == 1 => ':',
            _ => '.',
        });
        s += &format!(
            "hens: {} ({} in the hen house, : marks it); foxes: {}\n",
            q.hens.count_ones(),
            (q.hens & l.house).count_ones(),
            q.fox_count()
        );
        s + match (q.foxes_to_move, q.pending) {
            (true, _) => "foxes to move\n",
            (false, REMOVE) => "hens to move; a fox missed a capture and may be taken off\n",
            (false, PLACE) => "hens to move: put the rescued fox back\n",
            _ => "hens to move\n",
        }
    }
    fn player_names(&self) -> [&'static str; 2] {
        ["hens", "foxes"]
    }
    perfectplay_core::capabilities!(tier_index, symmetry, undo, gui, kernel);
}

impl FuchsUndHenne {
    /// `128 * hens + 127 - the sum of their rows`: every move that leaves a tier lowers it.
    fn tier_of(hens: u32, sum: u32) -> Tier {
        Tier(hens * 128 + 127 - sum)
    }

    fn tier_parts(t: Tier) -> (u32, u32) {
        (t.0 / 128, 127 - t.0 % 128)
    }

    /// The sizes of a tier's parts, in [`SECTIONS`] order.
    fn section_sizes(&self, hens: u32, sum: u32) -> impl Iterator<Item = (usize, u64)> + '_ {
        let l = self.layout;
        let (k, t) = (hens as usize, sum as usize);
        let sections = if hens >= self.goal { SECTIONS.len() } else { OVER_SECTIONS };
        let valid = k <= MAX_HENS && t < SUMS;
        (0..sections).map(move |s| {
            let count = SECTIONS[s].2;
            let size = if valid {
                l.offsets[count][l.classes[count].len() * STATES + k * SUMS + t]
            } else {
                0
            };
            (s, size)
        })
    }

    /// Whether a game reaches the tier: hens from one fewer than the goal (the end) to all of
    /// them, and while none is captured, no lower row sum than the start's.
    fn tier_exists(&self, hens: u32, sum: u32) -> bool {
        (self.goal - 1..=self.hens).contains(&hens)
            && (hens < self.hens || sum >= self.start_sum)
            && self.layout.sets([NONE, NONE], hens as usize, sum as usize) > 0
    }

    fn section_of(q: Parts) -> usize {
        let count = q.fox_count();
        match (q.foxes_to_move, q.pending) {
            (true, _) => 7 - count,
            (false, STEP) => 2 - count,
            (false, REMOVE) => 4 - count,
            _ => 4,
        }
    }
}

impl Tiers for FuchsUndHenne {
    fn tier(&self, p: Position) -> Tier {
        let q = Parts::of(p);
        Self::tier_of(q.hens.count_ones(), self.layout.row_sum(q.hens))
    }
    /// (hens, the sum of their rows counted from 0 at the top).
    fn tier_name(&self, t: Tier) -> String {
        let (hens, sum) = Self::tier_parts(t);
        format!("({hens},{sum})")
    }
}

/// A tier's index: its eight parts in [`SECTIONS`] order (the first two only once the foxes have
/// won); in each, the foxes' places up to the mirror in their class order, and for each the hens'
/// sets with the tier's row sum ranked ([`Layout::rank`]). Where the mirror keeps the foxes'
/// places, both mirror images of the hens have an index; the one that is not canonical is
/// skipped.
impl TierIndex for FuchsUndHenne {
    fn tiers(&self) -> Vec<Tier> {
        let mut tiers = Vec::new();
        for hens in self.goal - 1..=self.hens {
            for sum in (0..SUMS as u32).rev() {
                if self.tier_exists(hens, sum) {
                    tiers.push(Self::tier_of(hens, sum));
                }
            }
        }
        tiers
    }
    fn canonical_tier(&self, t: Tier) -> Tier {
        t
    }
    /// A hen's step forward raises the row sum by one; a chain of `k` captures takes `k` hens
    /// and up to `6 k` from the sum.
    fn child_tiers(&self, t: Tier) -> Vec<Tier> {
        let (hens, sum) = Self::tier_parts(t);
        if hens < self.goal {
            return Vec::new();
        }
        let mut out = Vec::new();
        if self.tier_exists(hens, sum + 1) {
            out.push(Self::tier_of(hens, sum + 1));
        }
        for k in 1..=hens + 1 - self.goal {
            for taken in 0..=(6 * k).min(sum) {
                if self.tier_exists(hens - k, sum - taken) {
                    out.push(Self::tier_of(hens - k, sum - taken));
                }
            }
        }
        out
    }
    /// A hen's step forward leaves the foxes to move (the last three parts of the tier with one
    /// more in its row sum), a capture the hens (the parts before them, of a tier with fewer
    /// hens).
    fn child_window(&self, t: Tier, child: Tier) -> Option<std::ops::Range<u64>> {
        let (hens, _) = Self::tier_parts(t);
        let (child_hens, child_sum) = Self::tier_parts(child);
        let (mut hens_to_move, mut all) = (0, 0);
        for (section, size) in self.section_sizes(child_hens, child_sum) {
            all += size;
            if !SECTIONS[section].0 {
                hens_to_move += size;
            }
        }
        Some(if child_hens == hens { hens_to_move..all } else { 0..hens_to_move })
    }
    /// A tier is the same in every variant of the same goal that has it: the tiers, their
    /// indices ([`Layout::shared`]) and the rules depend on the goal only, and no move adds a
    /// hen. The variants with fewer hens than this one's start have its tiers with at most their
    /// own count (no set of that many hens has a lower row sum than their start, which packs the
    /// top rows), and the variants with more have all of them. The largest smaller variant first,
    /// then the larger ones, smallest first.
    fn variants_sharing(&self, t: Tier) -> Vec<String> {
        let (hens, _) = Self::tier_parts(t);
        let name = |n: u32| match self.goal {
            HOUSE_SIZE => format!("{n}-hens"),
            goal => format!("{n}-hens-goal-{goal}"),
        };
        let smaller = (hens.max(self.goal)..self.hens).rev();
        let larger = self.hens + 1..=MAX_HENS as u32;
        smaller.chain(larger).map(name).collect()
    }
    fn moves_within(&self, t: Tier) -> bool {
        Self::tier_parts(t).0 >= self.goal
    }
    fn tier_size(&self, t: Tier) -> u64 {
        let (hens, sum) = Self::tier_parts(t);
        self.section_sizes(hens, sum).map(|(_, size)| size).sum()
    }
    fn tier_index(&self, p: Position) -> u64 {
        self.locate_parts(Parts::of(p)).1
    }
    fn tier_position(&self, tier: Tier, index: u64) -> Option<Position> {
        let (hens, sum) = Self::tier_parts(tier);
        let l = self.layout;
        let mut rest = index;
        let (section, _) = self.section_sizes(hens, sum).find(|&(_, size)| {
            if rest < size {
                return true;
            }
            rest -= size;
            false
        })?;
        let (foxes_to_move, pending, count) = SECTIONS[section];
        let (k, t) = (hens as usize, sum as usize);
        let state = k * SUMS + t;
        let offsets = &l.offsets[count];
        let classes = &l.classes[count];
        // The class whose run of indices holds `rest`: the first that ends after it.
        let (mut j, mut above) = (0, classes.len());
        while j < above {
            let mid = (j + above) / 2;
            if offsets[(mid + 1) * STATES + state] <= rest {
                j = mid + 1;
            } else {
                above = mid;
            }
        }
        if j == classes.len() {
            return None;
        }
        let foxes = classes[j];
        let hens = l.unrank(foxes, k, t, rest - offsets[j * STATES + state])?;
        let q = Parts { hens, foxes, foxes_to_move, pending };
        self.illegal(q).is_none().then(|| q.code())
    }
}

impl FuchsUndHenne {
    /// The tier and index of a position's canonical form.
    fn locate_parts(&self, q: Parts) -> (Tier, u64) {
        let q = self.canonical_parts(q);
        let l = self.layout;
        let (hens, sum) = (q.hens.count_ones(), l.row_sum(q.hens));
        let (start, _) = self.block(q, hens, sum);
        (Self::tier_of(hens, sum), start + l.rank(q.foxes, q.hens))
    }

    /// Where the run of indices of a canonical position's part and foxes' class begins and ends
    /// in its tier.
    fn block(&self, q: Parts, hens: u32, sum: u32) -> (u64, u64) {
        let state = hens as usize * SUMS + sum as usize;
        let start = self.class_start(Self::section_of(q), q.foxes, state);
        (start, start + self.layout.sets(q.foxes, hens as usize, sum as usize))
    }

    /// Where the run of a part's indices with these (canonical) foxes begins in the tier of
    /// `state`.
    fn class_start(&self, section: usize, foxes: [u8; 2], state: usize) -> u64 {
        let l = self.layout;
        let count = SECTIONS[section].2;
        let class = usize::from(l.class_of[foxes[0] as usize * (N + 1) + foxes[1] as usize]);
        l.section_start[section * STATES + state] + l.offsets[count][class * STATES + state]
    }

    /// The position or its mirror image, whichever is canonical for every position with these
    /// foxes; `None` where the mirror keeps the foxes' places (the hens decide).
    fn oriented(&self, q: Parts) -> Option<Parts> {
        let m = self.mirrored(q);
        match (m.foxes[1], m.foxes[0]).cmp(&(q.foxes[1], q.foxes[0])) {
            std::cmp::Ordering::Less => Some(m),
            std::cmp::Ordering::Greater => Some(q),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// The engine's hot paths: a tier walked from set to set, children and parents located.
impl TierKernel for FuchsUndHenne {
    /// One unranking, then each next set of hens from the one before ([`Layout::next_set`])
    /// until the foxes' class or the part of the index changes.
    fn tier_positions(&self, t: Tier, first: u64, out: &mut [Option<Position>]) {
        let (hens, sum) = Self::tier_parts(t);
        // The last position and the index where its foxes' class ends.
        let mut last: Option<(Parts, u64)> = None;
        for (n, slot) in out.iter_mut().enumerate() {
            let index = first + n as u64;
            if let Some((q, end)) = last.filter(|&(_, end)| index < end) {
                if let Some(next) = self.layout.next_set(q.foxes, q.hens) {
                    let q = Parts { hens: next, ..q };
                    *slot = Some(q.code());
                    last = Some((q, end));
                    continue;
                }
            }
            *slot = TierIndex::tier_position(self, t, index);
            last = slot.map(|p| {
                let q = Parts::of(p);
                (q, self.block(q, hens, sum).1)
            });
        }
    }
    fn is_canonical_at(&self, _: Tier, _: u64, p: Position, _cache: &mut KernelCache) -> bool {
        let q = Parts::of(p);
        self.canonical_parts(q) == q
    }
    fn locate(&self, p: Position, _cache: &mut KernelCache) -> (Tier, u64) {
        self.locate_parts(Parts::of(p))
    }
    fn child_locations(&self, p: Position, out: &mut Vec<(Tier, u64)>, _cache: &mut KernelCache) {
        out.clear();
        self.push_child_locations(Parts::of(p), out);
        out.sort_unstable();
        out.dedup();
    }
    /// Children in the tier are distinct unless two of them are mirror images: the hens' steps
    /// where the foxes' places are their own mirror image, the foxes' steps where the hens' are.
    fn child_locations_unsorted(
        &self,
        p: Position,
        out: &mut Vec<(Tier, u64)>,
        _cache: &mut KernelCache,
    ) {
        out.clear();
        let q = Parts::of(p);
        self.push_child_locations(q, out);
        let images = if q.foxes_to_move {
            self.layout.mirror_set(q.hens) == q.hens
        } else {
            self.oriented(q).is_none()
        };
        if images {
            out.sort_unstable();
            out.dedup();
        }
    }
    fn parent_indices(
        &self,
        tier: Tier,
        p: Position,
        out: &mut Vec<u64>,
        _cache: &mut KernelCache,
    ) {
        out.clear();
        let q = Parts::of(p);
        let mut located = |parent: Parts| {
            if self.illegal(parent).is_none() && self.primitive(parent.code()).is_none() {
                let (t, i) = self.locate_parts(parent);
                if t == tier {
                    out.push(i);
                }
            }
        };
        match self.oriented(q).filter(|_| q.foxes_to_move) {
            Some(o) => {
                // The hens' sideways steps back, ranked from the position's own terms.
                self.each_removal_or_rescue_back(q, &mut located);
                let l = self.layout;
                let state = q.hens.count_ones() as usize * SUMS + l.row_sum(q.hens) as usize;
                let spans = FoxSpans::new(l, o.foxes);
                let term = |p: usize, state: usize| l.term(&spans, p, state);
                let ranks = StepRanks::new(o.hens, state, (SUMS, STATES), term);
                // Such a parent is legal with a fox on the board (in a tier with moves, it has
                // the goal's hens), has a move (the step back), and is over only with the goal's
                // hens in the house.
                let legal = o.fox_count() > 0;
                self.each_step_back(o, true, |parent| {
                    if legal && (parent.hens & l.house).count_ones() < self.goal {
                        let moved = o.hens & !parent.hens;
                        let (g, from) =
                            (moved.trailing_zeros(), (parent.hens & !o.hens).trailing_zeros());
                        let start = self.class_start(Self::section_of(parent), o.foxes, state);
                        out.push(start + ranks.rank_after(g as usize, from as usize, SUMS, term));
                    }
                });
            }
            None if !q.foxes_to_move => self.locate_beside_foxes(
                q,
                |f| self.each_fox_step_back(q, &mut *f),
                |parent, (t, i)| {
                    if t == tier
                        && self.illegal(parent).is_none()
                        && self.primitive(parent.code()).is_none()
                    {
                        out.push(i);
                    }
                },
            ),
            None => self.each_parent(q, true, located),
        }
        out.sort_unstable();
        out.dedup();
    }
}

impl FuchsUndHenne {
    /// Whether the mirror image of a position with these foxes is its canonical form; `None`
    /// where the mirror keeps the foxes' places.
    fn flips(&self, foxes: [u8; 2]) -> Option<([u8; 2], bool)> {
        let l = self.layout;
        let m = sorted(foxes.map(|f| if f == NONE { NONE } else { l.mirror[f as usize] as u8 }));
        match (m[1], m[0]).cmp(&(foxes[1], foxes[0])) {
            std::cmp::Ordering::Less => Some((m, true)),
            std::cmp::Ordering::Greater => Some((foxes, false)),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The locations of positions with the hens of `q` and each of `foxes` (`f` gives the
    /// foxes, and the position to locate afresh where the mirror keeps them): the hens' terms
    /// are found once for each mirror image.
    fn locate_beside_foxes(
        &self,
        q: Parts,
        mut each: impl FnMut(&mut dyn FnMut(Parts)),
        mut found: impl FnMut(Parts, (Tier, u64)),
    ) {
        let l = self.layout;
        let (k, t) = (q.hens.count_ones(), l.row_sum(q.hens));
        let (tier, state) = (Self::tier_of(k, t), k as usize * SUMS + t as usize);
        let plain = HenStates::new(l, q.hens, state);
        let mut mirrored: Option<HenStates> = None;
        each(&mut |r: Parts| {
            let location = match self.flips(r.foxes) {
                None => self.locate_parts(r),
                Some((foxes, flip)) => {
                    let terms = if flip {
                        mirrored
                            .get_or_insert_with(|| HenStates::new(l, l.mirror_set(q.hens), state))
                    } else {
                        &plain
                    };
                    let start = self.class_start(Self::section_of(r), foxes, state);
                    (tier, start + terms.rank(l, foxes))
                }
            };
            found(r, location);
        });
    }

    /// The locations of the foxes' steps from a position with the foxes to move.
    fn push_fox_step_locations(&self, q: Parts, out: &mut Vec<(Tier, u64)>) {
        let pending = if self.can_capture(q) { REMOVE } else { STEP };
        self.locate_beside_foxes(
            q,
            |f| {
                self.each_step(q, |from, to| {
                    f(Parts { foxes: q.fox_moved(from, to), foxes_to_move: false, pending, ..q })
                })
            },
            |_, location| out.push(location),
        );
    }

    /// The locations of a position's children, unsorted, with repeats where two are mirror
    /// images. The hens' steps are ranked from the position's own terms ([`StepRanks`]) where
    /// the foxes' places decide which mirror image is canonical.
    fn push_child_locations(&self, q: Parts, out: &mut Vec<(Tier, u64)>) {
        if q.foxes_to_move {
            self.push_fox_step_locations(q, out);
            self.captures(q, |fox, path, hens| {
                out.push(self.locate_parts(self.after_capture(q, fox, path[path.len() - 1], hens)))
            });
            return;
        }
        let fast = (q.pending != PLACE).then(|| self.oriented(q)).flatten();
        let Some(o) = fast else {
            self.each_child(q, |child| out.push(self.locate_parts(child)));
            return;
        };
        let l = self.layout;
        let (k, t) = (q.hens.count_ones(), l.row_sum(q.hens));
        let state = k as usize * SUMS + t as usize;
        let spans = FoxSpans::new(l, o.foxes);
        let term = |p: usize, state: usize| l.term(&spans, p, state);
        let ranks = StepRanks::new(o.hens, state, (SUMS, STATES), term);
        let section = Self::section_of(Parts { foxes_to_move: true, pending: STEP, ..o });
        let sideways = (Self::tier_of(k, t), self.class_start(section, o.foxes, state));
        let forward = if state + 1 < STATES {
            (Self::tier_of(k, t + 1), self.class_start(section, o.foxes, state + 1))
        } else {
            sideways
        };
        self.each_step(o, |from, to| {
            let (from, to) = (usize::from(from), usize::from(to));
            let (tier, start) = if l.row[to] == l.row[from] { sideways } else { forward };
            out.push((tier, start + ranks.rank_after(from, to, SUMS, term)));
        });
        if q.pending == REMOVE {
            for &fox in q.foxes.iter().filter(|&&f| f != NONE) {
                let child = Parts {
                    foxes: q.fox_moved(fox, NONE),
                    foxes_to_move: true,
                    pending: STEP,
                    ..q
                };
                out.push(self.locate_parts(child));
            }
        }
    }
}

impl Symmetry for FuchsUndHenne {
    fn symmetry_count(&self) -> usize {
        2
    }
    fn canonical(&self, p: Position) -> Position {
        self.canonical_parts(Parts::of(p)).code()
    }
    fn symmetry_images(&self, p: Position, out: &mut Vec<Position>) {
        out.extend([p, self.mirrored(Parts::of(p)).code()]);
    }
    fn exchange(&self) -> Option<&dyn perfectplay_core::Exchange> {
        None
    }
}

impl FuchsUndHenne {
    /// Calls `f` with each position that has a move to `q` (primitive ones included); with
    /// `same_tier`, only the moves that stay in its tier.
    fn each_parent(&self, q: Parts, same_tier: bool, mut f: impl FnMut(Parts)) {
        if q.foxes_to_move {
            self.each_step_back(q, same_tier, &mut f);
            self.each_removal_or_rescue_back(q, &mut f);
            return;
        }
        // The foxes moved: a step (the hens' next move says whether a capture was missed), or a
        // capture from a tier with more hens.
        self.each_fox_step_back(q, &mut f);
        if same_tier || q.pending == REMOVE {
            return;
        }
        // The foxes the capture began with: one where a rescue is due; as many as now where the
        // game is over; else two (one fox's capture would have rescued the other).
        let over = q.hens.count_ones() < self.goal;
        let possible = match q.pending {
            PLACE => q.fox_count() == 1,
            _ => over || q.fox_count() == 2,
        };
        if !possible {
            return;
        }
        for &fox in q.foxes.iter().filter(|&&f| f != NONE) {
            let other = fox_mask(q.foxes) & !(1 << fox);
            let mut seen = HashSet::new();
            self.jump_back(q.hens, other, u32::from(fox), &mut seen, &mut |hens, start| {
                let foxes = q.fox_moved(fox, start as u8);
                f(Parts { hens, foxes, foxes_to_move: true, pending: STEP });
            });
        }
    }

    /// The parents of a position with the hens to move where a fox stepped.
    fn each_fox_step_back(&self, q: Parts, mut f: impl FnMut(Parts)) {
        let (l, empty) = (self.layout, q.empty());
        if q.pending == PLACE || q.hens.count_ones() < self.goal {
            return;
        }
        for &fox in q.foxes.iter().filter(|&&f| f != NONE) {
            for from in board::bits(l.lines[fox as usize] & empty) {
                let parent = Parts {
                    foxes: q.fox_moved(fox, from as u8),
                    foxes_to_move: true,
                    pending: STEP,
                    ..q
                };
                let missed = if self.can_capture(parent) { REMOVE } else { STEP };
                if missed == q.pending {
                    f(parent);
                }
            }
        }
    }

    /// The parents of a position with the foxes to move where the hens stepped (when they had a
    /// step or a removal to choose); in the tier only, sideways.
    fn each_step_back(&self, q: Parts, same_tier: bool, mut f: impl FnMut(Parts)) {
        let l = self.layout;
        let empty = q.empty();
        for pending in [STEP, REMOVE] {
            let parent = Parts { foxes_to_move: false, pending, ..q };
            if pending == REMOVE && q.fox_count() == 0 {
                continue;
            }
            for g in board::bits(q.hens) {
                for from in board::bits(l.hen_from[g] & empty) {
                    if same_tier && l.row[from] != l.row[g] {
                        continue;
                    }
                    f(Parts { hens: q.hens & !(1 << g) | 1 << from, ..parent });
                }
            }
        }
    }

    /// The parents of a position with the foxes to move where the hens took off a fox or put one
    /// back.
    fn each_removal_or_rescue_back(&self, q: Parts, mut f: impl FnMut(Parts)) {
        let empty = q.empty();
        if q.fox_count() < 2 {
            let parent = Parts { foxes_to_move: false, pending: REMOVE, ..q };
            for at in board::bits(empty) {
                let foxes = if q.foxes[0] == NONE {
                    [at as u8, NONE]
                } else {
                    sorted([q.foxes[0], at as u8])
                };
                f(Parts { foxes, ..parent });
            }
        }
        if q.fox_count() == 2 {
            for &fox in &q.foxes {
                let foxes = q.fox_moved(fox, NONE);
                f(Parts { foxes, foxes_to_move: false, pending: PLACE, ..q });
            }
        }
    }

    /// The captures by a fox that end on `at` with `hens` left, undone one jump at a time: each
    /// jump back puts a hen on the point jumped over; `f(hens before, the fox's start)`.
    fn jump_back(
        &self,
        hens: u64,
        other: u64,
        at: u32,
        seen: &mut HashSet<(u32, u64)>,
        f: &mut impl FnMut(u64, u32),
    ) {
        let l = self.layout;
        if hens.count_ones() >= self.hens {
            return;
        }
        for &(over, from) in &l.jumps[at as usize] {
            let taken = hens | other | 1 << at;
            if taken >> over & 1 == 1 || l.house >> over & 1 == 1 || (hens | other) >> from & 1 == 1
            {
                continue;
            }
            let before = hens | 1 << over;
            if !seen.insert((from, before)) {
                continue;
            }
            f(before, from);
            // An earlier jump left at least the goal's hens, or the chain would have stopped.
            if before.count_ones() >= self.goal {
                self.jump_back(before, other, from, seen, f);
            }
        }
    }
}

impl UndoMoves for FuchsUndHenne {
    fn undo_moves(&self, p: Position, out: &mut Vec<Position>) {
        let mut found = Vec::new();
        self.each_parent(Parts::of(p), false, |r| found.push(r));
        for r in found {
            let exists = self.tier_exists(r.hens.count_ones(), self.layout.row_sum(r.hens));
            if exists && self.illegal(r).is_none() && self.primitive(r.code()).is_none() {
                out.push(r.code());
            }
        }
        out.sort_unstable();
        out.dedup();
    }
    fn undo_moves_in_tier(&self, p: Position, out: &mut Vec<Position>) {
        self.each_parent(Parts::of(p), true, |r| {
            if self.illegal(r).is_none() && self.primitive(r.code()).is_none() {
                out.push(r.code());
            }
        });
    }
}

/// AutoGUI centers: the board's points.
impl ImageGui for FuchsUndHenne {
    fn theme(&self) -> ImageAutoGui {
        let [fox, stop] = cross::fox_and_stop_entities();
        let entities = vec![
            fox,
            Entity {
                token: 'H',
                svg: r##"<circle r="0.36" fill="#f3d36b" stroke="#7a5a10" stroke-width="0.05"/><path d="M-0.12,-0.3L0,-0.42L0.12,-0.3Z" fill="#c62828"/>"##.into(),
            },
            Entity {
                token: 'x',
                svg: r##"<path d="M-0.25,-0.25L0.25,0.25M0.25,-0.25L-0.25,0.25" stroke="#b71c1c" stroke-width="0.12"/>"##.into(),
            },
            Entity {
                token: 'f',
                svg: r##"<circle r="0.3" fill="#c8562a" fill-opacity="0.5" stroke="#4a1a08" stroke-width="0.05"/>"##.into(),
            },
            stop,
        ];
        crate::themes::points_theme(&self.layout.board, entities)
    }
    fn autogui_position(&self, p: Position) -> String {
        let q = Parts::of(p);
        autogui_position(self.to_move(p), self.rows(q).chars().filter(|&c| c != '/'))
    }
    /// A step is an arrow, a capture starts with the arrow of its first jump, a removal is a
    /// cross on the fox and a rescue a fox's shadow on the point.
    fn autogui_move(&self, p: Position, mv: Move) -> AutoGuiMove {
        let q = Parts::of(p);
        if mv.0 & CAPTURE != 0 {
            let (from, to) = self
                .capture(q, mv.0 & !CAPTURE)
                .map_or((0, 0), |(fox, path, _)| (u32::from(fox), path[0]));
            return AutoGuiMove::Arrow { from: from as usize, to: to as usize };
        }
        if mv.0 & TAKE_OFF != 0 {
            return AutoGuiMove::Token { token: 'x', at: (mv.0 & 63) as usize };
        }
        if mv.0 & PUT_BACK != 0 {
            return AutoGuiMove::Token { token: 'f', at: (mv.0 & 63) as usize };
        }
        AutoGuiMove::Arrow { from: (mv.0 >> 6 & 63) as usize, to: (mv.0 & 63) as usize }
    }
    /// Where a capture leaves too few hens to go on, no capture has a second part.
    fn multipart(&self) -> Option<&dyn MultipartMoves> {
        (self.hens > self.goal).then_some(self)
    }
}

impl MultipartMoves for FuchsUndHenne {
    /// A capture is one arrow per jump (003 chapter 6); where the fox could jump on but stops, a
    /// last click on the fox ends the move. A single jump after which none could follow is one
    /// arrow, as a step is.
    fn move_parts(&self, p: Position, mv: Move) -> Vec<AutoGuiMove> {
        let q = Parts::of(p);
        let Some((fox, path, hens)) =
            (mv.0 & CAPTURE != 0).then(|| self.capture(q, mv.0 & !CAPTURE)).flatten()
        else {
            return Vec::new();
        };
        let end = path[path.len() - 1];
        let mut could_go_on = false;
        if hens.count_ones() >= self.goal {
            let other = fox_mask(q.foxes) & !(1 << fox);
            let mut seen = vec![(end, hens)];
            let mut at = vec![end];
            self.jump_on(hens, other, &mut at, &mut seen, &mut |_, _| could_go_on = true);
        }
        cross::chain_parts(usize::from(fox), &path, could_go_on)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfectplay_core::GameExt;

    fn moves(game: &FuchsUndHenne, text: &str) -> Vec<String> {
        let p = game.parse_position(text).unwrap();
        let mut m: Vec<String> =
            game.legal_moves(p).iter().map(|&m| game.move_to_string(p, m)).collect();
        m.sort();
        m
    }

    #[test]
    fn the_board_the_lines_and_the_start() {
        let l = Layout::shared();
        assert_eq!(l.board.len(), 33);
        // d4 has eight lines, d3 (an odd point) four; the hen house is c5 to e7.
        assert_eq!(l.lines[l.point("d4") as usize].count_ones(), 8);
        assert_eq!(l.lines[l.point("d3") as usize].count_ones(), 4);
        assert_eq!(l.lines[l.point("c1") as usize].count_ones(), 3);
        assert_eq!(l.house.count_ones(), 9);
        assert_eq!(l.house >> l.point("d5") & 1, 1);
        assert_eq!(l.classes.iter().map(Vec::len).collect::<Vec<_>>(), [1, 20, 281]);
        let game = FuchsUndHenne::new("9-hens").unwrap();
        assert_eq!(
            game.position_to_string(game.start()),
            "HHH/HHH/--HHH--/-------/-------/---/F-F H"
        );
        let game = FuchsUndHenne::new("20-hens").unwrap();
        assert_eq!(
            game.position_to_string(game.start()),
            "HHH/HHH/HHHHHHH/HHHHHHH/-------/---/F-F H"
        );
        for bad in ["8-hens", "21-hens", "5-hens-goal-6", "4-hens-goal-1", "hens", "9-hen"] {
            assert!(FuchsUndHenne::new(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn hens_step_forward_and_sideways_and_foxes_capture_along_lines() {
        let game = FuchsUndHenne::new("8-hens-goal-3").unwrap();
        // The hen on d3 steps to c3, e3 or d4; never back up, never diagonally.
        let m: Vec<String> = moves(&game, "HHH/HH-/---H---/-------/-------/---/F-F H")
            .into_iter()
            .filter(|m| m.starts_with("d3"))
            .collect();
        assert_eq!(m, ["d3c3", "d3d4", "d3e3"]);
        // The fox on d4 jumps d3 to d2 and e4 to f4, not d5: a hen in the hen house is safe.
        let m = moves(&game, "HHH/H-H/---H---/---FH--/---H---/---/--F F");
        for capture in ["d4d2", "d4f4", "d4d6"] {
            assert_eq!(m.contains(&capture.to_string()), capture != "d4d6", "{capture}: {m:?}");
        }
        // d3's column and row add up to an odd number: no diagonal runs through it, so the fox
        // there cannot step to c4; from d4 it can.
        let m = moves(&game, "HHH/H-H/---F---/-------/-------/---/--F F");
        assert!(m.contains(&"d3d4".to_string()) && !m.contains(&"d3c4".to_string()), "{m:?}");
        let m = moves(&game, "HHH/H-H/-------/---F---/-------/---/--F F");
        assert!(m.contains(&"d4c5".to_string()), "{m:?}");
        // A chain of captures is one move that may stop after any jump: d3, then c3 from d2.
        let m = moves(&game, "HHH/---/--HH---/---F---/-------/---/--F F");
        for capture in ["d4d2", "d4d2b4"] {
            assert!(m.contains(&capture.to_string()), "{capture}: {m:?}");
        }
    }

    #[test]
    fn a_missed_capture_lets_the_hens_take_off_a_fox_and_a_capture_rescues_it() {
        let game = FuchsUndHenne::new("8-hens-goal-3").unwrap();
        // The fox on d4 could jump d3: stepping instead leaves the hens a removal.
        let p = game.parse_position("HHH/H-H/---H---/---F---/H------/---/--F F").unwrap();
        let after = game.do_move(p, game.parse_move(p, "d4c4").unwrap());
        assert_eq!(game.position_to_string(after).split(' ').nth(1), Some("Hx"));
        let m: Vec<String> =
            game.legal_moves(after).iter().map(|&m| game.move_to_string(after, m)).collect();
        assert!(m.contains(&"xc4".to_string()) && m.contains(&"xe7".to_string()), "{m:?}");
        assert!(m.contains(&"a5b5".to_string()), "the hens may move instead: {m:?}");
        let one = game.do_move(after, game.parse_move(after, "xe7").unwrap());
        assert_eq!(Parts::of(one).fox_count(), 1);
        // Stepping when no capture was open leaves the hens an ordinary move.
        let quiet = game.do_move(p, game.parse_move(p, "e7d7").unwrap());
        assert_eq!(game.position_to_string(quiet).split(' ').nth(1), Some("Hx"));
        let calm = game.parse_position("HHH/H-H/-------/---F---/H------/---/--F F").unwrap();
        let step = game.do_move(calm, game.parse_move(calm, "e7d7").unwrap());
        assert_eq!(game.position_to_string(step).split(' ').nth(1), Some("H"));
        // With one fox, a capture that leaves the goal's hens brings the other back.
        let q = game.parse_position("HHH/H-H/---H---/---F---/H------/---/--- F").unwrap();
        let rescued = game.do_move(q, game.parse_move(q, "d4d2").unwrap());
        assert_eq!(game.position_to_string(rescued).split(' ').nth(1), Some("H+"));
        let m = game.legal_moves(rescued);
        assert_eq!(m.len() as u32, Parts::of(rescued).empty().count_ones());
        let back = game.do_move(rescued, game.parse_move(rescued, "+e7").unwrap());
        assert_eq!(Parts::of(back).fox_count(), 2);
        assert!(Parts::of(back).foxes_to_move);
    }

    #[test]
    fn the_ends_of_the_game() {
        let game = FuchsUndHenne::new("9-hens").unwrap();
        // Nine hens in the hen house: the hens have won.
        let full = game.parse_position("---/---/-------/-------/F-HHH-F/HHH/HHH F").unwrap();
        assert_eq!(game.primitive(full), Some(Value::Lose));
        // A capture that leaves eight ends the game: the foxes have won.
        let p = game.parse_position("HHH/H-H/--HHH--/---F---/H------/---/--F F").unwrap();
        let after = game.do_move(p, game.parse_move(p, "d4d2").unwrap());
        assert_eq!(Parts::of(after).hens.count_ones(), 8);
        assert_eq!(game.primitive(after), Some(Value::Lose));
        // No fox left: the foxes cannot move.
        let none = game.parse_position("HHH/HHH/--HHH--/-------/-------/---/--- F").unwrap();
        assert_eq!(game.primitive(none), Some(Value::Lose));
        let bad = [
            "HHH/HHH/--HHH--/-------/-------/---/--- H",
            "HHH/HHH/--HHH--/-------/-------/---/FFF F",
            "HHH/HHH/--HHH--/-------/-------/---/F-F Hx F",
            "HHH/HHH/--HHH--/-------/-------/---/F-F H+",
            "HHH/HHH/HHHHHHH/-------/-------/---/F-F H",
            "HHH/HHH/--HHH--/-------/-------/---/F-F Q",
        ];
        for bad in bad {
            assert!(game.parse_position(bad).is_err(), "{bad}");
        }
    }

    /// Every index of every tier of a small game names a position that indexes back to it, or
    /// none (the mirror images that are not canonical).
    #[test]
    fn indices_round_trip_in_a_small_game() {
        let game = FuchsUndHenne::new("2-hens-goal-2").unwrap();
        let mut named = 0u64;
        for tier in TierIndex::tiers(&game) {
            for index in 0..TierIndex::tier_size(&game, tier) {
                let Some(p) = TierIndex::tier_position(&game, tier, index) else { continue };
                assert_eq!(Tiers::tier(&game, p), tier);
                if Symmetry::canonical(&game, p) == p {
                    assert_eq!(
                        TierIndex::tier_index(&game, p),
                        index,
                        "{}",
                        game.position_to_string(p)
                    );
                    named += 1;
                }
            }
        }
        assert!(named > 100_000, "{named}");
    }

    /// The children and parents ranked from a position's own terms are the ones located afresh,
    /// on indices spread over every tier of a game with room for many steps.
    #[test]
    fn step_by_step_locations_are_located_afresh() {
        let game = FuchsUndHenne::new("7-hens-goal-4").unwrap();
        let mut cache = KernelCache::default();
        let (mut fast, mut fresh, mut checked) = (Vec::new(), Vec::new(), 0);
        // Children in the foxes' part of the next tier, and in the hens' part of tiers below.
        let mut windows = [0; 2];
        for tier in TierIndex::tiers(&game) {
            let size = TierIndex::tier_size(&game, tier);
            for index in (0..size).step_by((size / 3000).max(1) as usize) {
                let Some(p) = TierIndex::tier_position(&game, tier, index) else { continue };
                if Symmetry::canonical(&game, p) != p || game.primitive(p).is_some() {
                    continue;
                }
                let q = Parts::of(p);
                game.child_locations(p, &mut fast, &mut cache);
                fresh.clear();
                game.each_child(q, |child| fresh.push(game.locate_parts(child)));
                fresh.sort_unstable();
                fresh.dedup();
                assert_eq!(fast, fresh, "children of {}", game.position_to_string(p));
                // Every child outside the tier lies in the window declared for its tier.
                for &(child, index) in fresh.iter().filter(|c| c.0 != tier) {
                    let window = TierIndex::child_window(&game, tier, child).unwrap();
                    assert!(
                        window.contains(&index) && window.end <= TierIndex::tier_size(&game, child),
                        "{} -> tier {}, index {index}",
                        game.position_to_string(p),
                        Tiers::tier_name(&game, child)
                    );
                    windows[usize::from(window.start == 0)] += 1;
                }
                let mut unsorted = Vec::new();
                game.child_locations_unsorted(p, &mut unsorted, &mut cache);
                let inside = |v: &[(Tier, u64)]| v.iter().filter(|c| c.0 == tier).count();
                assert_eq!(inside(&unsorted), inside(&fresh), "{}", game.position_to_string(p));
                let mut parents = Vec::new();
                game.parent_indices(tier, p, &mut parents, &mut cache);
                let mut expected = Vec::new();
                game.each_parent(q, true, |r| {
                    if game.illegal(r).is_none() && game.primitive(r.code()).is_none() {
                        let (t, i) = game.locate_parts(r);
                        if t == tier {
                            expected.push(i);
                        }
                    }
                });
                expected.sort_unstable();
                expected.dedup();
                assert_eq!(parents, expected, "parents of {}", game.position_to_string(p));
                checked += 1;
            }
        }
        assert!(checked > 50_000, "{checked}");
        assert!(windows[0] > 10_000 && windows[1] > 1_000, "{windows:?}");
    }

    /// How long locating the children and parents of positions of 9 hens' tier (9,39) takes
    /// (a measurement, not a check).
    #[test]
    #[ignore]
    fn location_speed() {
        let game = FuchsUndHenne::new("9-hens").unwrap();
        let tier = FuchsUndHenne::tier_of(9, 39);
        let size = TierIndex::tier_size(&game, tier);
        // Indices spread over the whole tier (all its parts), by a fixed odd stride.
        let stride = (size / 1_000_003) | 1;
        let positions: Vec<Position> = (0..size)
            .step_by(stride as usize)
            .filter_map(|i| TierIndex::tier_position(&game, tier, i))
            .filter(|&p| game.primitive(p).is_none() && Symmetry::canonical(&game, p) == p)
            .collect();
        let mut cache = KernelCache::default();
        for round in 0..2 {
            for foxes in [false, true] {
                let side: Vec<Position> = positions
                    .iter()
                    .copied()
                    .filter(|&p| Parts::of(p).foxes_to_move == foxes)
                    .collect();
                let (mut out, mut parents) = (Vec::new(), Vec::new());
                let (mut total, mut children, mut parent_count) = (0u64, 0usize, 0usize);
                let clock = std::time::Instant::now();
                for &p in &side {
                    game.child_locations_unsorted(p, &mut out, &mut cache);
                    children += out.len();
                    total += out.iter().map(|l| l.1).sum::<u64>();
                }
                let child_ns = clock.elapsed().as_nanos() as f64 / side.len() as f64;
                let clock = std::time::Instant::now();
                for &p in &side {
                    game.parent_indices(tier, p, &mut parents, &mut cache);
                    parent_count += parents.len();
                    total += parents.iter().sum::<u64>();
                }
                let parent_ns = clock.elapsed().as_nanos() as f64 / side.len() as f64;
                let n = side.len() as f64;
                eprintln!(
                    "round {round}, foxes to move {foxes}: children {child_ns:.0} ns ({:.1} a \
                     position), parents {parent_ns:.0} ns ({:.1}); {} positions, {total}",
                    children as f64 / n,
                    parent_count as f64 / n,
                    side.len()
                );
            }
        }
    }

    /// Every tier a variant says another shares is that variant's tier too, of the same size,
    /// with the same positions at its indices (a sample of each) and their children at the same
    /// places; every other variant of the goal that has a tier is listed as sharing it.
    #[test]
    fn a_tier_is_the_same_in_every_variant_of_its_goal_that_has_it() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut draw = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let of_goal = |goal: u32| -> Vec<(FuchsUndHenne, Vec<Tier>)> {
            (goal..=MAX_HENS as u32)
                .map(|n| {
                    let name = match goal {
                        HOUSE_SIZE => format!("{n}-hens"),
                        _ => format!("{n}-hens-goal-{goal}"),
                    };
                    let game = FuchsUndHenne::new(&name).unwrap();
                    let tiers = GameExt::tiers(&game);
                    (game, tiers)
                })
                .collect()
        };
        for (goal, tested) in [(3, 3..=7), (HOUSE_SIZE, 9..=12)] {
            let all = of_goal(goal);
            for (fuh, _) in all.iter().filter(|(g, _)| tested.contains(&g.hens)) {
                let (game, n): (&dyn Game, _) = (fuh, fuh.hens);
                for t in game.tiers() {
                    let sharing = game.variants_sharing(t);
                    // Every other variant of the goal that has the tier is listed.
                    let having = all.iter().filter(|(g, ts)| g.hens != n && ts.contains(&t));
                    let mut expected: Vec<String> = having.map(|(g, _)| g.variant()).collect();
                    let mut listed = sharing.clone();
                    expected.sort();
                    listed.sort();
                    assert_eq!(listed, expected, "{t:?} of {}", game.variant());
                    for v in sharing {
                        let other = FuchsUndHenne::new(&v).unwrap();
                        crate::assert_tier_shared(game, &other, t, &mut draw, 3);
                    }
                }
            }
        }
    }
}

//! Five Field Kono: the engine against a plain round-by-round solver written here on its own board
//! representation (4x4 board, all three stuck rules, every reachable position), and, behind
//! `--ignored`, the full 5x5 game against 000's published tables.

use std::collections::HashMap;

use perfectplay_core::{Game, GameExt, Position, Remoteness, Value, ValueRemoteness};
use perfectplay_games::FiveFieldKono;
use perfectplay_solve::{analyze, solve, NoProgress, SolveOptions};

/// Board: bit `y * n + x` (y = 0 at the top), `x` pebbles, `o` pebbles, `o` to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct State {
    x: u32,
    o: u32,
    o_to_move: bool,
}

struct Reference {
    n: i32,
    stuck: Value,
    states: Vec<State>,
    children: Vec<Vec<usize>>,
}

impl Reference {
    fn homes(n: i32) -> (u32, u32) {
        let bit = |x: i32, y: i32| 1u32 << (y * n + x);
        let mut x_home = bit(0, n - 2) | bit(n - 1, n - 2);
        let mut o_home = bit(0, 1) | bit(n - 1, 1);
        for i in 0..n {
            x_home |= bit(i, n - 1);
            o_home |= bit(i, 0);
        }
        (x_home, o_home)
    }

    /// `Some(value)` at the end of the game, from the view of the player to move.
    fn primitive(&self, s: State) -> Option<Value> {
        let (x_home, o_home) = Self::homes(self.n);
        let (their, my_home) = if s.o_to_move { (s.x, o_home) } else { (s.o, x_home) };
        if their & my_home == my_home {
            return Some(Value::Lose);
        }
        self.moves(s).is_empty().then_some(self.stuck)
    }

    fn moves(&self, s: State) -> Vec<State> {
        let n = self.n;
        let mine = if s.o_to_move { s.o } else { s.x };
        let mut out = Vec::new();
        for y in 0..n {
            for x in 0..n {
                if mine >> (y * n + x) & 1 == 0 {
                    continue;
                }
                for (dx, dy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    let (tx, ty) = (x + dx, y + dy);
                    if tx < 0 || ty < 0 || tx >= n || ty >= n {
                        continue;
                    }
                    let to = 1u32 << (ty * n + tx);
                    if (s.x | s.o) & to != 0 {
                        continue;
                    }
                    let moved = (mine & !(1u32 << (y * n + x))) | to;
                    out.push(if s.o_to_move {
                        State { x: s.x, o: moved, o_to_move: false }
                    } else {
                        State { x: moved, o: s.o, o_to_move: true }
                    });
                }
            }
        }
        out
    }

    fn new(n: i32, stuck: Value) -> Reference {
        let (x_home, o_home) = Self::homes(n);
        let mut r = Reference { n, stuck, states: Vec::new(), children: Vec::new() };
        let mut index: HashMap<State, usize> = HashMap::new();
        let start = State { x: x_home, o: o_home, o_to_move: false };
        index.insert(start, 0);
        r.states.push(start);
        let mut next = 0;
        while next < r.states.len() {
            let s = r.states[next];
            let mut kids = Vec::new();
            if r.primitive(s).is_none() {
                for c in r.moves(s) {
                    let k = *index.entry(c).or_insert_with(|| {
                        r.states.push(c);
                        r.states.len() - 1
                    });
                    kids.push(k);
                }
            }
            r.children.push(kids);
            next += 1;
        }
        r
    }

    /// Round `k` decides the positions of remoteness `k`: wins and losses first, then ties;
    /// whatever is left is a draw.
    fn solve(&self) -> Vec<(Value, u16)> {
        let m = self.states.len();
        let mut value: Vec<Option<(Value, u16)>> =
            self.states.iter().map(|&s| self.primitive(s).map(|v| (v, 0))).collect();
        for k in 1.. {
            let mut changed = Vec::new();
            for i in 0..m {
                if value[i].is_some() {
                    continue;
                }
                let kids: Vec<Option<(Value, u16)>> =
                    self.children[i].iter().map(|&c| value[c]).collect();
                if kids.iter().any(|v| *v == Some((Value::Lose, k - 1))) {
                    changed.push((i, (Value::Win, k)));
                } else if kids.iter().all(|v| matches!(v, Some((Value::Win, _))))
                    && kids.iter().any(|v| *v == Some((Value::Win, k - 1)))
                {
                    changed.push((i, (Value::Lose, k)));
                }
            }
            if changed.is_empty() && !value.iter().any(|v| matches!(v, Some((_, r)) if *r >= k)) {
                break;
            }
            for (i, v) in changed {
                value[i] = Some(v);
            }
        }
        for k in 1.. {
            let mut changed = Vec::new();
            for i in 0..m {
                if value[i].is_none()
                    && self.children[i].iter().any(|&c| value[c] == Some((Value::Tie, k - 1)))
                {
                    changed.push(i);
                }
            }
            if changed.is_empty()
                && !value.iter().any(|v| matches!(v, Some((Value::Tie, r)) if *r >= k))
            {
                break;
            }
            for i in changed {
                value[i] = Some((Value::Tie, k));
            }
        }
        value.into_iter().map(|v| v.unwrap_or((Value::Draw, 0))).collect()
    }

    fn text(&self, s: State) -> String {
        let n = self.n;
        let rows: Vec<String> = (0..n)
            .map(|y| {
                (0..n)
                    .map(|x| {
                        let b = 1u32 << (y * n + x);
                        if s.x & b != 0 {
                            'x'
                        } else if s.o & b != 0 {
                            'o'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect();
        format!("{} {}", rows.join("/"), if s.o_to_move { 'o' } else { 'x' })
    }
}

#[test]
fn small_board_matches_a_plain_solver_everywhere() {
    for (variant, stuck) in [
        ("4x4-regular", Value::Tie),
        ("4x4-lose-if-stuck", Value::Lose),
        ("4x4-win-if-stuck", Value::Win),
    ] {
        let game = FiveFieldKono::from_variant(variant).unwrap();
        let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
        let reference = Reference::new(4, stuck);
        let expected = reference.solve();
        let mut counts: HashMap<ValueRemoteness, u64> = HashMap::new();
        for (s, &(v, r)) in reference.states.iter().zip(&expected) {
            let p = game.parse_position(&reference.text(*s)).unwrap();
            let want = ValueRemoteness::new(v, Remoteness(r));
            assert_eq!(solution.get(&game, p), Some(want), "{variant} {}", reference.text(*s));
            *counts.entry(want).or_default() += 1;
        }
        // The analysis counts the same reachable positions.
        let analysis = analyze(&game, &solution, &NoProgress).unwrap();
        assert_eq!(analysis.total(), reference.states.len() as u64);
        for row in analysis.rows() {
            assert_eq!(
                counts.get(&row.value).copied(),
                Some(row.count),
                "{variant} {:?}",
                row.value
            );
        }
    }
}

/// Value-remoteness of the best move by 003 section 2.1, from the children's values.
fn best_over_children(
    game: &dyn Game,
    p: Position,
    value: impl Fn(Position) -> ValueRemoteness,
) -> ValueRemoteness {
    let mut children = Vec::new();
    game.children(p, &mut children);
    children.into_iter().map(|c| value(c).to_parent()).max().unwrap()
}

#[test]
fn small_board_values_are_best_over_children() {
    let game = FiveFieldKono::from_variant("4x4-regular").unwrap();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let size = 2 * 560 * 560;
    for p in (0..size).step_by(7).map(Position) {
        let v = solution.get(&game, p).unwrap();
        match game.primitive(p) {
            Some(prim) => assert_eq!(v, ValueRemoteness::new(prim, Remoteness(0))),
            None => {
                assert_eq!(v, best_over_children(&game, p, |c| solution.get(&game, c).unwrap()))
            }
        }
    }
}

/// Positions reachable from the start of the 5x5 game, counted by a search independent of the game
/// module: its own board (cell masks of `x` and `o`), its own moves and its own index (the
/// combinatorial number system: the `x` cells as a 7-subset of the 25 cells, the `o` cells as a
/// 7-subset of the 18 cells left; 15.3e9 bits). The side to move needs no bit: every move takes one
/// pebble one rank up or down, so the parity of the sum of all ranks says whose turn it is, and the
/// search level's parity is the turn.
fn reachable_by_independent_search() -> u64 {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    const N: usize = 5;
    let binomial = |n: u64, k: u64| -> u64 {
        if k > n {
            return 0;
        }
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    };
    let mut choose = [[0u64; 8]; 26];
    for (n, row) in choose.iter_mut().enumerate() {
        for (k, c) in row.iter_mut().enumerate() {
            *c = binomial(n as u64, k as u64);
        }
    }
    let colex = |mut mask: u32| -> u64 {
        let (mut r, mut k) = (0u64, 1usize);
        while mask != 0 {
            r += choose[mask.trailing_zeros() as usize][k];
            mask &= mask - 1;
            k += 1;
        }
        r
    };
    let index = |x: u32, o: u32| -> u64 {
        // The o cells renumbered among the cells without x.
        let mut packed = 0u32;
        let mut m = o;
        while m != 0 {
            let c = m.trailing_zeros();
            packed |= 1 << (c - (x & ((1u32 << c) - 1)).count_ones());
            m &= m - 1;
        }
        colex(x) * choose[18][7] + colex(packed)
    };
    let cell = |x: usize, y: usize| 1u32 << (y * N + x);
    let neighbours: Vec<Vec<u32>> = (0..N * N)
        .map(|c| {
            let (x, y) = ((c % N) as i32, (c / N) as i32);
            [(-1, -1), (1, -1), (-1, 1), (1, 1)]
                .iter()
                .filter(|(dx, dy)| (0..5).contains(&(x + dx)) && (0..5).contains(&(y + dy)))
                .map(|(dx, dy)| cell((x + dx) as usize, (y + dy) as usize))
                .collect()
        })
        .collect();
    // x starts at the bottom (y = 4) and the ends of y = 3; o at the top.
    let x_home = (0..N).fold(cell(0, 3) | cell(4, 3), |m, i| m | cell(i, 4));
    let o_home = (0..N).fold(cell(0, 1) | cell(4, 1), |m, i| m | cell(i, 0));
    let words = (choose[25][7] * choose[18][7]).div_ceil(64) as usize;
    let seen: Vec<AtomicU64> = (0..words).map(|_| AtomicU64::new(0)).collect();
    let mark = |x: u32, o: u32| -> bool {
        let i = index(x, o);
        let (w, b) = ((i / 64) as usize, 1u64 << (i % 64));
        seen[w].load(Relaxed) & b == 0 && seen[w].fetch_or(b, Relaxed) & b == 0
    };
    mark(x_home, o_home);
    let mut frontier = vec![(x_home, o_home)];
    let mut count = 1u64;
    let mut x_to_move = true;
    while !frontier.is_empty() {
        let next: Vec<(u32, u32)> = frontier
            .par_chunks(1 << 14)
            .flat_map_iter(|chunk| {
                let mut out = Vec::new();
                for &(x, o) in chunk {
                    // The game is over once either side holds all the other's starting points.
                    if x & o_home == o_home || o & x_home == x_home {
                        continue;
                    }
                    let (mine, occupied) = (if x_to_move { x } else { o }, x | o);
                    let mut m = mine;
                    while m != 0 {
                        let from = m.trailing_zeros() as usize;
                        m &= m - 1;
                        for &to in &neighbours[from] {
                            if occupied & to == 0 {
                                let moved = mine & !(1 << from) | to;
                                let (cx, co) = if x_to_move { (moved, o) } else { (x, moved) };
                                if mark(cx, co) {
                                    out.push((cx, co));
                                }
                            }
                        }
                    }
                }
                out
            })
            .collect();
        count += next.len() as u64;
        frontier = next;
        x_to_move = !x_to_move;
    }
    count
}

fn reference_rows(variant: &str) -> HashMap<ValueRemoteness, (u64, u64)> {
    let path =
        format!("{}/../../reference/fivefieldkono-{variant}.tsv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut rows = HashMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let value = Value::from_name(f[0]).unwrap();
        let r = if f[1] == "-" { 0 } else { f[1].parse().unwrap() };
        rows.insert(
            ValueRemoteness::new(value, Remoteness(r)),
            (f[2].parse().unwrap(), f[3].parse().unwrap()),
        );
    }
    rows
}

/// The full game, every variant: see `fivefieldkono.md` next to this file for how these results compare
/// with 000's tables and why they differ where they do.
#[test]
#[ignore = "full scale: minutes and 5 GB per variant; run with --ignored (BENCHMARKS.md)"]
fn full_board_solved_and_counted() {
    let reachable = reachable_by_independent_search();
    println!("independent search: {reachable} reachable positions");
    for (variant, start) in [
        ("regular", ValueRemoteness::new(Value::Tie, Remoteness(17))),
        ("lose-if-stuck", ValueRemoteness::DRAW),
        ("win-if-stuck", ValueRemoteness::DRAW),
    ] {
        let game = FiveFieldKono::from_variant(variant).unwrap();
        let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
        assert_eq!(solution.get(&game, game.start()), Some(start), "{variant} start");
        // Sampled reachable positions: the value is the best over the children.
        let mut next = perfectplay_core::xorshift(0x2545_f491_4f6c_dd1d);
        for _ in 0..2_000 {
            let mut p = game.start();
            for _ in 0..(next() % 300) {
                let rng = next();
                let moves = game.legal_moves(p);
                if moves.is_empty() {
                    break;
                }
                p = game.do_move(p, moves[(rng % moves.len() as u64) as usize]);
                let v = solution.get(&game, p).unwrap();
                match game.primitive(p) {
                    Some(prim) => assert_eq!(v, ValueRemoteness::new(prim, Remoteness(0))),
                    None => assert_eq!(
                        v,
                        best_over_children(&game, p, |c| solution.get(&game, c).unwrap())
                    ),
                }
            }
        }
        let analysis = analyze(&game, &solution, &NoProgress).unwrap();
        assert_eq!(
            analysis.total(),
            reachable,
            "{variant}: the analysis and the independent search"
        );
        let published = reference_rows(variant);
        println!("{variant}: value remoteness count published canonical published");
        for row in analysis.rows() {
            let (count, canonical) = published.get(&row.value).copied().unwrap_or((0, 0));
            println!(
                "{variant}: {} {:?} {} {count} {} {canonical}",
                row.value.value(),
                row.value.remoteness().map(|r| r.0),
                row.count,
                row.canonical_count
            );
            // The same rows, and never fewer positions than published: the published search
            // missed positions, it never counted ones we do not reach.
            assert!(
                published.contains_key(&row.value),
                "{variant}: row {:?} not published",
                row.value
            );
            assert!(
                row.count >= count && row.canonical_count >= canonical,
                "{variant} {:?}",
                row.value
            );
        }
        assert_eq!(analysis.rows().count(), published.len(), "{variant}: rows");
        if variant == "regular" {
            // The search confined to codes below 2^31 brackets the published counts from below
            // and gives exactly the published canonical count of every win and lose row.
            let below = BelowCode { game: &game, limit: 1 << 31 };
            let cut = analyze(&below, &solution, &NoProgress).unwrap();
            for row in analysis.rows() {
                let (count, canonical) = published[&row.value];
                let low = cut
                    .rows()
                    .find(|r| r.value == row.value)
                    .map_or((0, 0), |r| (r.count, r.canonical_count));
                println!("below 2^31: {:?} {} {}", row.value, low.0, low.1);
                assert!(low.0 <= count && low.1 <= canonical, "{:?}", row.value);
                if row.value.value() != Value::Tie {
                    assert_eq!(low.1, canonical, "{:?}", row.value);
                }
            }
        }
    }
}

/// The game with every move to a code of `limit` or more left out: a search that never enters such
/// a position.
struct BelowCode<'a> {
    game: &'a FiveFieldKono,
    limit: u64,
}

impl Game for BelowCode<'_> {
    // Its own children; no kernel, no undo: every child goes through the filter.
    perfectplay_core::forward_game!(game: identity, start, rules, text);
    fn space(&self) -> perfectplay_core::PositionSpace<'_> {
        self.game.space()
    }
    fn symmetry(&self) -> Option<&dyn perfectplay_core::Symmetry> {
        self.game.symmetry()
    }
    fn children(&self, p: Position, out: &mut Vec<Position>) {
        let first = out.len();
        self.game.children(p, out);
        let mut keep = first;
        for i in first..out.len() {
            if out[i].0 < self.limit {
                out[keep] = out[i];
                keep += 1;
            }
        }
        out.truncate(keep);
    }
}

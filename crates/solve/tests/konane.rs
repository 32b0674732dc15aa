//! Konane against the published winners and against a plain recursive reference solver written
//! here (Norvig-style moves on its own board representation, memoized minimax with remoteness).

use std::collections::HashMap;

use perfectplay_core::{Game, GameExt, Position, Value};
use perfectplay_games::{Konane, KonaneStart};
use perfectplay_solve::{solve, NoProgress, SolveOptions};

/// A state: occupied cells as a bit set, and whether white is to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct State {
    board: u64,
    white: bool,
}

struct Reference {
    rows: i32,
    cols: i32,
    memo: HashMap<State, (Value, u16)>,
}

impl Reference {
    fn cell(&self, x: i32, y: i32) -> u64 {
        1 << (y * self.cols + x)
    }

    fn start(&self, corner: bool) -> State {
        let full = (1u64 << (self.rows * self.cols)) - 1;
        let removed = if corner {
            self.cell(0, 0) | self.cell(1, 0)
        } else {
            self.cell(self.cols / 2, self.rows / 2) | self.cell(self.cols / 2 - 1, self.rows / 2)
        };
        State { board: full & !removed, white: false }
    }

    fn children(&self, s: State) -> Vec<State> {
        let mut out = Vec::new();
        let mine = i32::from(s.white);
        for y in 0..self.rows {
            for x in 0..self.cols {
                if s.board & self.cell(x, y) == 0 || (x + y) % 2 != mine {
                    continue;
                }
                for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let mut board = s.board & !self.cell(x, y);
                    let (mut cx, mut cy) = (x, y);
                    loop {
                        let (jx, jy, lx, ly) = (cx + dx, cy + dy, cx + 2 * dx, cy + 2 * dy);
                        if lx < 0 || ly < 0 || lx >= self.cols || ly >= self.rows {
                            break;
                        }
                        if board & self.cell(jx, jy) == 0 || board & self.cell(lx, ly) != 0 {
                            break;
                        }
                        board &= !self.cell(jx, jy);
                        out.push(State { board: board | self.cell(lx, ly), white: !s.white });
                        (cx, cy) = (lx, ly);
                    }
                }
            }
        }
        out
    }

    fn solve(&mut self, s: State) -> (Value, u16) {
        if let Some(&v) = self.memo.get(&s) {
            return v;
        }
        let kids: Vec<(Value, u16)> = self.children(s).into_iter().map(|c| self.solve(c)).collect();
        let result = if kids.is_empty() {
            (Value::Lose, 0)
        } else if let Some(r) = kids.iter().filter(|k| k.0 == Value::Lose).map(|k| k.1).min() {
            (Value::Win, r + 1)
        } else {
            (Value::Lose, kids.iter().map(|k| k.1).max().unwrap() + 1)
        };
        self.memo.insert(s, result);
        result
    }
}

fn encode(rows: usize, cols: usize, s: State) -> Position {
    Position(s.board | if s.white { 1 << (rows * cols) } else { 0 })
}

#[test]
fn agrees_with_reference_solver_on_every_board_up_to_5x5() {
    for rows in 3..=5 {
        for cols in 3..=5 {
            for corner in [true, false] {
                let start = if corner { KonaneStart::Corner } else { KonaneStart::Center };
                let game = Konane::new(rows, cols, start).unwrap();
                let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
                let mut reference =
                    Reference { rows: rows as i32, cols: cols as i32, memo: HashMap::new() };
                let s0 = reference.start(corner);
                assert_eq!(encode(rows, cols, s0), game.start());
                reference.solve(s0);
                for (&s, &(v, r)) in &reference.memo {
                    let vr = solution.get(&game, encode(rows, cols, s)).unwrap_or_else(|| {
                        panic!("{}: reachable position not solved", game.variant())
                    });
                    assert_eq!((vr.value(), vr.remoteness_or_zero()), (v, r), "{}", game.variant());
                }
                // The reference memo holds exactly the reachable positions; the solution holds
                // their canonical forms.
                let canonical: std::collections::HashSet<Position> =
                    reference.memo.keys().map(|&s| game.canonical(encode(rows, cols, s))).collect();
                assert_eq!(solution.len(), canonical.len() as u64, "{}", game.variant());
            }
        }
    }
}

/// The published winners of the boards up to `max` (rows x rows).
fn check_published_winners(sizes: std::ops::RangeInclusive<usize>) {
    let table = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../reference/konane-winners.tsv"
    ))
    .expect("reference/konane-winners.tsv");
    let mut checked = 0;
    for line in table.lines().filter(|l| !l.starts_with('#') && !l.starts_with("n\t")) {
        let f: Vec<&str> = line.split('\t').collect();
        let n: usize = f[0].parse().unwrap();
        if !sizes.contains(&n) {
            continue;
        }
        let game = Konane::from_variant(&format!("{n}x{n}-{}", f[1])).unwrap();
        // 6x6 reduces little by symmetry; solving without it is faster (BENCHMARKS.md).
        let options = SolveOptions { canonicalize: n <= 5, ..SolveOptions::default() };
        let solution = solve(&game, options, &NoProgress, None).unwrap();
        let start = solution.get(&game, game.start()).unwrap();
        // Black moves first: black wins iff the start is a win for the player to move.
        let winner = if start.value() == Value::Win { "black" } else { "white" };
        assert_eq!(winner, f[2], "{n}x{n} {}", f[1]);
        checked += 1;
    }
    assert!(checked >= 2, "no published board of these sizes");
}

#[test]
fn winners_match_the_published_table() {
    check_published_winners(3..=5);
}

/// 6x6 is a benchmark (BENCHMARKS.md).
#[test]
#[ignore = "full scale: 6x6, minutes; run with --ignored (BENCHMARKS.md)"]
fn winners_of_six_by_six_match_the_published_table() {
    check_published_winners(6..=6);
}

/// A solve without symmetry reduction holds every reachable position; its analysis counts the
/// symmetry classes itself and must agree with the analysis of the reduced solve, row for row.
#[test]
fn analysis_is_the_same_with_and_without_symmetry_reduction() {
    for (id, variant) in [("konane", "5x5-corner"), ("tictactoe", "regular")] {
        let game = perfectplay_games::lookup(id, Some(variant)).unwrap();
        let count = |canonicalize| {
            let solution = solve(
                game.as_ref(),
                SolveOptions { canonicalize, ..SolveOptions::default() },
                &NoProgress,
                None,
            )
            .unwrap();
            perfectplay_solve::analyze(game.as_ref(), &solution, &NoProgress).unwrap()
        };
        let (reduced, full) = (count(true), count(false));
        assert!(reduced.total() > reduced.canonical_total(), "{id} {variant}: no symmetry at all");
        assert_eq!(reduced, full, "{id} {variant}");
    }
}

//! Bagh-Chal's small boards (`3x3`: diagonals, 4 goats, 4 captures win; `4x4`: no diagonals, 12
//! goats, 5 captures win; `gamesman-3x3` and `gamesman-4x4`, GamesmanClassic's presets, the same
//! boards with 1 and 3 captures winning) against a plain solver written here on its own model: a board of cells
//! by coordinates, steps in the 8 directions, a diagonal step only from a point whose coordinates
//! sum to an even number, a capture as two steps the same way over a goat. Every position
//! reachable from the start is compared, value and remoteness, with the engine's solve. The 3x3
//! board runs in the default suite; the 4x4 one (36 million positions) with `--ignored`.

mod rounds;

use std::collections::BTreeMap;

use perfectplay_core::{Game, Value};
use perfectplay_games::BaghChal;
use perfectplay_solve::{analyze, solve, NoProgress, SolveOptions};
use rounds::Explored;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct State {
    /// 0 empty, 1 goat, 2 tiger; row by row from the top.
    cells: [u8; 16],
    hand: u8,
    tigers_to_move: bool,
}

#[derive(Clone, Copy)]
struct Rules {
    side: i32,
    diagonals: bool,
    goats: u8,
    captures: u8,
}

impl Rules {
    fn at(&self, x: i32, y: i32) -> Option<usize> {
        (0..self.side).contains(&x).then_some(())?;
        (0..self.side).contains(&y).then_some(())?;
        Some((y * self.side + x) as usize)
    }

    /// The point one step from `p` in direction `(dx, dy)` along a line.
    fn step(&self, p: usize, dx: i32, dy: i32) -> Option<usize> {
        let (x, y) = (p as i32 % self.side, p as i32 / self.side);
        let diagonal = dx != 0 && dy != 0;
        if diagonal && !(self.diagonals && (x + y) % 2 == 0) {
            return None;
        }
        self.at(x + dx, y + dy)
    }

    fn captured(&self, s: &State) -> u8 {
        self.goats - s.hand - s.cells.iter().filter(|&&c| c == 1).count() as u8
    }

    fn children(&self, s: State) -> Vec<State> {
        let n = (self.side * self.side) as usize;
        let mut out = Vec::new();
        let next = |cells, hand| State { cells, hand, tigers_to_move: !s.tigers_to_move };
        let dirs = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];
        if !s.tigers_to_move && s.hand > 0 {
            for p in (0..n).filter(|&p| s.cells[p] == 0) {
                let mut cells = s.cells;
                cells[p] = 1;
                out.push(next(cells, s.hand - 1));
            }
            return out;
        }
        let mine = if s.tigers_to_move { 2 } else { 1 };
        for p in (0..n).filter(|&p| s.cells[p] == mine) {
            for (dx, dy) in dirs {
                let Some(q) = self.step(p, dx, dy) else { continue };
                let mut cells = s.cells;
                cells[p] = 0;
                if s.cells[q] == 0 {
                    cells[q] = mine;
                    out.push(next(cells, s.hand));
                } else if mine == 2 && s.cells[q] == 1 {
                    if let Some(r) = self.step(q, dx, dy).filter(|&r| s.cells[r] == 0) {
                        cells[q] = 0;
                        cells[r] = 2;
                        out.push(next(cells, s.hand));
                    }
                }
            }
        }
        out
    }

    fn primitive(&self, s: State) -> Option<Value> {
        if self.captured(&s) >= self.captures {
            return Some(if s.tigers_to_move { Value::Win } else { Value::Lose });
        }
        self.children(s).is_empty().then_some(Value::Lose)
    }

    fn text(&self, s: State) -> String {
        let n = self.side as usize;
        let rows: Vec<String> = s.cells[..n * n]
            .chunks(n)
            .map(|r| r.iter().map(|&c| ['-', 'G', 'T'][c as usize]).collect())
            .collect();
        format!("{} {} {}", rows.join("/"), if s.tigers_to_move { 'T' } else { 'G' }, s.hand)
    }
}

/// The engine's solution of `variant` against the plain solver's of `rules` at every reachable
/// position, which must be more than `fewest`; the start's value.
fn check(variant: &str, rules: Rules, fewest: usize) -> Value {
    let game = BaghChal::from_variant(variant).unwrap();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let mut cells = [0u8; 16];
    let last = (rules.side - 1) as usize;
    for c in [0, last, last * rules.side as usize, last * rules.side as usize + last] {
        cells[c] = 2;
    }
    let start = State { cells, hand: rules.goats, tigers_to_move: false };
    assert_eq!(game.position_to_string(game.start()), rules.text(start));
    let explored = Explored::new(start, |s| rules.primitive(s), |s| rules.children(s));
    let values = explored.solve();
    explored.check_solution(&values, &game, &solution, |s| rules.text(s));
    // The analysis counts (by the classes' sizes, without making their positions) what the plain
    // solver's states hold, value by value and remoteness by remoteness.
    let analysis = analyze(&game, &solution, &NoProgress).unwrap();
    let (start, states) = (values[0].0, explored.states.len());
    assert_eq!(analysis.total(), states as u64);
    let mut expected: BTreeMap<(&str, u16), u64> = BTreeMap::new();
    for &(v, r) in &values {
        *expected.entry((v.name(), if v == Value::Draw { 0 } else { r })).or_default() += 1;
    }
    let got: BTreeMap<(&str, u16), u64> = analysis
        .rows()
        .map(|row| ((row.value.value().name(), row.value.remoteness_or_zero()), row.count))
        .collect();
    assert_eq!(got, expected, "{variant}: counts per value and remoteness");
    assert!(states > fewest, "{states}");
    eprintln!("{variant}: start {start:?}, {states} reachable positions");
    start
}

#[test]
fn bagh_chal_3x3_matches_a_plain_solver_everywhere() {
    check("3x3", Rules { side: 3, diagonals: true, goats: 4, captures: 4 }, 100);
}

/// GamesmanClassic's 3x3 preset: one capture wins for the tigers.
#[test]
fn bagh_chal_gamesman_3x3_matches_a_plain_solver_everywhere() {
    let rules = Rules { side: 3, diagonals: true, goats: 4, captures: 1 };
    assert_eq!(check("gamesman-3x3", rules, 100), Value::Lose, "the goats lose");
}

/// 36,402,406 positions: about 10 minutes here, most of it the plain solver's rounds; run with
/// `--ignored` (BENCHMARKS.md, "Bagh-Chal and Topitop", records the run).
#[test]
#[ignore]
fn bagh_chal_4x4_matches_a_plain_solver_everywhere() {
    check("4x4", Rules { side: 4, diagonals: false, goats: 12, captures: 5 }, 10_000);
}

/// GamesmanClassic's 4x4 preset: three captures win for the tigers (as long as the 4x4 check: run
/// with `--ignored`).
#[test]
#[ignore]
fn bagh_chal_gamesman_4x4_matches_a_plain_solver_everywhere() {
    let rules = Rules { side: 4, diagonals: false, goats: 12, captures: 3 };
    assert_eq!(check("gamesman-4x4", rules, 10_000), Value::Lose, "the goats lose in 26");
}

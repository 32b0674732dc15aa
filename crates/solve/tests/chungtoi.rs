//! Chung-Toi against a plain solver written here on its own board: a `+` piece goes to any empty
//! cell of its row or column, an `x` piece to any empty cell of its diagonals (on a 3x3 board
//! that is sliding any distance and jumping whatever lies between), each then set either way; a
//! piece set in place either way is a turn or a pass. Every position reachable from the start is
//! compared.

mod rounds;

use perfectplay_core::{Game, Value};
use perfectplay_games::ChungToi;
use perfectplay_solve::{analyze, solve, NoProgress, SolveOptions};
use rounds::Explored;

/// A cell: `None` empty, else the piece's color (0 red, 1 white) and whether it stands `x`.
type Cell = Option<(usize, bool)>;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct State {
    cells: [Cell; 9],
    turn: usize,
}

fn line_of(s: &State, who: usize) -> bool {
    const LINES: [[usize; 3]; 8] =
        [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
    LINES.iter().any(|l| l.iter().all(|&i| matches!(s.cells[i], Some((c, _)) if c == who)))
}

/// Whether a piece at `a` standing `cross` reaches `b`.
fn reaches(a: usize, b: usize, cross: bool) -> bool {
    let (dx, dy) = ((a % 3).abs_diff(b % 3), (a / 3).abs_diff(b / 3));
    a != b && if cross { dx == dy } else { dx == 0 || dy == 0 }
}

fn children(s: State) -> Vec<State> {
    let mine: Vec<usize> =
        (0..9).filter(|&i| matches!(s.cells[i], Some((c, _)) if c == s.turn)).collect();
    let mut out = Vec::new();
    let mut put = |from: Option<usize>, to: usize| {
        for cross in [false, true] {
            let mut next = State { cells: s.cells, turn: 1 - s.turn };
            if let Some(f) = from {
                next.cells[f] = None;
            }
            next.cells[to] = Some((s.turn, cross));
            out.push(next);
        }
    };
    if mine.len() < 3 {
        (0..9).filter(|&i| s.cells[i].is_none()).for_each(|to| put(None, to));
        return out;
    }
    for from in mine {
        let cross = s.cells[from].unwrap().1;
        put(Some(from), from);
        for to in (0..9).filter(|&t| s.cells[t].is_none() && reaches(from, t, cross)) {
            put(Some(from), to);
        }
    }
    out
}

fn text(s: State) -> String {
    let cell = |c: Cell| match c {
        None => "--".to_string(),
        Some((who, cross)) => format!("{}{}", ["R", "W"][who], if cross { 'x' } else { '+' }),
    };
    let rows: Vec<String> =
        s.cells.chunks(3).map(|r| r.iter().map(|&c| cell(c)).collect()).collect();
    format!("{} {}", rows.join("/"), ["R", "W"][s.turn])
}

#[test]
fn chungtoi_matches_a_plain_solver_everywhere() {
    let game = ChungToi::default();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let start = State { cells: [None; 9], turn: 0 };
    assert_eq!(game.position_to_string(game.start()), text(start));
    let explored =
        Explored::new(start, |s| line_of(&s, 1 - s.turn).then_some(Value::Lose), children);
    let values = explored.solve();
    explored.check_solution(&values, &game, &solution, text);
    let analysis = analyze(&game, &solution, &NoProgress).unwrap();
    assert_eq!(analysis.total(), explored.states.len() as u64);
    // Neither side can force a line from the empty board.
    assert_eq!(values[0].0, Value::Draw);
}

//! 3-Spot against a plain solver written here on its own board: pieces as pairs of neighboring
//! cells found by their coordinates, the rules as the module states them (a point per spot the
//! moved piece covers, the game over at 12 points, no white move after a move that ends it, a
//! player without a move loses), every position reachable from the start compared.

mod rounds;

use perfectplay_core::{Game, Value};
use perfectplay_games::ThreeSpot;
use perfectplay_solve::{analyze, solve, NoProgress, SolveOptions};
use rounds::Explored;

/// A piece: its two cells `(x, y)`, y the row from the top, the lower cell first.
type Piece = [(u8, u8); 2];

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct State {
    /// Blue's, red's and white's pieces.
    pieces: [Piece; 3],
    /// Blue's and red's scores.
    scores: [u8; 2],
    /// 0 blue, 1 red.
    turn: usize,
}

fn all_pieces() -> Vec<Piece> {
    let cells: Vec<(u8, u8)> = (0..3).flat_map(|y| (0..3).map(move |x| (x, y))).collect();
    let mut out = Vec::new();
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            if a.0.abs_diff(b.0) + a.1.abs_diff(b.1) == 1 {
                out.push([a, b]);
            }
        }
    }
    out
}

fn overlap(a: &Piece, b: &Piece) -> bool {
    a.iter().any(|c| b.contains(c))
}

fn spots(p: &Piece) -> u8 {
    p.iter().filter(|c| c.1 == 2).count() as u8
}

fn children(all: &[Piece], s: State) -> Vec<State> {
    let (mine, other, white) = (s.pieces[s.turn], s.pieces[1 - s.turn], s.pieces[2]);
    let mut out = Vec::new();
    for d in all.iter().filter(|d| **d != mine && !overlap(d, &other) && !overlap(d, &white)) {
        let mut next = s;
        next.pieces[s.turn] = *d;
        next.scores[s.turn] += spots(d);
        next.turn = 1 - s.turn;
        if next.scores[s.turn] >= 12 {
            out.push(next);
            continue;
        }
        for e in all.iter().filter(|e| **e != white && !overlap(e, d) && !overlap(e, &other)) {
            out.push(State { pieces: [next.pieces[0], next.pieces[1], *e], ..next });
        }
    }
    out
}

fn primitive(all: &[Piece], s: State) -> Option<Value> {
    for x in 0..2 {
        if s.scores[x] >= 12 {
            let winner = if s.scores[1 - x] >= 6 { x } else { 1 - x };
            return Some(if winner == s.turn { Value::Win } else { Value::Lose });
        }
    }
    children(all, s).is_empty().then_some(Value::Lose)
}

fn text(s: State) -> String {
    let rows: Vec<String> = (0..3)
        .map(|y| {
            (0..3)
                .map(|x| {
                    let at = s.pieces.iter().position(|p| p.contains(&(x, y)));
                    at.map_or('-', |i| ['b', 'r', 'w'][i])
                })
                .collect()
        })
        .collect();
    format!("{} {} {} {}", rows.join("/"), s.scores[0], s.scores[1], ['b', 'r'][s.turn])
}

#[test]
fn threespot_matches_a_plain_solver_everywhere() {
    let game = ThreeSpot::default();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let all = all_pieces();
    assert_eq!(all.len(), 12);
    // Upright pieces side by side on the spots: red, white, blue from the left; blue to move.
    let upright = |x: u8| [(x, 1), (x, 2)];
    let start = State { pieces: [upright(2), upright(0), upright(1)], scores: [0, 0], turn: 0 };
    assert_eq!(game.position_to_string(game.start()), text(start));
    let explored = Explored::new(start, |s| primitive(&all, s), |s| children(&all, s));
    let values = explored.solve();
    explored.check_solution(&values, &game, &solution, text);
    let analysis = analyze(&game, &solution, &NoProgress).unwrap();
    assert_eq!(analysis.total(), explored.states.len() as u64);
    // Blue, the first player, wins.
    assert_eq!(values[0].0, Value::Win);
}

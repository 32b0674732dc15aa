//! Chess endgames against the published longest mates and a plain solver written here on its own
//! board (files and ranks, attacks found by checking the squares between two squares).
//!
//! Published: with king and queen against king White mates in at most 10 moves, with king and rook
//! in at most 16 (Ströhlein's 1970 retrograde analysis; the Nalimov and Syzygy tables agree): the
//! longest White-to-move wins are 19 and 31 plies.

mod rounds;

use perfectplay_core::{Game, Value};
use perfectplay_games::ChessEndgame;
use perfectplay_solve::{analyze, solve, NoProgress, SolveOptions};
use rounds::Explored;

/// A square: file 0..8 (a..h), rank 0..8 (1..8).
type Square = (i8, i8);

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct State {
    wk: Square,
    bk: Square,
    /// White's queen or rook; `None` once captured.
    piece: Option<Square>,
    black_to_move: bool,
}

fn distance(a: Square, b: Square) -> i8 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}

fn squares() -> impl Iterator<Item = Square> {
    (0..8).flat_map(|f| (0..8).map(move |r| (f, r)))
}

/// Whether a queen (or rook) on `from` attacks `to` when only `blockers` stand in between.
fn attacks(queen: bool, from: Square, to: Square, blockers: &[Square]) -> bool {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let straight = dx == 0 || dy == 0;
    if from == to || !(straight || queen && dx.abs() == dy.abs()) {
        return false;
    }
    let n = dx.abs().max(dy.abs());
    (1..n).all(|k| !blockers.contains(&(from.0 + k * dx.signum(), from.1 + k * dy.signum())))
}

fn children(queen: bool, s: State) -> Vec<State> {
    let mut out = Vec::new();
    let next = State { black_to_move: !s.black_to_move, ..s };
    if s.black_to_move {
        for t in squares().filter(|&t| distance(t, s.bk) == 1 && distance(t, s.wk) > 1) {
            let attacked = s.piece.is_some_and(|p| attacks(queen, p, t, &[s.wk]));
            if !attacked {
                out.push(State { bk: t, piece: s.piece.filter(|&p| p != t), ..next });
            }
        }
        return out;
    }
    for t in squares().filter(|&t| distance(t, s.wk) == 1 && distance(t, s.bk) > 1) {
        if Some(t) != s.piece {
            out.push(State { wk: t, ..next });
        }
    }
    if let Some(p) = s.piece {
        for t in squares().filter(|&t| t != s.wk && t != s.bk) {
            if attacks(queen, p, t, &[s.wk, s.bk]) {
                out.push(State { piece: Some(t), ..next });
            }
        }
    }
    out
}

fn primitive(queen: bool, s: State) -> Option<Value> {
    // Two bare kings cannot mate.
    let Some(p) = s.piece else { return Some(Value::Tie) };
    if !children(queen, s).is_empty() {
        return None;
    }
    let check = s.black_to_move && attacks(queen, p, s.bk, &[s.wk]);
    Some(if check { Value::Lose } else { Value::Tie })
}

fn text(queen: bool, s: State) -> String {
    let sq = |(f, r): Square| format!("{}{}", (b'a' + f as u8) as char, r + 1);
    let piece =
        s.piece.map_or(String::new(), |p| format!(" {}{}", if queen { 'Q' } else { 'R' }, sq(p)));
    format!("K{}{piece} k{} {}", sq(s.wk), sq(s.bk), if s.black_to_move { 'b' } else { 'w' })
}

fn check_variant(variant: &str, queen: bool, start: State, longest_mate_plies: u16) {
    let game = ChessEndgame::from_variant(variant).unwrap();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    assert_eq!(game.position_to_string(game.start()), text(queen, start));
    let explored = Explored::new(start, |s| primitive(queen, s), |s| children(queen, s));
    let values = explored.solve();
    explored.check_solution(&values, &game, &solution, |s| text(queen, s));
    let analysis = analyze(&game, &solution, &NoProgress).unwrap();
    assert_eq!(analysis.total(), explored.states.len() as u64);
    // The longest mate with White to move is the published one.
    let longest = explored
        .states
        .iter()
        .zip(&values)
        .filter(|(s, v)| !s.black_to_move && v.0 == Value::Win)
        .map(|(_, v)| v.1)
        .max();
    assert_eq!(longest, Some(longest_mate_plies), "{variant}");
    // White wins from the start; Black never wins.
    assert_eq!(values[0].0, Value::Win);
    assert!(explored.states.iter().zip(&values).all(|(s, v)| {
        let black_wins = if s.black_to_move { Value::Win } else { Value::Lose };
        v.0 != black_wins
    }));
}

#[test]
fn king_and_queen_mate_in_at_most_ten() {
    let start = State { wk: (4, 0), bk: (4, 7), piece: Some((3, 0)), black_to_move: false };
    check_variant("kqk", true, start, 19);
}

#[test]
fn king_and_rook_mate_in_at_most_sixteen() {
    let start = State { wk: (4, 0), bk: (4, 7), piece: Some((0, 0)), black_to_move: false };
    check_variant("krk", false, start, 31);
}

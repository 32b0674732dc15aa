//! QuickCross against an independent solver written here: its own board (a character per cross),
//! its own moves and lines, and a plain round-by-round retrograde solution of its own reachable
//! graph (wins and losses by remoteness, the rest draws: QuickCross has no ties), compared
//! position by position with the engine on 3x3. On 4x4 (ignored: a long solve) the engine's
//! values are checked for what the rules imply: the game is impartial, so a board has the same
//! value whoever is to move, and every value is the best over the children.

mod common;

use std::collections::{HashMap, VecDeque};

use perfectplay_core::{Game, GameExt, Value};
use perfectplay_games::QuickCross;
use perfectplay_solve::{analyze, solve, NoProgress, SolveOptions};

/// Crosses row by row ('.', '-' or '|') and the player to move (1 or 2).
#[derive(Clone, PartialEq, Eq, Hash)]
struct State {
    board: Vec<char>,
    turn: u8,
}

struct Rules {
    n: usize,
    lines: Vec<Vec<usize>>,
}

impl Rules {
    fn new(n: usize) -> Rules {
        let mut lines: Vec<Vec<usize>> = Vec::new();
        for i in 0..n {
            lines.push((0..n).map(|j| i * n + j).collect());
            lines.push((0..n).map(|j| j * n + i).collect());
        }
        lines.push((0..n).map(|j| j * n + j).collect());
        lines.push((0..n).map(|j| j * n + n - 1 - j).collect());
        Rules { n, lines }
    }

    fn lost(&self, s: &State) -> bool {
        self.lines.iter().any(|l| {
            let first = s.board[l[0]];
            first != '.' && l.iter().all(|&c| s.board[c] == first)
        })
    }

    /// Children in the engine's move order: per cross, place '-' then '|', or turn.
    fn children(&self, s: &State) -> Vec<State> {
        let mut out = Vec::new();
        let mut push = |c: usize, ch: char| {
            let mut t = s.clone();
            t.board[c] = ch;
            t.turn = 3 - s.turn;
            out.push(t);
        };
        for c in 0..self.n * self.n {
            match s.board[c] {
                '.' => {
                    push(c, '-');
                    push(c, '|');
                }
                '-' => push(c, '|'),
                _ => push(c, '-'),
            }
        }
        out
    }

    fn text(&self, s: &State) -> String {
        let rows: Vec<String> = s
            .board
            .chunks(self.n)
            .map(|r| {
                r.iter()
                    .map(|&c| match c {
                        '-' => 'h',
                        '|' => 'v',
                        _ => '-',
                    })
                    .collect()
            })
            .collect();
        format!("{} {}", rows.join("/"), s.turn)
    }

    /// Every reachable state's (value, remoteness), round by round: a state wins in n if a child
    /// loses in n - 1, loses in n if every child wins and the slowest in n - 1; the rest draw.
    fn retrograde(&self) -> HashMap<State, (Value, u16)> {
        let start = State { board: vec!['.'; self.n * self.n], turn: 1 };
        let mut index = HashMap::from([(start.clone(), 0usize)]);
        let (mut states, mut kids) = (vec![start], Vec::new());
        let mut queue = VecDeque::from([0usize]);
        while let Some(i) = queue.pop_front() {
            let s = states[i].clone();
            let mut k = Vec::new();
            if !self.lost(&s) {
                for c in self.children(&s) {
                    let next = states.len();
                    let j = *index.entry(c.clone()).or_insert(next);
                    if j == next {
                        states.push(c);
                        queue.push_back(j);
                    }
                    k.push(j);
                }
            }
            kids.push(k);
        }
        let mut value: Vec<Option<(Value, u16)>> =
            states.iter().map(|s| self.lost(s).then_some((Value::Lose, 0))).collect();
        for n in 1u16.. {
            let before = value.clone();
            for i in 0..states.len() {
                if value[i].is_some() {
                    continue;
                }
                let ks: Vec<_> = kids[i].iter().map(|&j| before[j]).collect();
                if ks.contains(&Some((Value::Lose, n - 1))) {
                    value[i] = Some((Value::Win, n));
                } else if ks.iter().all(|k| matches!(k, Some((Value::Win, _))))
                    && ks.contains(&Some((Value::Win, n - 1)))
                {
                    value[i] = Some((Value::Lose, n));
                }
            }
            if value == before {
                break;
            }
        }
        states.into_iter().zip(value).map(|(s, v)| (s, v.unwrap_or((Value::Draw, 0)))).collect()
    }
}

#[test]
fn three_by_three_agrees_with_an_independent_retrograde_solver() {
    let game = QuickCross::new(3).unwrap();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let rules = Rules::new(3);
    let values = rules.retrograde();
    for (s, &(v, r)) in &values {
        let p = game.parse_position(&rules.text(s)).unwrap();
        let got = solution.get(&game, p).expect("reachable position solved");
        assert_eq!((got.value(), got.remoteness_or_zero()), (v, r), "{}", rules.text(s));
    }
    let analysis = analyze(&game, &solution, &NoProgress).unwrap();
    assert_eq!(analysis.total(), values.len() as u64);
    // Both solvers: the first player loses in 6; some positions are draws.
    let start = State { board: vec!['.'; 9], turn: 1 };
    assert_eq!(values[&start], (Value::Lose, 6));
    assert!(values.values().any(|v| v.0 == Value::Draw));
}

/// Impartiality and the best-over-children property along random games.
fn check_impartial_along_random_games(game: &QuickCross) {
    let solution = solve(game, SolveOptions::default(), &NoProgress, None).unwrap();
    let mut next = perfectplay_core::xorshift(0x853c_49e6_748f_ea9b);
    for _ in 0..300 {
        let mut p = game.start();
        for _ in 0..40 {
            let text = game.position_to_string(p);
            let (board, turn) = text.rsplit_once(' ').unwrap();
            let other = game
                .parse_position(&format!("{board} {}", if turn == "1" { 2 } else { 1 }))
                .unwrap();
            let (a, b) = (solution.get(game, p).unwrap(), solution.get(game, other));
            // The other turn may not be reachable (the empty board); where it is, it agrees.
            if let Some(b) = b {
                assert_eq!(a, b, "{text}");
            }
            common::check_best_over_children(game, &solution, p).unwrap();
            let moves = game.legal_moves(p);
            if moves.is_empty() {
                break;
            }
            p = game.do_move(p, moves[(next() % moves.len() as u64) as usize]);
        }
    }
}

#[test]
fn three_by_three_is_impartial() {
    check_impartial_along_random_games(&QuickCross::new(3).unwrap());
}

#[test]
#[ignore = "full scale: 4x4 solves tens of millions of positions"]
fn four_by_four_is_impartial() {
    check_impartial_along_random_games(&QuickCross::new(4).unwrap());
}

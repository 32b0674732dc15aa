//! Tac Tix against an independent solver and the mirror strategy.
//!
//! Independent check: a plain memoized minimax over boards kept as grids of booleans, with its
//! own move generation (every unbroken run of coins in a row or column) and remoteness (win
//! fastest, lose slowest), normal play and misère, compared with the engine on every board with
//! either player to move, positions handed to the engine in their text form.
//!
//! Known answer (normal play, the mirror strategy): on an even side the second player wins by
//! answering each move with its image under the half turn (it lies in other rows and columns, so
//! it is always legal); on an odd side the first player takes the center and then does the same.

use std::collections::HashMap;

use perfectplay_core::{Game, GameExt, Value};
use perfectplay_games::TacTix;
use perfectplay_solve::{solve, NoProgress, SolveOptions};

type Grid = Vec<Vec<bool>>;

/// The boards after every legal move: for each row and column, every unbroken run of coins.
fn children(g: &Grid) -> Vec<Grid> {
    let n = g.len();
    let mut out = Vec::new();
    for vertical in [false, true] {
        for line in 0..n {
            let at = |i: usize| if vertical { (i, line) } else { (line, i) };
            for start in 0..n {
                for end in start..n {
                    if !(start..=end).all(|i| g[at(i).0][at(i).1]) {
                        break;
                    }
                    if vertical && start == end {
                        continue; // a single coin is one move, counted with the rows
                    }
                    let mut c = g.clone();
                    (start..=end).for_each(|i| c[at(i).0][at(i).1] = false);
                    out.push(c);
                }
            }
        }
    }
    out
}

fn brute(g: &Grid, misere: bool, memo: &mut HashMap<Grid, (Value, u16)>) -> (Value, u16) {
    if let Some(&v) = memo.get(g) {
        return v;
    }
    let kids = children(g);
    let result = if kids.is_empty() {
        (if misere { Value::Win } else { Value::Lose }, 0)
    } else {
        let vals: Vec<(Value, u16)> = kids.iter().map(|k| brute(k, misere, memo)).collect();
        match vals.iter().filter(|k| k.0 == Value::Lose).map(|k| k.1).min() {
            Some(r) => (Value::Win, r + 1),
            None => (Value::Lose, vals.iter().map(|k| k.1).max().unwrap() + 1),
        }
    };
    memo.insert(g.clone(), result);
    result
}

fn text(g: &Grid, turn: u8) -> String {
    let rows: Vec<String> =
        g.iter().map(|r| r.iter().map(|&c| if c { 'o' } else { '-' }).collect()).collect();
    format!("{} {turn}", rows.join("/"))
}

#[test]
fn agrees_with_a_plain_memoized_solver() {
    for n in 1..=4 {
        for misere in [false, true] {
            let game = TacTix::new(n, misere).unwrap();
            let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
            let mut memo = HashMap::new();
            brute(&vec![vec![true; n]; n], misere, &mut memo);
            // Every set of coins is reachable (coins can be taken one at a time).
            assert_eq!(memo.len(), 1 << (n * n));
            for (g, &(v, r)) in &memo {
                for turn in [1, 2] {
                    let p = game.parse_position(&text(g, turn)).unwrap();
                    let got = solution.get(&game, p).expect("solved");
                    let name = game.variant();
                    assert_eq!((got.value(), got.remoteness_or_zero()), (v, r), "{name} {g:?}");
                    assert_eq!(game.legal_moves(p).len(), children(g).len());
                }
            }
        }
    }
}

#[test]
fn normal_play_follows_the_mirror_strategy() {
    for n in 1..=4 {
        let game = TacTix::new(n, false).unwrap();
        let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
        let start = solution.get(&game, game.start()).unwrap().value();
        assert_eq!(start, if n % 2 == 0 { Value::Lose } else { Value::Win }, "{n}x{n}");
        if n % 2 == 1 {
            // Taking the center alone wins.
            let center = format!("{}{}", (b'a' + (n / 2) as u8) as char, n / 2 + 1);
            let child = game.do_move(game.start(), game.parse_move(game.start(), &center).unwrap());
            assert_eq!(solution.get(&game, child).unwrap().value(), Value::Lose, "{n}x{n}");
        }
    }
}

#[test]
fn variants_that_do_not_parse_are_errors() {
    for v in ["", "0x0", "5x5", "3x4", "3x3-misère", "3x3misere", "x", "4x4-", "-misere"] {
        assert!(perfectplay_games::lookup("tactix", Some(v)).is_err(), "{v}");
    }
}

//! Chomp against its known answer and an independent solver.
//!
//! Known answer (strategy stealing, Gale 1974): on every bar larger than 1x1 the first player
//! wins. If eating only the top right square lost, the reply that wins against it could have been
//! played first, since every square it eats is eaten with the top right one anyway.
//!
//! Independent check: a plain memoized minimax over bars kept as sets of (row, column) squares,
//! with remoteness (win fastest, lose slowest), compared with the engine on every reachable bar
//! with either player to move, positions handed to the engine in their text form.

use std::collections::{BTreeSet, HashMap};

use perfectplay_core::{Game, GameExt, Value};
use perfectplay_games::Chomp;
use perfectplay_solve::{solve, NoProgress, SolveOptions};

/// Squares left, (row from the bottom, column from the left); (0, 0) is poisoned.
type Bar = BTreeSet<(usize, usize)>;

fn eat(bar: &Bar, (r, c): (usize, usize)) -> Bar {
    bar.iter().copied().filter(|&(y, x)| y < r || x < c).collect()
}

fn brute(bar: &Bar, memo: &mut HashMap<Bar, (Value, u16)>) -> (Value, u16) {
    if let Some(&v) = memo.get(bar) {
        return v;
    }
    let result = if bar.len() == 1 {
        (Value::Lose, 0)
    } else {
        let kids: Vec<(Value, u16)> =
            bar.iter().filter(|&&s| s != (0, 0)).map(|&s| brute(&eat(bar, s), memo)).collect();
        match kids.iter().filter(|k| k.0 == Value::Lose).map(|k| k.1).min() {
            Some(r) => (Value::Win, r + 1),
            None => (Value::Lose, kids.iter().map(|k| k.1).max().unwrap() + 1),
        }
    };
    memo.insert(bar.clone(), result);
    result
}

fn text(bar: &Bar, rows: usize, cols: usize, turn: u8) -> String {
    let lines: Vec<String> = (0..rows)
        .rev()
        .map(|r| (0..cols).map(|c| if bar.contains(&(r, c)) { 'o' } else { '.' }).collect())
        .collect();
    format!("{} {turn}", lines.join("/"))
}

#[test]
fn agrees_with_a_plain_memoized_solver() {
    for (rows, cols) in [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 4), (4, 5), (1, 5)] {
        let game = Chomp::new(rows, cols).unwrap();
        let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
        let full: Bar = (0..rows).flat_map(|r| (0..cols).map(move |c| (r, c))).collect();
        let mut memo = HashMap::new();
        brute(&full, &mut memo);
        // The memo holds exactly the bars reachable from the full one.
        let shapes: u64 = (1..=(rows + cols) as u64).product::<u64>()
            / (1..=rows as u64).product::<u64>()
            / (1..=cols as u64).product::<u64>();
        assert_eq!(memo.len() as u64, shapes - 1, "{rows}x{cols}: every staircase but the empty");
        for (bar, &(v, r)) in &memo {
            for turn in [1, 2] {
                let p = game.parse_position(&text(bar, rows, cols, turn)).unwrap();
                let got = solution.get(&game, p).expect("solved");
                assert_eq!(
                    (got.value(), got.remoteness_or_zero()),
                    (v, r),
                    "{rows}x{cols} {bar:?}"
                );
                assert_eq!(game.legal_moves(p).len(), bar.len() - 1);
            }
        }
    }
}

fn first_player_wins(variant: &str) {
    let game = perfectplay_games::lookup("chomp", Some(variant)).unwrap();
    let solution = solve(game.as_ref(), SolveOptions::default(), &NoProgress, None).unwrap();
    let start = solution.get(game.as_ref(), game.start()).unwrap();
    assert_eq!(start.value(), Value::Win, "{variant}");
}

#[test]
fn the_first_player_wins_every_listed_bar() {
    let entry = perfectplay_games::catalog().iter().find(|e| e.id == "chomp").unwrap();
    for v in entry.listed_variants.iter().filter(|&&v| v != "11x11") {
        first_player_wins(v);
    }
    // 1x1: only the poisoned square, so the first player has lost already.
    let one = Chomp::new(1, 1).unwrap();
    assert_eq!(one.primitive(one.start()), Some(Value::Lose));
}

/// 11x11 (1.4 million positions, about 20 s): run with `--ignored`.
#[test]
#[ignore]
fn the_first_player_wins_11x11() {
    first_player_wins("11x11");
}

#[test]
fn square_bars_have_a_known_winning_move() {
    // On a square bar the first player wins by eating b<n-1> (all but the bottom row and the
    // left column), then mirroring (the classical strategy): the engine's value for that child
    // must be a loss for the player to move.
    for n in 2..=6 {
        let game = Chomp::new(n, n).unwrap();
        let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
        let mv = game.parse_move(game.start(), &format!("b{}", n - 1)).unwrap();
        let child = game.do_move(game.start(), mv);
        assert_eq!(solution.get(&game, child).unwrap().value(), Value::Lose, "{n}x{n}");
    }
}

#[test]
fn variants_that_do_not_parse_are_errors() {
    for v in ["", "x", "0x3", "3x0", "16x2", "3x", "ax3", "3x3x3", "-1x2"] {
        assert!(perfectplay_games::lookup("chomp", Some(v)).is_err(), "{v}");
    }
}

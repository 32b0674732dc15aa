//! Dawson's Chess against the octal game 0.137 (Guy and Smith 1956; Berlekamp, Conway and Guy,
//! Winning Ways, chapter 4; OEIS A002187): its nim values, computed here on their own by the mex
//! rule, match the published ones, periodic with period 34 after the last exception at n = 51.
//!
//! The 1 x n board is the heap n: a run of k free cells (cells no king occupies or attacks,
//! between taken cells or the board's ends) is a heap of k, a king placed in it takes its cell
//! and its free neighbors (0.137: take 1 cell leaving nothing, 2 leaving nothing or one run, 3
//! leaving nothing, one run or two). So a position's value is a win for the player to move iff
//! the nim sum of its runs' values is not 0, which is checked on every position of some boards;
//! the start of every listed length is a win iff the value of the heap n is not 0.

use perfectplay_core::{Game, GameExt, Value};
use perfectplay_games::DawsonsChess;
use perfectplay_solve::{solve, NoProgress, SolveOptions};

/// Nim values of 0.137 for heaps 0..=max, by the mex rule over its moves.
fn octal_0137(max: usize) -> Vec<u32> {
    let mut g = vec![0u32];
    for n in 1..=max {
        let mut options = Vec::new();
        // 1: take a whole heap of 1. 3: take 2 leaving nothing or one heap.
        if n == 1 || n == 2 {
            options.push(0);
        }
        if n >= 3 {
            options.push(g[n - 2]);
        }
        // 7: take 3 leaving nothing, one heap or two.
        if n >= 3 {
            for a in 0..=(n - 3) / 2 {
                options.push(g[a] ^ g[n - 3 - a]);
            }
        }
        g.push((0..).find(|v| !options.contains(v)).unwrap());
    }
    g
}

#[test]
fn the_nim_values_are_those_published_for_0137() {
    let g = octal_0137(400);
    // OEIS A002187 (Sprague-Grundy values for Dawson's Chess, octal game .137), its first terms.
    let published = [
        0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4,
        5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2,
        1, 1, 0, 4, 5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9,
    ];
    assert_eq!(g[..published.len()], published);
    // "Has period 34 with the only exceptions at n = 0, 14, 16, 17, 31, 34 and 51": the pattern
    // is read far out, the exceptions are where the values differ from it.
    let pattern = |n: usize| g[340 + n % 34];
    let exceptions: Vec<usize> = (0..g.len()).filter(|&n| g[n] != pattern(n)).collect();
    assert_eq!(exceptions, vec![0, 14, 16, 17, 31, 34, 51]);
}

#[test]
fn every_listed_length_starts_as_the_heap_of_its_length() {
    let g = octal_0137(40);
    let entry = perfectplay_games::catalog().iter().find(|e| e.id == "dawsonschess").unwrap();
    for v in entry.listed_variants {
        let n: usize = v.parse().unwrap();
        let game = DawsonsChess::new(n).unwrap();
        let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
        let start = solution.get(&game, game.start()).unwrap();
        let expected = if g[n] == 0 { Value::Lose } else { Value::Win };
        assert_eq!(start.value(), expected, "n = {n}");
    }
}

/// The runs of free cells of a position written as text: `k` a king, `-` an empty cell.
fn free_runs(text: &str) -> Vec<usize> {
    let kings: Vec<bool> = text.chars().map(|c| c == 'k').collect();
    let n = kings.len();
    let attacked = |i: usize| kings[i] || (i > 0 && kings[i - 1]) || (i + 1 < n && kings[i + 1]);
    let mut runs = vec![0];
    for i in 0..n {
        if attacked(i) {
            runs.push(0);
        } else {
            *runs.last_mut().unwrap() += 1;
        }
    }
    runs.into_iter().filter(|&r| r > 0).collect()
}

#[test]
fn every_position_is_the_sum_of_its_free_runs() {
    let g = octal_0137(20);
    for n in [1, 2, 5, 9, 12, 16] {
        let game = DawsonsChess::new(n).unwrap();
        let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
        // Every set of kings with none adjacent (each is reachable), by their bits.
        let mut seen = 0;
        for kings in 0u64..1 << n {
            if kings & kings << 1 != 0 {
                continue;
            }
            seen += 1;
            let text: String =
                (0..n).map(|i| if kings >> i & 1 == 1 { 'k' } else { '-' }).collect();
            let p = game.parse_position(&text).unwrap();
            let runs = free_runs(&text);
            let nim = runs.iter().fold(0, |x, &r| x ^ g[r]);
            let got = solution.get(&game, p).expect("solved").value();
            assert_eq!(got, if nim == 0 { Value::Lose } else { Value::Win }, "{text}");
            assert_eq!(game.legal_moves(p).len(), runs.iter().sum::<usize>(), "{text}");
            // The player to move is told by the number of kings.
            let second = kings.count_ones() % 2 == 1;
            assert_eq!(game.to_move(p) == perfectplay_core::Player::Second, second);
        }
        let fib = (0..n).fold((1u64, 2u64), |(a, b), _| (b, a + b)).0;
        assert_eq!(seen, fib, "n = {n}: Fibonacci(n + 2) sets of kings");
    }
}

#[test]
fn variants_that_do_not_parse_are_errors() {
    for v in ["", "0", "35", "-1", "x", "9x1", "1.5"] {
        assert!(perfectplay_games::lookup("dawsonschess", Some(v)).is_err(), "{v}");
    }
}

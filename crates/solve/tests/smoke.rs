use perfectplay_core::Game;
use perfectplay_games::{Konane, KonaneStart, TicTacToe};
use perfectplay_solve::{analyze, solve, NoProgress, SolveOptions};

#[test]
fn smoke() {
    let g = TicTacToe;
    let s = solve(&g, SolveOptions::default(), &NoProgress, None).unwrap();
    println!("ttt start {:?} stored {}", s.get(&g, g.start()), s.len());
    let a = analyze(&g, &s, &NoProgress).unwrap();
    println!("{}", a.to_table());
    for (r, c) in [(4, 4), (5, 5)] {
        for st in [KonaneStart::Corner, KonaneStart::Center] {
            let g = Konane::new(r, c, st).unwrap();
            let t = std::time::Instant::now();
            let s = solve(&g, SolveOptions::default(), &NoProgress, None).unwrap();
            let a = analyze(&g, &s, &NoProgress).unwrap();
            println!(
                "{} start {:?} stored {} total {} canon {} {:?}",
                g.variant(),
                s.get(&g, g.start()),
                s.len(),
                a.total(),
                a.canonical_total(),
                t.elapsed()
            );
        }
    }
}

//! Quarto on the 3x3 board with pieces of three attributes, solved strongly by the retrograde
//! engine, and the live search ([`Search`]) agreeing with it on every canonical position the start
//! reaches; each of those positions is also the best over its children.

mod common;

use perfectplay_core::{Game, Position, Value, ValueRemoteness};
use perfectplay_games::Quarto;
use std::collections::HashMap;

use perfectplay_solve::{
    solve, AlphaBeta, Bounds, NoProgress, Search, Solution, SolveOptions, SplitProof, TierSpace,
};

#[test]
fn live_search_agrees_with_the_engine_on_every_position_of_3x3_quarto() {
    let game = Quarto::from_variant("3x3").unwrap();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let positions: Vec<Position> = solution
        .tiers()
        .iter()
        .flat_map(|t| match &t.space {
            TierSpace::Sorted(keys) => keys.iter().map(Position).collect::<Vec<_>>(),
            TierSpace::Dense { .. } => panic!("a sparse game"),
        })
        .collect();
    assert!(positions.len() > 10_000, "{} positions", positions.len());
    let mut search = Search::new(&game);
    let mut pruned = AlphaBeta::new(&game);
    let mut plain = AlphaBeta::without_kernel(&game);
    let mut prover = game.search_kernel().and_then(|k| k.prover(16)).expect("Quarto's prover");
    for &p in &positions {
        common::check_best_over_children(&game, &solution, p).unwrap();
        let stored = solution.get(&game, p).unwrap();
        let live = search.value(p).unwrap();
        assert_eq!(live, stored, "{}", game.position_to_string(p));
        // Alpha-beta, from an empty table and with the table of earlier searches.
        assert_eq!(
            AlphaBeta::new(&game).value(p).unwrap(),
            stored,
            "{}",
            game.position_to_string(p)
        );
        assert_eq!(pruned.value(p).unwrap(), stored, "{}", game.position_to_string(p));
        assert_eq!(
            AlphaBeta::new(&game).value_parallel(p, 2).unwrap(),
            stored,
            "{}",
            game.position_to_string(p)
        );
        assert_eq!(pruned.value_only(p).unwrap(), stored.value());
        assert_eq!(plain.value(p).unwrap(), stored, "{}", game.position_to_string(p));
        // The prover: exact in the full window, and a bound on the right side of a narrow one.
        let score = stored.value().score();
        assert_eq!(
            prover.bound(p, -1, 1, &|| false).unwrap(),
            score,
            "{}",
            game.position_to_string(p)
        );
        let below = prover.bound(p, -1, 0, &|| false).unwrap();
        assert!(
            if score >= 0 { below >= 0 } else { below == -1 },
            "{}",
            game.position_to_string(p)
        );
        let above = prover.bound(p, 0, 1, &|| false).unwrap();
        assert!(if score <= 0 { above <= 0 } else { above == 1 }, "{}", game.position_to_string(p));
    }
    split_proofs_of_the_start_agree_with_the_engine(&game, &solution);
    // The start, searched afresh from nothing stored.
    let start = Search::new(&game).value(game.start()).unwrap();
    assert_eq!(start, solution.get(&game, game.start()).unwrap());
    let mut fresh = AlphaBeta::new(&game);
    assert_eq!(fresh.value(game.start()).unwrap(), start);
    println!(
        "3x3 Quarto: {} canonical positions; the start: {start}; {} nodes, {} with alpha-beta",
        positions.len(),
        search.nodes(),
        fresh.nodes()
    );
}

/// The start's value proven by subproofs ([`SplitProof`]) split at depths 1 to 4, answered by
/// Quarto's prover and by the engine's alpha-beta search, is the engine's (a first-player loss);
/// every answer bounds the engine's value of its subproof; and the engine's own values of every
/// subproof combine to the start's, while no answers leave it open.
fn split_proofs_of_the_start_agree_with_the_engine(game: &Quarto, solution: &Solution) {
    let engine = |p: Position| solution.get(game, p).unwrap().value().score();
    let start = engine(game.start());
    assert_eq!(start, -1, "3x3 Quarto's start is a first-player loss");
    for depth in 1..=4 {
        let split = SplitProof::new(game, game.start(), depth);
        let mut prover = game.search_kernel().and_then(|k| k.prover(16)).unwrap();
        let mut search = AlphaBeta::new(game);
        let (mut by_prover, mut by_search) = (HashMap::new(), HashMap::new());
        let mut asked = 0;
        let score = split.prove(
            &mut by_prover,
            &mut |p, a, b| Ok::<_, ()>(prover.bound(p, a, b, &|| false).unwrap()),
            &mut |_, _| {
                asked += 1;
                Ok(())
            },
        );
        assert_eq!(score, Ok(start), "depth {depth}");
        let score =
            split.prove(&mut by_search, &mut |p, a, b| search.bound(p, a, b), &mut |_, _| Ok(()));
        assert_eq!(score.unwrap(), start, "depth {depth}");
        assert_eq!(asked, by_prover.len());
        for (known, by) in [(&by_prover, "prover"), (&by_search, "alpha-beta")] {
            assert_eq!(split.combine(known).root, Bounds::exact(start), "{by}, depth {depth}");
            for (&p, b) in known {
                assert!(b.lo <= engine(p) && engine(p) <= b.hi, "{by}: {b:?} at {p:?}");
            }
        }
        let all: HashMap<Position, Bounds> =
            split.subproofs().into_iter().map(|p| (p, Bounds::exact(engine(p)))).collect();
        let combined = split.combine(&all);
        assert_eq!((combined.root, combined.open.len()), (Bounds::exact(start), 0));
        assert!(split.combine(&HashMap::new()).root.value().is_none(), "depth {depth}");
        // A manager's way: the walk's next questions answered, a tie guessed for the rest,
        // until the answers combine; each guess may be wrong, each answer is true.
        let mut managed = HashMap::new();
        let mut rounds = 0;
        while split.combine(&managed).root.value().is_none() {
            let questions = split.questions(&managed, 0);
            assert!(!questions.is_empty() && rounds < 1000, "depth {depth}: stuck");
            for (p, alpha, beta) in questions.into_iter().take(2) {
                let b = Bounds::from_search(
                    prover.bound(p, alpha, beta, &|| false).unwrap(),
                    alpha,
                    beta,
                );
                let was = managed.get(&p).copied().unwrap_or(Bounds::UNKNOWN);
                assert!(b.lo <= engine(p) && engine(p) <= b.hi, "{b:?} at {p:?}");
                managed.insert(p, was.meet(b));
            }
            rounds += 1;
        }
        assert_eq!(split.combine(&managed).root, Bounds::exact(start), "depth {depth}");
    }
}

/// Reachable positions of the 4x4 game with `level` pieces placed, drawn uniformly (a generator
/// of our own, seeded): occupied slots, pieces in them and the piece to place drawn uniformly;
/// a board whose win quartets no one placement makes is drawn again, and a board that ends the
/// game is kept once for every piece it could have been drawn with (003 3.11.2), so every
/// reachable position is as likely as any other.
/// The best of a position's children's values as `search` finds them, from the parent's view.
fn best_over_children<E: std::fmt::Debug>(
    game: &Quarto,
    p: Position,
    search: impl Fn(Position) -> Result<ValueRemoteness, E>,
) -> ValueRemoteness {
    let mut kids = Vec::new();
    game.children(p, &mut kids);
    kids.iter().map(|&c| search(c).unwrap().to_parent()).max().expect("a child")
}

fn random_positions(game: &Quarto, level: u32, count: usize, seed: u64) -> Vec<Position> {
    use perfectplay_games::quarto::State;
    let mut state = seed.wrapping_add(0x9e3779b97f4a7c15);
    let mut next = move |n: usize| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 33) % n as u64) as usize
    };
    let k = level as usize;
    let mut out = Vec::new();
    while out.len() < count {
        let mut slots: Vec<usize> = (0..16).collect();
        let mut pieces: Vec<u8> = (0..16).collect();
        for i in 0..16 {
            slots.swap(i, i + next(16 - i));
            pieces.swap(i, i + next(16 - i));
        }
        let mut s = State { occupied: 0, board: 0, give: (k < 16).then(|| pieces[k]) };
        for i in 0..k {
            s.occupied |= 1 << slots[i];
            s.board |= u64::from(pieces[i]) << (4 * slots[i]);
        }
        let wins = game.win_lines(&s);
        if wins != 0 || k == 16 {
            if !game.quartets_coexist(wins) || (k < 16 && next(16 - k) != 0) {
                continue;
            }
            s.give = None;
        }
        out.push(game.code(&s));
    }
    out
}

/// On the 4x4 board, from 10 to 12 pieces placed: each live answer is the best over its
/// children's, each searched afresh (with and without the game's search kernel, which share no
/// move generation), and the answer alone (`value_only`) and on two threads agree.
#[test]
fn live_answers_on_the_real_board_are_the_best_over_their_children() {
    let game = Quarto::from_variant("regular").unwrap();
    let mut prover = game.search_kernel().and_then(|k| k.prover(20)).unwrap();
    let mut checked = 0;
    for level in [10, 11, 12] {
        for p in random_positions(&game, level, 60, 1000 + u64::from(level)) {
            let v = AlphaBeta::new(&game).value(p).unwrap();
            assert_eq!(AlphaBeta::new(&game).value_parallel(p, 2).unwrap(), v);
            assert_eq!(AlphaBeta::new(&game).value_only(p).unwrap(), v.value());
            if game.primitive(p).is_some() {
                continue;
            }
            let best = best_over_children(&game, p, |c| AlphaBeta::without_kernel(&game).value(c));
            assert_eq!(v, best, "{}", game.position_to_string(p));
            assert_eq!(
                prover.bound(p, -1, 1, &|| false).unwrap(),
                v.value().score(),
                "{}",
                game.position_to_string(p)
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked} positions with moves");
}

/// On the 4x4 board at 6 pieces placed, where a win's or loss's remoteness takes searches long
/// enough to be shared out (a value is proven first, on one thread), the answers on two threads
/// (a table shared, in rounds) equal those on one.
#[test]
fn searches_on_two_threads_agree_with_one() {
    let game = Quarto::from_variant("regular").unwrap();
    let mut shared = 0;
    for p in random_positions(&game, 6, 40, 88) {
        let mut one = AlphaBeta::new(&game);
        let v = one.value(p).unwrap();
        let mut two = AlphaBeta::new(&game);
        assert_eq!(two.value_parallel(p, 2).unwrap(), v, "{}", game.position_to_string(p));
        shared += usize::from(two.parallel_rounds() > 0);
    }
    assert!(shared >= 5, "{shared} searches shared out");
}

/// A benchmark's setting from the environment variable `name`, else `default`.
fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T
where
    T::Err: std::fmt::Debug,
{
    std::env::var(name).map_or(default, |v| v.parse().expect(name))
}

/// The levels (pieces placed) of `QUARTO_LEVELS`, separated by commas, else `default`.
fn env_levels(default: &[u32]) -> Vec<u32> {
    std::env::var("QUARTO_LEVELS").map_or_else(
        |_| default.to_vec(),
        |v| v.split(',').map(|x| x.parse().expect("QUARTO_LEVELS")).collect(),
    )
}

/// Live solving times on the 4x4 board (benchmark: `--ignored --nocapture`; BENCHMARKS.md).
#[test]
#[ignore = "benchmark"]
fn live_search_times_on_regular_quarto() {
    let game = Quarto::from_variant("regular").unwrap();
    let levels = env_levels(&[12, 11, 10, 9]);
    let count: usize = env_or("QUARTO_COUNT", 100);
    let threads: usize = env_or("QUARTO_THREADS", 1);
    for level in levels {
        let mut times = Vec::new();
        let mut nodes = 0;
        let (mut value_times, mut value_nodes) = (Vec::new(), 0);
        for p in random_positions(&game, level, count, u64::from(level)) {
            let mut search = AlphaBeta::new(&game);
            let t = std::time::Instant::now();
            let v = search.value_parallel(p, threads).unwrap();
            times.push(t.elapsed().as_secs_f64() * 1e3);
            nodes += search.nodes();
            if std::env::var_os("QUARTO_SLOW").is_some() && search.nodes() > 20_000 {
                println!("  slow: {} {v} {} nodes", game.position_to_string(p), search.nodes());
            }
            if std::env::var_os("QUARTO_VALUE_ONLY").is_some() {
                let mut only = AlphaBeta::new(&game);
                let t = std::time::Instant::now();
                assert_eq!(only.value_only(p).unwrap(), v.value());
                value_times.push(t.elapsed().as_secs_f64() * 1e3);
                value_nodes += only.nodes();
            }
            if times.len() <= 2 {
                println!("  {} {v}", game.position_to_string(p));
            }
            if game.primitive(p).is_none() && times.len() % 16 == 0 {
                // The answer is the best over the children's (each searched afresh).
                let best = best_over_children(&game, p, |c| AlphaBeta::new(&game).value(c));
                assert_eq!(v, best, "{}", game.position_to_string(p));
            }
        }
        times.sort_by(f64::total_cmp);
        let q = |f: f64| times[((times.len() - 1) as f64 * f) as usize];
        let total: f64 = times.iter().sum();
        println!(
            "level {level}: {} positions, median {:.3} ms, p99 {:.3} ms, max {:.3} ms, mean {:.3} ms, \
             {} nodes a position, {:.2} M nodes/s",
            times.len(),
            q(0.5),
            q(0.99),
            q(1.0),
            total / times.len() as f64,
            nodes / times.len() as u64,
            nodes as f64 / total / 1e3
        );
        if !value_times.is_empty() {
            value_times.sort_by(f64::total_cmp);
            let q = |f: f64| value_times[((value_times.len() - 1) as f64 * f) as usize];
            println!(
                "  value alone: median {:.3} ms, p99 {:.3} ms, {} nodes a position",
                q(0.5),
                q(0.99),
                value_nodes / value_times.len() as u64
            );
        }
    }
}

/// The value alone (win, tie or lose: the window around a tie, [`AlphaBeta::value_only`]) of
/// reachable positions at the levels of `QUARTO_LEVELS` (default 6), `QUARTO_COUNT` of each
/// (default 3), each from an empty table of up to 2^`QUARTO_BITS` entries (default 26), one
/// thread: how fast a proof's cost grows towards the start (benchmark: `--ignored --nocapture`;
/// BENCHMARKS.md). From 7 pieces placed, each answer is checked against [`AlphaBeta::value`].
#[test]
#[ignore = "benchmark"]
fn value_only_times_on_regular_quarto() {
    let game = Quarto::from_variant("regular").unwrap();
    let levels = env_levels(&[6]);
    let count: usize = env_or("QUARTO_COUNT", 3);
    let bits: u32 = env_or("QUARTO_BITS", 26);
    for level in levels {
        for p in random_positions(&game, level, count, 7 + u64::from(level)) {
            let mut only = AlphaBeta::with_table_bits(&game, bits);
            let t = std::time::Instant::now();
            let v = only.value_only(p).unwrap();
            println!(
                "level {level}: {} {v:?} in {:.2} s, {} nodes",
                game.position_to_string(p),
                t.elapsed().as_secs_f64(),
                only.nodes()
            );
            assert_ne!(v, Value::Draw, "Quarto has no draws");
            if level >= 7 {
                assert_eq!(AlphaBeta::new(&game).value(p).unwrap().value(), v);
            }
        }
    }
}

/// Quarto's prover ([`perfectplay_core::ValueProver`]) on the positions of `QUARTO_POSITIONS`
/// (texts, separated by commas; default the level-4 tie of BENCHMARKS.md), each from an empty
/// table of 2^`QUARTO_BITS` entries (default 26), one thread: its value, nodes and nodes a
/// second (benchmark: `--ignored --nocapture`). Positions drawn at `QUARTO_LEVELS` (default 7
/// and 6, `QUARTO_COUNT` each) are checked against [`AlphaBeta::value_only`] first.
#[test]
#[ignore = "benchmark"]
fn prover_times_on_regular_quarto() {
    let game = Quarto::from_variant("regular").unwrap();
    let bits: u32 = env_or("QUARTO_BITS", 26);
    let count: usize = env_or("QUARTO_COUNT", 3);
    let prover = || game.search_kernel().and_then(|k| k.prover(bits)).expect("a prover");
    for level in env_levels(&[7, 6]) {
        for p in random_positions(&game, level, count, 7 + u64::from(level)) {
            let mut proof = prover();
            let t = std::time::Instant::now();
            let v = proof.bound(p, -1, 1, &|| false).unwrap();
            let seconds = t.elapsed().as_secs_f64();
            println!(
                "level {level}: {} {v} in {seconds:.3} s, {} nodes",
                game.position_to_string(p),
                proof.nodes()
            );
            if level >= 6 {
                let expected = AlphaBeta::with_table_bits(&game, bits).value_only(p).unwrap();
                let score =
                    [Value::Lose, Value::Tie, Value::Win].iter().position(|&x| x == expected);
                assert_eq!(Some(v), score.map(|s| s as i8 - 1));
            }
        }
    }
    // The symmetry tables of the keys are built once, when first used: before the clock starts.
    let kernel = game.search_kernel().unwrap();
    kernel.search_key(kernel.search_node(game.parse_position("0---------------1").unwrap()));
    let texts = std::env::var("QUARTO_POSITIONS").unwrap_or_else(|_| "---7--F-9-1-----2".into());
    for text in texts.split(',') {
        let p = match text {
            "start" => game.start(),
            _ => game.parse_position(text).expect("a Quarto position"),
        };
        let mut proof = prover();
        let t = std::time::Instant::now();
        let v = proof.bound(p, -1, 1, &|| false).unwrap();
        let seconds = t.elapsed().as_secs_f64();
        println!(
            "{text}: {v} in {seconds:.2} s, {} nodes, {:.2} M nodes/s",
            proof.nodes(),
            proof.nodes() as f64 / seconds / 1e6
        );
    }
}

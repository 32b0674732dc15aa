//! Topitop, Bagh-Chal, Fox and Geese (9 to 15 geese) and Fuchs und Henne (9 and 10 hens) at full
//! scale, against their databases (`perfectplay solve topitop`, `perfectplay solve baghchal
//! --no-analysis --memory-limit 12GiB`, `perfectplay solve foxandgeese --variant N-geese
//! --no-analysis --memory-limit 16GiB`, `perfectplay solve fuchsundhenne --variant 9-hens
//! --no-analysis --memory-limit 16GiB`, the same with `10-hens` and `20GiB`; BENCHMARKS.md says
//! how they were run). Ignored in the default suite (where only the checks themselves run, on a
//! small pruned database); they fail, not pass, when a database is missing:
//!
//! ```text
//! PERFECTPLAY_FULL=1 PERFECTPLAY_DATA=/path/to/data \
//!   cargo test --release -p perfectplay --test full_scale -- --ignored --nocapture
//! ```
//!
//! The sampled checks take a minute or two each. Fox and Geese's `states_per_winner` counts search
//! every position the start reaches, at about the solve's own pace (hours from 12 geese): name
//! the test to run one (`fox_and_geese_10_geese_states_per_winner`).

mod common;
mod full;

use perfectplay_core::{Game, Value};
use perfectplay_games::{BaghChal, Topitop};

/// The database, once `PERFECTPLAY_FULL=1` says the full-scale checks are wanted.
fn database(game: &dyn Game) -> perfectplay_db::Database {
    full::open(game, std::env::var("PERFECTPLAY_FULL").as_deref() == Ok("1"))
}

fn sampled(game: &dyn Game) {
    let db = database(game);
    let started = std::time::Instant::now();
    if db.is_pruned() {
        let walked = full::walk_check(game, &db, 2_000);
        println!("pruned database: {walked} positions on random games from the start all stored");
    }
    let (tiers, children) = full::sampled_check(game, &db, 100_000);
    println!(
        "{} {}: 100000 positions checked in {tiers} tiers against {children} children ({:.1} s)",
        game.id(),
        game.variant(),
        started.elapsed().as_secs_f64()
    );
}

/// 003 4.6.4: a first-player win in 31; and 100,000 positions against their children.
#[test]
#[ignore = "full scale: needs the solved database (see the module documentation)"]
fn topitop_starts_with_a_win_in_31_and_samples_agree_with_children() {
    let game = Topitop::from_variant("regular").unwrap();
    let db = database(&game);
    let start = db.get(&game, game.start()).unwrap().expect("the start is stored");
    assert_eq!((start.value(), start.remoteness().map(|r| r.0)), (Value::Win, Some(31)));
    sampled(&game);
}

/// 003 4.4.4: a draw; and 100,000 positions against their children.
#[test]
#[ignore = "full scale: needs the solved database (see the module documentation)"]
fn baghchal_starts_with_a_draw_and_samples_agree_with_children() {
    let game = BaghChal::from_variant("regular").unwrap();
    let db = database(&game);
    assert_eq!(db.get(&game, game.start()).unwrap().map(|v| v.value()), Some(Value::Draw));
    sampled(&game);
}

/// Fox and Geese with `geese` geese: 100,000 positions against their children; the start's
/// value is printed (each variant so far a draw, docs/foxandgeese.md).
fn fox_and_geese(geese: u32) {
    let game = perfectplay_games::FoxAndGeese::from_variant(&format!("{geese}-geese")).unwrap();
    let db = database(&game);
    let start = db.get(&game, game.start()).unwrap().expect("the start is stored");
    println!("foxandgeese {geese}-geese: the start is {start}");
    sampled(&game);
}

#[test]
#[ignore = "full scale: needs the solved database (see the module documentation)"]
fn fox_and_geese_9_geese_samples_agree_with_children() {
    fox_and_geese(9);
}

#[test]
#[ignore = "full scale: needs the solved database (see the module documentation)"]
fn fox_and_geese_10_geese_samples_agree_with_children() {
    fox_and_geese(10);
}

#[test]
#[ignore = "full scale: needs the solved database (see the module documentation)"]
fn fox_and_geese_11_geese_samples_agree_with_children() {
    fox_and_geese(11);
}

#[test]
#[ignore = "full scale: needs the solved database (see the module documentation)"]
fn fox_and_geese_12_geese_samples_agree_with_children() {
    fox_and_geese(12);
}

#[test]
#[ignore = "full scale: needs the solved database (see the module documentation)"]
fn fox_and_geese_13_geese_samples_agree_with_children() {
    fox_and_geese(13);
}

#[test]
#[ignore = "full scale: needs the solved database (see the module documentation)"]
fn fox_and_geese_14_geese_samples_agree_with_children() {
    fox_and_geese(14);
}

#[test]
#[ignore = "full scale: needs the solved database (see the module documentation)"]
fn fox_and_geese_15_geese_samples_agree_with_children() {
    fox_and_geese(15);
}

/// Fox and Geese with `geese` geese counted as 002's Table 8.2 counts (docs/foxandgeese.md): the
/// states the start reaches up to the mirror, those the geese win and those the fox wins, from
/// the database one tier at a time. The count per state agrees with the search's own count of
/// what it reached.
fn fox_and_geese_states(geese: u32) {
    use perfectplay_core::{GameExt, Value};
    let game = perfectplay_games::FoxAndGeese::from_variant(&format!("{geese}-geese")).unwrap();
    let db = database(&game);
    let started = std::time::Instant::now();
    let reached =
        perfectplay_solve::reach_tiered_classes(&game, &perfectplay_solve::NoProgress).unwrap();
    let searched = started.elapsed().as_secs_f64();
    let tier = |t| match db.load_tier_of(&game, t) {
        Ok(Some(solved)) => Ok(std::borrow::Cow::Owned(solved)),
        other => Err(perfectplay_solve::SolveError::Sink(format!("tier {t:?}: {other:?}").into())),
    };
    let [geese_to_move, fox_to_move] = perfectplay_solve::count_classes_by_mover(
        &game,
        &reached,
        &tier,
        &perfectplay_solve::NoProgress,
    )
    .unwrap();
    let states: u64 = geese_to_move.iter().chain(&fox_to_move).sum();
    let (lose, win) = (Value::Lose as usize, Value::Win as usize);
    let geese_win = geese_to_move[win] + fox_to_move[lose];
    let fox_wins = fox_to_move[win] + geese_to_move[lose];
    let draws = geese_to_move[Value::Draw as usize] + fox_to_move[Value::Draw as usize];
    println!(
        "foxandgeese {geese}-geese: {states} states reached up to the mirror, {geese_win} won by \
         the geese, {fox_wins} by the fox, {draws} draws ({searched:.0} s searching, {:.0} s in all)",
        started.elapsed().as_secs_f64()
    );
    assert_eq!(states, game.tiers().iter().map(|&t| reached.count(t)).sum::<u64>());
    assert_eq!(states, geese_win + fox_wins + draws, "Fox and Geese has no ties");
}

#[test]
#[ignore = "full scale: needs the solved database (see the module documentation)"]
fn fox_and_geese_10_geese_states_per_winner() {
    fox_and_geese_states(10);
}

#[test]
#[ignore = "full scale: needs the solved database (see the module documentation)"]
fn fox_and_geese_11_geese_states_per_winner() {
    fox_and_geese_states(11);
}

#[test]
#[ignore = "full scale: needs the solved database (see the module documentation)"]
fn fox_and_geese_12_geese_states_per_winner() {
    fox_and_geese_states(12);
}

#[test]
#[ignore = "full scale: needs the solved database (see the module documentation)"]
fn fox_and_geese_13_geese_states_per_winner() {
    fox_and_geese_states(13);
}

#[test]
#[ignore = "full scale: needs the solved database (see the module documentation)"]
fn fox_and_geese_14_geese_states_per_winner() {
    fox_and_geese_states(14);
}

#[test]
#[ignore = "full scale: needs the solved database (see the module documentation)"]
fn fox_and_geese_15_geese_states_per_winner() {
    fox_and_geese_states(15);
}

/// Fuchs und Henne with `hens` hens: 100,000 positions against their children; the start's value
/// is printed (docs/foxandgeese.md).
fn fuchs_und_henne(hens: u32) {
    let game = perfectplay_games::FuchsUndHenne::from_variant(&format!("{hens}-hens")).unwrap();
    let db = database(&game);
    let start = db.get(&game, game.start()).unwrap().expect("the start is stored");
    println!("fuchsundhenne {hens}-hens: the start is {start}");
    sampled(&game);
}

#[test]
#[ignore = "full scale: needs the solved database (see the module documentation)"]
fn fuchs_und_henne_9_hens_samples_agree_with_children() {
    fuchs_und_henne(9);
}

#[test]
#[ignore = "full scale: needs the solved database (see the module documentation)"]
fn fuchs_und_henne_10_hens_samples_agree_with_children() {
    fuchs_und_henne(10);
}

/// The full-scale checks themselves, on a database small enough for the default suite: Six Men's
/// Morris pruned with derived tiers (`analyze --prune --derive`), walked and sampled.
#[test]
fn the_checks_pass_on_a_pruned_six_mens_morris() {
    let data = std::env::temp_dir().join(format!("perfectplay-full-six-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    for args in [
        &["solve", "sixmensmorris", "--no-analysis"][..],
        &["analyze", "sixmensmorris", "--prune", "--derive"],
    ] {
        common::perfectplay(&data, args);
    }
    let game = perfectplay_games::lookup("sixmensmorris", None).unwrap();
    let path = perfectplay_db::path_for(&data, "sixmensmorris", "regular");
    let db = perfectplay_db::Database::open(&path).unwrap();
    assert!(db.is_pruned());
    assert!(full::walk_check(game.as_ref(), &db, 50) > 50);
    let (tiers, children) = full::sampled_check(game.as_ref(), &db, 2_000);
    assert!(tiers > 20 && children > 2_000, "{tiers} tiers, {children} children");
    let _ = std::fs::remove_dir_all(&data);
}

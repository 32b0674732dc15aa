//! What the tier benchmarks in `examples/` share: the game their arguments name.

use perfectplay_core::Game;

/// The game whose id comes first in `args`, taken out (Nine Men's Morris where the first is a
/// tier's name, or there is none), with its id; exits 2, saying what was expected, where the id
/// names no game or the game has no tier kernel.
pub fn game_with_kernel(args: &mut Vec<String>) -> (Box<dyn Game>, String) {
    let id = match args.first() {
        Some(first) if !first.starts_with('(') => args.remove(0),
        _ => "ninemensmorris".into(),
    };
    let Ok(game) = perfectplay_games::lookup(&id, None) else {
        eprintln!("{id} is not a game's id (see `perfectplay games`)");
        std::process::exit(2);
    };
    if game.kernel().is_none() {
        eprintln!("{id} has no tier kernel");
        std::process::exit(2);
    }
    (game, id)
}

//! The cross board as the plain solvers of Fox and Geese and Fuchs und Henne see it, independent
//! of the games' code: points numbered on a 7x7 grid (`7 y + x`, the top left 0) less its four
//! 2x2 corners.

/// The eight directions, in reading order.
#[allow(dead_code)] // reason: each test binary compiles this module; not all of them use it
pub const DIRECTIONS: [(i32, i32); 8] =
    [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

/// The point at column `x` and row `y`, if the board has one there.
pub fn cell(x: i32, y: i32) -> Option<u8> {
    let on = (0..7).contains(&x)
        && (0..7).contains(&y)
        && ((2..=4).contains(&x) || (2..=4).contains(&y));
    on.then_some((y * 7 + x) as u8)
}

/// The point one step from `c` in direction `(dx, dy)`, if there is one.
#[allow(dead_code)] // reason: each test binary compiles this module; not all of them use it
pub fn step(c: u8, (dx, dy): (i32, i32)) -> Option<u8> {
    cell(i32::from(c % 7) + dx, i32::from(c / 7) + dy)
}

/// The board's rows of 3, 3, 7, 7, 7, 3 and 3 points as the games read them, each point's
/// character by `piece`, joined by `/`.
pub fn rows(piece: impl Fn(u8) -> char) -> String {
    let rows: Vec<String> =
        (0..7).map(|y| (0..7).filter_map(|x| cell(x, y)).map(&piece).collect()).collect();
    rows.join("/")
}

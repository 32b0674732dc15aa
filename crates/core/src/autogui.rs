//! How a game is drawn and clicked: the Image AutoGUI data of 003 section 5.3. A game gives a
//! drawing space, the coordinate centers where entities sit and moves point, a background, an
//! image per entity character, and for each move the button that plays it: a token at a center
//! (type A), an arrow between two centers (type M) or a line between them (type L). Positions are
//! drawn from their AutoGUI string: the player to move (`1` or `2`), `_`, and one character per
//! center (`-` for nothing there).
//!
//! A move may also come in parts (003 chapter 6, multipart moves): the buttons clicked one after
//! another (select a piece, then its destination). The page shows the first parts of all moves; a
//! part's value is the best of the moves it can still complete to (003 section 6.3).

use crate::game::Player;

/// One move button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AutoGuiMove {
    /// Type A: an entity image at a center (`A_<char>_<center>_x`).
    Token {
        /// The entity character drawn as the button.
        token: char,
        /// The center.
        at: usize,
    },
    /// Type M: an arrow from one center to another (`M_<from>_<to>_x`).
    Arrow {
        /// Where it starts.
        from: usize,
        /// Where it points.
        to: usize,
    },
    /// Type L: a line between two centers (`L_<from>_<to>_x`).
    Line {
        /// One end.
        from: usize,
        /// The other end.
        to: usize,
    },
}

impl std::fmt::Display for AutoGuiMove {
    /// The UWAPI form; the trailing `x` is the sound (none).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AutoGuiMove::Token { token, at } => write!(f, "A_{token}_{at}_x"),
            AutoGuiMove::Arrow { from, to } => write!(f, "M_{from}_{to}_x"),
            AutoGuiMove::Line { from, to } => write!(f, "L_{from}_{to}_x"),
        }
    }
}

/// An entity's picture: SVG markup drawn in a box one unit wide centered on the origin, scaled to
/// the theme's piece size at each center.
#[derive(Clone, Debug, PartialEq)]
pub struct Entity {
    /// The character that stands for it in AutoGUI positions and token buttons.
    pub token: char,
    /// SVG markup.
    pub svg: String,
}

/// One theme: everything the page needs to draw a variant.
#[derive(Clone, Debug, PartialEq)]
pub struct ImageAutoGui {
    /// The theme's name.
    pub theme: &'static str,
    /// Width and height of the drawing space.
    pub size: (f64, f64),
    /// The coordinate centers, indexed as in AutoGUI positions and moves.
    pub centers: Vec<(f64, f64)>,
    /// The board, as SVG markup in the drawing space.
    pub background: String,
    /// The entities.
    pub entities: Vec<Entity>,
    /// The width of an entity (and of a token button) in the drawing space.
    pub piece_size: f64,
    /// The width of arrow and line buttons.
    pub arrow_width: f64,
}

/// An AutoGUI position string: `1_` or `2_` for the player to move, then one character per center.
pub fn autogui_position(turn: Player, cells: impl IntoIterator<Item = char>) -> String {
    let mut s = String::from(if turn == Player::First { "1_" } else { "2_" });
    s.extend(cells);
    s
}

/// A square grid theme's centers: `cols` by `rows` cells of size `cell`, row by row from the top.
pub fn grid_centers(cols: usize, rows: usize, cell: f64) -> Vec<(f64, f64)> {
    (0..rows)
        .flat_map(|y| (0..cols).map(move |x| ((x as f64 + 0.5) * cell, (y as f64 + 0.5) * cell)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_positions_in_uwapi_form() {
        assert_eq!(AutoGuiMove::Token { token: 'x', at: 4 }.to_string(), "A_x_4_x");
        assert_eq!(AutoGuiMove::Arrow { from: 0, to: 6 }.to_string(), "M_0_6_x");
        assert_eq!(AutoGuiMove::Line { from: 2, to: 3 }.to_string(), "L_2_3_x");
        assert_eq!(autogui_position(Player::Second, "x--".chars()), "2_x--");
        assert_eq!(
            grid_centers(2, 2, 10.0),
            vec![(5.0, 5.0), (15.0, 5.0), (5.0, 15.0), (15.0, 15.0)]
        );
    }
}

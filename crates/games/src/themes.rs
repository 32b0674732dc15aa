//! The pictures the Image AutoGUI themes share: SVG markup for stones and marks (drawn in a box
//! one unit wide around the origin) and boards (drawn in the theme's space).

use std::fmt::Write;

use perfectplay_core::ImageAutoGui;

use crate::board::Board;

/// A stone with a thin rim and a highlight.
pub fn stone(fill: &str, rim: &str) -> String {
    format!(
        r#"<circle r="0.4" fill="{fill}" stroke="{rim}" stroke-width="0.04"/><circle cx="-0.12" cy="-0.12" r="0.1" fill="white" fill-opacity="0.25"/>"#
    )
}

/// The entities `x` and `o` as stones, each `(fill, rim)`.
pub fn stones(x: (&str, &str), o: (&str, &str)) -> Vec<perfectplay_core::Entity> {
    vec![
        perfectplay_core::Entity { token: 'x', svg: stone(x.0, x.1) },
        perfectplay_core::Entity { token: 'o', svg: stone(o.0, o.1) },
    ]
}

/// Tic-Tac-Toe's X.
pub fn cross() -> String {
    r##"<path d="M-0.3,-0.3L0.3,0.3M0.3,-0.3L-0.3,0.3" stroke="#1f4e9c" stroke-width="0.1" stroke-linecap="round"/>"##.into()
}

/// Tic-Tac-Toe's O.
pub fn ring() -> String {
    r##"<circle r="0.3" fill="none" stroke="#b8321f" stroke-width="0.1"/>"##.into()
}

/// A board of `cols` by `rows` square cells of size `cell`, with grid lines between them.
pub fn grid_board(cols: usize, rows: usize, cell: f64, fill: &str, line: &str) -> String {
    let (w, h) = (cols as f64 * cell, rows as f64 * cell);
    let mut s = format!(r#"<rect width="{w}" height="{h}" fill="{fill}"/>"#);
    for x in 1..cols {
        let x = x as f64 * cell;
        let _ = write!(
            s,
            r#"<line x1="{x}" y1="0" x2="{x}" y2="{h}" stroke="{line}" stroke-width="3"/>"#
        );
    }
    for y in 1..rows {
        let y = y as f64 * cell;
        let _ = write!(
            s,
            r#"<line x1="0" y1="{y}" x2="{w}" y2="{y}" stroke="{line}" stroke-width="3"/>"#
        );
    }
    s
}

/// A board of holes (Konane): a wooden rectangle with a hollow at each center.
pub fn hole_board(centers: &[(f64, f64)], w: f64, h: f64) -> String {
    let mut s = format!(r##"<rect width="{w}" height="{h}" rx="8" fill="#c8a165"/>"##);
    for (x, y) in centers {
        let _ = write!(s, r##"<circle cx="{x}" cy="{y}" r="12" fill="#8a6a3a"/>"##);
    }
    s
}

/// Tic-Tac-Toe's marks as the entities `x` and `o`.
pub fn marks() -> Vec<perfectplay_core::Entity> {
    vec![
        perfectplay_core::Entity { token: 'x', svg: cross() },
        perfectplay_core::Entity { token: 'o', svg: ring() },
    ]
}

/// A character drawn `size` units high, centered (a digit, a chess piece's Unicode figure).
pub fn figure(size: f64, fill: &str, symbol: char) -> String {
    let y = 0.35 * size;
    format!(
        r#"<text y="{y}" font-size="{size}" text-anchor="middle" fill="{fill}">{symbol}</text>"#
    )
}

/// The digits `0` to `9` as entities (counters and scores; 003 section 5.6 draws counts of pieces
/// in reserve as digits at centers of their own), drawn `size` units high.
pub fn digits(size: f64, fill: &str) -> Vec<perfectplay_core::Entity> {
    let digit = |d: u8| char::from(b'0' + d);
    (0..10)
        .map(|d| perfectplay_core::Entity { token: digit(d), svg: figure(size, fill, digit(d)) })
        .collect()
}

/// A board of `cols` by `rows` squares of size `cell` in two colors, the top left one `light`
/// (chess, checkers).
pub fn checkerboard(cols: usize, rows: usize, cell: f64, light: &str, dark: &str) -> String {
    let (w, h) = (cols as f64 * cell, rows as f64 * cell);
    let mut s = format!(r#"<rect width="{w}" height="{h}" fill="{light}"/>"#);
    for c in (0..cols * rows).filter(|c| (c % cols + c / cols) % 2 == 1) {
        let (x, y) = ((c % cols) as f64 * cell, (c / cols) as f64 * cell);
        let _ =
            write!(s, r#"<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{dark}"/>"#);
    }
    s
}

/// The size of a cell in the standard themes' drawing space.
pub const CELL: f64 = 100.0;

/// The standard theme of a grid game: `cols` by `rows` cells on paper, the entities at the cell
/// centers (row by row from the top left, as [`crate::board::Board::grid`] numbers them).
pub fn grid_theme(
    cols: usize,
    rows: usize,
    entities: Vec<perfectplay_core::Entity>,
) -> ImageAutoGui {
    ImageAutoGui {
        theme: "paper",
        size: (cols as f64 * CELL, rows as f64 * CELL),
        centers: perfectplay_core::autogui::grid_centers(cols, rows, CELL),
        background: grid_board(cols, rows, CELL, "#fbf8ef", "#333"),
        entities,
        piece_size: CELL,
        arrow_width: 14.0,
    }
}

/// The standard theme of a board of points joined by lines (Achi, Mū Tōrere): the board's
/// coordinates scaled to [`CELL`] apart, a margin of half a cell, a dot at every point.
pub fn points_theme(board: &Board, entities: Vec<perfectplay_core::Entity>) -> ImageAutoGui {
    let xy: Vec<(f64, f64)> = (0..board.len()).map(|c| board.xy(c)).collect();
    let min = |f: fn(&(f64, f64)) -> f64| xy.iter().map(f).fold(f64::INFINITY, f64::min);
    let max = |f: fn(&(f64, f64)) -> f64| xy.iter().map(f).fold(f64::NEG_INFINITY, f64::max);
    let (x0, y0) = (min(|p| p.0), min(|p| p.1));
    let centers: Vec<(f64, f64)> =
        xy.iter().map(|&(x, y)| ((x - x0 + 0.5) * CELL, (y - y0 + 0.5) * CELL)).collect();
    let (w, h) = ((max(|p| p.0) - x0 + 1.0) * CELL, (max(|p| p.1) - y0 + 1.0) * CELL);
    let mut background = format!(r##"<rect width="{w}" height="{h}" fill="#efe4c8"/>"##);
    for &(a, b) in board.edges() {
        let ((x1, y1), (x2, y2)) = (centers[a], centers[b]);
        let _ = write!(
            background,
            r##"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#5a4630" stroke-width="5"/>"##
        );
    }
    for (x, y) in &centers {
        let _ = write!(background, r##"<circle cx="{x}" cy="{y}" r="9" fill="#5a4630"/>"##);
    }
    ImageAutoGui {
        theme: "points",
        size: (w, h),
        centers,
        background,
        entities,
        piece_size: 0.8 * CELL,
        arrow_width: 14.0,
    }
}

/// A Connect-4 frame (003 section 5.5.4): `cols` by `rows` round holes of [`CELL`] spacing, its
/// top left corner at `(x0, y0)` in the theme's space; pieces are drawn in the holes over it.
pub fn drop_frame(cols: usize, rows: usize, x0: f64, y0: f64) -> String {
    let (w, h) = (cols as f64 * CELL, rows as f64 * CELL);
    let mut s = format!(
        r##"<rect x="{x0}" y="{y0}" width="{w}" height="{h}" rx="10" fill="#2a5db0" stroke="#17386e" stroke-width="4"/>"##
    );
    for (x, y) in perfectplay_core::autogui::grid_centers(cols, rows, CELL) {
        let (x, y) = (x0 + x, y0 + y);
        let _ = write!(s, r##"<circle cx="{x}" cy="{y}" r="40" fill="#f4f4f4"/>"##);
    }
    s
}

/// Centers moved by `(dx, dy)`.
pub fn shifted(centers: Vec<(f64, f64)>, dx: f64, dy: f64) -> Vec<(f64, f64)> {
    centers.into_iter().map(|(x, y)| (x + dx, y + dy)).collect()
}

/// A character drawn in the unit box (a letter on a piece, a digit of a counter).
pub fn glyph(ch: char, ink: &str) -> String {
    format!(
        r##"<text y="0.2" font-size="0.6" font-weight="bold" font-family="sans-serif" text-anchor="middle" fill="{ink}">{ch}</text>"##
    )
}

/// A wooden disc with a letter on it (Toot and Otto's T and O).
pub fn lettered_disc(ch: char) -> String {
    r##"<circle r="0.45" fill="#f1e3c2" stroke="#7a5c2e" stroke-width="0.05"/>"##.to_string()
        + &glyph(ch, "#7a2e1e")
}

/// A word written in the theme's space, centered on `(x, y)`.
pub fn caption(x: f64, y: f64, word: &str) -> String {
    format!(
        r##"<text x="{x}" y="{y}" font-size="26" font-weight="bold" font-family="sans-serif" text-anchor="middle" fill="#333">{word}</text>"##
    )
}

/// A wooden slider of `slots` holes in a row (Shift-Tac-Toe), drawn as an entity: the holes
/// `cell / piece_size` units apart, so that at the theme's scale they lie [`CELL`] apart.
pub fn slider(slots: usize, piece_size: f64) -> String {
    let u = CELL / piece_size;
    let w = slots as f64 * u;
    let mut s = format!(
        r##"<rect x="{}" y="{}" width="{w}" height="{}" rx="0.1" fill="#c8a165" stroke="#5a4630" stroke-width="0.04"/>"##,
        -w / 2.0,
        -0.46 * u,
        0.92 * u
    );
    for k in 0..slots {
        let cx = (k as f64 + 0.5) * u - w / 2.0;
        let _ = write!(s, r##"<circle cx="{cx}" r="{}" fill="#8a6a3a"/>"##, 0.36 * u);
    }
    s
}

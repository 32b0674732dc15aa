//! The pictures the Image AutoGUI themes share: SVG markup for stones and marks (drawn in a box
//! one unit wide around the origin) and boards (drawn in the theme's space).

use std::fmt::Write;

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

//! Terminal play (000 section 4.2): the board, whose turn, the prediction ("x should win in 3"),
//! `ps` for every move's value grouped winning / tying / drawing / losing with remoteness and delta,
//! undo, and a computer that plays perfectly.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::Result;
use perfectplay_core::{Game, GameExt, Player, Position, Value};

use crate::oracle::{MoveReport, Oracle};
use crate::{words, ComputerSide};

struct Palette {
    on: bool,
}

impl Palette {
    fn paint(&self, value: Value, text: &str) -> String {
        if !self.on {
            return text.to_string();
        }
        let code = match value {
            Value::Win => "32",
            Value::Tie | Value::Draw => "33",
            Value::Lose => "31",
        };
        format!("\x1b[{code}m{text}\x1b[0m")
    }
}

fn computer_moves(side: ComputerSide, player: Player) -> bool {
    match side {
        ComputerSide::None => false,
        ComputerSide::Both => true,
        ComputerSide::First => player == Player::First,
        ComputerSide::Second => player == Player::Second,
    }
}

fn listing(game: &dyn Game, moves: &[MoveReport], palette: &Palette) -> String {
    let mut s = String::from("\nHere are the values of all possible moves:\n");
    s.push_str(&format!("  {:<12} {:<12} {}\n", "Move", "Remoteness", "Delta"));
    for (title, value) in [
        ("Winning Moves:", Value::Win),
        ("Tying Moves:", Value::Tie),
        ("Drawing Moves:", Value::Draw),
        ("Losing Moves:", Value::Lose),
    ] {
        let group: Vec<&MoveReport> = moves.iter().filter(|m| m.value.value() == value).collect();
        if group.is_empty() && value == Value::Draw {
            continue;
        }
        s.push_str(&palette.paint(value, title));
        s.push('\n');
        for m in group {
            let rem = m.child_value.remoteness().map_or("Draw".to_string(), |r| r.to_string());
            let line = format!("  {:<12} {:<12} {}", m.text, rem, m.delta_remoteness);
            s.push_str(&palette.paint(value, &line));
            s.push('\n');
        }
    }
    let _ = game;
    s
}

/// Runs an interactive game on stdin/stdout until it ends or the user quits. A game searched live
/// gives each position `think` to be searched; where that is not enough the moves are played
/// without their values (and the computer plays the first move it has).
pub fn play(
    game: &dyn Game,
    oracle: &Oracle<'_>,
    computer: ComputerSide,
    think: std::time::Duration,
) -> Result<()> {
    let palette =
        Palette { on: std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none() };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = std::io::stdout().lock();
    let mut history: Vec<Position> = vec![game.start()];
    writeln!(
        out,
        "{} ({}). Type a move, `ps` for the moves' values, `u` to undo, `q` to quit.",
        game.name(),
        game.variant()
    )?;
    loop {
        let p = *history.last().unwrap_or(&game.start());
        let report = oracle.report_within(p, think)?;
        let player = game.to_move(p);
        writeln!(out, "\n{}", game.board_text(p))?;
        writeln!(out, "TURN: {}", game.player_name(player))?;
        match &report {
            Some(report) => {
                let prediction =
                    format!("({} should {})", game.player_name(player), words(report.value));
                writeln!(out, "{}", palette.paint(report.value.value(), &prediction))?;
            }
            None => writeln!(
                out,
                "(values unknown: searching this position takes longer than {} s; --think gives \
                 it more)",
                think.as_secs()
            )?,
        }
        if let Some(v) = game.primitive(p) {
            let text = match v {
                Value::Lose => format!("Game over: {} wins.", game.player_name(player.other())),
                Value::Win => format!("Game over: {} wins.", game.player_name(player)),
                _ => "Game over: a tie.".to_string(),
            };
            writeln!(out, "{text}")?;
            if computer == ComputerSide::Both {
                return Ok(());
            }
            write!(out, "[(u)ndo / (q)uit]: ")?;
        } else if computer_moves(computer, player) {
            let (text, child) = match &report {
                Some(report) => (report.moves[0].text.clone(), report.moves[0].child),
                None => {
                    let mv = game.legal_moves(p)[0];
                    let text = format!("{} (values unknown)", game.move_to_string(p, mv));
                    (text, game.do_move(p, mv))
                }
            };
            writeln!(out, "Computer ({}) plays {text}", game.player_name(player))?;
            history.push(child);
            continue;
        } else {
            write!(
                out,
                "{}'s move [(u)ndo / ps / (q)uit / {}]: ",
                game.player_name(player),
                game.move_syntax()
            )?;
        }
        out.flush()?;
        let Some(line) = lines.next() else {
            writeln!(out)?;
            return Ok(());
        };
        let line = line?;
        match line.trim() {
            "" => {}
            "q" | "quit" | "exit" => return Ok(()),
            "ps" | "?" => match &report {
                Some(report) => write!(out, "{}", listing(game, &report.moves, &palette))?,
                None => writeln!(out, "The moves' values are not known yet.")?,
            },
            "u" | "undo" => {
                // Undo back to the last position where a human was to move.
                if history.len() > 1 {
                    history.pop();
                    while history.len() > 1
                        && computer_moves(computer, game.to_move(*history.last().unwrap_or(&p)))
                    {
                        history.pop();
                    }
                } else {
                    writeln!(out, "Nothing to undo.")?;
                }
            }
            text if game.primitive(p).is_none() => match game.parse_move(p, text) {
                Ok(mv) => history.push(game.do_move(p, mv)),
                Err(e) => writeln!(out, "{e}")?,
            },
            other => writeln!(out, "The game is over; {other:?} is not undo or quit.")?,
        }
    }
}

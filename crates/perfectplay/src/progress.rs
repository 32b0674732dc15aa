//! Progress bars (indicatif) for the engine's `Progress` trait.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};

/// How often a logged phase says how far it is.
const LOG_EVERY: std::time::Duration = std::time::Duration::from_secs(60);
use perfectplay_solve::Progress;

/// A progress bar on stderr. When stderr is not a terminal the bar is hidden and, if
/// `PERFECTPLAY_LOG` is set, each phase that took a second or more is logged as one line instead
/// (for benchmarks: where the time goes), and a phase still running says how far it is once a
/// minute (a background run's log shows it is alive).
#[derive(Debug)]
pub struct Bar {
    bar: Mutex<Option<ProgressBar>>,
    phase: Mutex<Option<(String, Instant)>>,
    log: bool,
    started: Instant,
    /// When the running phase last said how far it is.
    said: Mutex<Instant>,
}

impl Bar {
    pub fn new() -> Bar {
        Bar {
            bar: Mutex::new(None),
            phase: Mutex::new(None),
            log: !std::io::stderr().is_terminal() && std::env::var_os("PERFECTPLAY_LOG").is_some(),
            started: Instant::now(),
            said: Mutex::new(Instant::now()),
        }
    }

    fn log_end(&self) {
        if !self.log {
            return;
        }
        if let Ok(mut phase) = self.phase.lock() {
            if let Some((label, since)) = phase.take() {
                let secs = since.elapsed().as_secs_f64();
                if secs >= 1.0 {
                    let done = self.bar.lock().ok().and_then(|b| b.as_ref().map(|b| b.position()));
                    eprintln!(
                        "[{:8.1} s] {label}: {} in {secs:.1} s",
                        self.started.elapsed().as_secs_f64(),
                        done.unwrap_or(0)
                    );
                }
            }
        }
    }
}

impl Progress for Bar {
    fn begin(&self, label: &str, total: Option<u64>) {
        self.log_end();
        if let Ok(mut phase) = self.phase.lock() {
            *phase = Some((label.to_string(), Instant::now()));
        }
        let bar = match total {
            Some(n) => ProgressBar::new(n).with_style(
                ProgressStyle::with_template(
                    "{msg:>28} [{bar:30}] {human_pos}/{human_len} {per_sec} ETA {eta}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            ),
            None => ProgressBar::new_spinner().with_style(
                ProgressStyle::with_template(
                    "{msg:>28} {spinner} {human_pos} positions {per_sec} {elapsed}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            ),
        };
        bar.set_message(label.to_string());
        if let Ok(mut slot) = self.bar.lock() {
            if let Some(old) = slot.replace(bar) {
                old.finish_and_clear();
            }
        }
    }

    fn advance(&self, amount: u64) {
        // The bar's lock is let go before the phase's is taken (`log_end` takes them the other
        // way round).
        let (done, length) = {
            let Ok(slot) = self.bar.lock() else { return };
            let Some(bar) = slot.as_ref() else { return };
            bar.inc(amount);
            (bar.position(), bar.length())
        };
        if !self.log {
            return;
        }
        let Ok(mut said) = self.said.lock() else { return };
        if said.elapsed() < LOG_EVERY {
            return;
        }
        *said = Instant::now();
        drop(said);
        let phase = self.phase.lock().ok().and_then(|p| p.clone());
        if let Some((label, since)) = phase {
            let secs = since.elapsed().as_secs_f64();
            let of = length.map_or(String::new(), |n| format!(" of {n}"));
            eprintln!(
                "[{:8.1} s] {label}: {done}{of} so far ({:.0} a second)",
                self.started.elapsed().as_secs_f64(),
                done as f64 / secs.max(1e-9)
            );
        }
    }

    fn note(&self, line: &str) {
        let line = format!("[{:8.1} s] {line}", self.started.elapsed().as_secs_f64());
        match self.bar.lock().ok().as_ref().and_then(|b| b.as_ref().cloned()) {
            Some(bar) if !bar.is_hidden() => bar.println(line),
            _ => eprintln!("{line}"),
        }
    }

    fn end(&self) {
        self.log_end();
        if let Ok(mut slot) = self.bar.lock() {
            if let Some(bar) = slot.take() {
                bar.finish_and_clear();
            }
        }
    }
}

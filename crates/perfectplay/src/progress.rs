//! Progress bars (indicatif) for the engine's `Progress` trait.

use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};
use perfectplay_solve::Progress;

/// A progress bar on stderr, hidden when stderr is not a terminal.
#[derive(Debug, Default)]
pub struct Bar {
    bar: Mutex<Option<ProgressBar>>,
}

impl Bar {
    pub fn new() -> Bar {
        Bar::default()
    }
}

impl Progress for Bar {
    fn begin(&self, label: &str, total: Option<u64>) {
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
        if let Ok(slot) = self.bar.lock() {
            if let Some(bar) = slot.as_ref() {
                bar.inc(amount);
            }
        }
    }

    fn end(&self) {
        if let Ok(mut slot) = self.bar.lock() {
            if let Some(bar) = slot.take() {
                bar.finish_and_clear();
            }
        }
    }
}

//! Progress reporting, so that a front end can draw a bar without the engine knowing how.

/// Receives progress from long work. Implementations must be cheap: `advance` is called from
/// worker threads, about once per few thousand positions.
pub trait Progress: Sync {
    /// A phase begins; `total` is the amount of work if known.
    fn begin(&self, label: &str, total: Option<u64>);
    /// `amount` more work is done.
    fn advance(&self, amount: u64);
    /// The phase ended.
    fn end(&self);
    /// A line worth keeping (a tier finished, with the overall progress and time left).
    fn note(&self, _line: &str) {}
    /// Whether the one watching asks the work to stop: a solve then ends with
    /// [`crate::SolveError::Stopped`] before its next tier, or between the levels of the tier in
    /// progress (what was handed to the sink is kept, so a later solve resumes from it).
    fn stopped(&self) -> bool {
        false
    }
}

/// Reports nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn begin(&self, _label: &str, _total: Option<u64>) {}
    fn advance(&self, _amount: u64) {}
    fn end(&self) {}
}

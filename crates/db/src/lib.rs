//! The on-disk results format. Until the database issue lands this crate holds nothing: results
//! live in memory (see `perfectplay_solve::Solution`). It is the only crate that will know the
//! file layout.

//! The CLI's commands that are more than a few lines, one module each; `main.rs` parses the
//! command line and hands each command its arguments and the data directory's [`Store`].
//!
//! [`Store`]: crate::store::Store

pub mod analyze;
pub mod db;
pub mod prove;
pub mod solve;

//! The evaluation contract lives in [`crate::core::eval`] (so the games can
//! implement it without importing the searcher); re-exported here for the
//! searcher's own use.

pub use crate::core::eval::*;

//! The generic searcher.

pub mod eval;
pub mod params;
#[doc(hidden)]
pub mod testgame;
pub mod tt;

pub use eval::{EvalParams, Evaluate};

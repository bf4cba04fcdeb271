//! The generic searcher.

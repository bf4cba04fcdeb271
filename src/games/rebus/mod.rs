//! REBUS Core (RULES.md §2).

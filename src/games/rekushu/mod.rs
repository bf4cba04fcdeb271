//! Rekushu (RULES.md §1).

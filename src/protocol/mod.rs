//! The protocol layer (GTP-like): text in, typed command, engine, typed reply, text out.

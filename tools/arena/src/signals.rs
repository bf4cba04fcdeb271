//! Ctrl-C and termination requests. The first SIGINT or SIGTERM (a Slurm or
//! Kubernetes preemption sends SIGTERM) sets a flag that every wait of the
//! arena polls: games in progress are abandoned (they are not counted and are
//! replayed on resume), engines get `quit`, the state file and the summary are
//! written. A second signal ends the arena at once (engines are then killed by
//! the operating system closing their pipes: they read end of input and exit).
//!
//! Engines run in their own process group, so a Ctrl-C typed in the terminal
//! reaches only the arena, which then stops them in order.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static SIGNALS: AtomicUsize = AtomicUsize::new(0);

extern "C" fn on_signal(_: libc::c_int) {
    // Only async-signal-safe work here: atomics and _exit.
    INTERRUPTED.store(true, Ordering::SeqCst);
    if SIGNALS.fetch_add(1, Ordering::SeqCst) >= 1 {
        // SAFETY: _exit is async-signal-safe.
        unsafe { libc::_exit(130) };
    }
}

/// Installs the handler for SIGINT and SIGTERM (once, from `main`).
pub fn install() {
    let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: the handler only touches atomics and calls _exit.
    unsafe {
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
}

/// Whether the arena has been asked to stop.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Sets the flag as a signal would (tests, and a stop requested in-process).
pub fn request_stop() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

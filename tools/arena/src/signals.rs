//! Ctrl-C and termination requests. The first SIGINT or SIGTERM (a Slurm or
//! Kubernetes preemption sends SIGTERM) sets a flag that every wait of the
//! arena polls: games in progress are abandoned (they are not counted and are
//! replayed on resume), engines get `quit`, the state file and the summary are
//! written. A second signal a second or more after the first ends the arena at
//! once (engines are then killed by the operating system closing their pipes:
//! they read end of input and exit); signals closer to the first count as the
//! same request: GNU parallel's remote wrapper, stopping a job over ssh, sends
//! its second SIGTERM as soon as the shell around the arena has died, a few
//! milliseconds after the first, which would otherwise cut short the saving of
//! the summary.
//!
//! Engines run in their own process group, so a Ctrl-C typed in the terminal
//! reaches only the arena, which then stops them in order.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// When the first signal came, in ms of the monotonic clock (0: none yet).
static FIRST_MS: AtomicU64 = AtomicU64::new(0);
/// A signal this long after the first ends the arena at once.
const HURRY_MS: u64 = 1000;

/// The monotonic clock in ms, at least 1 (clock_gettime is async-signal-safe).
fn now_ms() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut t) };
    (t.tv_sec as u64 * 1000 + t.tv_nsec as u64 / 1_000_000).max(1)
}

extern "C" fn on_signal(_: libc::c_int) {
    // Only async-signal-safe work here: atomics, clock_gettime and _exit.
    INTERRUPTED.store(true, Ordering::SeqCst);
    let now = now_ms();
    match FIRST_MS.compare_exchange(0, now, Ordering::SeqCst, Ordering::SeqCst) {
        Ok(_) => {}
        Err(first) if now.saturating_sub(first) >= HURRY_MS => {
            // SAFETY: _exit is async-signal-safe.
            unsafe { libc::_exit(130) };
        }
        Err(_) => {}
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

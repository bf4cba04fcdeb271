//! Search limits and time management: depth, nodes, a fixed time per move, or a
//! clock (remaining, increment, moves to go), turned into a soft deadline (do
//! not start another iteration) and a hard deadline (abort the search).

use std::time::{Duration, Instant};

use crate::search::params::{
    HARD_FACTOR, MAX_CLOCK_PERCENT, MOVE_OVERHEAD_MS, MOVES_TO_GO_DEFAULT, SOFT_PERCENT,
};

/// The time left on the engine's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub remaining: Duration,
    pub increment: Duration,
    /// Moves until the next time control; `None` = sudden death.
    pub moves_to_go: Option<u32>,
}

/// What bounds a search. With no field set the level's default per-move time
/// applies; with only `depth` or `nodes` set, time is unlimited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Nominal depth of the last iteration (overrides the level's maximum).
    pub depth: Option<u32>,
    /// Stop after about this many nodes (all threads, checked every few nodes).
    pub nodes: Option<u64>,
    /// Exactly this long per move (less a small safety margin).
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    /// Search until stopped (the stop flag); ignores the level's time.
    pub infinite: bool,
    /// When the time started: the moment the command was received, so that
    /// whatever ran before the search (a table allocated, the input queue) is
    /// spent from the same budget. `None`: when the search starts.
    pub start: Option<Instant>,
}

impl Limits {
    pub fn depth(depth: u32) -> Self {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    pub fn nodes(nodes: u64) -> Self {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    pub fn movetime(time: Duration) -> Self {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    pub fn clock(remaining: Duration, increment: Duration, moves_to_go: Option<u32>) -> Self {
        Limits {
            clock: Some(Clock {
                remaining,
                increment,
                moves_to_go,
            }),
            ..Limits::default()
        }
    }

    pub fn infinite() -> Self {
        Limits {
            infinite: true,
            ..Limits::default()
        }
    }

    /// These limits with the time counted from `start`.
    pub fn started_at(self, start: Instant) -> Self {
        Limits {
            start: Some(start),
            ..self
        }
    }
}

/// Time budget of one search, as offsets from its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft: Duration,
    /// Abort the search at this.
    pub hard: Duration,
}

/// The budget for `limits`; `default_move_time` is the level's time per move
/// when no time control is given. `None` = no time bound.
pub fn budget(limits: &Limits, default_move_time: Duration) -> Option<Budget> {
    let overhead = Duration::from_millis(MOVE_OVERHEAD_MS);
    let floor = Duration::from_millis(1);
    if limits.infinite {
        return None;
    }
    if let Some(t) = limits.movetime {
        // Short move times keep most of their time: the overhead is at most
        // a fifth of the move time.
        let t = t.saturating_sub(overhead.min(t / 5)).max(floor);
        return Some(Budget { soft: t, hard: t });
    }
    if let Some(c) = limits.clock {
        // Milliseconds in u128: any clock a protocol may send (even absurd ones)
        // is computed without overflow or panic.
        let available = c.remaining.saturating_sub(overhead).as_millis();
        let increment = c.increment.as_millis();
        let mtg = c
            .moves_to_go
            .unwrap_or(MOVES_TO_GO_DEFAULT)
            .clamp(1, MOVES_TO_GO_DEFAULT) as u128;
        let cap = available * MAX_CLOCK_PERCENT as u128 / 100;
        let nominal = (available / mtg + increment * 3 / 4).min(cap);
        let soft = nominal * SOFT_PERCENT as u128 / 100;
        let hard = (nominal * HARD_FACTOR as u128).min(cap).max(soft);
        let ms = |x: u128| Duration::from_millis(u64::try_from(x).unwrap_or(u64::MAX)).max(floor);
        return Some(Budget {
            soft: ms(soft),
            hard: ms(hard),
        });
    }
    if limits.depth.is_some() || limits.nodes.is_some() {
        return None;
    }
    let t = default_move_time.max(floor);
    Some(Budget { soft: t, hard: t })
}

/// Deadlines of a running search.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    budget: Option<Budget>,
}

impl TimeManager {
    pub fn new(limits: &Limits, default_move_time: Duration) -> Self {
        TimeManager {
            start: limits.start.unwrap_or_else(Instant::now),
            budget: budget(limits, default_move_time),
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn is_timed(&self) -> bool {
        self.budget.is_some()
    }

    /// Past the soft deadline: finish, do not start another iteration.
    pub fn soft_expired(&self) -> bool {
        self.budget.is_some_and(|b| self.elapsed() >= b.soft)
    }

    /// Past `1/share` of the hard deadline (never, untimed).
    pub fn hard_share_spent(&self, share: u32) -> bool {
        self.budget
            .is_some_and(|b| self.elapsed() >= b.hard / share.max(1))
    }

    /// Past the hard deadline: abort now.
    pub fn hard_expired(&self) -> bool {
        self.budget.is_some_and(|b| self.elapsed() >= b.hard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEVEL: Duration = Duration::from_millis(1000);

    #[test]
    fn depth_or_nodes_alone_are_untimed() {
        assert_eq!(budget(&Limits::depth(5), LEVEL), None);
        assert_eq!(budget(&Limits::nodes(5), LEVEL), None);
        assert_eq!(budget(&Limits::infinite(), LEVEL), None);
    }

    #[test]
    fn nothing_set_uses_level_time() {
        let b = budget(&Limits::default(), LEVEL).expect("timed");
        assert_eq!((b.soft, b.hard), (LEVEL, LEVEL));
    }

    #[test]
    fn movetime_keeps_overhead() {
        let b = budget(&Limits::movetime(Duration::from_millis(500)), LEVEL).expect("timed");
        assert_eq!(b.hard, Duration::from_millis(500 - MOVE_OVERHEAD_MS));
        let b = budget(&Limits::movetime(Duration::from_millis(20)), LEVEL).expect("timed");
        assert_eq!(b.hard, Duration::from_millis(16), "a fifth at most");
        let b = budget(&Limits::movetime(Duration::ZERO), LEVEL).expect("timed");
        assert!(b.hard > Duration::ZERO);
    }

    #[test]
    fn clock_budget_is_bounded_and_ordered() {
        let l = Limits::clock(Duration::from_secs(60), Duration::from_secs(1), None);
        let b = budget(&l, LEVEL).expect("timed");
        assert!(b.soft <= b.hard);
        assert!(b.hard <= Duration::from_secs(60) * MAX_CLOCK_PERCENT as u32 / 100);
        // Roughly 60 s / 30 moves + 0.75 s.
        assert!(b.soft >= Duration::from_millis(1000) && b.soft <= Duration::from_millis(2000));
        // One move to go: spend more, but never beyond the cap.
        let l = Limits::clock(Duration::from_secs(10), Duration::ZERO, Some(1));
        let b = budget(&l, LEVEL).expect("timed");
        assert!(b.hard <= Duration::from_secs(4));
        assert!(b.soft >= Duration::from_secs(2));
        // Almost flagged: still a positive budget.
        let l = Limits::clock(Duration::from_millis(5), Duration::ZERO, None);
        let b = budget(&l, LEVEL).expect("timed");
        assert!(b.soft > Duration::ZERO && b.soft <= b.hard);
        // Absurd clocks neither overflow nor panic.
        let l = Limits::clock(Duration::MAX, Duration::MAX, Some(0));
        let b = budget(&l, LEVEL).expect("timed");
        assert!(b.soft <= b.hard);
    }
}

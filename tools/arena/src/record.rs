//! Game records: header tags, then the moves in RULES notation, one per line,
//! with the engine's own summary as a `#` comment when it wrote one.
//!
//! ```text
//! [Game "rekushu"]
//! [Size "8"]
//! [Start "8x8"]
//! [First "easy"]
//! [Second "random"]
//! [Result "1-0"]
//! [Reason "no-placement"]
//! [Score "B+7"]
//! [Date "2026-11-30T06:40:12Z"]
//!
//! C3 # opening
//! F6 # opening
//! D4 # depth 4 score +1.20 nodes 5120 time 48 ms
//! ```

use std::fmt::Write;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::openings::GameKind;
use crate::referee::GameOutcome;

/// `1-0` (first player won), `0-1`, `1/2-1/2`.
pub fn result_text(winner: Option<usize>) -> &'static str {
    match winner {
        Some(0) => "1-0",
        Some(_) => "0-1",
        None => "1/2-1/2",
    }
}

/// The civil date of a day count since 1970-01-01 (H. Hinnant's algorithm).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The time now in UTC, ISO 8601 (`2026-11-30T06:40:12Z`).
pub fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let s = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

fn tag(out: &mut String, name: &str, value: &str) {
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(out, "[{name} \"{value}\"]");
}

/// The record of one game.
pub fn record_text(
    kind: GameKind,
    names: [&str; 2],
    outcome: &GameOutcome,
    round: u64,
    date: &str,
) -> String {
    let mut out = String::new();
    tag(&mut out, "Game", kind.id());
    if let GameKind::Rekushu { size } = kind {
        tag(&mut out, "Size", &size.to_string());
    }
    tag(&mut out, "Start", &outcome.start);
    tag(&mut out, "Round", &(round + 1).to_string());
    tag(&mut out, "First", names[0]);
    tag(&mut out, "Second", names[1]);
    tag(&mut out, "Result", result_text(outcome.winner));
    tag(&mut out, "Reason", &outcome.reason);
    tag(&mut out, "Score", &outcome.score);
    tag(&mut out, "Plies", &outcome.moves.len().to_string());
    tag(&mut out, "Date", date);
    out.push('\n');
    for m in &outcome.moves {
        out.push_str(&m.text);
        if m.opening {
            out.push_str(" # opening");
        } else if let Some(c) = &m.comment {
            let _ = write!(out, " # {}", c.replace(['\n', '\r'], " "));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(utc_now().len(), "2026-11-30T06:40:12Z".len());
    }
}

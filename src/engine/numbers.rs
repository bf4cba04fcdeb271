//! Numbers given as command arguments. Every number a command takes has a
//! range, said in its error: text that is not a number is a syntax error
//! quoting it (`perft: 'x' is not a whole number (0 to 16)`); a number outside
//! the range, however large or negative, says the range (`perft: '17' is out of
//! range (0 to 16)`).

use std::fmt::Display;
use std::str::FromStr;
use std::time::Duration;

use super::error::CommandError;

/// The most seconds any time argument takes (`move_time`, `time_settings`,
/// `time_left`, `fischer_time`): about eleven and a half days.
pub const MAX_SECONDS: u32 = 1_000_000;

/// Whether `text` is written as a whole number: an optional sign, then digits.
fn is_whole(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Whether `text` is written as a decimal number (`1`, `-0.5`, `1e20`).
fn is_decimal(text: &str) -> bool {
    text.parse::<f64>().is_ok_and(|v| !v.is_nan()) && text.bytes().any(|b| b.is_ascii_digit())
}

/// A whole number from `lo` to `hi`; `what` names it in the error.
pub fn whole<T>(what: &str, text: &str, lo: T, hi: T) -> Result<T, CommandError>
where
    T: FromStr + PartialOrd + Display + Copy,
{
    whole_in(what, text, lo, hi, "")
}

/// [`whole`], the range said with its unit: `(1 to 360000 centiseconds)`.
pub fn whole_in<T>(what: &str, text: &str, lo: T, hi: T, unit: &str) -> Result<T, CommandError>
where
    T: FromStr + PartialOrd + Display + Copy,
{
    let range = match unit {
        "" => format!("{lo} to {hi}"),
        unit => format!("{lo} to {hi} {unit}"),
    };
    if !is_whole(text) {
        return Err(CommandError::syntax(format!(
            "{what}: '{text}' is not a whole number ({range})"
        )));
    }
    text.parse::<T>()
        .ok()
        .filter(|v| (lo..=hi).contains(v))
        .ok_or_else(|| out_of_range(what, text, &range))
}

/// `what: 'text' is out of range (range)`.
pub fn out_of_range(what: &str, text: &str, range: &str) -> CommandError {
    CommandError::syntax(format!("{what}: '{text}' is out of range ({range})"))
}

/// Seconds, decimals allowed, from 0 to [`MAX_SECONDS`]; `what` names the
/// command in the error.
pub fn seconds(what: &str, text: &str) -> Result<Duration, CommandError> {
    if !is_decimal(text) {
        return Err(CommandError::syntax(format!(
            "{what}: '{text}' is not a number of seconds (0 to {MAX_SECONDS})"
        )));
    }
    text.parse::<f64>()
        .ok()
        .filter(|s| (0.0..=f64::from(MAX_SECONDS)).contains(s))
        .map(Duration::from_secs_f64)
        .ok_or_else(|| out_of_range(what, text, &format!("0 to {MAX_SECONDS} seconds")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_numbers_and_ranges() {
        assert_eq!(whole("perft", "16", 0u32, 16), Ok(16));
        assert_eq!(whole("perft", "+3", 0u32, 16), Ok(3));
        let e = whole("perft", "17", 0u32, 16).unwrap_err();
        assert_eq!(e.detail, "perft: '17' is out of range (0 to 16)");
        let e = whole("perft", "-1", 0u32, 16).unwrap_err();
        assert_eq!(e.detail, "perft: '-1' is out of range (0 to 16)");
        let e = whole("seed", "18446744073709551616", 0u64, u64::MAX).unwrap_err();
        assert!(
            e.detail
                .ends_with("is out of range (0 to 18446744073709551615)")
        );
        let e = whole("perft", "x", 0u32, 16).unwrap_err();
        assert_eq!(e.detail, "perft: 'x' is not a whole number (0 to 16)");
        assert!(whole("perft", "1.5", 0u32, 16).is_err());
        assert!(whole("perft", "", 0u32, 16).is_err());
    }

    #[test]
    fn seconds_have_a_range() {
        assert_eq!(seconds("t", "0.25"), Ok(Duration::from_millis(250)));
        assert_eq!(seconds("t", "1000000"), Ok(Duration::from_secs(1_000_000)));
        for bad in ["1000000.5", "1e20", "-1"] {
            let e = seconds("t", bad).unwrap_err();
            assert!(e.detail.contains("out of range"), "{bad}: {e}");
        }
        for bad in ["x", "nan", "inf", "", "."] {
            let e = seconds("t", bad).unwrap_err();
            assert!(
                e.detail.contains("is not a number of seconds"),
                "{bad}: {e}"
            );
        }
    }
}

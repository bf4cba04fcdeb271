//! Engines and time controls as the command line gives them.
//!
//! - `--engine NAME=COMMAND`: a name for tables and records, and the command
//!   line that starts the engine (split as `tessera_client::split_command`
//!   says: words split on spaces, quotes group, `\` escapes);
//! - `--init NAME=COMMAND`: a protocol command sent to that engine before each
//!   game (repeatable, in order), e.g. `--init 'easy=level easy'`;
//! - `--tc`, `--movetime`, `--depth`, `--nodes` take `VALUE` for every engine or
//!   `NAME=VALUE` for one; a per-engine value wins over a global one.

use std::time::Duration;

/// A malformed option value, quoting it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("--engine '{0}': expected NAME=COMMAND")]
    Engine(String),
    #[error("{option} '{value}': {why}")]
    Value {
        option: &'static str,
        value: String,
        why: String,
    },
    #[error("{option} names engine '{name}', which no --engine defines")]
    UnknownEngine { option: &'static str, name: String },
    #[error("engine name '{0}' is used twice")]
    DuplicateName(String),
}

/// How an engine's thinking is bounded, and so how the referee times it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// The engine's own default (its level's time); only the hard timeout applies.
    EngineDefault,
    /// A Fischer clock: base and increment (`fischer_time`, then `time_left`
    /// before each `genmove`).
    Fischer { base: Duration, increment: Duration },
    /// A fixed time per move (`move_time`).
    MoveTime(Duration),
    /// `limit depth N`: no clock; the hard timeout applies.
    Depth(u32),
    /// `limit nodes N`: no clock; the hard timeout applies.
    Nodes(u64),
}

impl TimeControl {
    pub fn describe(&self) -> String {
        match self {
            TimeControl::EngineDefault => "engine default".into(),
            TimeControl::Fischer { base, increment } => {
                format!("{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
            TimeControl::MoveTime(t) => format!("{} s/move", t.as_secs_f64()),
            TimeControl::Depth(d) => format!("depth {d}"),
            TimeControl::Nodes(n) => format!("nodes {n}"),
        }
    }
}

/// One engine of the tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    pub name: String,
    pub command: String,
    pub init: Vec<String>,
    pub tc: TimeControl,
}

fn seconds(option: &'static str, text: &str) -> Result<Duration, SpecError> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e7)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| SpecError::Value {
            option,
            value: text.to_string(),
            why: "not a number of seconds".into(),
        })
}

/// `BASE+INC` or `BASE` in seconds: `10+0.1`, `60`.
pub fn parse_tc(text: &str) -> Result<TimeControl, SpecError> {
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let base = seconds("--tc", base)?;
    let increment = seconds("--tc", inc)?;
    if base.is_zero() && increment.is_zero() {
        return Err(SpecError::Value {
            option: "--tc",
            value: text.to_string(),
            why: "no time at all".into(),
        });
    }
    Ok(TimeControl::Fischer { base, increment })
}

fn count<T: std::str::FromStr + PartialOrd + Default>(
    option: &'static str,
    text: &str,
) -> Result<T, SpecError> {
    text.trim()
        .parse::<T>()
        .ok()
        .filter(|v| *v > T::default())
        .ok_or_else(|| SpecError::Value {
            option,
            value: text.to_string(),
            why: "not a positive count".into(),
        })
}

/// Splits `NAME=VALUE` (per engine) from a plain `VALUE` (global). A value
/// never contains `=`, so any `=` marks a name.
pub fn split_named(text: &str) -> (Option<&str>, &str) {
    match text.split_once('=') {
        Some((name, value)) => (Some(name.trim()), value),
        None => (None, text),
    }
}

/// The limits the command line gave, before they are assigned to engines.
#[derive(Clone, Debug, Default)]
pub struct LimitArgs {
    pub tc: Vec<String>,
    pub movetime: Vec<String>,
    pub depth: Vec<String>,
    pub nodes: Vec<String>,
}

/// Builds the engine list from `--engine`, `--init` and the limit options.
pub fn build_engines(
    engines: &[String],
    inits: &[String],
    limits: &LimitArgs,
) -> Result<Vec<EngineSpec>, SpecError> {
    let mut specs: Vec<EngineSpec> = Vec::new();
    for e in engines {
        let (Some(name), command) = split_named(e) else {
            return Err(SpecError::Engine(e.clone()));
        };
        if name.is_empty() || command.trim().is_empty() {
            return Err(SpecError::Engine(e.clone()));
        }
        if specs.iter().any(|s| s.name == name) {
            return Err(SpecError::DuplicateName(name.to_string()));
        }
        if let Err(why) = tessera_client::split_command(command) {
            return Err(SpecError::Value {
                option: "--engine",
                value: e.clone(),
                why,
            });
        }
        specs.push(EngineSpec {
            name: name.to_string(),
            command: command.trim().to_string(),
            init: Vec::new(),
            tc: TimeControl::EngineDefault,
        });
    }
    let find = |specs: &mut Vec<EngineSpec>, option: &'static str, name: &str| {
        specs
            .iter()
            .position(|s| s.name == name)
            .ok_or_else(|| SpecError::UnknownEngine {
                option,
                name: name.to_string(),
            })
    };
    for i in inits {
        let (Some(name), cmd) = split_named(i) else {
            return Err(SpecError::Value {
                option: "--init",
                value: i.clone(),
                why: "expected NAME=COMMAND".into(),
            });
        };
        let k = find(&mut specs, "--init", name)?;
        specs[k].init.push(cmd.trim().to_string());
    }
    // Globals first, then per-engine values over them.
    type Parser = fn(&str) -> Result<TimeControl, SpecError>;
    let kinds: [(&'static str, &Vec<String>, Parser); 4] = [
        ("--tc", &limits.tc, parse_tc),
        ("--movetime", &limits.movetime, |v| {
            let t = seconds("--movetime", v)?;
            if t.is_zero() {
                return Err(SpecError::Value {
                    option: "--movetime",
                    value: v.to_string(),
                    why: "must be more than 0".into(),
                });
            }
            Ok(TimeControl::MoveTime(t))
        }),
        ("--depth", &limits.depth, |v| {
            Ok(TimeControl::Depth(count("--depth", v)?))
        }),
        ("--nodes", &limits.nodes, |v| {
            Ok(TimeControl::Nodes(count("--nodes", v)?))
        }),
    ];
    for per_engine in [false, true] {
        for (option, values, parse) in &kinds {
            for v in values.iter() {
                let (name, value) = split_named(v);
                match (name, per_engine) {
                    (None, false) => {
                        let tc = parse(value)?;
                        for s in specs.iter_mut() {
                            s.tc = tc;
                        }
                    }
                    (Some(name), true) => {
                        let tc = parse(value)?;
                        let k = find(&mut specs, option, name)?;
                        specs[k].tc = tc;
                    }
                    _ => {}
                }
            }
        }
    }
    Ok(specs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_inits_and_limits() {
        let limits = LimitArgs {
            tc: vec!["10+0.1".into()],
            movetime: vec!["b=0.05".into()],
            ..LimitArgs::default()
        };
        let specs = build_engines(
            &["a=./tessera".into(), "b=./tessera --x".into()],
            &["a=level easy".into(), "a=setoption seed 3".into()],
            &limits,
        )
        .expect("valid");
        assert_eq!(specs[0].init, vec!["level easy", "setoption seed 3"]);
        assert_eq!(
            specs[0].tc,
            TimeControl::Fischer {
                base: Duration::from_secs(10),
                increment: Duration::from_millis(100)
            }
        );
        assert_eq!(
            specs[1].tc,
            TimeControl::MoveTime(Duration::from_millis(50))
        );
        assert_eq!(specs[1].command, "./tessera --x");
    }

    #[test]
    fn errors_quote_the_input() {
        let none = LimitArgs::default();
        let e = build_engines(&["./tessera".into()], &[], &none).expect_err("no name");
        assert!(e.to_string().contains("'./tessera'"));
        let e = build_engines(&["a=x".into(), "a=y".into()], &[], &none).expect_err("dup");
        assert!(e.to_string().contains("'a'"));
        let e = build_engines(&["a=x".into()], &["b=level easy".into()], &none).expect_err("b");
        assert!(e.to_string().contains("'b'"));
        let e = build_engines(&["a=x 'y".into()], &[], &none).expect_err("a quote");
        assert!(e.to_string().contains("unclosed '"), "{e}");
        assert!(parse_tc("ten").is_err());
        assert!(parse_tc("0+0").is_err());
        assert_eq!(
            parse_tc("60").ok(),
            Some(TimeControl::Fischer {
                base: Duration::from_secs(60),
                increment: Duration::ZERO
            })
        );
        let bad = LimitArgs {
            depth: vec!["0".into()],
            ..LimitArgs::default()
        };
        assert!(build_engines(&["a=x".into()], &[], &bad).is_err());
    }
}

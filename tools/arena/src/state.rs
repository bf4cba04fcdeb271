//! The state file of a resumable match: JSON lines, a header (the match's
//! fingerprint and shard) and then one line per finished game, appended and
//! synced to disk as each game ends. A run given an existing state file of
//! the same match skips the games it lists and plays the rest, so an
//! interrupted match (Ctrl-C, SIGTERM, a killed machine) loses at most the
//! games that were in progress, and counts none twice. A last line cut short
//! by a crash is dropped (its game is played again). A new state file starts
//! with the games of the run's JSON summary when that summary is of an
//! interrupted run of the same match and shard (one started without
//! `--state`), so such a run can be resumed too; the games go in the order
//! they ended (each report's `finished`), as a state file holds them.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::shard::Shard;
use crate::tournament::{GameReport, MatchInfo, SummaryFile};

#[derive(Serialize, Deserialize)]
struct Header {
    arena_state: u32,
    #[serde(rename = "match")]
    info: MatchInfo,
    shard: Shard,
}

/// An open state file and the games it already holds.
pub struct StateFile {
    path: PathBuf,
    pub games: Vec<GameReport>,
    /// What a new file took from an interrupted run's summary, or why it
    /// took nothing, for the run to say.
    pub note: Option<String>,
}

fn show(path: &Path) -> String {
    path.display().to_string()
}

impl StateFile {
    /// Opens `path`: creates it with its header (and the games of `summary`,
    /// if that is an interrupted run of this match and shard), or reads it
    /// back and checks that it belongs to this match and shard.
    pub fn open(
        path: &Path,
        info: &MatchInfo,
        shard: Shard,
        summary: Option<&Path>,
    ) -> Result<StateFile, String> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(format!("cannot read the state file '{}': {e}", show(path))),
        };
        if text.trim().is_empty() {
            let header = Header {
                arena_state: 1,
                info: info.clone(),
                shard,
            };
            let (games, note) = summary
                .map(|s| interrupted_games(s, path, info, shard))
                .unwrap_or_default();
            let mut text = serde_json::to_string(&header).map_err(|e| e.to_string())? + "\n";
            for g in &games {
                text += &(serde_json::to_string(g).map_err(|e| e.to_string())? + "\n");
            }
            std::fs::write(path, text)
                .map_err(|e| format!("cannot write the state file '{}': {e}", show(path)))?;
            return Ok(StateFile {
                path: path.to_path_buf(),
                games,
                note,
            });
        }
        let mut lines = text.split_inclusive('\n').peekable();
        let first = lines.next().unwrap_or_default();
        let header: Header = serde_json::from_str(first).map_err(|e| {
            format!(
                "'{}' is not an arena state file (line 1: {e}): '{}'",
                show(path),
                first.trim().chars().take(80).collect::<String>()
            )
        })?;
        let diffs = header.info.differences(info, false);
        if !diffs.is_empty() {
            return Err(format!(
                "the state file '{}' is of another match ({}); give another --state, or delete it to start over",
                show(path),
                diffs.join("; ")
            ));
        }
        if header.shard != shard {
            return Err(format!(
                "the state file '{}' is of shard {}, not {shard}",
                show(path),
                header.shard
            ));
        }
        let mut games = Vec::new();
        let mut seen = BTreeSet::new();
        let mut good = first.len();
        let mut n = 1;
        while let Some(line) = lines.next() {
            n += 1;
            let last = lines.peek().is_none();
            match serde_json::from_str::<GameReport>(line) {
                Ok(g) => {
                    if seen.insert(g.index) {
                        games.push(g);
                    }
                    good += line.len();
                }
                Err(_) if line.trim().is_empty() => good += line.len(),
                // Cut short by a crash while it was written: played again.
                Err(_) if last => {}
                Err(e) => {
                    return Err(format!(
                        "the state file '{}' line {n} is damaged: {e}",
                        show(path)
                    ));
                }
            }
        }
        if good < text.len() || !text.ends_with('\n') {
            let mut kept = text[..good].to_string();
            if !kept.ends_with('\n') {
                kept.push('\n');
            }
            std::fs::write(path, kept)
                .map_err(|e| format!("cannot repair the state file '{}': {e}", show(path)))?;
        }
        Ok(StateFile {
            path: path.to_path_buf(),
            games,
            note: None,
        })
    }

    /// Appends a finished game and syncs it to disk.
    pub fn append(&mut self, game: &GameReport) -> Result<(), String> {
        let err = |e: String| format!("cannot write the state file '{}': {e}", show(&self.path));
        let line = serde_json::to_string(game).map_err(|e| err(e.to_string()))?;
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&self.path)
            .map_err(|e| err(e.to_string()))?;
        f.write_all(format!("{line}\n").as_bytes())
            .and_then(|_| f.sync_data())
            .map_err(|e| err(e.to_string()))?;
        self.games.push(game.clone());
        Ok(())
    }
}

/// The games of the JSON summary at `path` if it is of an interrupted run of
/// this match and shard, and what to say of them; no games otherwise (no
/// file, a finished run: the run plays every game, and its summary replaces
/// the file), and why if it is an interrupted run of another match.
fn interrupted_games(
    path: &Path,
    state: &Path,
    info: &MatchInfo,
    shard: Shard,
) -> (Vec<GameReport>, Option<String>) {
    let Ok(text) = std::fs::read_to_string(path) else {
        return (Vec::new(), None);
    };
    let Ok(summary) = serde_json::from_str::<SummaryFile>(&text) else {
        return (Vec::new(), None);
    };
    if summary.status != "interrupted" || summary.games.is_empty() {
        return (Vec::new(), None);
    }
    let this_shard = (!shard.is_all()).then(|| shard.to_string());
    let mut diffs = summary.info.differences(info, false);
    if !summary.shards.is_empty() {
        diffs.push(format!("a merge of shards {}", summary.shards.join(" ")));
    } else if summary.shard != this_shard {
        diffs.push(format!(
            "shard {}, not {}",
            summary.shard.as_deref().unwrap_or("1/1"),
            this_shard.as_deref().unwrap_or("1/1")
        ));
    }
    if !diffs.is_empty() {
        let why = format!(
            "arena: '{}' is the summary of another interrupted match ({}): the new state file '{}' does not take its games",
            show(path),
            diffs.join("; "),
            show(state)
        );
        return (Vec::new(), Some(why));
    }
    let mut seen = BTreeSet::new();
    let mut games: Vec<GameReport> = summary
        .games
        .into_iter()
        .filter(|g| seen.insert(g.index))
        .collect();
    // Back in the order they ended, as a state file holds them, so that a
    // resumed SPRT replays the same walk (games without the number, from an
    // older arena, stay first in game order).
    games.sort_by_key(|g| g.finished.unwrap_or(0));
    let said = format!(
        "arena: the new state file '{}' starts with the {} games of the interrupted run in '{}'",
        show(state),
        games.len(),
        show(path)
    );
    (games, Some(said))
}

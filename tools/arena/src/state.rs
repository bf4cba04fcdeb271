//! The state file of a resumable match: JSON lines, a header (the match's
//! fingerprint and shard) and then one line per finished game, appended and
//! synced to disk as each game ends. A run given an existing state file of
//! the same match skips the games it lists and plays the rest, so an
//! interrupted match (Ctrl-C, SIGTERM, a killed machine) loses at most the
//! games that were in progress, and counts none twice. A last line cut short
//! by a crash is dropped (its game is played again).

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::shard::Shard;
use crate::tournament::{GameReport, MatchInfo};

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
}

fn show(path: &Path) -> String {
    path.display().to_string()
}

impl StateFile {
    /// Opens `path`: creates it with its header, or reads it back and checks
    /// that it belongs to this match and shard.
    pub fn open(path: &Path, info: &MatchInfo, shard: Shard) -> Result<StateFile, String> {
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
            let line = serde_json::to_string(&header).map_err(|e| e.to_string())?;
            std::fs::write(path, line + "\n")
                .map_err(|e| format!("cannot write the state file '{}': {e}", show(path)))?;
            return Ok(StateFile {
                path: path.to_path_buf(),
                games: Vec::new(),
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

//! `arena merge`: the JSON summaries of shards (or of whole runs of the same
//! match) summed into one, with the table, Elo, LOS and SPRT verdict one run
//! would print. The games are summed, not the counts: the merge rebuilds the
//! pairs from the game list, so it is exact, and it refuses inputs that are not
//! of the same match or that share a game.

use std::collections::BTreeMap;

use crate::tournament::{GameReport, Summary, SummaryFile, summarize};

/// Merges summaries read from `files` (path, text). Notes about the inputs
/// (missing shards, interrupted ones) go to `notes`.
pub fn merge(
    files: &[(String, String)],
    allow_binaries: bool,
    notes: &mut Vec<String>,
) -> Result<Summary, String> {
    let mut inputs = Vec::new();
    for (path, text) in files {
        let input: SummaryFile = serde_json::from_str(text).map_err(|e| {
            format!("'{path}' is not an arena summary (give the files --json wrote): {e}")
        })?;
        inputs.push((path, input));
    }
    let Some((first_path, first)) = inputs.first() else {
        return Err("give the JSON summaries to merge: arena merge a.json b.json …".into());
    };
    let info = first.info.clone();
    let mut games: BTreeMap<u64, (String, GameReport)> = BTreeMap::new();
    let mut shards = Vec::new();
    let mut count = None;
    for (path, input) in &inputs {
        let diffs = info.differences(&input.info, allow_binaries);
        if !diffs.is_empty() {
            return Err(format!(
                "'{path}' is not a shard of the same match as '{first_path}': {}",
                diffs.join("; ")
            ));
        }
        let names: Vec<String> = match &input.shard {
            Some(s) => vec![s.clone()],
            None if !input.shards.is_empty() => input.shards.clone(),
            None => vec!["1/1".into()],
        };
        for s in &names {
            if let Some((_, n)) = s.split_once('/') {
                count = count.or(n.parse::<u64>().ok());
            }
        }
        shards.extend(names);
        if input.status == "interrupted" {
            notes.push(format!(
                "'{path}' was interrupted ({} games): resume it with its --state file for the rest",
                input.games.len()
            ));
        }
        for g in &input.games {
            if let Some((other, _)) = games.get(&g.index) {
                return Err(format!(
                    "game {} is in both '{other}' and '{path}': the inputs overlap (the same shard twice?)",
                    g.index
                ));
            }
            games.insert(g.index, (path.to_string(), g.clone()));
        }
    }
    shards.sort_by_key(|s| {
        s.split_once('/')
            .and_then(|(i, _)| i.parse::<u64>().ok())
            .unwrap_or(0)
    });
    if let Some(n) = count {
        let have: Vec<u64> = shards
            .iter()
            .filter_map(|s| s.split_once('/').and_then(|(i, _)| i.parse().ok()))
            .collect();
        let missing = (1..=n).filter(|i| !have.contains(i)).count();
        if missing > 0 && n > 1 {
            notes.push(format!(
                "{} of {n} shards merged, {missing} missing",
                have.len()
            ));
        }
    }
    let status = if inputs.iter().any(|(_, i)| i.status == "interrupted") {
        "interrupted"
    } else {
        "finished"
    };
    Ok(summarize(
        &info,
        None,
        shards,
        status,
        games.into_values().map(|(_, g)| g).collect(),
    ))
}

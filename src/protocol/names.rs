//! GoGui's names of points and colours, and the translation of Rekushu
//! vertices between them and the rules' names (protocol/gogui.rs says the
//! mapping; protocol.md §8-9). GoGui names columns without `I`: `A`–`H`,
//! `J`–`Z`, then `AA`, `AB`…; the rules' columns include `I`.

use super::args::Args;
use crate::engine::{AnyGame, CommandError, Engine};

/// GoGui's name of 0-based column `x`: `A`–`H`, `J`–`Z`, then `AA`, `AB`…
pub fn gogui_column(x: usize) -> String {
    let letter = |i: usize| -> char {
        let c = b'A' + (i % 25) as u8;
        char::from(if c >= b'I' { c + 1 } else { c })
    };
    if x < 25 {
        letter(x).to_string()
    } else {
        format!("{}{}", letter(x / 25 - 1), letter(x % 25))
    }
}

/// The GoGui name of 0-based point (x, y): `J5` for (8, 4).
pub fn gogui_point(x: usize, y: usize) -> String {
    format!("{}{}", gogui_column(x), y + 1)
}

/// The 0-based column of a GoGui column name (`A`, `J`, `AA`; any case), or
/// `None` for a name GoGui does not write (`I`, three letters…).
fn gogui_column_index(letters: &str) -> Option<usize> {
    let value = |c: u8| -> Option<usize> {
        match c.to_ascii_uppercase() {
            b'I' => None,
            c @ b'A'..=b'H' => Some(usize::from(c - b'A')),
            c @ b'J'..=b'Z' => Some(usize::from(c - b'A') - 1),
            _ => None,
        }
    };
    match letters.as_bytes() {
        [a] => value(*a),
        [a, b] => Some((value(*a)? + 1) * 25 + value(*b)?),
        _ => None,
    }
}

/// A Rekushu move token in the rules' names (`K10`, `K10:C3-K10`) written
/// with GoGui's column names (`L10`, `L10:C3-L10`).
pub fn move_to_gogui(token: &str) -> String {
    let vertex = |v: &str| -> String {
        let digits = v.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        match v.as_bytes().first() {
            Some(&c) if c.is_ascii_uppercase() && v.len() - digits.len() == 1 => {
                format!("{}{digits}", gogui_column(usize::from(c - b'A')))
            }
            _ => v.to_string(),
        }
    };
    match token.split_once(':') {
        None => vertex(token),
        Some((place, claim)) => {
            let corners: Vec<String> = claim.split('-').map(vertex).collect();
            format!("{}:{}", vertex(place), corners.join("-"))
        }
    }
}

/// A colour word as GoGui means it in REBUS: its Black (`b`, `black`) is
/// Red, its White (`w`, `white`) Blue; any other word is kept.
pub fn rebus_colour(word: &str) -> String {
    match word.to_ascii_lowercase().as_str() {
        "b" | "black" => "red".into(),
        "w" | "white" => "blue".into(),
        _ => word.to_string(),
    }
}

/// Rekushu move tokens separated by spaces (a list, a line), each in
/// GoGui's names.
pub fn moves_to_gogui(text: &str) -> String {
    text.split(' ')
        .map(move_to_gogui)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A point GoGui sent (`K5`, `aa26`), in the rules' names (`J5`, `Z26`), or why
/// it is not a GoGui point. A claim is refused: GoGui moves are single points.
pub fn point_from_gogui(text: &str) -> Result<String, String> {
    let t = text.trim();
    if t.contains(':') {
        return Err(format!(
            "'{t}': in GoGui mode a move is one point (GoGui cannot show a claim; claims are made in the board, tessera-board)"
        ));
    }
    let letters = t.trim_end_matches(|c: char| c.is_ascii_digit());
    let digits = &t[letters.len()..];
    match (gogui_column_index(letters), digits.is_empty()) {
        (Some(x), false) if x < 26 => Ok(format!("{}{digits}", char::from(b'A' + x as u8))),
        _ => Err(format!(
            "'{t}' is not a GoGui point (columns A to H, J to Z, then AA, AB...; a row from 1: K10)"
        )),
    }
}

/// GoGui mode: no REBUS move is a point GoGui could play, so none is chosen.
pub fn refuse_rebus_in_gogui_mode(e: &Engine, args: &Args) -> Result<(), CommandError> {
    match e.game() {
        AnyGame::Rebus(_) if e.settings().gogui => Err(CommandError::refused(format!(
            "{} {}: a REBUS move is not a point GoGui can play (GoGui shows the position; play REBUS in the board, tessera-board)",
            args.name(),
            args.text()
        ))),
        _ => Ok(()),
    }
}

/// A chosen move's text as the controller reads it: in GoGui mode, a Rekushu
/// move in GoGui's names.
pub fn move_text(e: &Engine, text: String) -> String {
    match e.game() {
        AnyGame::Rekushu(_) if e.settings().gogui => move_to_gogui(&text),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gogui_names_skip_i_and_go_on_past_z() {
        let names: Vec<String> = (0..27).map(gogui_column).collect();
        assert_eq!(names[..10].join(""), "ABCDEFGHJK");
        assert_eq!(
            (names[24].as_str(), names[25].as_str(), names[26].as_str()),
            ("Z", "AA", "AB")
        );
        for x in 0..52 {
            assert_eq!(gogui_column_index(&gogui_column(x)), Some(x), "{x}");
        }
        assert_eq!(gogui_column_index("I"), None);
        assert_eq!(gogui_column_index("AAA"), None);
    }

    #[test]
    fn points_both_ways() {
        assert_eq!(point_from_gogui("K5"), Ok("J5".into()));
        assert_eq!(point_from_gogui("j5"), Ok("I5".into()));
        assert_eq!(point_from_gogui("AA26"), Ok("Z26".into()));
        assert_eq!(move_to_gogui("J5"), "K5");
        assert_eq!(move_to_gogui("Z26"), "AA26");
        assert_eq!(move_to_gogui("K10:C3-K10"), "L10:C3-L10");
        assert_eq!(moves_to_gogui("A1 I5 T20"), "A1 J5 U20");
        for x in 0..26u8 {
            let rules = format!("{}7", char::from(b'A' + x));
            assert_eq!(point_from_gogui(&move_to_gogui(&rules)), Ok(rules));
        }
        for bad in ["I5", "K", "5", "K5:A1-K5", "AB", "ÄA1"] {
            assert!(point_from_gogui(bad).is_err(), "{bad}");
        }
        assert_eq!(rebus_colour("B"), "red");
        assert_eq!(rebus_colour("white"), "blue");
        assert_eq!(rebus_colour("red"), "red");
    }
}

//! GoGui interop: the rules-engine commands (`gogui-rules_*`) that let GoGui
//! show a game that is not Go, `gogui-analyze_commands` (GoGui's menu of
//! analyze commands), a parameter dialog (`gogui-params`) and board graphics
//! (`gogui-board_gfx`).
//!
//! GoGui knows only Go points, Black and White. The mapping:
//!
//! - **Points.** GoGui names columns `A`–`H`, `J`–`Z` (no `I`), then `AA`,
//!   `AB`… from the 26th, rows from 1 at the bottom. Tessera's Rekushu columns
//!   include `I`, so from the ninth column on the names differ: Rekushu `I5`
//!   is GoGui `J5`, Rekushu `J5` is GoGui `K5`, Rekushu `Z26` GoGui `AA26`.
//!   Every point these commands print is a GoGui name. REBUS square `a1`–`i9`
//!   (file, rank) is GoGui point (file, rank): `a1` = `A1`, `h9` = `H9`,
//!   `i5` = `J5`.
//! - **Colours.** Rekushu Black/White are GoGui's. REBUS Red (first to move) is
//!   shown as Black (`X`), Blue as White (`O`), Green squares as empty.
//!
//! GoGui mode (`tessera --gogui`, on GoGui's program line, which also starts
//! its ruler processes) makes the other commands speak GoGui too: `play`
//! takes GoGui points, `genmove` answers one, list and analysis lines name
//! vertices GoGui's way, REBUS colours `b`/`black` are Red and `w`/`white`
//! Blue; and nothing a point cannot carry is sent as a move: `genmove` plays
//! a placement without its claim, and refuses REBUS, where no move is a
//! point (protocol.md §9).

use super::args::Args;
use super::names::gogui_point;
use crate::core::{Game, GameText, Side};
use crate::engine::settings::TimeControl;
use crate::engine::{AnyGame, CommandError, CommandResult, Engine, Session, with_session};
use crate::games::rebus::square::{Squares, file_of, rank_of, square_name};
use crate::games::rebus::tile::{Owner, SYMBOL_LETTERS};
use crate::games::rebus::{Position, SQUARES};
use crate::games::rekushu::{Board, mirror};

/// The board size GoGui sees (every board of both games: GoGui shows up to
/// 52×52).
fn gogui_size(e: &Engine) -> usize {
    match e.game() {
        AnyGame::Rekushu(s) => s.pos.size(),
        AnyGame::Rebus(_) => crate::games::rebus::SIDE,
    }
}

/// `gogui-rules_game_id`: `rekushu` or `rebus`.
pub fn game_id(e: &mut Engine, args: &Args) -> CommandResult {
    args.none()?;
    Ok(e.game().id().to_string())
}

/// `gogui-rules_board_size`: the side of the board.
pub fn board_size(e: &mut Engine, args: &Args) -> CommandResult {
    args.none()?;
    Ok(gogui_size(e).to_string())
}

/// `gogui-rules_board`: the top row first, one character per point (`X`, `O`,
/// `.`), separated by spaces; nothing else (GoGui reads every `X`, `O` and `.`).
pub fn board(e: &mut Engine, args: &Args) -> CommandResult {
    args.none()?;
    let n = gogui_size(e);
    let cell = |x: usize, y: usize| -> char {
        let side = match e.game() {
            AnyGame::Rekushu(s) => s.pos.stone_at(x, y),
            AnyGame::Rebus(s) => match s.pos.tile(rebus_square(x, y)).owner {
                Owner::Red => Some(Side::First),
                Owner::Blue => Some(Side::Second),
                Owner::Green => None,
            },
        };
        match side {
            Some(Side::First) => 'X',
            Some(Side::Second) => 'O',
            None => '.',
        }
    };
    let rows: Vec<String> = (0..n)
        .rev()
        .map(|y| {
            (0..n)
                .map(|x| cell(x, y).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    Ok(format!("\n{}", rows.join("\n")))
}

fn rebus_square(x: usize, y: usize) -> crate::games::rebus::Square {
    (y * crate::games::rebus::SIDE + x) as crate::games::rebus::Square
}

/// `gogui-rules_side_to_move`: `black` or `white` (REBUS: Red is `black`).
pub fn side_to_move(e: &mut Engine, args: &Args) -> CommandResult {
    args.none()?;
    let side = with_session!(e.game(), s => s.pos.side_to_move());
    Ok(match side {
        Side::First => "black",
        Side::Second => "white",
    }
    .to_string())
}

/// `gogui-rules_legal_moves`: Rekushu: every vertex the side to move may place
/// on, as GoGui points (a claim is then a separate `claim` command); REBUS:
/// every legal move in REBUS notation (GoGui cannot click them, but an empty
/// list tells it the game is over). Empty when the game is over.
pub fn legal_moves(e: &mut Engine, args: &Args) -> CommandResult {
    args.none()?;
    match e.game() {
        AnyGame::Rekushu(s) => {
            if s.status() != crate::core::Status::Ongoing {
                return Ok(String::new());
            }
            let mut moves = Vec::new();
            s.pos.generate_moves(&mut moves);
            let mut vertices: Vec<(usize, usize)> = moves.iter().map(|m| m.vertex()).collect();
            vertices.sort_by_key(|&(x, y)| (y, x));
            vertices.dedup();
            Ok(vertices
                .into_iter()
                .map(|(x, y)| gogui_point(x, y))
                .collect::<Vec<_>>()
                .join(" "))
        }
        AnyGame::Rebus(s) => s.list_moves("gogui-rules_legal_moves"),
    }
}

/// `gogui-rules_final_result`: the score as `final_score` gives it (`B+3`,
/// `W+1`, REBUS `R+5` / `B+2` with B for Blue, `0`), or `B+R` / `W+R` after a
/// resignation.
pub fn final_result(e: &mut Engine, args: &Args) -> CommandResult {
    args.none()?;
    Ok(with_session!(e.game(), s => result_text(s)))
}

fn result_text<G: GameText>(s: &Session<G>) -> String {
    match s.resigned {
        Some(side) => format!("{}+R", &G::side_name(side.opp())[..1]),
        None => s.pos.score_text(),
    }
}

/// `gogui-analyze_commands`: GoGui's menu, `type/label/command` per line.
pub fn analyze_commands(e: &mut Engine, args: &Args) -> CommandResult {
    args.none()?;
    let mut lines = vec![
        "param/Engine parameters/gogui-params",
        "gfx/Board marks/gogui-board_gfx",
        "string/Game status/game_status",
        "string/Score now/final_score",
        "pstring/Legal moves/gogui-rules_legal_moves",
        "hstring/Board as text/showboard",
    ];
    match e.game() {
        AnyGame::Rekushu(_) => lines.push("string/Best move (no play)/reg_genmove %m"),
        AnyGame::Rebus(_) => lines.push("string/Position string/position"),
    }
    Ok(lines.join("\n"))
}

/// The level names the parameter dialog offers.
const LEVELS: &str = "easy/medium/hard/mike/random/uct";

/// `gogui-params` lists `[type] key value` lines for GoGui's dialog;
/// `gogui-params <key> <value>` sets one (the same checks as `level`,
/// `setoption` and `move_time`).
pub fn params(e: &mut Engine, args: &Args) -> CommandResult {
    match args.words() {
        [] => {
            let level = e.settings().level_name();
            let c = e.settings().config(e.game().id());
            let move_time = match e.settings().time {
                TimeControl::PerMove(t) => format!("{}", t.as_secs_f64()),
                _ => "0".to_string(),
            };
            Ok(format!(
                "[list/{LEVELS}] level {level}\n[string] threads {}\n[string] hash {}\n[string] move_time {move_time}",
                c.threads, c.tt_mb
            ))
        }
        [_, _] => {
            let [key, value] = args.exact::<2>()?;
            let lower = key.to_ascii_lowercase();
            let settings = e.settings_mut();
            match lower.as_str() {
                "level" => settings.set_level(value),
                "threads" | "hash" => settings.set_option(&lower, value),
                "move_time" => settings.set_move_time(value),
                _ => Err(CommandError::syntax(format!(
                    "gogui-params: unknown parameter '{key}' (level, threads, hash, move_time)"
                ))),
            }
            .map(|()| String::new())
        }
        _ => Err(args.usage_error()),
    }
}

/// `gogui-board_gfx`: GoGui graphics for what its stones cannot show.
/// Rekushu: `INFLUENCE` on every point touching claimed tiles (+1 when all its
/// tiles are Black's, −1 when all are White's, fractions on borders),
/// `TRIANGLE` on the points the mirror rule forbids to the side to move, and a
/// `TEXT` line. REBUS: `LABEL` with each square's symbol letter, `SQUARE` on
/// locked squares, `CIRCLE` on protected squares, `MARK` on squares with a
/// buried tile, and a `TEXT` line.
pub fn board_gfx(e: &mut Engine, args: &Args) -> CommandResult {
    args.none()?;
    Ok(match e.game() {
        AnyGame::Rekushu(s) => rekushu_gfx(&s.pos),
        AnyGame::Rebus(s) => rebus_gfx(&s.pos),
    })
}

fn rekushu_gfx(b: &Board) -> String {
    let n = b.size();
    let mut influence = Vec::new();
    for y in 0..n {
        for x in 0..n {
            // The up to four tiles around vertex (x, y).
            let mut touching = 0i32;
            let mut sum = 0i32;
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                if x < dx || y < dy {
                    continue;
                }
                let (tx, ty) = (x - dx, y - dy);
                if tx + 1 >= n || ty + 1 >= n {
                    continue;
                }
                touching += 1;
                match b.tile_owner(tx, ty) {
                    Some(Side::First) => sum += 1,
                    Some(Side::Second) => sum -= 1,
                    None => {}
                }
            }
            if sum != 0 && touching > 0 {
                let v = f64::from(sum) / f64::from(touching);
                influence.push(format!("{} {}", gogui_point(x, y), trim_float(v)));
            }
        }
    }
    let mut out = Vec::new();
    if !influence.is_empty() {
        out.push(format!("INFLUENCE {}", influence.join(" ")));
    }
    let side = b.side_to_move();
    if let (Some(((ox, oy), _)), Some((_, mine))) =
        (b.last_placement(side.opp()), b.last_placement(side))
    {
        let banned: Vec<String> = [mirror::H, mirror::V, mirror::R]
            .into_iter()
            .filter(|&t| mine & t != 0)
            .map(|t| {
                let (x, y) = mirror::image(t, ox, oy, n);
                gogui_point(x, y)
            })
            .collect();
        if !banned.is_empty() {
            out.push(format!("TRIANGLE {}", banned.join(" ")));
        }
    }
    let [black, white] = b.tile_counts();
    out.push(format!(
        "TEXT Claimed tiles: Black {black}, White {white}; {} to move",
        Board::side_name(side)
    ));
    out.join("\n")
}

/// `0.5`, `-1`, `0.333`.
fn trim_float(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

fn rebus_gfx(p: &Position) -> String {
    let point = |sq: crate::games::rebus::Square| {
        gogui_point(usize::from(file_of(sq)), usize::from(rank_of(sq)))
    };
    let labels: Vec<String> = (0..81u8)
        .map(|sq| {
            format!(
                "{} {}",
                point(sq),
                SYMBOL_LETTERS[usize::from(p.tile(sq).symbol)]
            )
        })
        .collect();
    let mut out = vec![format!("LABEL {}", labels.join(" "))];
    let list =
        |set: crate::games::rebus::SquareSet| -> Vec<String> { Squares(set).map(point).collect() };
    let locked = list(p.locked());
    if !locked.is_empty() {
        out.push(format!("SQUARE {}", locked.join(" ")));
    }
    let protected = list(p.protected());
    if !protected.is_empty() {
        out.push(format!("CIRCLE {}", protected.join(" ")));
    }
    let buried: Vec<String> = (0..81u8)
        .filter(|&sq| p.buried(sq).is_some())
        .map(point)
        .collect();
    if !buried.is_empty() {
        out.push(format!("MARK {}", buried.join(" ")));
    }
    let [red, blue] = p.counts();
    let locks: Vec<String> = p
        .locks()
        .iter()
        .map(|l| {
            format!(
                "{}L{} {}",
                square_name(l.origin),
                l.size,
                Position::side_name(l.side())
            )
        })
        .collect();
    out.push(format!(
        "TEXT Red (X) {red}, Blue (O) {blue}, Green {}; {} to move; locks: {}",
        SQUARES as u32 - red - blue,
        Position::side_name(p.side_to_move()),
        if locks.is_empty() {
            "none".to_string()
        } else {
            locks.join(", ")
        }
    ));
    out.join("\n")
}

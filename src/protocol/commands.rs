//! The one command table: dispatch, `list_commands`, `known_command` and `help`
//! all read it. Handlers here are game-independent; game-specific ones live in
//! `rekushu.rs` and `rebus.rs`.

use super::engine::{AnyGame, Engine, keep_going, with_session};
use super::session::Session;
use super::{
    CommandError, CommandResult, ErrorKind, analyze, gogui, play as engine_play, rebus, records,
    rekushu,
};
use crate::core::GameId;
use crate::core::GameText;

pub type Handler = fn(&mut Engine, &[String]) -> CommandResult;

pub struct Command {
    pub name: &'static str,
    /// Arguments, as shown by `help`.
    pub usage: &'static str,
    pub help: &'static str,
    /// `Some(game)` when the command belongs to one game only.
    pub game: Option<GameId>,
    pub run: Handler,
}

const fn cmd(name: &'static str, usage: &'static str, help: &'static str, run: Handler) -> Command {
    Command {
        name,
        usage,
        help,
        game: None,
        run,
    }
}

pub static COMMANDS: &[Command] = &[
    cmd(
        "protocol_version",
        "",
        "the GTP version spoken: 2",
        |_, a| {
            no_args("protocol_version", a)?;
            Ok("2".into())
        },
    ),
    cmd("name", "", "the engine's name", |_, a| {
        no_args("name", a)?;
        Ok("tessera".into())
    }),
    cmd("version", "", "the engine's version", |_, a| {
        no_args("version", a)?;
        Ok(env!("CARGO_PKG_VERSION").into())
    }),
    cmd(
        "known_command",
        "<command>",
        "true if the command exists, else false",
        |_, a| {
            let [name] = exact_args::<1>("known_command", "<command>", a)?;
            Ok(find_command(&name.to_ascii_lowercase())
                .is_some()
                .to_string())
        },
    ),
    cmd(
        "list_commands",
        "",
        "every command, one per line",
        |_, a| {
            no_args("list_commands", a)?;
            Ok(Engine::command_names().collect::<Vec<_>>().join("\n"))
        },
    ),
    cmd("help", "[command]", "usage of one command, or of all", help),
    cmd("quit", "", "ends the session", |e, a| {
        no_args("quit", a)?;
        e.request_quit();
        Ok(String::new())
    }),
    cmd(
        "game",
        "[rekushu|rebus]",
        "switches game and starts a new one; without an argument, names the current game",
        game,
    ),
    cmd(
        "boardsize",
        "<size>",
        "Rekushu: a new empty board of size 4-26; REBUS: only 9 is accepted",
        boardsize,
    ),
    cmd(
        "clear_board",
        "",
        "a new game: empty Rekushu board, or the REBUS standard setup",
        clear_board,
    ),
    cmd(
        "komi",
        "<number>",
        "accepted and ignored: neither game has komi",
        |_, a| {
            let [k] = exact_args::<1>("komi", "<number>", a)?;
            match k.parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(String::new()),
                _ => Err(CommandError::syntax(format!("komi: '{k}' is not a number"))),
            }
        },
    ),
    cmd(
        "play",
        "<colour> <move>",
        "plays a move for the side to move, in RULES notation",
        play,
    ),
    cmd(
        "undo",
        "",
        "takes back the last move (a claim with it)",
        |e, a| {
            no_args("undo", a)?;
            with_session!(&mut e.game, s => s.undo())?;
            Ok(String::new())
        },
    ),
    cmd(
        "showboard",
        "[unicode]",
        "the board as text (REBUS: 'unicode' shows symbols as glyphs)",
        showboard,
    ),
    cmd(
        "list_moves",
        "",
        "every legal move of the side to move",
        |e, a| {
            no_args("list_moves", a)?;
            let mut keep_going = keep_going(&e.play.stop, &e.interrupt);
            with_session!(&e.game, s => s.list_moves("list_moves", &mut keep_going))
        },
    ),
    cmd(
        "perft",
        "<depth> [divide]",
        "counts move sequences of length depth; divide adds a line per first move",
        perft,
    ),
    cmd(
        "final_score",
        "",
        "the score now: B+n / W+n (Rekushu), R+n / B+n (REBUS), or 0",
        |e, a| {
            no_args("final_score", a)?;
            Ok(with_session!(&e.game, s => s.pos.score_text()))
        },
    ),
    cmd(
        "game_status",
        "",
        "'ongoing', or 'over <score> <reason>' once the game has ended",
        |e, a| {
            no_args("game_status", a)?;
            Ok(with_session!(&e.game, s => s.status_text()))
        },
    ),
    cmd(
        "savegame",
        "<file>",
        "writes the game so far to a file as a game record (the rest of the line is the path)",
        records::savegame,
    ),
    cmd(
        "loadgame",
        "<file> [move number]",
        "replaces the game with a record's, after that many moves (default: all)",
        records::loadgame,
    ),
    cmd(
        "genmove",
        "<colour>",
        "the engine chooses a move for the side to move and plays it (or resigns/yields)",
        engine_play::genmove,
    ),
    cmd(
        "reg_genmove",
        "<colour>",
        "the move genmove would choose, without playing it",
        engine_play::reg_genmove,
    ),
    cmd(
        "level",
        "[easy|medium|hard|mike|random|uct]",
        "sets the playing level (default hard; random and uct are reference opponents), or shows it",
        engine_play::level,
    ),
    cmd(
        "time_settings",
        "<main> <byo-yomi time> <byo-yomi stones>",
        "GTP time control, in seconds",
        engine_play::time_settings,
    ),
    cmd(
        "time_left",
        "<colour> <seconds> <stones>",
        "GTP: the time left on that colour's clock",
        engine_play::time_left,
    ),
    cmd(
        "fischer_time",
        "<base> <increment>",
        "a Fischer clock for both sides, in seconds",
        engine_play::fischer_time,
    ),
    cmd(
        "move_time",
        "<seconds>",
        "a fixed time per move; 0 returns to the level's default",
        engine_play::move_time,
    ),
    cmd(
        "limit",
        "[depth <n> | nodes <n> | none]",
        "search limits for reproducible analysis (they replace the clock), or shows them",
        engine_play::limit,
    ),
    cmd(
        "options",
        "",
        "every engine option with its value",
        engine_play::options,
    ),
    cmd(
        "setoption",
        "<name> <value>",
        "sets an engine option (threads, hash, seed; 'default' restores the level's)",
        engine_play::setoption,
    ),
    cmd(
        "stop",
        "",
        "stops the search running now; answered once it has stopped",
        engine_play::stop,
    ),
    cmd(
        "analyze",
        "[colour] [interval] [moves]",
        "streams info lines on the position for the side to move (every interval centiseconds, default 100; moves candidates, default 3) until the next input line",
        analyze::analyze,
    ),
    cmd(
        "genmove_analyze",
        "<colour> [interval] [moves]",
        "genmove, streaming info lines as analyze does; ends with 'play <move>'",
        analyze::genmove_analyze,
    ),
    cmd(
        "gogui-rules_game_id",
        "",
        "GoGui: the game, rekushu or rebus",
        gogui::game_id,
    ),
    cmd(
        "gogui-rules_board_size",
        "",
        "GoGui: the board's side",
        gogui::board_size,
    ),
    cmd(
        "gogui-rules_board",
        "",
        "GoGui: the board, top row first, X (Black/Red) O (White/Blue) . (empty/Green)",
        gogui::board,
    ),
    cmd(
        "gogui-rules_side_to_move",
        "",
        "GoGui: black or white (REBUS: Red is black, Blue is white)",
        gogui::side_to_move,
    ),
    cmd(
        "gogui-rules_legal_moves",
        "",
        "GoGui: Rekushu placement points (GoGui names, no I), REBUS moves; empty when over",
        gogui::legal_moves,
    ),
    cmd(
        "gogui-rules_final_result",
        "",
        "GoGui: the score, as final_score gives it",
        gogui::final_result,
    ),
    cmd(
        "gogui-analyze_commands",
        "",
        "GoGui: its menu of analyze commands",
        gogui::analyze_commands,
    ),
    cmd(
        "gogui-params",
        "[<key> <value>]",
        "GoGui parameter dialog: level, threads, hash, move_time",
        gogui::params,
    ),
    cmd(
        "gogui-board_gfx",
        "",
        "GoGui graphics: Rekushu claims and mirror bans; REBUS symbols, locks, protection",
        gogui::board_gfx,
    ),
    Command {
        game: Some(GameId::Rekushu),
        ..cmd(
            "claim",
            "<colour> <corner> <corner>",
            "claims a rectangle as the second step of that colour's move just played",
            rekushu::claim,
        )
    },
    Command {
        game: Some(GameId::Rebus),
        ..cmd(
            "setup",
            "<position string> | random <seed>",
            "sets up a REBUS position (RULES 2.9) or a seeded colour-fair deal",
            rebus::setup,
        )
    },
    Command {
        game: Some(GameId::Rebus),
        ..cmd(
            "position",
            "",
            "the REBUS position string of the current position",
            rebus::position,
        )
    },
    Command {
        game: Some(GameId::Rebus),
        ..cmd(
            "lock",
            "<colour> <square> <2|3>",
            "the same as play <colour> <square>L<k>",
            rebus::lock,
        )
    },
    Command {
        game: Some(GameId::Rebus),
        ..cmd(
            "turn_limit",
            "[plies]",
            "sets the REBUS turn limit (0 = none; default 400), or shows it",
            rebus::turn_limit,
        )
    },
];

pub fn find_command(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// Refuses any argument.
pub fn no_args(name: &str, args: &[String]) -> Result<(), CommandError> {
    if args.is_empty() {
        Ok(())
    } else {
        Err(CommandError::syntax(format!(
            "{name} takes no arguments, got '{}'",
            args.join(" ")
        )))
    }
}

/// Exactly `N` arguments, or a syntax error showing the usage.
pub fn exact_args<'a, const N: usize>(
    name: &str,
    usage: &str,
    args: &'a [String],
) -> Result<[&'a str; N], CommandError> {
    if args.len() != N {
        let got = if args.is_empty() {
            "nothing".to_string()
        } else {
            format!("'{}'", args.join(" "))
        };
        return Err(CommandError::syntax(format!(
            "usage: {name} {usage} (got {got})"
        )));
    }
    Ok(std::array::from_fn(|i| args[i].as_str()))
}

fn help(_: &mut Engine, args: &[String]) -> CommandResult {
    let line = |c: &Command| {
        let only = c.game.map(|g| format!(" [{g} only]")).unwrap_or_default();
        format!("{} {} - {}{}", c.name, c.usage, c.help, only).replace("  -", " -")
    };
    match args {
        [] => Ok(COMMANDS.iter().map(line).collect::<Vec<_>>().join("\n")),
        [name] => find_command(&name.to_ascii_lowercase())
            .map(line)
            .ok_or_else(|| CommandError::unknown_command(name)),
        _ => Err(CommandError::syntax(format!(
            "usage: help [command] (got '{}')",
            args.join(" ")
        ))),
    }
}

fn game(e: &mut Engine, args: &[String]) -> CommandResult {
    match args {
        [] => Ok(e.game.id().name().into()),
        [g] => match g.to_ascii_lowercase().as_str() {
            "rekushu" => {
                e.switch_to_rekushu();
                Ok(String::new())
            }
            "rebus" | "rebus-core" | "rebus_core" => {
                e.switch_to_rebus_standard();
                Ok(String::new())
            }
            _ => Err(CommandError::syntax(format!(
                "unknown game '{g}' (rekushu, rebus)"
            ))),
        },
        _ => Err(CommandError::syntax(format!(
            "usage: game [rekushu|rebus] (got '{}')",
            args.join(" ")
        ))),
    }
}

fn boardsize(e: &mut Engine, args: &[String]) -> CommandResult {
    let [n] = exact_args::<1>("boardsize", "<size>", args)?;
    // A number too large for any type is still a number: out of range, not
    // a syntax error.
    let size: usize = match n.parse() {
        Ok(size) => size,
        Err(_) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => usize::MAX,
        Err(_) => {
            return Err(CommandError::syntax(format!(
                "boardsize: '{n}' is not a size"
            )));
        }
    };
    match &e.game {
        AnyGame::Rekushu(_) => {
            if !(rekushu::MIN_SIZE..=rekushu::MAX_SIZE).contains(&size) {
                return Err(CommandError::new(
                    ErrorKind::UnacceptableSize,
                    format!(
                        "{n} (Rekushu boards are {} to {})",
                        rekushu::MIN_SIZE,
                        rekushu::MAX_SIZE
                    ),
                ));
            }
            e.rekushu_size = size;
            e.switch_to_rekushu();
        }
        AnyGame::Rebus(_) => {
            if size != crate::games::rebus::SIDE {
                return Err(CommandError::new(
                    ErrorKind::UnacceptableSize,
                    format!("{n} (the REBUS board is 9x9)"),
                ));
            }
        }
    }
    Ok(String::new())
}

fn clear_board(e: &mut Engine, args: &[String]) -> CommandResult {
    no_args("clear_board", args)?;
    match e.game {
        AnyGame::Rekushu(_) => e.switch_to_rekushu(),
        AnyGame::Rebus(_) => e.switch_to_rebus_standard(),
    }
    Ok(String::new())
}

fn play(e: &mut Engine, args: &[String]) -> CommandResult {
    let [colour, mv] = exact_args::<2>("play", "<colour> <move>", args)?;
    with_session!(&mut e.game, s => play_in(s, colour, mv))?;
    Ok(String::new())
}

pub fn play_in<G: GameText>(
    s: &mut Session<G>,
    colour: &str,
    mv: &str,
) -> Result<String, CommandError> {
    let side = Session::<G>::side_arg(colour)?;
    s.play(side, mv)
}

fn showboard(e: &mut Engine, args: &[String]) -> CommandResult {
    let unicode = match args {
        [] => false,
        [a] if a.eq_ignore_ascii_case("unicode") => true,
        _ => {
            return Err(CommandError::syntax(format!(
                "usage: showboard [unicode] (got '{}')",
                args.join(" ")
            )));
        }
    };
    let board = match &e.game {
        AnyGame::Rekushu(s) => s.pos.showboard(),
        AnyGame::Rebus(s) => s.pos.showboard(unicode),
    };
    Ok(format!("\n{board}"))
}

/// The deepest perft the protocol accepts; deeper runs would not end in a
/// lifetime on these branching factors anyway.
const MAX_PERFT_DEPTH: u32 = 16;

fn perft(e: &mut Engine, args: &[String]) -> CommandResult {
    let (depth, divide) = match args {
        [d] => (d, false),
        [d, x] if x.eq_ignore_ascii_case("divide") => (d, true),
        [] => {
            return Err(CommandError::syntax(
                "usage: perft <depth> [divide] (got nothing)",
            ));
        }
        _ => {
            return Err(CommandError::syntax(format!(
                "usage: perft <depth> [divide] (got '{}')",
                args.join(" ")
            )));
        }
    };
    let depth: u32 = depth
        .parse()
        .ok()
        .filter(|&d| d <= MAX_PERFT_DEPTH)
        .ok_or_else(|| {
            CommandError::syntax(format!(
                "perft: '{depth}' is not a depth (0 to {MAX_PERFT_DEPTH})"
            ))
        })?;
    let mut keep_going = keep_going(&e.play.stop, &e.interrupt);
    with_session!(&mut e.game, s => s.perft(depth, divide, &mut keep_going))
}

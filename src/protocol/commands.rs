//! The one command table, and the only place a command is named: its usage
//! (what `help` shows and what its argument errors quote), its help line, its
//! game, and whether it searches (a `stop` after it is meant for it).
//! Dispatch, `list_commands`, `known_command` and `help` all read it. The
//! handlers here are game-independent; the others live one file per group.

use super::args::Args;
use super::{analyze, gogui, names, play as engine_play, rebus, records, rekushu};
use crate::core::{GameId, GameText};
use crate::engine::numbers::{self, whole};
use crate::engine::{AnyGame, CommandError, CommandResult, Engine, ErrorKind, with_session};
use crate::games::rebus::SIDE;
use crate::games::rekushu::Board;

pub type Handler = fn(&mut Engine, &Args) -> CommandResult;

pub struct Command {
    pub name: &'static str,
    /// Arguments, as shown by `help` and quoted by a usage error.
    pub usage: &'static str,
    pub help: &'static str,
    /// `Some(game)` when the command belongs to one game only.
    pub game: Option<GameId>,
    /// It searches (`genmove`, `analyze`…): a `stop` read after it is meant
    /// for it (the driver's rules), and the searcher is not made ready after
    /// it (it just was).
    pub searches: bool,
    /// Its first argument is a colour (`play`, `genmove`…): in GoGui mode a
    /// REBUS colour is read GoGui's way (`b`/`black` Red, `w`/`white` Blue).
    pub colour_first: bool,
    pub run: Handler,
}

const fn cmd(name: &'static str, usage: &'static str, help: &'static str, run: Handler) -> Command {
    Command {
        name,
        usage,
        help,
        game: None,
        searches: false,
        colour_first: false,
        run,
    }
}

/// A command whose first argument is a colour.
const fn coloured(c: Command) -> Command {
    Command {
        colour_first: true,
        ..c
    }
}

/// A command that searches.
const fn searching(c: Command) -> Command {
    Command {
        searches: true,
        ..c
    }
}

/// A command of one game only.
const fn only(game: GameId, c: Command) -> Command {
    Command {
        game: Some(game),
        ..c
    }
}

pub static COMMANDS: &[Command] = &[
    cmd(
        "protocol_version",
        "",
        "the GTP version spoken: 2",
        |_, a| {
            a.none()?;
            Ok("2".into())
        },
    ),
    cmd("name", "", "the engine's name", |_, a| {
        a.none()?;
        Ok("tessera".into())
    }),
    cmd("version", "", "the engine's version", |_, a| {
        a.none()?;
        Ok(env!("CARGO_PKG_VERSION").into())
    }),
    cmd(
        "known_command",
        "<command>",
        "true if the command exists, else false",
        |_, a| {
            let [name] = a.exact::<1>()?;
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
            a.none()?;
            Ok(command_names().collect::<Vec<_>>().join("\n"))
        },
    ),
    cmd("help", "[command]", "usage of one command, or of all", help),
    cmd("quit", "", "ends the session", |e, a| {
        a.none()?;
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
            let [k] = a.exact::<1>()?;
            match k.parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(String::new()),
                Ok(v) if v.is_infinite() && k.bytes().any(|b| b.is_ascii_digit()) => Err(
                    numbers::out_of_range("komi", k, "a finite number, accepted and ignored"),
                ),
                _ => Err(CommandError::syntax(format!("komi: '{k}' is not a number"))),
            }
        },
    ),
    coloured(cmd(
        "play",
        "<colour> <move>",
        "plays a move for the side to move, in the rules' notation",
        play,
    )),
    cmd(
        "undo",
        "",
        "takes back the last move (a claim with it)",
        |e, a| {
            a.none()?;
            with_session!(mut e.game_mut(), s => s.undo())?;
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
            a.none()?;
            let list = with_session!(e.game(), s => s.list_moves("list_moves"))?;
            Ok(match e.game() {
                AnyGame::Rekushu(_) if e.settings().gogui => names::moves_to_gogui(&list),
                _ => list,
            })
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
            a.none()?;
            Ok(with_session!(e.game(), s => s.pos.score_text()))
        },
    ),
    cmd(
        "game_status",
        "",
        "'ongoing', or 'over <score> <reason>' once the game has ended",
        |e, a| {
            a.none()?;
            Ok(with_session!(e.game(), s => s.status_text()))
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
    coloured(searching(cmd(
        "genmove",
        "<colour>",
        "the engine chooses a move for the side to move and plays it (or resigns/yields)",
        engine_play::genmove,
    ))),
    coloured(searching(cmd(
        "reg_genmove",
        "<colour>",
        "the move genmove would choose, without playing it",
        engine_play::reg_genmove,
    ))),
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
    coloured(cmd(
        "time_left",
        "<colour> <seconds> <stones>",
        "GTP: the time left on that colour's clock",
        engine_play::time_left,
    )),
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
    coloured(searching(cmd(
        "analyze",
        "[colour] [interval] [moves]",
        "streams info lines on the position for the side to move (every interval centiseconds, default 100; moves candidates, default 3) until the next input line",
        analyze::analyze,
    ))),
    coloured(searching(cmd(
        "genmove_analyze",
        "<colour> [interval] [moves]",
        "genmove, streaming info lines as analyze does; ends with 'play <move>'",
        analyze::genmove_analyze,
    ))),
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
    cmd(
        "gogui-rules_board_gfx",
        "",
        "GoGui: the graphics of gogui-board_gfx, which GoGui draws after every move",
        gogui::board_gfx,
    ),
    only(
        GameId::Rekushu,
        cmd(
            "claim",
            "<colour> <corner> <corner>",
            "claims a rectangle as the second step of that colour's move just played",
            rekushu::claim,
        ),
    ),
    only(
        GameId::Rebus,
        cmd(
            "setup",
            "<position string> | random <seed>",
            "sets up a REBUS position (rules.md §2.9) or a seeded colour-fair deal",
            rebus::setup,
        ),
    ),
    only(
        GameId::Rebus,
        cmd(
            "position",
            "",
            "the REBUS position string of the current position",
            rebus::position,
        ),
    ),
    only(
        GameId::Rebus,
        coloured(cmd(
            "lock",
            "<colour> <square> <2|3>",
            "the same as play <colour> <square>L<k>",
            rebus::lock,
        )),
    ),
    only(
        GameId::Rebus,
        cmd(
            "turn_limit",
            "[plies]",
            "sets the REBUS turn limit (0 = none; default 400), or shows it",
            rebus::turn_limit,
        ),
    ),
];

/// Names of all commands, in table order.
pub fn command_names() -> impl Iterator<Item = &'static str> {
    COMMANDS.iter().map(|c| c.name)
}

pub fn find_command(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// `help`'s line for a command: `name usage - what it does [game only]`.
pub fn help_line(c: &Command) -> String {
    let only = c.game.map(|g| format!(" [{g} only]")).unwrap_or_default();
    format!("{} {} - {}{}", c.name, c.usage, c.help, only).replace("  -", " -")
}

fn help(_: &mut Engine, args: &Args) -> CommandResult {
    match args.words() {
        [] => Ok(COMMANDS
            .iter()
            .map(help_line)
            .collect::<Vec<_>>()
            .join("\n")),
        [name] => find_command(&name.to_ascii_lowercase())
            .map(help_line)
            .ok_or_else(|| CommandError::unknown_command(name)),
        _ => Err(args.usage_error()),
    }
}

fn game(e: &mut Engine, args: &Args) -> CommandResult {
    let id = match args.words() {
        [] => return Ok(e.game().id().name().into()),
        [g] => match g.to_ascii_lowercase().as_str() {
            "rekushu" => GameId::Rekushu,
            "rebus" | "rebus-core" | "rebus_core" => GameId::Rebus,
            _ => {
                let known: Vec<&str> = GameId::ALL.iter().map(|g| g.name()).collect();
                return Err(CommandError::syntax(format!(
                    "unknown game '{g}' ({})",
                    known.join(", ")
                )));
            }
        },
        _ => return Err(args.usage_error()),
    };
    e.start(e.fresh(id));
    Ok(String::new())
}

fn boardsize(e: &mut Engine, args: &Args) -> CommandResult {
    let [n] = args.exact::<1>()?;
    // A number out of range, however large or negative, is an unacceptable
    // size; only what is not a whole number is a syntax error.
    let size = match whole("boardsize", n, i128::MIN, i128::MAX) {
        Ok(size) => usize::try_from(size).unwrap_or(usize::MAX),
        Err(e) if e.detail.contains("out of range") => usize::MAX,
        Err(_) => {
            return Err(CommandError::syntax(format!(
                "boardsize: '{n}' is not a size (a whole number)"
            )));
        }
    };
    match e.game().id() {
        GameId::Rekushu => {
            if !(Board::MIN_SIZE..=Board::MAX_SIZE).contains(&size) {
                return Err(CommandError::new(
                    ErrorKind::UnacceptableSize,
                    format!(
                        "{n} (Rekushu boards are {} to {})",
                        Board::MIN_SIZE,
                        Board::MAX_SIZE
                    ),
                ));
            }
            e.settings_mut().rekushu_size = size;
            e.start(e.fresh(GameId::Rekushu));
        }
        GameId::Rebus => {
            if size != SIDE {
                return Err(CommandError::new(
                    ErrorKind::UnacceptableSize,
                    format!("{n} (the REBUS board is {SIDE}x{SIDE})"),
                ));
            }
        }
    }
    Ok(String::new())
}

fn clear_board(e: &mut Engine, args: &Args) -> CommandResult {
    args.none()?;
    e.start(e.fresh(e.game().id()));
    Ok(String::new())
}

fn play(e: &mut Engine, args: &Args) -> CommandResult {
    let [colour, mv] = args.exact::<2>()?;
    // GoGui mode: a Rekushu move is a GoGui point.
    let rules_text;
    let mv = match e.game() {
        AnyGame::Rekushu(_) if e.settings().gogui => {
            rules_text = names::point_from_gogui(mv).map_err(|why| {
                CommandError::syntax(format!("could not parse move '{mv}': {why}"))
            })?;
            rules_text.as_str()
        }
        _ => mv,
    };
    with_session!(mut e.game_mut(), s => s.play_colour(colour, mv))?;
    Ok(String::new())
}

fn showboard(e: &mut Engine, args: &Args) -> CommandResult {
    let unicode = match args.words() {
        [] => false,
        [a] if a.eq_ignore_ascii_case("unicode") => true,
        _ => return Err(args.usage_error()),
    };
    let board = match e.game() {
        AnyGame::Rekushu(s) if e.settings().gogui => s.pos.showboard_named(&names::gogui_column),
        AnyGame::Rekushu(s) => s.pos.showboard(),
        AnyGame::Rebus(s) => s.pos.showboard(unicode),
    };
    Ok(format!("\n{board}"))
}

/// The deepest perft the protocol accepts; deeper runs would not end in a
/// lifetime on these branching factors anyway.
const MAX_PERFT_DEPTH: u32 = 16;

fn perft(e: &mut Engine, args: &Args) -> CommandResult {
    let (depth, divide) = match args.words() {
        [d] => (d, false),
        [d, x] if x.eq_ignore_ascii_case("divide") => (d, true),
        _ => return Err(args.usage_error()),
    };
    let depth = whole("perft", depth, 0, MAX_PERFT_DEPTH)?;
    Ok(with_session!(mut e.game_mut(), s => s.perft(depth, divide)))
}

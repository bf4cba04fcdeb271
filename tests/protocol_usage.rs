//! Every command's usage is said once, in the command table: `help X`, the
//! error for wrong arguments to `X`, and protocol.md all show the table's.

use tessera::core::GameId;
use tessera::protocol::Engine;
use tessera::protocol::commands::{COMMANDS, Command, help_line};

use crate::common::run;

const PROTOCOL_MD: &str = include_str!("../protocol.md");

/// An engine playing the command's game.
fn engine_for(cmd: &Command) -> Engine {
    let mut e = Engine::new();
    if cmd.game == Some(GameId::Rebus) {
        run(&mut e, "game rebus");
    }
    e
}

#[test]
fn help_shows_the_table_usage() {
    for cmd in COMMANDS {
        let mut e = engine_for(cmd);
        let reply = run(&mut e, &format!("help {}", cmd.name));
        assert_eq!(reply, format!("= {}\n\n", help_line(cmd)), "{}", cmd.name);
        let shown = format!("{} {}", cmd.name, cmd.usage);
        assert!(
            reply.starts_with(&format!("= {}", shown.trim_end())),
            "{reply}"
        );
    }
}

#[test]
fn wrong_arguments_quote_the_table_usage() {
    for cmd in COMMANDS {
        let mut e = engine_for(cmd);
        let before = e.fingerprint();
        // No argument where one is required; one too many where none is
        // taken; else more than any optional form takes (numbers, so that no
        // word is read as a colour or a file name).
        let (line, expected) = if cmd.usage.is_empty() {
            (
                format!("{} 1", cmd.name),
                format!("? syntax error: usage: {} (got '1')\n\n", cmd.name),
            )
        } else if cmd.usage.starts_with('<') {
            (
                cmd.name.to_string(),
                format!(
                    "? syntax error: usage: {} {} (got nothing)\n\n",
                    cmd.name, cmd.usage
                ),
            )
        } else {
            let many = "1 1 1 1 1 1 1 1 1";
            (
                format!("{} {many}", cmd.name),
                format!(
                    "? syntax error: usage: {} {} (got '{many}')\n\n",
                    cmd.name, cmd.usage
                ),
            )
        };
        assert_eq!(run(&mut e, &line), expected, "`{line}`");
        assert_eq!(e.fingerprint(), before, "`{line}` changed the engine");
    }
}

#[test]
fn protocol_md_shows_the_table_usage() {
    // Markdown tables escape `|` as `\|`.
    let doc = PROTOCOL_MD.replace("\\|", "|");
    for cmd in COMMANDS {
        let shown = format!("`{} {}`", cmd.name, cmd.usage).replace(" `", "`");
        let shown = shown.replace(" `", "`").replace("` ", "`");
        let shown = if cmd.usage.is_empty() {
            format!("`{}`", cmd.name)
        } else {
            shown
        };
        assert!(
            doc.contains(&shown),
            "protocol.md does not show {shown} (the usage in the command table)"
        );
    }
}

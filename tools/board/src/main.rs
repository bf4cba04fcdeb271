//! `tessera-board`: a board in the browser for Rekushu and REBUS Core. It serves
//! one page, referees with the `tessera` library's rules, and drives engines as
//! child processes over the protocol (protocol.md), as GoGui does, so it plays
//! against any engine that speaks it.
//!
//! Modules: [`game`] (the game, refereed by the library; records), [`view`]
//! (what the page draws, decoded into points; moves made of clicked points),
//! [`engine`] (a player's engine process, kept on the game), [`app`] (the
//! state and every action on it), [`analysis`] (the streamed analysis
//! engine), [`web`] (routes, the event stream, the embedded page).

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod analysis;
mod app;
mod engine;
mod game;
mod view;
mod web;

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use clap::Parser;

#[derive(Parser, Debug)]
#[command(
    name = "tessera-board",
    version,
    about = "A board in the browser for Rekushu and REBUS Core, driving engines over the protocol",
    after_help = "Examples:\n  tessera-board                                  # against the tessera binary beside this one\n  tessera-board --port 0                         # any free port\n  tessera-board --engine 'tessera' --engine 'tessera --init \"level mike\"'\n\nThen open the printed address in a browser."
)]
struct Cli {
    /// The engine's command line (quotes group words). A second --engine plays
    /// the second side (White, Blue) in engine-against-engine games. Default:
    /// the `tessera` binary beside this one.
    #[arg(long = "engine", value_name = "COMMAND LINE")]
    engines: Vec<String>,
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// The port to listen on; 0 picks a free one.
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Seconds an engine may think on one move before it counts as stalled
    /// (it is then stopped and the page offers a restart).
    #[arg(long, value_name = "SECONDS", default_value_t = 120.0)]
    move_timeout: f64,
}

fn default_engine() -> String {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(|d| d.join("tessera")))
        .filter(|p| p.exists())
        .unwrap_or_else(|| {
            eprintln!(
                "tessera-board: no tessera binary beside this one; trying 'tessera' on the PATH \
                 (build it with 'cargo build --release --workspace', or give --engine)"
            );
            PathBuf::from("tessera")
        });
    let text = beside.display().to_string();
    if text.contains([' ', '\'', '"', '\\']) {
        format!("'{}'", text.replace('\'', ""))
    } else {
        text
    }
}

#[tokio::main]
async fn main() {
    let cli = Cli::parse();
    let mut engines = cli.engines;
    if engines.is_empty() {
        engines.push(default_engine());
    }
    if engines.len() > 2 {
        eprintln!("tessera-board: at most two --engine (one per side)");
        std::process::exit(2);
    }
    for e in &engines {
        if let Err(msg) = tessera_client::split_command(e) {
            eprintln!("tessera-board: --engine: {msg}");
            std::process::exit(2);
        }
    }
    let listener = match tokio::net::TcpListener::bind(SocketAddr::new(cli.bind, cli.port)).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!(
                "tessera-board: cannot listen on {}:{}: {e}",
                cli.bind, cli.port
            );
            std::process::exit(1);
        }
    };
    let addr = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("tessera-board: {e}");
            std::process::exit(1);
        }
    };
    if !(cli.move_timeout.is_finite() && cli.move_timeout > 0.0) {
        eprintln!("tessera-board: --move-timeout must be a positive number of seconds");
        std::process::exit(2);
    }
    let app = app::App::new(
        engines,
        std::time::Duration::from_secs_f64(cli.move_timeout),
    )
    .await;
    {
        use std::io::Write;
        let mut out = std::io::stdout();
        let _ = writeln!(out, "listening on http://{addr}/");
        let _ = out.flush();
    }
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    if let Err(e) = axum::serve(listener, web::router(app))
        .with_graceful_shutdown(shutdown)
        .await
    {
        eprintln!("tessera-board: {e}");
        std::process::exit(1);
    }
}

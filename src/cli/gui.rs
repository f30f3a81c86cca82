//! `ternion gui`: serves the board page and its protocol WebSocket on the loopback address
//! (see `ternion::gui`).

use std::io::Write;

use clap::Args;
use ternion::games::LoadedTables;
use ternion::gui::PageSetup;

#[derive(Debug, Args)]
pub struct GuiArgs {
    /// The port on 127.0.0.1 (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Seconds a page's WebSocket may send nothing before it is closed (its daemon
    /// stopped, its place freed for another page).
    #[arg(long, value_name = "SECONDS", default_value_t = ternion::gui::DEFAULT_IDLE.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..))]
    idle: u64,
    /// Egara-guti's exact tables, mapped once and asked by every page's daemon: the page
    /// shows what they say of the position and of each move (a page cannot set
    /// `TablePath` itself).
    #[arg(long, value_name = "DIR")]
    tables: Option<std::path::PathBuf>,
}

/// Runs the command until it is killed; `Err` carries the one-line message for stderr.
pub fn run(args: &GuiArgs) -> Result<(), String> {
    let tables = match &args.tables {
        None => LoadedTables::default(),
        Some(dir) => match LoadedTables::load(dir)? {
            tables if tables.is_empty() => {
                return Err(format!("no tables in {}", dir.display()));
            }
            tables => tables,
        },
    };
    let (listener, address) = ternion::gui::bind(args.port)
        .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", args.port))?;
    let url = format!("http://{address}/");
    note!("ternion gui: open {url} in a browser (Ctrl-C ends it)");
    // The address on stdout alone, for scripts that started the server on port 0.
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{url}").and_then(|()| out.flush());
    drop(out);
    let setup = PageSetup {
        idle: std::time::Duration::from_secs(args.idle),
        tables,
    };
    ternion::gui::serve(listener, setup).map_err(|e| format!("the server stopped: {e}"))
}

//! `fairyforge-engine [uci|xboard]`: the engine protocols as a standalone
//! binary, with no Python needed, for GUIs and tournament managers and for
//! pinned builds of earlier versions (`scripts/baseline`). UCI when no
//! argument is given.

fn main() {
    let stdin = std::io::stdin().lock();
    match std::env::args().nth(1).as_deref() {
        None | Some("uci") => fairyforge::run_uci(stdin, std::io::stdout()),
        Some("xboard") => fairyforge::run_xboard(stdin, std::io::stdout()),
        Some(other) => {
            eprintln!("fairyforge-engine: unknown protocol {other:?} (use uci or xboard)");
            std::process::exit(2);
        }
    }
}

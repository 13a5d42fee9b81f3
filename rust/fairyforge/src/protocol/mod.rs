//! The engine protocols: UCI ([`run_uci`], Fairy-Stockfish's conventions
//! for variants) and XBoard / CECP v2 ([`run_xboard`]), so that GUIs,
//! tournament managers and other programs can play every variant against
//! the engine.
//!
//! Both loops read commands line by line from any [`BufRead`] and answer on
//! any [`Write`], so tests drive them in-process over buffers or pipes and
//! the command line runs them on stdin and stdout. The search runs on its
//! own thread with one persistent [`crate::Engine`] (its table survives
//! between moves); the reader keeps reading while it searches, so `stop`,
//! `isready`, `ping` and `?` are answered at once. No input makes either
//! loop panic or hang: bad commands get an error line (UCI: `info string
//! error: ...`, XBoard: `Error (...): ...` or `Illegal move: ...`) and the
//! engine stays usable. See `docs/PROTOCOLS.md` for the whole contract.

use std::io::{BufRead, Write};
use std::sync::{Mutex, MutexGuard};

mod job;
mod options;
mod text;
mod uci;
mod xboard;

pub use uci::run_uci;
pub use xboard::run_xboard;

/// Name and version sent to GUIs (`id name`, `myname`).
pub const ENGINE_NAME: &str = concat!("fairyforge ", env!("CARGO_PKG_VERSION"));

/// Lock a mutex, also when a panicking thread poisoned it (the protocol
/// state stays consistent: every update is a whole assignment).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The output side of a protocol loop, shared by the reader and the search
/// thread: every call writes whole lines under one lock and flushes, so
/// lines of the two threads never interleave. Write errors (a GUI that
/// closed its end) are ignored; the loop ends when its input does.
pub(crate) struct Out<W: Write> {
    inner: Mutex<W>,
}

impl<W: Write> Out<W> {
    pub(crate) fn new(w: W) -> Out<W> {
        Out { inner: Mutex::new(w) }
    }

    /// Write one line (or several, separated by newlines) and flush.
    pub(crate) fn line(&self, text: &str) {
        let mut w = lock(&self.inner);
        let _ = w.write_all(text.as_bytes());
        if !text.ends_with('\n') {
            let _ = w.write_all(b"\n");
        }
        let _ = w.flush();
    }
}

/// The next input line without its line ending; `None` at the end of the
/// input or on a read error. Bytes that are not UTF-8 are replaced, so a
/// garbage line is just an unknown command.
pub(crate) fn read_line(input: &mut impl BufRead) -> Option<String> {
    let mut buf = Vec::new();
    match input.read_until(b'\n', &mut buf) {
        Ok(0) | Err(_) => None,
        Ok(_) => {
            while matches!(buf.last(), Some(b'\n' | b'\r')) {
                buf.pop();
            }
            Some(String::from_utf8_lossy(&buf).into_owned())
        }
    }
}

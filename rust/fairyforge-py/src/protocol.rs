//! The engine protocols on stdin and stdout, for `fairyforge uci` and
//! `fairyforge xboard`: the whole loop runs in Rust with the interpreter
//! released, so no Python code runs while the engine plays.

use pyo3::prelude::*;

/// Speak UCI on stdin and stdout until `quit` or the end of the input.
#[pyfunction]
fn run_uci(py: Python<'_>) {
    py.detach(|| fairyforge::run_uci(std::io::stdin().lock(), std::io::stdout()));
}

/// Speak XBoard (CECP v2) on stdin and stdout until `quit` or the end of
/// the input.
#[pyfunction]
fn run_xboard(py: Python<'_>) {
    py.detach(|| fairyforge::run_xboard(std::io::stdin().lock(), std::io::stdout()));
}

/// Add the protocol functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run_uci, m)?)?;
    m.add_function(wrap_pyfunction!(run_xboard, m)?)?;
    Ok(())
}

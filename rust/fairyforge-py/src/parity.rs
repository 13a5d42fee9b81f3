//! Helpers of the python-chess-parity methods (issue 20): argument
//! conversion for piece types, colours and squares, the set-up error, and
//! the move look-ups that accept pseudo-legal moves and null moves.

use crate::args::Text;
use crate::{move_arg, Board, InvalidMoveError, Move};
use fairyforge::{Color, Kind, Move as EngineMove, Variant};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    fairyforge,
    InvalidSetupError,
    PyValueError,
    "A piece the variant cannot hold put on a board, or a bad square mapping."
);

/// Register this module's exception on the native module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("InvalidSetupError", m.py().get_type::<InvalidSetupError>())?;
    m.add_function(wrap_pyfunction!(piece_types, m)?)
}

/// `(letter, name)` of every catalogue piece type, in python-chess's order
/// (1 pawn .. 6 king, then 7 core .. 14 gryphon), lower-case letters.
#[pyfunction]
fn piece_types() -> Vec<(char, &'static str)> {
    TYPES.iter().map(|&(l, n)| (l.to_ascii_lowercase(), n)).collect()
}

/// The set-up error for an engine message.
pub(crate) fn setup_error(message: String) -> PyErr {
    InvalidSetupError::new_err(message)
}

/// The engine colour of a python-chess colour (True: White).
pub(crate) fn color(white: bool) -> Color {
    if white {
        Color::White
    } else {
        Color::Black
    }
}

/// The catalogue kinds in python-chess piece-type order, with their
/// catalogue letters: 1 pawn .. 6 king, then the fairy kinds 7 core .. 14
/// gryphon. Types are matched to a variant's kinds by name.
const TYPES: [(char, &str); 14] = [
    ('P', "pawn"),
    ('N', "knight"),
    ('B', "bishop"),
    ('R', "rook"),
    ('Q', "queen"),
    ('K', "king"),
    ('C', "core"),
    ('M', "missile"),
    ('D', "drone"),
    ('T', "turret"),
    ('A', "automaton"),
    ('V', "rover"),
    ('H', "maharajah"),
    ('G', "gryphon"),
];

/// First python-chess piece type of the kinds outside [`TYPES`]: such a
/// kind is `FIRST_OTHER + its index in the variant`.
const FIRST_OTHER: u8 = 15;

/// The catalogue name of an upper-case letter, if it has one.
pub(crate) fn catalog_name(symbol: &str) -> Option<&'static str> {
    TYPES.iter().find(|(l, _)| symbol.len() == 1 && symbol.starts_with(*l)).map(|&(_, n)| n)
}

/// The python-chess piece type of a kind name (0 for a kind outside the
/// catalogue's fourteen).
pub(crate) fn type_of_name(name: &str) -> u8 {
    TYPES.iter().position(|&(_, n)| n == name).map_or(0, |i| i as u8 + 1)
}

/// The python-chess piece type of a kind of a variant.
pub(crate) fn piece_type(v: &Variant, k: Kind) -> u8 {
    match type_of_name(&v.spec(k).name) {
        0 => FIRST_OTHER + k.idx() as u8,
        t => t,
    }
}

/// A catalogue kind given as a python-chess piece type (int), a letter or
/// a name, as (upper-case letter, name), for board-free pieces and moves.
pub(crate) fn catalog_arg(v: &Bound<'_, PyAny>, field: &str) -> PyResult<(String, String)> {
    if let Ok(i) = v.extract::<i64>() {
        return usize::try_from(i - 1)
            .ok()
            .and_then(|i| TYPES.get(i))
            .map(|&(l, n)| (l.to_string(), n.to_string()))
            .ok_or_else(|| {
                InvalidSetupError::new_err(format!("{field}: {i} is not a piece type (1 pawn .. 14 gryphon)"))
            });
    }
    let text = v
        .extract::<Text>()
        .map_err(|_| InvalidSetupError::new_err(format!("{field}: expected a piece type, letter or name")))?
        .0;
    let upper = text.to_ascii_uppercase();
    if let Some(n) = catalog_name(&upper) {
        return Ok((upper, n.to_string()));
    }
    if let Some(&(l, n)) = TYPES.iter().find(|(_, n)| *n == text.to_ascii_lowercase()) {
        return Ok((l.to_string(), n.to_string()));
    }
    let mut cs = text.chars();
    match (cs.next(), cs.next(), cs.next()) {
        (Some(c), None, None) | (Some(c), Some('\''), None) if c.is_ascii_alphabetic() => Ok((upper, "?".into())),
        _ => Err(InvalidSetupError::new_err(format!("{field}: {text:?} is not a piece letter or name"))),
    }
}

/// A kind of a variant given as a python-chess piece type, a symbol or a
/// name.
pub(crate) fn kind_in(variant: &Variant, v: &Bound<'_, PyAny>, field: &str) -> PyResult<Kind> {
    let missing =
        |what: String| InvalidSetupError::new_err(format!("{field}: {what} is not a kind of {}", variant.name));
    if let Ok(i) = v.extract::<i64>() {
        if i >= FIRST_OTHER as i64 {
            let k = usize::try_from(i - FIRST_OTHER as i64).ok().filter(|&k| k < variant.kinds.len());
            return k
                .map(Kind::from_idx)
                .filter(|&k| variant.kinds[k.idx()].is_some())
                .ok_or_else(|| missing(i.to_string()));
        }
        let (_, name) = catalog_arg(v, field)?;
        return variant.kind_named(&name).ok_or_else(|| missing(format!("{i} ({name})")));
    }
    let text = v
        .extract::<Text>()
        .map_err(|_| InvalidSetupError::new_err(format!("{field}: expected a piece type, letter or name")))?
        .0;
    variant
        .kind_of_symbol(&text.to_ascii_uppercase())
        .or_else(|| variant.kind_named(&text.to_ascii_lowercase()))
        .ok_or_else(|| missing(format!("{text:?}")))
}

/// A square of a `Move`: a name such as `"e4"`, or an int 0..63 numbered
/// as python-chess's (8 files, rank-major).
pub(crate) fn move_square(v: &Bound<'_, PyAny>, field: &str) -> PyResult<(u8, u8)> {
    if let Ok(i) = v.extract::<i64>() {
        return match u8::try_from(i) {
            Ok(i) if i < 64 => Ok((i % 8, i / 8)),
            _ => Err(InvalidMoveError::new_err(format!(
                "{field}: {i} is not a square 0..63 (give a name such as \"j10\" on larger boards)"
            ))),
        };
    }
    let name = v
        .extract::<Text>()
        .map_err(|_| InvalidMoveError::new_err(format!("{field}: expected a square name or 0..63")))?
        .0;
    let c = fairyforge::parse_coordinates(&format!("{name}a1"))
        .ok()
        .filter(|c| c.promotion.is_none())
        .ok_or_else(|| InvalidMoveError::new_err(format!("{field}: {name:?} is not a square name")))?;
    Ok(c.from)
}

/// PGN and python-chess spellings of the null move.
pub(crate) fn is_null_san(san: &str) -> bool {
    matches!(san, "--" | "Z0" | "0000" | "@@@@")
}

/// Check that `mapping` is a permutation of `0..squares`.
pub(crate) fn check_permutation(mapping: &[usize], squares: usize) -> PyResult<()> {
    let mut seen = vec![false; squares];
    if mapping.len() != squares {
        return Err(InvalidSetupError::new_err(format!(
            "mapping: {} squares given, the board has {squares}",
            mapping.len()
        )));
    }
    for &t in mapping {
        if t >= squares || std::mem::replace(&mut seen[t], true) {
            return Err(InvalidSetupError::new_err(format!("mapping: square {t} is off the board or used twice")));
        }
    }
    Ok(())
}

impl Board {
    /// The pseudo-legal moves of the position (python-chess's en-passant
    /// square counts, as it keeps it).
    pub(crate) fn pseudo_legal(&self) -> Vec<EngineMove> {
        self.inner.pos.pseudo_legal_moves(self.inner.potential_ep())
    }

    /// The legal or pseudo-legal move a Move or coordinate text names.
    pub(crate) fn resolve_pseudo(&mut self, m: &Bound<'_, PyAny>) -> PyResult<EngineMove> {
        let mv = move_arg(m)?;
        match self.resolve(&mv) {
            Ok(e) => Ok(e),
            Err(err) => {
                let pos = self.inner.pos;
                self.pseudo_legal().into_iter().find(|&e| Move::from_engine(&pos, e) == mv).ok_or(err)
            }
        }
    }

    /// Pass the turn (a null move), refused in check.
    pub(crate) fn push_null(&mut self) -> PyResult<()> {
        self.inner.push_null().map_err(|e| crate::IllegalMoveError::new_err(format!("illegal move \"0000\": {e}")))?;
        self.legal_stack.push(self.legal.take());
        Ok(())
    }
}

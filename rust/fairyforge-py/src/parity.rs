//! Helpers of the python-chess-parity methods (issue 20): argument
//! conversion for piece types, colours and squares, the set-up error, and
//! the move look-ups that accept pseudo-legal moves and null moves.

use crate::args::Text;
use crate::{move_arg, Board, InvalidMoveError, Move};
use fairyforge::{Color, Kind, Move as EngineMove};
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

/// `(letter, name)` of every piece type, in python-chess's order (1 pawn
/// .. 6 king, then 7 core .. 14 gryphon), lower-case letters.
#[pyfunction]
fn piece_types() -> Vec<(char, &'static str)> {
    TYPES.iter().map(|k| (k.letter().to_ascii_lowercase(), k.name())).collect()
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

/// Kinds in python-chess piece-type order: 1 pawn .. 6 king, then the
/// fairy kinds 7 core .. 14 gryphon.
const TYPES: [Kind; 14] = [
    Kind::Pawn,
    Kind::Knight,
    Kind::Bishop,
    Kind::Rook,
    Kind::Queen,
    Kind::King,
    Kind::Core,
    Kind::Missile,
    Kind::Drone,
    Kind::Turret,
    Kind::Automaton,
    Kind::Rover,
    Kind::Maharajah,
    Kind::Gryphon,
];

/// The python-chess piece type of a kind.
pub(crate) fn piece_type(k: Kind) -> u8 {
    TYPES.iter().position(|&t| t == k).map_or(0, |i| i as u8 + 1)
}

/// A kind given as a python-chess piece type (int), a letter or a name.
pub(crate) fn kind_arg(v: &Bound<'_, PyAny>, field: &str) -> PyResult<Kind> {
    if let Ok(i) = v.extract::<i64>() {
        return usize::try_from(i - 1).ok().and_then(|i| TYPES.get(i).copied()).ok_or_else(|| {
            InvalidSetupError::new_err(format!("{field}: {i} is not a piece type (1 pawn .. 14 gryphon)"))
        });
    }
    let text = v
        .extract::<Text>()
        .map_err(|_| InvalidSetupError::new_err(format!("{field}: expected a piece type, letter or name")))?
        .0;
    let mut chars = text.chars();
    let by_letter = match (chars.next(), chars.next()) {
        (Some(c), None) => Kind::from_letter(c),
        _ => None,
    };
    by_letter
        .or_else(|| TYPES.iter().copied().find(|k| k.name() == text.to_ascii_lowercase()))
        .ok_or_else(|| InvalidSetupError::new_err(format!("{field}: {text:?} is not a piece letter or name")))
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

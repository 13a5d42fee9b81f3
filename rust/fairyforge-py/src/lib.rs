//! PyO3 bindings: the native module `fairyforge._core`.
//!
//! Thin by design: conversion, validation and error mapping. Every engine
//! error becomes a `ValueError` subclass; long computations run detached
//! from the interpreter and stop on Ctrl-C.

use fairyforge::{
    format_divide, AnyPosition, Board as EngineBoard, Color, Error, ErrorKind, Move as EngineMove, Variant,
};
use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyKeyboardInterrupt, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

mod args;
mod engine;
mod parity;
mod protocol;

use args::{Int, Text};

create_exception!(fairyforge, InvalidFenError, PyValueError, "A FEN that cannot be parsed or is not a valid position.");
create_exception!(fairyforge, InvalidMoveError, PyValueError, "A move text that cannot be parsed.");
create_exception!(fairyforge, IllegalMoveError, PyValueError, "A move that is not legal in the position.");
create_exception!(fairyforge, AmbiguousMoveError, PyValueError, "A SAN that matches several legal moves.");
create_exception!(fairyforge, InvalidOptionError, PyValueError, "An unknown variant, option or option value.");
create_exception!(fairyforge, InvalidSquareError, PyValueError, "A square name or index that is not on the board.");
create_exception!(
    fairyforge,
    InvalidVariantError,
    InvalidOptionError,
    "A variant definition that cannot be read or cannot work: names the file, line and key."
);

pub(crate) fn to_py(e: Error) -> PyErr {
    let msg = e.to_string();
    match e.kind {
        ErrorKind::Fen => InvalidFenError::new_err(msg),
        ErrorKind::InvalidMove => InvalidMoveError::new_err(msg),
        ErrorKind::IllegalMove => IllegalMoveError::new_err(msg),
        ErrorKind::AmbiguousMove => AmbiguousMoveError::new_err(msg),
        ErrorKind::Option => InvalidOptionError::new_err(msg),
        ErrorKind::Definition => InvalidVariantError::new_err(msg),
    }
}

/// Run `work` detached from the interpreter on a helper thread, polling for
/// signals; Ctrl-C raises the stop flag and re-raises `KeyboardInterrupt`.
/// `stop` may also be raised from elsewhere (`Board.stop()`); work that
/// returns `None` was stopped. A panic in the work (an allocation or a
/// thread the system refused) ends the wait at once as a `RuntimeError`.
fn run_detached<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce(&AtomicBool) -> Option<T> + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let handle = match std::thread::Builder::new().spawn_scoped(scope, || work(stop)) {
            Ok(h) => h,
            Err(e) => return Err(PyRuntimeError::new_err(format!("engine thread could not start: {e}"))),
        };
        loop {
            let finished = py.detach(|| {
                for _ in 0..50 {
                    if handle.is_finished() {
                        return true;
                    }
                    std::thread::sleep(Duration::from_millis(2));
                }
                false
            });
            if finished {
                break;
            }
            if let Err(e) = py.check_signals() {
                stop.store(true, Ordering::Relaxed);
                let _ = py.detach(|| handle.join());
                return Err(e);
            }
        }
        match py.detach(|| handle.join()) {
            Ok(Some(v)) => Ok(v),
            Ok(None) => Err(PyKeyboardInterrupt::new_err("stopped")),
            Err(panic) => {
                let why = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown cause".into());
                Err(PyRuntimeError::new_err(format!("engine thread failed: {why}")))
            }
        }
    })
}

fn option_pairs(options: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, String)>> {
    let mut out = Vec::new();
    if let Some(d) = options {
        for (k, v) in d.iter() {
            let key = k.extract::<Text>()?.0;
            let val = if let Ok(b) = v.cast::<pyo3::types::PyBool>() {
                b.is_true().to_string()
            } else if v.cast::<pyo3::types::PyInt>().is_ok() {
                v.str()?.to_string_lossy().into_owned()
            } else if let Ok(s) = v.extract::<Text>() {
                s.0
            } else {
                return Err(InvalidOptionError::new_err(format!(
                    "invalid option {key}: expected a string, integer or boolean, got {}",
                    v.get_type().name()?
                )));
            };
            out.push((key, val));
        }
    }
    Ok(out)
}

/// A variant by name, or by the path of a definition file (`*.toml`, loaded
/// and registered under its name), with options.
fn make_variant(name: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Variant> {
    let pairs = option_pairs(options)?;
    if name.ends_with(".toml") {
        let v = Variant::load_file(name).map_err(to_py)?;
        return Variant::new(&v.name, &pairs).map_err(to_py);
    }
    Variant::new(name, &pairs).map_err(to_py)
}

/// A Python value of a definition dict as TOML.
fn toml_value(v: &Bound<'_, PyAny>, key: &str) -> PyResult<toml::Value> {
    use pyo3::types::{PyBool, PyFloat, PyInt, PyList, PyString, PyTuple};
    let bad = |what: String| {
        InvalidVariantError::new_err(format!("invalid variant definition definition (dict): {key}: {what}"))
    };
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(toml::Value::Boolean(b.is_true()));
    }
    if v.cast::<PyInt>().is_ok() {
        return v.extract::<i64>().map(toml::Value::Integer).map_err(|_| bad("integer out of range".into()));
    }
    if let Ok(f) = v.cast::<PyFloat>() {
        return Ok(toml::Value::Float(f.value()));
    }
    if v.cast::<PyString>().is_ok() {
        return Ok(toml::Value::String(v.extract::<Text>()?.0));
    }
    if let Ok(d) = v.cast::<PyDict>() {
        return Ok(toml::Value::Table(toml_table(d, key)?));
    }
    if v.cast::<PyList>().is_ok() || v.cast::<PyTuple>().is_ok() {
        let mut out = Vec::new();
        for (i, item) in v.try_iter()?.enumerate() {
            out.push(toml_value(&item?, &format!("{key}[{i}]"))?);
        }
        return Ok(toml::Value::Array(out));
    }
    Err(bad(format!("a {} cannot be part of a definition", v.get_type().name()?)))
}

/// A definition dict as a TOML table; keys must be strings.
fn toml_table(d: &Bound<'_, PyDict>, path: &str) -> PyResult<toml::Table> {
    let mut t = toml::Table::new();
    for (k, v) in d.iter() {
        let Ok(key) = k.extract::<Text>() else {
            return Err(InvalidVariantError::new_err(format!(
                "invalid variant definition definition (dict): {path}: keys must be strings"
            )));
        };
        let full = if path.is_empty() { key.0.clone() } else { format!("{path}.{}", key.0) };
        t.insert(key.0, toml_value(&v, &full)?);
    }
    Ok(t)
}

/// Load a definition from a dict and register it.
fn load_dict(d: &Bound<'_, PyDict>) -> PyResult<Variant> {
    let table = toml_table(d, "")?;
    let text = toml::to_string(&table).map_err(|e| InvalidVariantError::new_err(e.to_string()))?;
    Variant::load_text(&text, "definition (dict)").map_err(to_py)
}

/// The name of the variant an argument stands for: a name, a file path,
/// a dict (loaded and registered) or a `VariantInfo`.
fn variant_name(v: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(info) = v.cast::<VariantInfo>() {
        return Ok(info.get().name.clone());
    }
    if let Ok(d) = v.cast::<PyDict>() {
        return Ok(load_dict(d)?.name);
    }
    let os = v.py().import("os")?;
    if let Ok(p) = os.call_method1("fspath", (v,)) {
        if let Ok(t) = p.extract::<Text>() {
            return Ok(t.0);
        }
    }
    Err(InvalidOptionError::new_err(format!(
        "invalid option variant: expected a name, a path, a dict or a VariantInfo, got {}",
        v.get_type().name()?
    )))
}

/// Load a variant definition: a TOML file's path, or a dict of the same
/// structure. The variant is registered under its name for the rest of the
/// process (`Board(name)`, `base = name`), and described.
#[pyfunction]
fn load_variant(source: &Bound<'_, PyAny>) -> PyResult<VariantInfo> {
    let v = if let Ok(d) = source.cast::<PyDict>() {
        load_dict(d)?
    } else {
        let path = variant_name(source)?;
        Variant::load_file(&path).map_err(to_py)?
    };
    Ok(variant_info(&v))
}

/// A move in coordinate form: origin, destination, promotion letter.
/// Squares are names such as `"e2"` or `"j10"`, so a move means the same
/// on every board size.
#[pyclass(module = "fairyforge", frozen, eq, hash, ord)]
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Move {
    from_sq: (u8, u8),
    to_sq: (u8, u8),
    promo: Option<String>,
}

fn sq_name((f, r): (u8, u8)) -> String {
    format!("{}{}", (b'a' + f) as char, r as u32 + 1)
}

impl Move {
    /// The null move: from and to a1 (python-chess's squares) with a
    /// marker no promotion uses, so that it differs from the move `a1a1`.
    fn null_move() -> Move {
        Move { from_sq: (0, 0), to_sq: (0, 0), promo: Some("-".into()) }
    }

    fn parse(text: &str) -> PyResult<Move> {
        if text == "0000" {
            return Ok(Move::null_move());
        }
        let c = fairyforge::parse_coordinates(text).map_err(|_| {
            InvalidMoveError::new_err(format!("invalid move {text:?}: expected coordinates such as e2e4 or e7e8q"))
        })?;
        Ok(Move { from_sq: c.from, to_sq: c.to, promo: c.promotion })
    }

    fn from_engine(pos: &AnyPosition, m: EngineMove) -> Move {
        if m == EngineMove::NONE {
            return Move::null_move();
        }
        let files = files_of(pos);
        let sq = |s: usize| ((s % files) as u8, (s / files) as u8);
        Move {
            from_sq: sq(m.from()),
            to_sq: sq(m.to()),
            promo: m.promotion().map(|k| pos.variant().spec(k).symbol.to_ascii_lowercase()),
        }
    }
}

fn files_of(pos: &AnyPosition) -> usize {
    pos.size().files as usize
}

#[pymethods]
impl Move {
    /// Parse coordinate text such as `e2e4`, `e7e8q` or `a10a12`.
    #[staticmethod]
    fn from_uci(uci: Text) -> PyResult<Move> {
        Move::parse(&uci)
    }
    /// Coordinate text of the move (`0000` for the null move).
    fn uci(&self) -> String {
        if *self == Move::null_move() {
            return "0000".into();
        }
        let mut s = sq_name(self.from_sq) + &sq_name(self.to_sq);
        if let Some(p) = &self.promo {
            s += p;
        }
        s
    }
    /// Origin square name (python-chess's attribute name).
    #[getter]
    #[allow(clippy::wrong_self_convention)]
    fn from_square(&self) -> String {
        sq_name(self.from_sq)
    }
    /// Destination square name.
    #[getter]
    fn to_square(&self) -> String {
        sq_name(self.to_sq)
    }
    /// Promotion letter (lower case), or None.
    #[getter]
    fn promotion(&self) -> Option<String> {
        self.promo.clone().filter(|_| *self != Move::null_move())
    }
    fn __repr__(&self) -> String {
        format!("Move.from_uci('{}')", self.uci())
    }
    fn __str__(&self) -> String {
        self.uci()
    }
    /// Pickled as `Move.from_uci(text)`, so search results pickle too.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((py.get_type::<Move>().getattr("from_uci")?, (self.uci(),)))
    }
    /// `Move("e2e4"[0:2], "e4")`: squares by name (or, as in python-chess,
    /// an int 0..63 of an 8-file board), promotion by letter or
    /// python-chess piece type.
    #[new]
    #[pyo3(signature = (from_square, to_square, promotion=None))]
    fn new(
        from_square: &Bound<'_, PyAny>,
        to_square: &Bound<'_, PyAny>,
        promotion: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Move> {
        let promo = match promotion {
            None => None,
            Some(p) => Some(parity::catalog_arg(p, "promotion")?.0.to_ascii_lowercase()),
        };
        Ok(Move {
            from_sq: parity::move_square(from_square, "from_square")?,
            to_sq: parity::move_square(to_square, "to_square")?,
            promo,
        })
    }
    /// The null move (`0000`, PGN's `--`): passes the turn.
    #[staticmethod]
    fn null() -> Move {
        Move::null_move()
    }
    /// False for the null move, as in python-chess.
    fn __bool__(&self) -> bool {
        *self != Move::null_move()
    }
}

/// A coloured piece: `symbol()` is its FEN symbol (upper case for White),
/// `name` its kind's name in its variant.
#[pyclass(module = "fairyforge", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
struct Piece {
    letter: String,
    name: String,
}

impl Piece {
    /// The piece of a board's variant.
    fn of(v: &Variant, p: fairyforge::Piece) -> Piece {
        Piece { letter: v.symbol(p), name: v.spec(p.kind).name.clone() }
    }
    /// The engine piece in a variant, when the variant has that symbol.
    fn in_variant(&self, v: &Variant) -> Option<fairyforge::Piece> {
        v.piece_of_symbol(&self.letter)
    }
}

#[pymethods]
impl Piece {
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        Ok((py.get_type::<Piece>().getattr("_from_parts")?, (self.letter.clone(), self.name.clone())))
    }
    #[staticmethod]
    fn _from_parts(letter: String, name: String) -> Piece {
        Piece { letter, name }
    }
    /// Piece from its FEN symbol (a letter, or a letter and a prime); the
    /// name is the catalogue's for its letter (`C` is a core), as there is
    /// no board to ask.
    #[staticmethod]
    fn from_symbol(symbol: Text) -> PyResult<Piece> {
        let symbol = &*symbol;
        let mut chars = symbol.chars();
        let ok = match (chars.next(), chars.next(), chars.next()) {
            (Some(c), None, None) => c.is_ascii_alphabetic(),
            (Some(c), Some('\''), None) => c.is_ascii_alphabetic(),
            _ => false,
        };
        if !ok {
            return Err(InvalidOptionError::new_err(format!("invalid piece symbol {symbol:?}")));
        }
        let name = parity::catalog_name(&symbol.to_ascii_uppercase()).unwrap_or("?").to_string();
        Ok(Piece { letter: symbol.to_string(), name })
    }
    /// FEN symbol: upper case for White.
    fn symbol(&self) -> String {
        self.letter.clone()
    }
    /// True for White.
    #[getter]
    fn color(&self) -> bool {
        self.letter.starts_with(|c: char| c.is_ascii_uppercase())
    }
    /// Kind name: `king`, `core`, `archbishop`, ...
    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }
    fn __repr__(&self) -> String {
        format!("Piece.from_symbol('{}')", self.letter)
    }
    fn __str__(&self) -> String {
        self.symbol()
    }
    /// `Piece(piece_type, color)` as in python-chess: the kind as a
    /// python-chess piece type (1 pawn .. 6 king, 7 core .. 14 gryphon),
    /// a letter or a name of the catalogue; the colour True for White.
    #[new]
    fn new(piece_type: &Bound<'_, PyAny>, color: bool) -> PyResult<Piece> {
        let (letter, name) = parity::catalog_arg(piece_type, "piece_type")?;
        Ok(Piece { letter: if color { letter } else { letter.to_ascii_lowercase() }, name })
    }
    /// The kind as a python-chess piece type: 1 pawn, 2 knight, 3 bishop,
    /// 4 rook, 5 queen, 6 king, then 7 core, 8 missile, 9 drone, 10 turret,
    /// 11 automaton, 12 rover, 13 maharajah, 14 gryphon (by name); 0 for
    /// another kind.
    #[getter]
    fn piece_type(&self) -> u8 {
        parity::type_of_name(&self.name)
    }
}

/// The legal (or pseudo-legal) moves of a board as a live view, as
/// python-chess's `board.legal_moves`: every use reads the board as it is
/// now, so the view follows `push` and `pop`.
#[pyclass(module = "fairyforge", frozen, sequence)]
struct LegalMoves {
    board: Py<Board>,
    pseudo: bool,
}

impl LegalMoves {
    fn moves(&self, py: Python<'_>) -> PyResult<Vec<Move>> {
        let mut b = self.board.bind(py).try_borrow_mut()?;
        let pos = b.inner.pos;
        let engine = if self.pseudo { b.pseudo_legal() } else { b.legal().to_vec() };
        Ok(engine.into_iter().map(|m| Move::from_engine(&pos, m)).collect())
    }
}

#[pymethods]
impl LegalMoves {
    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.moves(py)?.len())
    }
    fn __getitem__(&self, py: Python<'_>, i: Int) -> PyResult<Move> {
        let moves = self.moves(py)?;
        let n = moves.len() as i64;
        let out = || PyIndexError::new_err("legal move index out of range");
        let i = i.get("index", -n, n - 1).map_err(|_| out())?;
        let j = if i < 0 { i + n } else { i };
        Ok(moves[j as usize].clone())
    }
    fn __contains__(&self, py: Python<'_>, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(match move_arg(m) {
            Ok(mv) => self.moves(py)?.contains(&mv),
            Err(_) => false,
        })
    }
    fn __bool__(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(!self.moves(py)?.is_empty())
    }
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyIterator>> {
        pyo3::types::PyList::new(py, self.moves(py)?)?.try_iter()
    }
    /// Number of moves (python-chess's `count()`).
    fn count(&self, py: Python<'_>) -> PyResult<usize> {
        self.__len__(py)
    }
    /// True when there is at least one move (python-chess's `any()`).
    fn any(&self, py: Python<'_>) -> PyResult<bool> {
        self.__bool__(py)
    }
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let names: Vec<String> = self.moves(py)?.iter().map(Move::uci).collect();
        let name = if self.pseudo { "PseudoLegalMoves" } else { "LegalMoves" };
        Ok(format!("<{name} ({})>", names.join(", ")))
    }
}

fn move_arg(m: &Bound<'_, PyAny>) -> PyResult<Move> {
    if let Ok(mv) = m.cast::<Move>() {
        return Ok(mv.get().clone());
    }
    if let Ok(s) = m.extract::<Text>() {
        return Move::parse(&s);
    }
    Err(InvalidMoveError::new_err(format!(
        "invalid move: expected a Move or a coordinate string, got {}",
        m.get_type().name()?
    )))
}

/// A variant definition: name, options, board size and start position.
#[pyclass(module = "fairyforge", frozen, eq, hash, get_all)]
#[derive(PartialEq, Eq, Hash)]
struct VariantInfo {
    /// Variant name.
    name: String,
    /// Options as given (normalised strings).
    options: std::collections::BTreeMap<String, String>,
    /// Number of files.
    files: u8,
    /// Number of ranks.
    ranks: u8,
    /// Start FEN.
    start_fen: String,
    /// One line for people.
    description: String,
    /// The kinds: (name, symbol, Betza movement, Robotic, value).
    kinds: Vec<(String, String, String, bool, i32)>,
    /// The options the variant takes (empty for most).
    option_names: Vec<String>,
    /// True for the four built-in variants.
    builtin: bool,
    /// The definition as self-contained TOML text.
    definition: String,
}

#[pymethods]
impl VariantInfo {
    fn __repr__(&self) -> String {
        let opts: String = self.options.iter().map(|(k, v)| format!(", {k}={}", py_literal(v))).collect();
        format!("Variant('{}'{opts})", self.name)
    }
}

fn variant_info(v: &Variant) -> VariantInfo {
    VariantInfo {
        name: v.name.clone(),
        options: v.options.iter().cloned().collect(),
        files: v.size.files,
        ranks: v.size.ranks,
        start_fen: v.start_fen.clone(),
        description: v.description.clone(),
        kinds: v
            .all_kinds()
            .map(|(_, s)| (s.name.clone(), s.symbol.clone(), s.betza.clone(), s.robotic, s.value))
            .collect(),
        option_names: if v.option_set.as_deref() == Some("burden") {
            fairyforge::BURDEN_OPTIONS.iter().map(|s| s.to_string()).collect()
        } else {
            Vec::new()
        },
        builtin: fairyforge::VARIANTS.contains(&v.name.as_str()),
        definition: v.to_toml(),
    }
}

/// A game of a variant: the position, its legal moves and the move stack.
#[pyclass(module = "fairyforge", subclass)]
#[derive(Clone)]
struct Board {
    inner: EngineBoard,
    /// Cached legal moves of the current position, and of each earlier one.
    legal: Option<Arc<Vec<EngineMove>>>,
    legal_stack: Vec<Option<Arc<Vec<EngineMove>>>>,
    /// Raised by `stop()` to end this board's running search or perft.
    stop: Arc<AtomicBool>,
}

impl Board {
    fn legal(&mut self) -> Arc<Vec<EngineMove>> {
        if let Some(l) = &self.legal {
            return l.clone();
        }
        let l = Arc::new(self.inner.pos.legal_moves());
        self.legal = Some(l.clone());
        l
    }

    fn resolve(&mut self, m: &Move) -> PyResult<EngineMove> {
        let files = files_of(&self.inner.pos);
        let size = self.inner.variant.size;
        let on_board = |(f, r): (u8, u8)| f < size.files && r < size.ranks;
        if !on_board(m.from_sq) || !on_board(m.to_sq) {
            return Err(InvalidMoveError::new_err(format!(
                "invalid move {:?}: square outside the {}x{} board",
                m.uci(),
                size.files,
                size.ranks
            )));
        }
        let from = m.from_sq.1 as usize * files + m.from_sq.0 as usize;
        let to = m.to_sq.1 as usize * files + m.to_sq.0 as usize;
        let promo = match &m.promo {
            None => None,
            Some(c) => Some(self.inner.variant.kind_of_symbol(&c.to_ascii_uppercase()).ok_or_else(|| {
                InvalidMoveError::new_err(format!("invalid move {:?}: unknown promotion letter '{c}'", m.uci()))
            })?),
        };
        let legal = self.legal();
        legal
            .iter()
            .copied()
            .find(|e| e.from() == from && e.to() == to && e.promotion() == promo)
            .ok_or_else(|| IllegalMoveError::new_err(format!("illegal move {:?} in {}", m.uci(), self.inner.pos.fen())))
    }

    fn play(&mut self, m: EngineMove) {
        self.inner.push_unchecked(m);
        self.legal_stack.push(self.legal.take());
    }

    fn square_index(&self, sq: &Bound<'_, PyAny>) -> PyResult<usize> {
        let size = self.inner.variant.size;
        if let Ok(i) = sq.extract::<Int>() {
            let n = size.squares() as i64;
            return i.get("square", 0, n - 1).map(|i| i as usize).map_err(|_| {
                InvalidSquareError::new_err(format!(
                    "square {} is outside the {}x{} board",
                    sq.str().map(|s| s.to_string()).unwrap_or_default(),
                    size.files,
                    size.ranks
                ))
            });
        }
        let name = sq.extract::<Text>()?.0;
        size.parse_square(&name).ok_or_else(|| {
            InvalidSquareError::new_err(format!("{name:?} is not a square of the {}x{} board", size.files, size.ranks))
        })
    }
}

#[pymethods]
impl Board {
    /// A board of `variant` at `fen` (None: the start position), with the
    /// variant's options as keywords (`Board("burden", royal="maharajah")`).
    #[new]
    #[pyo3(signature = (variant=None, fen=None, **options), text_signature = "(variant='chess', fen=None, **options)")]
    fn new(
        variant: Option<&Bound<'_, PyAny>>,
        fen: Option<Text>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Board> {
        let name = match variant {
            None => "chess".to_string(),
            Some(v) => variant_name(v)?,
        };
        let fen = fen.as_deref();
        let v = make_variant(&name, options)?;
        let inner = EngineBoard::new(v, fen).map_err(to_py)?;
        Ok(Board { inner, legal: None, legal_stack: Vec::new(), stop: Arc::default() })
    }

    /// The variant being played.
    #[getter]
    fn variant(&self) -> VariantInfo {
        variant_info(&self.inner.variant)
    }
    /// Number of files.
    #[getter]
    fn files(&self) -> u8 {
        self.inner.variant.size.files
    }
    /// Number of ranks.
    #[getter]
    fn ranks(&self) -> u8 {
        self.inner.variant.size.ranks
    }
    /// Side to move: True for White (as in python-chess).
    #[getter]
    fn turn(&self) -> bool {
        self.inner.pos.turn() == Color::White
    }
    /// Zobrist key of the position.
    fn zobrist_hash(&self) -> u64 {
        self.inner.pos.key()
    }
    /// Halfmove clock.
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.inner.pos.halfmove_clock()
    }
    /// Fullmove number.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.inner.pos.fullmove_number()
    }
    /// The legal moves: a live view of the board (python-chess's).
    #[getter]
    fn legal_moves(slf: &Bound<'_, Self>) -> LegalMoves {
        LegalMoves { board: slf.clone().unbind(), pseudo: false }
    }
    /// Moves played so far, oldest first.
    #[getter]
    fn move_stack(&self) -> Vec<Move> {
        self.inner.history.iter().map(|(p, m)| Move::from_engine(p, *m)).collect()
    }
    /// True when the move (a Move or coordinate text) is legal.
    fn is_legal(&mut self, m: &Bound<'_, PyAny>) -> bool {
        match move_arg(m) {
            Ok(mv) => self.resolve(&mv).is_ok(),
            Err(_) => false,
        }
    }
    /// Play a legal move (a Move or coordinate text).
    fn push(&mut self, m: &Bound<'_, PyAny>) -> PyResult<()> {
        let mv = move_arg(m)?;
        if mv == Move::null_move() {
            return self.push_null();
        }
        let e = self.resolve(&mv)?;
        self.play(e);
        Ok(())
    }
    /// Parse coordinate text, play it and return the Move.
    fn push_uci(&mut self, uci: Text) -> PyResult<Move> {
        let uci = &*uci;
        let mv = Move::parse(uci)?;
        let e = self.resolve(&mv)?;
        self.play(e);
        Ok(mv)
    }
    /// Take back the last move and return it.
    fn pop(&mut self) -> PyResult<Move> {
        let Some((prev, m)) = self.inner.history.last().copied() else {
            return Err(PyIndexError::new_err("pop from empty move stack"));
        };
        self.inner.pop();
        self.legal = self.legal_stack.pop().flatten();
        Ok(Move::from_engine(&prev, m))
    }
    /// The last move played.
    fn peek(&self) -> PyResult<Move> {
        let (p, m) = self.inner.history.last().ok_or_else(|| PyIndexError::new_err("peek at empty move stack"))?;
        Ok(Move::from_engine(p, *m))
    }
    /// FEN of the position.
    fn fen(&self) -> String {
        self.inner.pos.fen()
    }
    /// Replace the position (and clear the move stack).
    fn set_fen(&mut self, fen: Text) -> PyResult<()> {
        let fen = &*fen;
        let b = EngineBoard::new(self.inner.variant.clone(), Some(fen)).map_err(to_py)?;
        *self = Board { inner: b, legal: None, legal_stack: Vec::new(), stop: self.stop.clone() };
        Ok(())
    }
    /// Back to the start position of the variant.
    fn reset(&mut self) {
        if let Ok(b) = EngineBoard::new(self.inner.variant.clone(), None) {
            *self = Board { inner: b, legal: None, legal_stack: Vec::new(), stop: self.stop.clone() };
        }
    }
    /// True when a royal piece of the side to move is attacked.
    fn is_check(&self) -> bool {
        self.inner.pos.is_check()
    }
    /// True when the side to move is in check and has no legal move.
    fn is_checkmate(&mut self) -> bool {
        !self.inner.pos.is_shocked() && self.legal().is_empty() && self.inner.pos.is_check()
    }
    /// True when the side to move is not in check and has no legal move.
    fn is_stalemate(&mut self) -> bool {
        !self.inner.pos.is_shocked() && self.legal().is_empty() && !self.inner.pos.is_check()
    }
    /// True when the shock rule has ended the game (Shocking Chess).
    fn is_shocked(&self) -> bool {
        self.inner.pos.is_shocked()
    }
    /// The piece on a square (name or index), or None.
    fn piece_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<Piece>> {
        let sq = self.square_index(square)?;
        Ok(self.inner.pos.piece_at(sq).map(|p| Piece::of(&self.inner.variant, p)))
    }
    /// Squares of the royal pieces of a side (True: White).
    fn royal_squares(&self, color: bool) -> Vec<usize> {
        self.inner.pos.royal_squares(if color { Color::White } else { Color::Black })
    }
    /// Index of a square name (`rank * files + file`).
    fn parse_square(&self, name: &Bound<'_, PyAny>) -> PyResult<usize> {
        self.square_index(name)
    }
    /// Name of a square index.
    fn square_name(&self, square: &Bound<'_, PyAny>) -> PyResult<String> {
        let sq = self.square_index(square)?;
        Ok(self.inner.variant.size.square_name(sq))
    }
    /// An independent copy of the same class (with the move stack unless
    /// `stack=False`).
    #[pyo3(signature = (*, stack=true))]
    fn copy<'py>(slf: &Bound<'py, Self>, stack: bool) -> PyResult<Bound<'py, PyAny>> {
        let me = slf.borrow();
        let v = &me.inner.variant;
        let kwargs = PyDict::new(slf.py());
        for (k, val) in &v.options {
            kwargs.set_item(k, val)?;
        }
        let new = slf.get_type().call((v.name.clone(), v.start_fen.clone()), Some(&kwargs))?;
        {
            let mut b = new.cast::<Board>()?.borrow_mut();
            *b = me.clone();
            b.stop = Arc::default();
            if !stack {
                b.inner.history.clear();
                b.legal_stack.clear();
            }
        }
        Ok(new)
    }
    fn __copy__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        Board::copy(slf, true)
    }
    fn __deepcopy__<'py>(slf: &Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        Board::copy(slf, true)
    }
    /// Leaf count at `depth` (RULES.md §1), on `threads` threads (None: all
    /// cores). Runs without holding the GIL; Ctrl-C stops it.
    #[pyo3(signature = (depth, threads=None))]
    fn perft(slf: &Bound<'_, Self>, py: Python<'_>, depth: Int, threads: Option<Int>) -> PyResult<u64> {
        let (depth, threads) = perft_args(&depth, &threads, 0)?;
        let (pos, stop) = {
            let b = slf.borrow();
            (b.inner.pos, b.stop.clone())
        };
        if threads == Some(1) && depth <= 4 {
            return Ok(py.detach(|| pos.perft(depth)));
        }
        stop.store(false, Ordering::Relaxed);
        run_detached(py, &stop, |stop| pos.perft_parallel(depth, threads, stop).ok())
    }
    /// Per-move leaf counts at `depth` as a dict sorted by move text.
    #[pyo3(signature = (depth, threads=None))]
    fn perft_divide<'py>(&self, py: Python<'py>, depth: Int, threads: Option<Int>) -> PyResult<Bound<'py, PyDict>> {
        let (depth, threads) = perft_args(&depth, &threads, 1)?;
        self.stop.store(false, Ordering::Relaxed);
        let pos = self.inner.pos;
        let rows = run_detached(py, &self.stop, |stop| pos.divide(depth, threads, stop).ok())?;
        let d = PyDict::new(py);
        for (m, n) in rows {
            d.set_item(m, n)?;
        }
        Ok(d)
    }
    /// SAN of a legal move (RULES.md §2.3).
    fn san(&mut self, m: &Bound<'_, PyAny>) -> PyResult<String> {
        let mv = move_arg(m)?;
        if mv == Move::null_move() {
            return Ok("--".into());
        }
        let e = self.resolve(&mv)?;
        Ok(self.inner.pos.san(e))
    }
    /// The legal move a SAN (or coordinate text) names.
    fn parse_san(&self, san: Text) -> PyResult<Move> {
        let san = &*san;
        if parity::is_null_san(san) {
            return Ok(Move::null_move());
        }
        let e = self.inner.pos.parse_san(san).map_err(to_py)?;
        Ok(Move::from_engine(&self.inner.pos, e))
    }
    /// Parse a SAN, play it and return the Move.
    fn push_san(&mut self, san: Text) -> PyResult<Move> {
        let san = &*san;
        if parity::is_null_san(san) {
            self.push_null()?;
            return Ok(Move::null_move());
        }
        let e = self.inner.pos.parse_san(san).map_err(to_py)?;
        let mv = Move::from_engine(&self.inner.pos, e);
        self.play(e);
        Ok(mv)
    }
    /// A line of legal moves from this position as numbered SAN
    /// (`1. e4 e5 2. Nf3`, or `3... Nf6` when Black starts).
    fn variation_san(&self, moves: Vec<Bound<'_, PyAny>>) -> PyResult<String> {
        let mut b = self.clone();
        let mut parts = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            let e = b.resolve(&move_arg(m)?)?;
            let white = b.inner.pos.turn() == Color::White;
            let n = b.inner.pos.fullmove_number();
            if white {
                parts.push(format!("{n}."));
            } else if i == 0 {
                parts.push(format!("{n}..."));
            }
            parts.push(b.inner.pos.san(e));
            b.play(e);
        }
        Ok(parts.join(" "))
    }
    /// Native outcome: (termination name, winner, points) or None.
    #[pyo3(signature = (claim_draw=false))]
    fn _outcome(&self, claim_draw: bool) -> Option<RawOutcome> {
        self.inner.outcome(claim_draw).map(|o| (o.termination.name(), o.winner.map(|c| c == Color::White), o.points))
    }
    /// True when the game is over (with `claim_draw`, also by the
    /// claimable threefold-repetition and fifty-move draws).
    #[pyo3(signature = (claim_draw=false))]
    fn is_game_over(&self, claim_draw: bool) -> bool {
        self.inner.is_game_over(claim_draw)
    }
    /// True when the current position has occurred at least `count` times.
    #[pyo3(signature = (count=Int::from(3)), text_signature = "($self, count=3)")]
    fn is_repetition(&self, count: Int) -> PyResult<bool> {
        Ok(self.inner.is_repetition(count.unsigned("count", 1, u32::MAX as u64)? as usize))
    }
    /// True when a draw can be claimed (threefold repetition or fifty moves).
    fn can_claim_draw(&self) -> bool {
        self.inner.can_claim_draw()
    }
    /// True when neither side can mate (FIDE chess only).
    fn is_insufficient_material(&self) -> bool {
        self.inner.is_insufficient_material()
    }
    /// Native search with a fresh table; see `fairyforge.Board.search`.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(
        signature = (depth=None, nodes=None, movetime_ms=None, multipv=Int::from(1), threads=Int::from(1), hash_mb=Int::from(16), eval=Text::from("full"), plain=false, info=None, weights=None),
        text_signature = "($self, depth=None, nodes=None, movetime_ms=None, multipv=1, threads=1, hash_mb=16, eval='full', plain=False, info=None, weights=None)"
    )]
    fn _search(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        depth: Option<Int>,
        nodes: Option<Int>,
        movetime_ms: Option<Int>,
        multipv: Int,
        threads: Int,
        hash_mb: Int,
        eval: Text,
        plain: bool,
        info: Option<Py<PyAny>>,
        weights: Option<Text>,
    ) -> PyResult<Vec<engine::SearchResult>> {
        let mut limits =
            engine::limits(&depth, &nodes, &movetime_ms, &None, &multipv, &threads, &hash_mb, &eval, plain)?;
        // A snapshot: other threads may use the board while it searches.
        let (board, stop) = {
            let b = slf.borrow();
            (b.inner.clone(), b.stop.clone())
        };
        limits.weights = engine::weights(&board.variant, weights.as_deref())?;
        stop.store(false, Ordering::Relaxed);
        engine::run(py, None, &board, &limits, info, &stop)
    }
    /// End this board's running search (which returns its best move so far)
    /// or perft (which raises `KeyboardInterrupt`), from any thread.
    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
    /// ASCII grid, top rank first, `.` for empty squares.
    fn __str__(&self) -> String {
        let size = self.inner.variant.size;
        let mut rows = Vec::new();
        for r in (0..size.ranks).rev() {
            let row: Vec<String> = (0..size.files)
                .map(|f| {
                    self.inner.pos.piece_at(size.square(f, r)).map_or(".".into(), |p| self.inner.variant.symbol(p))
                })
                .collect();
            rows.push(row.join(" "));
        }
        rows.join("\n")
    }
    fn __repr__(&self) -> String {
        let v = &self.inner.variant;
        let opts: String = v.options.iter().map(|(k, val)| format!(", {k}={}", py_literal(val))).collect();
        format!("Board('{}', '{}'{opts})", v.name, self.inner.pos.fen())
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<Board>() {
            Ok(o) => {
                let o = o.borrow();
                o.inner.variant == self.inner.variant && o.inner.pos.fen() == self.inner.pos.fen()
            }
            Err(_) => false,
        }
    }
    /// Pickling keeps the game: the start position and the moves played.
    fn __getstate__(&self) -> (String, Vec<String>) {
        let h = &self.inner.history;
        let root = h.first().map_or_else(|| self.inner.pos.fen(), |(p, _)| p.fen());
        (root, h.iter().map(|(p, m)| p.uci(*m)).collect())
    }
    fn __setstate__(&mut self, state: (Text, Vec<Text>)) -> PyResult<()> {
        let (root, moves) = state;
        let mut b = EngineBoard::new(self.inner.variant.clone(), Some(&root)).map_err(to_py)?;
        for m in &moves {
            let mv = b.pos.parse_uci(m).map_err(to_py)?;
            b.push_unchecked(mv);
        }
        *self = Board { inner: b, legal: None, legal_stack: vec![None; moves.len()], stop: Arc::default() };
        Ok(())
    }
    fn __getnewargs_ex__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let kwargs = PyDict::new(py);
        for (k, v) in &self.inner.variant.options {
            kwargs.set_item(k, v)?;
        }
        let args = (self.inner.variant.name.clone(), self.inner.pos.fen());
        PyTuple::new(py, [args.into_pyobject(py)?.into_any(), kwargs.into_any()])
    }

    // --- python-chess parity (issue 20): pieces, attacks, move predicates,
    // counters, hand set-up, transforms. Helpers live in parity.rs.

    /// The pseudo-legal moves: a live view, as python-chess's (moves that
    /// would leave a royal piece attacked included; castling only when
    /// legal).
    #[getter]
    fn pseudo_legal_moves(slf: &Bound<'_, Self>) -> LegalMoves {
        LegalMoves { board: slf.clone().unbind(), pseudo: true }
    }
    /// Side to move: True for White. Setting it clears the en-passant
    /// square and keeps the move stack (as python-chess).
    #[setter]
    fn set_turn(&mut self, color: bool) {
        self.inner.pos.set_turn(parity::color(color));
        self.legal = None;
    }
    /// Squares and pieces, ordered by square: `(square, Piece)` pairs.
    fn _piece_map(&self) -> Vec<(usize, Piece)> {
        let pos = &self.inner.pos;
        (0..self.inner.variant.size.squares())
            .filter_map(|sq| pos.piece_at(sq).map(|p| (sq, Piece::of(&self.inner.variant, p))))
            .collect()
    }
    /// Squares of the pieces of `piece_type` (python-chess type, letter or
    /// name) and `color`.
    fn _pieces(&self, piece_type: &Bound<'_, PyAny>, color: bool) -> PyResult<Vec<usize>> {
        let kind = parity::kind_in(&self.inner.variant, piece_type, "piece_type")?;
        let want = fairyforge::Piece { color: parity::color(color), kind };
        let pos = &self.inner.pos;
        Ok((0..self.inner.variant.size.squares()).filter(|&sq| pos.piece_at(sq) == Some(want)).collect())
    }
    /// The python-chess piece type on a square, or None.
    fn piece_type_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<u8>> {
        let sq = self.square_index(square)?;
        Ok(self.inner.pos.piece_at(sq).map(|p| parity::piece_type(&self.inner.variant, p.kind)))
    }
    /// The colour of the piece on a square (True: White), or None.
    fn color_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<bool>> {
        let sq = self.square_index(square)?;
        Ok(self.inner.pos.piece_at(sq).map(|p| p.color == Color::White))
    }
    /// Put a piece on a square (None empties it). Raises
    /// `InvalidSetupError` for a piece the variant cannot hold; anything
    /// else is accepted and reported by `status()`. Castling rights whose
    /// king or rook left its square are dropped, the en-passant square is
    /// cleared; the move stack is kept.
    fn set_piece_at(&mut self, square: &Bound<'_, PyAny>, piece: Option<Bound<'_, Piece>>) -> PyResult<()> {
        let sq = self.square_index(square)?;
        let p = match piece {
            None => None,
            Some(p) => Some(p.get().in_variant(&self.inner.variant).ok_or_else(|| {
                let side = if p.get().color() { "white" } else { "black" };
                parity::setup_error(format!(
                    "a {side} {} cannot stand on a {} board ({:?} is not one of its pieces)",
                    p.get().name,
                    self.inner.variant.name,
                    p.get().letter
                ))
            })?),
        };
        self.inner.pos.set_piece(sq, p).map_err(parity::setup_error)?;
        self.legal = None;
        Ok(())
    }
    /// Empty a square and return the piece that stood there, if any.
    fn remove_piece_at(&mut self, square: &Bound<'_, PyAny>) -> PyResult<Option<Piece>> {
        let sq = self.square_index(square)?;
        let old = self.inner.pos.piece_at(sq);
        self.inner.pos.set_piece(sq, None).map_err(parity::setup_error)?;
        self.legal = None;
        Ok(old.map(|p| Piece::of(&self.inner.variant, p)))
    }
    /// An empty board: no pieces, White to move, no castling rights or
    /// en-passant square, clocks `0 1`, an empty move stack.
    fn clear(&mut self) {
        self.inner.pos.clear();
        self.clear_stack();
    }
    /// Forget the move stack, keeping the position.
    fn clear_stack(&mut self) {
        self.inner.history.clear();
        self.legal_stack.clear();
        self.legal = None;
    }
    /// What is wrong with a position set up by hand: `(flag, explanation)`
    /// pairs, empty for a valid position.
    fn _problems(&self) -> Vec<(&'static str, String)> {
        self.inner.pos.problems()
    }
    /// Squares of the pieces of `color` attacking `square` (hops included).
    fn _attackers(&self, color: bool, square: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
        let sq = self.square_index(square)?;
        Ok(self.inner.pos.attackers(sq, parity::color(color)))
    }
    /// Squares of the pieces giving check to the side to move.
    fn _checkers(&self) -> Vec<usize> {
        self.inner.pos.checkers()
    }
    /// Start squares of the rooks that keep a castling right.
    fn _castling_rooks(&self) -> Vec<usize> {
        self.inner.pos.castling_rooks()
    }
    /// True when the pseudo-legal move (a Move or coordinate text) gives check.
    fn gives_check(&mut self, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        let e = self.resolve_pseudo(m)?;
        Ok(self.inner.pos.gives_check(e))
    }
    /// True when the move captures (a Robotic hop onto an enemy piece
    /// does, and en passant).
    fn is_capture(&mut self, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        let e = self.resolve_pseudo(m)?;
        Ok(self.inner.pos.is_capture(e))
    }
    /// True when the move castles.
    fn is_castling(&mut self, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.resolve_pseudo(m)?.special() == fairyforge::Special::Castle)
    }
    /// True when the move captures en passant.
    fn is_en_passant(&mut self, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.resolve_pseudo(m)?.special() == fairyforge::Special::EnPassant)
    }
    /// True when the move resets the halfmove clock (a capture or a move of
    /// a clock-resetting kind: pawns; in Shocking Chess also T and A).
    fn is_zeroing(&mut self, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        let e = self.resolve_pseudo(m)?;
        Ok(self.inner.pos.is_zeroing(e))
    }
    /// True when the move makes every earlier position unreachable: it is
    /// zeroing, loses a castling right, gives up a legal en-passant capture,
    /// or evolves the mover where evolution has no cycle.
    fn is_irreversible(&mut self, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        let e = self.resolve_pseudo(m)?;
        Ok(self.inner.pos.is_irreversible(e))
    }
    /// True when the move is a Robotic hop (over the first occupied square
    /// of its line, Shocking Chess).
    fn is_hop(&mut self, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        let e = self.resolve_pseudo(m)?;
        Ok(self.inner.pos.is_hop(e))
    }
    /// The piece the mover is after the move: promoted, or evolved (Burden,
    /// Evolution Chess), or unchanged.
    fn evolves_to(&mut self, m: &Bound<'_, PyAny>) -> PyResult<Piece> {
        let e = self.resolve_pseudo(m)?;
        let p = self.inner.pos.moved_piece(e).ok_or_else(|| IllegalMoveError::new_err("no piece on the origin"))?;
        Ok(Piece::of(&self.inner.variant, p))
    }
    /// True when the move ends the game by the shock rule (Shocking Chess).
    fn is_shock(&mut self, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        let e = self.resolve_pseudo(m)?;
        Ok(self.inner.pos.after(e).is_shocked())
    }
    /// The en-passant square as python-chess keeps it: the square the last
    /// move's double step crossed (whether or not a capture is possible),
    /// else the position's legal en-passant square, else None.
    #[getter]
    fn ep_square(&self) -> Option<usize> {
        self.inner.potential_ep().map(|(sq, _)| sq).or_else(|| self.inner.pos.ep_square())
    }
    /// True when the side to move has a legal en-passant capture.
    fn has_legal_en_passant(&self) -> bool {
        self.inner.pos.ep_square().is_some()
    }
    /// True when the position has occurred three times, or a legal move
    /// reaches a position that has occurred twice (python-chess).
    fn can_claim_threefold_repetition(&self) -> bool {
        self.inner.can_claim_threefold_repetition()
    }
    /// True when a fifty-move draw can be claimed now or by one move.
    fn can_claim_fifty_moves(&self) -> bool {
        self.inner.can_claim_fifty_moves()
    }
    /// True when the position has occurred five times (an automatic draw).
    fn is_fivefold_repetition(&self) -> bool {
        self.inner.is_fivefold_repetition()
    }
    /// True after 150 plies without a capture or clock-resetting move.
    fn is_seventyfive_moves(&self) -> bool {
        self.inner.is_seventyfive_moves()
    }
    /// True after 100 plies without a capture or clock-resetting move.
    fn is_fifty_moves(&self) -> bool {
        self.inner.is_fifty_moves()
    }
    /// Rearrange the board in place: the piece on `square` goes to
    /// `mapping[square]` (a permutation of the squares); with `swap` the
    /// colours and the side to move are exchanged too. Clears the stack.
    fn _transform(&mut self, mapping: Vec<usize>, swap: bool) -> PyResult<()> {
        parity::check_permutation(&mapping, self.inner.variant.size.squares())?;
        self.inner.pos = self.inner.pos.mapped(&mapping, swap);
        self.clear_stack();
        Ok(())
    }
}

/// An outcome as a tuple: (termination name, winner, Burden points).
type RawOutcome = (&'static str, Option<bool>, Option<(u32, u32)>);

fn py_literal(v: &str) -> String {
    match v {
        "true" => "True".into(),
        "false" => "False".into(),
        _ if v.parse::<i64>().is_ok() => v.into(),
        _ => format!("'{v}'"),
    }
}

/// Perft depth (`min` to [`fairyforge::MAX_PERFT_DEPTH`]) and threads (1 to
/// [`args::MAX_THREADS`], None: all cores), checked.
fn perft_args(depth: &Int, threads: &Option<Int>, min: u64) -> PyResult<(u32, Option<usize>)> {
    let depth = depth.unsigned("depth", min, fairyforge::MAX_PERFT_DEPTH as u64)? as u32;
    Ok((depth, args::opt(threads, "threads", 1, args::MAX_THREADS)?.map(|t| t as usize)))
}

/// The position of `variant` (with options) at `fen` (None: the start).
fn position(variant: &str, fen: Option<&str>, options: Option<&Bound<'_, PyDict>>) -> PyResult<AnyPosition> {
    AnyPosition::new(&make_variant(variant, options)?, fen).map_err(to_py)
}

/// Fit the evaluation weights of `board`'s variant to game results
/// (Texel's method, `fairyforge::fit`): `train` and `held` are (FEN,
/// White's score, an engine's score in centipawns for White or None)
/// triples, `weights` a weights file to start from, `lam` the result's
/// weight beside a score. Returns the fit as a dict; see
/// `fairyforge.tools.tune`.
#[pyfunction]
#[pyo3(
    signature = (board, train, held, weights=None, epochs=Int::from(1000), rate=1.0, l2=0.0, report_every=Int::from(25), frozen=Vec::new(), anchor=None, lam=1.0),
    text_signature = "(board, train, held, weights=None, epochs=1000, rate=1.0, l2=0.0, report_every=25, frozen=..., anchor=None, lam=1.0)"
)]
#[allow(clippy::too_many_arguments)]
fn _tune<'py>(
    py: Python<'py>,
    board: &Bound<'py, Board>,
    train: Vec<(Text, f64, Option<f64>)>,
    held: Vec<(Text, f64, Option<f64>)>,
    weights: Option<Text>,
    epochs: Int,
    rate: f64,
    l2: f64,
    report_every: Int,
    frozen: Vec<Text>,
    anchor: Option<Text>,
    lam: f64,
) -> PyResult<Bound<'py, PyDict>> {
    let v = board.borrow().inner.variant.clone();
    let epochs = epochs.unsigned("epochs", 1, 1_000_000)? as usize;
    let report_every = report_every.unsigned("report_every", 1, 1_000_000)? as usize;
    if !rate.is_finite() || rate <= 0.0 || rate > 1000.0 {
        return Err(InvalidOptionError::new_err(format!(
            "invalid option rate: {rate} (allowed: above 0, at most 1000)"
        )));
    }
    let start = engine::weights(&v, weights.as_deref())?.unwrap_or_else(|| v.eval_weights());
    if !(0.0..=1.0).contains(&lam) {
        return Err(InvalidOptionError::new_err(format!("invalid option lam: {lam} (allowed: 0 to 1)")));
    }
    let samples = |rows: Vec<(Text, f64, Option<f64>)>, field: &str| -> PyResult<Vec<fairyforge::Sample>> {
        if let Some((_, r, _)) = rows.iter().find(|(_, r, _)| ![0.0, 0.5, 1.0].contains(r)) {
            return Err(InvalidOptionError::new_err(format!(
                "invalid option {field}: result {r} (allowed: 0, 0.5, 1)"
            )));
        }
        if let Some((_, _, Some(l))) = rows.iter().find(|(_, _, l)| l.is_some_and(|l| !l.is_finite())) {
            return Err(InvalidOptionError::new_err(format!(
                "invalid option {field}: score {l} (allowed: a finite number of centipawns)"
            )));
        }
        let fens: Vec<String> = rows.iter().map(|(f, _, _)| f.0.clone()).collect();
        let traces = fairyforge::traces(&v, &fens).map_err(to_py)?;
        Ok(traces
            .into_iter()
            .zip(rows)
            .map(|(trace, (_, result, label))| fairyforge::Sample { trace, result, label })
            .collect())
    };
    let (train, held) = (samples(train, "train")?, samples(held, "held")?);
    let active = fairyforge::Weights::active(&v);
    // A frozen name is a term (`knight.mobility`, `tempo`) or a per-kind
    // term for every kind (`mobility`).
    let is_frozen =
        |name: &str| frozen.iter().any(|f| f.0 == name || name.split_once('.').is_some_and(|(_, t)| t == f.0));
    for f in &frozen {
        if !active.iter().any(|(_, n)| n == &f.0 || n.split_once('.').is_some_and(|(_, t)| t == f.0)) {
            let names: Vec<&str> = active.iter().map(|(_, n)| n.as_str()).collect();
            return Err(InvalidOptionError::new_err(format!(
                "invalid option frozen: {:?} is not a term of {} (its terms: {})",
                f.0,
                v.name,
                names.join(", ")
            )));
        }
    }
    let params: Vec<usize> = active.iter().filter(|(_, n)| !is_frozen(n)).map(|&(i, _)| i).collect();
    let anchor = match anchor {
        None => None,
        Some(a) => {
            let name = format!("{}.value", a.0);
            Some(active.iter().find(|(_, n)| *n == name).map(|&(i, _)| i).ok_or_else(|| {
                InvalidOptionError::new_err(format!(
                    "invalid option anchor: {:?} is not a valued kind of {}",
                    a.0, v.name
                ))
            })?)
        }
    };
    let o = fairyforge::FitOptions { epochs, rate, l2, report_every, anchor, lambda: lam };
    let f = py.detach(|| fairyforge::fit(&start, &params, &train, &held, o));
    let d = PyDict::new(py);
    d.set_item("k", f.k)?;
    d.set_item("before", f.before)?;
    d.set_item("after", f.after)?;
    d.set_item("best_epoch", f.best_epoch)?;
    d.set_item("curve", f.curve)?;
    d.set_item("weights", v.write_weights(&f.weights))?;
    let terms = PyDict::new(py);
    for (i, name) in active {
        terms.set_item(name, (start.get(i), f.weights.get(i)))?;
    }
    d.set_item("terms", terms)?;
    Ok(d)
}

/// Leaf count of `variant` at `fen` (None: the start position).
#[pyfunction]
#[pyo3(signature = (variant, fen, depth, threads=None, **options))]
fn perft(
    py: Python<'_>,
    variant: Text,
    fen: Option<Text>,
    depth: Int,
    threads: Option<Int>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<u64> {
    let (depth, threads) = perft_args(&depth, &threads, 0)?;
    let pos = position(&variant, fen.as_deref(), options)?;
    run_detached(py, &AtomicBool::new(false), |stop| pos.perft_parallel(depth, threads, stop).ok())
}

/// Divide text in the Stockfish format for `variant` at `fen`.
#[pyfunction]
#[pyo3(signature = (variant, fen, depth, threads=None, **options))]
fn divide_text(
    py: Python<'_>,
    variant: Text,
    fen: Option<Text>,
    depth: Int,
    threads: Option<Int>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let (depth, threads) = perft_args(&depth, &threads, 1)?;
    let pos = position(&variant, fen.as_deref(), options)?;
    let rows = run_detached(py, &AtomicBool::new(false), |stop| pos.divide(depth, threads, stop).ok())?;
    Ok(format_divide(&rows))
}

/// Perft timed inside the engine: `(nodes, seconds)`, single-threaded when
/// `threads` is 1. Used by benchmarks to show the cost of the Python layer.
#[pyfunction]
#[pyo3(signature = (variant, fen, depth, threads=None, **options))]
fn perft_timed(
    py: Python<'_>,
    variant: Text,
    fen: Option<Text>,
    depth: Int,
    threads: Option<Int>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<(u64, f64)> {
    let (depth, threads) = perft_args(&depth, &threads, 0)?;
    let pos = position(&variant, fen.as_deref(), options)?;
    run_detached(py, &AtomicBool::new(false), |stop| {
        let t = std::time::Instant::now();
        let n = if threads == Some(1) { Some(pos.perft(depth)) } else { pos.perft_parallel(depth, threads, stop).ok() };
        n.map(|n| (n, t.elapsed().as_secs_f64()))
    })
}

/// Every variant known: the built-in ones, the shipped examples, then the
/// ones loaded in this process, each described (default options).
#[pyfunction]
fn variants() -> PyResult<Vec<VariantInfo>> {
    Variant::names().iter().map(|n| Ok(variant_info(&Variant::new(n, &[]).map_err(to_py)?))).collect()
}

/// The variants loaded in this process as TOML texts (for worker
/// processes to load the same).
#[pyfunction]
fn loaded_definitions() -> Vec<String> {
    Variant::loaded_definitions()
}

/// Load a variant definition from TOML text and register it; `origin`
/// names it in errors.
#[pyfunction]
#[pyo3(signature = (text, origin="definition (text)"))]
fn load_variant_text(text: Text, origin: &str) -> PyResult<VariantInfo> {
    Ok(variant_info(&Variant::load_text(&text, origin).map_err(to_py)?))
}

/// Names of every variant known (shipped, then loaded), without compiling
/// them.
#[pyfunction]
fn variant_names() -> Vec<String> {
    Variant::names()
}

/// The variant definition for a name and options.
#[pyfunction]
#[pyo3(signature = (name, **options))]
fn variant(name: &Bound<'_, PyAny>, options: Option<&Bound<'_, PyDict>>) -> PyResult<VariantInfo> {
    Ok(variant_info(&make_variant(&variant_name(name)?, options)?))
}

/// The native core of fairyforge.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Board>()?;
    m.add_class::<Move>()?;
    m.add_class::<Piece>()?;
    m.add_class::<LegalMoves>()?;
    m.add_class::<VariantInfo>()?;
    engine::register(m)?;
    parity::register(m)?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(_tune, m)?)?;
    m.add_function(wrap_pyfunction!(divide_text, m)?)?;
    m.add_function(wrap_pyfunction!(perft_timed, m)?)?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(variant, m)?)?;
    m.add_function(wrap_pyfunction!(load_variant, m)?)?;
    m.add_function(wrap_pyfunction!(variant_names, m)?)?;
    m.add_function(wrap_pyfunction!(loaded_definitions, m)?)?;
    m.add_function(wrap_pyfunction!(load_variant_text, m)?)?;
    m.add("BUILTIN_VARIANTS", fairyforge::VARIANTS.to_vec())?;
    protocol::register(m)?;
    m.add("InvalidFenError", py.get_type::<InvalidFenError>())?;
    m.add("InvalidVariantError", py.get_type::<InvalidVariantError>())?;
    m.add("InvalidMoveError", py.get_type::<InvalidMoveError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("AmbiguousMoveError", py.get_type::<AmbiguousMoveError>())?;
    m.add("InvalidOptionError", py.get_type::<InvalidOptionError>())?;
    m.add("InvalidSquareError", py.get_type::<InvalidSquareError>())?;
    m.add("MAX_HASH_MB", fairyforge::MAX_HASH_MB)?;
    m.add("MAX_PERFT_DEPTH", fairyforge::MAX_PERFT_DEPTH)?;
    m.add("MAX_DEPTH", fairyforge::DEFAULT_DEPTH)?;
    Ok(())
}

//! The search through Python: its results as values ([`Score`], [`Info`],
//! [`SearchResult`]) and a persistent [`Engine`] that keeps its
//! transposition table and move-ordering histories between searches, as a
//! UCI engine does between the moves of a game. `Board._search` (a fresh
//! table and history per call) and
//! `Engine._search` share one path: [`run`].

use super::args::{opt, Int, Text, MAX_MULTIPV, MAX_THREADS};
use super::{
    make_variant, py_literal, run_detached, to_py, variant_info, Board, InvalidOptionError, Move, VariantInfo,
};
use fairyforge::{Board as EngineBoard, EvalKind, Limits};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A score from the side to move's point of view: centipawns (`cp`), or
/// the game ends within `mate` moves (negative: the side to move loses).
#[pyclass(module = "fairyforge", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Score {
    cp: Option<i32>,
    mate: Option<i32>,
}

impl From<fairyforge::Score> for Score {
    fn from(s: fairyforge::Score) -> Score {
        match s {
            fairyforge::Score::Cp(v) => Score { cp: Some(v), mate: None },
            fairyforge::Score::Mate(n) => Score { cp: None, mate: Some(n) },
        }
    }
}

#[pymethods]
impl Score {
    /// `Score(cp=25)` or `Score(mate=-3)`: exactly one of the two.
    #[new]
    #[pyo3(signature = (cp=None, mate=None))]
    fn new(cp: Option<i32>, mate: Option<i32>) -> PyResult<Score> {
        if cp.is_some() == mate.is_some() {
            return Err(InvalidOptionError::new_err("invalid score: give exactly one of cp and mate"));
        }
        Ok(Score { cp, mate })
    }
    /// Centipawns, or None for a mate score.
    #[getter]
    fn cp(&self) -> Option<i32> {
        self.cp
    }
    /// Moves to the end of the game, or None for a centipawn score.
    #[getter]
    fn mate(&self) -> Option<i32> {
        self.mate
    }
    fn __str__(&self) -> String {
        match (self.cp, self.mate) {
            (_, Some(n)) => format!("#{n}"),
            (cp, None) => format!("{:+.2}", f64::from(cp.unwrap_or(0)) / 100.0),
        }
    }
    fn __repr__(&self) -> String {
        format!("Score(cp={}, mate={})", opt_repr(self.cp), opt_repr(self.mate))
    }
    fn __getnewargs__(&self) -> (Option<i32>, Option<i32>) {
        (self.cp, self.mate)
    }
}

fn opt_repr<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "None".into(), |v| v.to_string())
}

fn float_repr(py: Python<'_>, v: f64) -> PyResult<String> {
    Ok(PyFloat::new(py, v).repr()?.to_string())
}

fn owned(moves: &[PyRef<'_, Move>]) -> Vec<Move> {
    moves.iter().map(|m| (**m).clone()).collect()
}

fn moves_repr(moves: &[Move]) -> String {
    let items: Vec<String> = moves.iter().map(Move::__repr__).collect();
    format!("[{}]", items.join(", "))
}

/// Progress of a search after an iteration, one per MultiPV line; `time`
/// in seconds, `hashfull` in permille.
#[pyclass(module = "fairyforge", frozen, eq, get_all)]
#[derive(Clone, PartialEq)]
pub(crate) struct Info {
    /// Iteration depth.
    depth: u32,
    /// Deepest ply reached, quiescence included.
    seldepth: u32,
    /// Line number, 1 for the best.
    multipv: usize,
    /// Score of the line.
    score: Score,
    /// Nodes searched so far.
    nodes: u64,
    /// Nodes per second.
    nps: u64,
    /// Seconds since the start.
    time: f64,
    /// Principal variation.
    pv: Vec<Move>,
    /// Transposition-table fill in permille.
    hashfull: u32,
}

#[pymethods]
impl Info {
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        depth: u32,
        seldepth: u32,
        multipv: usize,
        score: Score,
        nodes: u64,
        nps: u64,
        time: f64,
        pv: Vec<PyRef<'_, Move>>,
        hashfull: u32,
    ) -> Info {
        Info { depth, seldepth, multipv, score, nodes, nps, time, pv: owned(&pv), hashfull }
    }
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Info(depth={}, seldepth={}, multipv={}, score={}, nodes={}, nps={}, time={}, pv={}, hashfull={})",
            self.depth,
            self.seldepth,
            self.multipv,
            self.score.__repr__(),
            self.nodes,
            self.nps,
            float_repr(py, self.time)?,
            moves_repr(&self.pv),
            self.hashfull
        ))
    }
    #[allow(clippy::type_complexity)]
    fn __getnewargs__(&self) -> (u32, u32, usize, Score, u64, u64, f64, Vec<Move>, u32) {
        (
            self.depth,
            self.seldepth,
            self.multipv,
            self.score,
            self.nodes,
            self.nps,
            self.time,
            self.pv.clone(),
            self.hashfull,
        )
    }
}

/// The result of a search for one line: best move (None when the side to
/// move has no legal move), score, principal variation and counters;
/// `time` in seconds.
#[pyclass(module = "fairyforge", frozen, eq, get_all)]
#[derive(Clone, PartialEq)]
pub(crate) struct SearchResult {
    /// The line's first move, or None when there is no legal move.
    best_move: Option<Move>,
    /// Score of the line.
    score: Score,
    /// Principal variation, starting with `best_move`.
    pv: Vec<Move>,
    /// Depth of the last completed iteration.
    depth: u32,
    /// Deepest ply reached in it.
    seldepth: u32,
    /// Nodes searched.
    nodes: u64,
    /// Nodes per second.
    nps: u64,
    /// Seconds used.
    time: f64,
}

#[pymethods]
impl SearchResult {
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        best_move: Option<PyRef<'_, Move>>,
        score: Score,
        pv: Vec<PyRef<'_, Move>>,
        depth: u32,
        seldepth: u32,
        nodes: u64,
        nps: u64,
        time: f64,
    ) -> SearchResult {
        SearchResult {
            best_move: best_move.map(|m| m.clone()),
            score,
            pv: owned(&pv),
            depth,
            seldepth,
            nodes,
            nps,
            time,
        }
    }
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "SearchResult(best_move={}, score={}, pv={}, depth={}, seldepth={}, nodes={}, nps={}, time={})",
            self.best_move.as_ref().map_or_else(|| "None".into(), Move::__repr__),
            self.score.__repr__(),
            moves_repr(&self.pv),
            self.depth,
            self.seldepth,
            self.nodes,
            self.nps,
            float_repr(py, self.time)?
        ))
    }
    #[allow(clippy::type_complexity)]
    fn __getnewargs__(&self) -> (Option<Move>, Score, Vec<Move>, u32, u32, u64, u64, f64) {
        (
            self.best_move.clone(),
            self.score,
            self.pv.clone(),
            self.depth,
            self.seldepth,
            self.nodes,
            self.nps,
            self.time,
        )
    }
}

/// Search limits from the Python arguments, checked.
#[allow(clippy::too_many_arguments)]
pub(crate) fn limits(
    depth: &Option<Int>,
    nodes: &Option<Int>,
    movetime_ms: &Option<Int>,
    soft_ms: &Option<Int>,
    multipv: &Int,
    threads: &Int,
    hash_mb: &Int,
    eval: &str,
    plain: bool,
) -> PyResult<Limits> {
    let eval = match eval {
        "full" => EvalKind::Full,
        "material" => EvalKind::MaterialOnly,
        e => return Err(InvalidOptionError::new_err(format!("invalid option eval: {e:?} (allowed: full, material)"))),
    };
    Ok(Limits {
        depth: opt(depth, "depth", 1, fairyforge::DEFAULT_DEPTH as u64)?.map(|d| d as u32),
        nodes: opt(nodes, "nodes", 1, u64::MAX)?,
        movetime_ms: opt(movetime_ms, "movetime", 1, u64::MAX)?,
        soft_ms: opt(soft_ms, "soft_ms", 0, u64::MAX)?,
        multipv: multipv.unsigned("multipv", 1, MAX_MULTIPV)? as usize,
        threads: threads.unsigned("threads", 1, MAX_THREADS)? as usize,
        hash_mb: hash_mb.unsigned("hash_mb", 1, fairyforge::MAX_HASH_MB as u64)? as usize,
        eval,
        weights: None,
        plain,
    })
}

/// The weights of a weights file for `variant`, if a path is given.
pub(crate) fn weights(variant: &fairyforge::Variant, path: Option<&str>) -> PyResult<Option<fairyforge::Weights>> {
    path.map(|p| variant.weights_file(p)).transpose().map_err(crate::to_py)
}

/// Search `board` detached from the interpreter (Ctrl-C stops it), with
/// `engine`'s table and history or, without one, fresh ones (a table of
/// `limits.hash_mb`);
/// `info` is called with an [`Info`] after every iteration, and an error it
/// raises stops the search and is raised here.
pub(crate) fn run(
    py: Python<'_>,
    engine: Option<&mut fairyforge::Engine>,
    board: &EngineBoard,
    limits: &Limits,
    info: Option<Py<PyAny>>,
    stop: &AtomicBool,
) -> PyResult<Vec<SearchResult>> {
    let mut fresh;
    let engine = match engine {
        Some(e) => e,
        None => {
            fresh = fairyforge::Engine::new(limits.hash_mb).map_err(to_py)?;
            &mut fresh
        }
    };
    let pos = board.pos;
    let history: Vec<u64> = board.history.iter().map(|(p, _)| p.key()).collect();
    let moves = |pv: &[fairyforge::Move]| -> Vec<Move> { pv.iter().map(|&m| Move::from_engine(&pos, m)).collect() };
    let failure: Mutex<Option<PyErr>> = Mutex::new(None);
    let results = run_detached(py, stop, |stop| {
        let mut report = |i: &fairyforge::Info| {
            let Some(cb) = &info else { return };
            Python::attach(|py| {
                let value = Info {
                    depth: i.depth,
                    seldepth: i.seldepth,
                    multipv: i.multipv,
                    score: i.score.into(),
                    nodes: i.nodes,
                    nps: i.nps,
                    time: i.time_ms as f64 / 1000.0,
                    pv: moves(&i.pv),
                    hashfull: i.hashfull,
                };
                if let Err(e) = cb.call1(py, (value,)) {
                    *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                    stop.store(true, Ordering::Relaxed);
                }
            });
        };
        Some(engine.search(&pos, &history, limits, stop, &mut report))
    })?;
    if let Some(e) = failure.lock().unwrap_or_else(|p| p.into_inner()).take() {
        return Err(e);
    }
    Ok(results
        .into_iter()
        .map(|r| SearchResult {
            best_move: r.best_move.map(|m| Move::from_engine(&pos, m)),
            score: r.score.into(),
            pv: moves(&r.pv),
            depth: r.depth,
            seldepth: r.seldepth,
            nodes: r.nodes,
            nps: r.nps,
            time: r.time_ms as f64 / 1000.0,
        })
        .collect())
}

/// A searcher for one variant that keeps its transposition table and
/// move-ordering histories between searches; see `fairyforge.Engine`. One search at a time: another call
/// while it searches raises `RuntimeError`.
#[pyclass(module = "fairyforge", name = "Engine", subclass)]
pub(crate) struct PyEngine {
    /// Locked for the length of a search: a second search meanwhile is
    /// refused rather than queued.
    inner: Mutex<fairyforge::Engine>,
    /// Raised by `stop()` to end the running search.
    stop: Arc<AtomicBool>,
    variant: fairyforge::Variant,
    threads: usize,
}

impl PyEngine {
    /// The engine, unless a search holds it.
    fn engine(&self) -> PyResult<std::sync::MutexGuard<'_, fairyforge::Engine>> {
        match self.inner.try_lock() {
            Ok(e) => Ok(e),
            Err(std::sync::TryLockError::Poisoned(p)) => Ok(p.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => {
                Err(PyRuntimeError::new_err("this engine is searching: one search at a time (stop() ends it)"))
            }
        }
    }
}

#[pymethods]
impl PyEngine {
    /// An engine for `variant` (with its options as keywords) with a table
    /// of `hash_mb` MiB, searching on `threads` threads.
    #[new]
    #[pyo3(
        signature = (variant=Text::from("chess"), hash_mb=Int::from(16), threads=Int::from(1), **options),
        text_signature = "(variant='chess', hash_mb=16, threads=1, **options)"
    )]
    fn new(variant: Text, hash_mb: Int, threads: Int, options: Option<&Bound<'_, PyDict>>) -> PyResult<PyEngine> {
        let hash_mb = hash_mb.unsigned("hash_mb", 1, fairyforge::MAX_HASH_MB as u64)? as usize;
        let threads = threads.unsigned("threads", 1, MAX_THREADS)? as usize;
        let variant = make_variant(&variant, options)?;
        let inner = Mutex::new(fairyforge::Engine::new(hash_mb).map_err(to_py)?);
        Ok(PyEngine { inner, stop: Arc::default(), variant, threads })
    }
    /// The variant this engine plays.
    #[getter]
    fn variant(&self) -> VariantInfo {
        variant_info(&self.variant)
    }
    /// Table size in MiB.
    #[getter]
    fn hash_mb(&self) -> PyResult<usize> {
        Ok(self.engine()?.hash_mb())
    }
    /// Search threads.
    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }
    /// Table fill in permille.
    #[getter]
    fn hashfull(&self) -> PyResult<u32> {
        Ok(self.engine()?.hashfull())
    }
    /// Forget everything learnt: the next search is as a fresh engine's.
    fn new_game(&self) -> PyResult<()> {
        self.engine()?.new_game();
        Ok(())
    }
    /// End the running search from any thread: it returns its best move so
    /// far.
    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
    /// Replace the table by an empty one of `hash_mb` MiB and forget the
    /// history (nothing happens when the size is unchanged).
    fn resize(&self, hash_mb: Int) -> PyResult<()> {
        let hash_mb = hash_mb.unsigned("hash_mb", 1, fairyforge::MAX_HASH_MB as u64)? as usize;
        self.engine()?.resize(hash_mb).map_err(to_py)
    }
    /// Native search with this engine's table; see `fairyforge.Engine.search`.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(
        signature = (board, depth=None, nodes=None, movetime_ms=None, soft_ms=None, multipv=Int::from(1), eval=Text::from("full"), plain=false, info=None, weights=None),
        text_signature = "($self, board, depth=None, nodes=None, movetime_ms=None, soft_ms=None, multipv=1, eval='full', plain=False, info=None, weights=None)"
    )]
    fn _search(
        &self,
        py: Python<'_>,
        board: &Bound<'_, Board>,
        depth: Option<Int>,
        nodes: Option<Int>,
        movetime_ms: Option<Int>,
        soft_ms: Option<Int>,
        multipv: Int,
        eval: Text,
        plain: bool,
        info: Option<Py<PyAny>>,
        weights: Option<Text>,
    ) -> PyResult<Vec<SearchResult>> {
        let board = board.borrow().inner.clone();
        if board.variant != self.variant {
            return Err(InvalidOptionError::new_err(format!(
                "invalid board: this engine plays {}, the board is {}",
                variant_info(&self.variant).__repr__(),
                variant_info(&board.variant).__repr__()
            )));
        }
        let mut engine = self.engine()?;
        let (threads, hash_mb) = (Int::from(self.threads as i64), Int::from(engine.hash_mb() as i64));
        let mut limits = limits(&depth, &nodes, &movetime_ms, &soft_ms, &multipv, &threads, &hash_mb, &eval, plain)?;
        limits.weights = self::weights(&board.variant, weights.as_deref())?;
        self.stop.store(false, Ordering::Relaxed);
        run(py, Some(&mut engine), &board, &limits, info, &self.stop)
    }
    fn __repr__(&self) -> String {
        let opts: String = self.variant.options.iter().map(|(k, v)| format!(", {k}={}", py_literal(v))).collect();
        let hash_mb = self.engine().map_or_else(|_| "?".to_string(), |e| e.hash_mb().to_string());
        format!("Engine('{}', hash_mb={hash_mb}, threads={}{opts})", self.variant.name, self.threads)
    }
}

/// The engine's time rule for one move under a clock (the rule of the
/// UCI and XBoard loops): `(soft_ms, hard_ms)` from the side to move's
/// time left, its increment, the moves to the next time control (None in
/// sudden death and increment games) and the move overhead, all in
/// milliseconds.
#[pyfunction]
#[pyo3(
    signature = (remaining_ms, increment_ms=Int::from(0), moves_to_go=None, overhead_ms=Int::from(30)),
    text_signature = "(remaining_ms, increment_ms=0, moves_to_go=None, overhead_ms=30)"
)]
fn time_limits(
    remaining_ms: Int,
    increment_ms: Int,
    moves_to_go: Option<Int>,
    overhead_ms: Int,
) -> PyResult<(u64, u64)> {
    let clock = fairyforge::Clock {
        time_ms: remaining_ms.unsigned("remaining_ms", 0, u64::MAX)?,
        inc_ms: increment_ms.unsigned("increment_ms", 0, u64::MAX)?,
        movestogo: opt(&moves_to_go, "moves_to_go", 1, u32::MAX as u64)?.map(|m| m as u32),
    };
    let b = fairyforge::budget(clock, overhead_ms.unsigned("overhead_ms", 0, u64::MAX)?);
    Ok((b.soft_ms, b.hard_ms))
}

/// Add the classes of this file to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(time_limits, m)?)?;
    m.add_class::<Score>()?;
    m.add_class::<Info>()?;
    m.add_class::<SearchResult>()?;
    m.add_class::<PyEngine>()?;
    Ok(())
}

//! The UCI loop, with Fairy-Stockfish's conventions for variants
//! (`UCI_Variant`), so that GUIs and tools that drive Fairy-Stockfish drive
//! this engine the same way.
//!
//! Commands: `uci`, `isready` (answered at once, also while searching),
//! `setoption name N [value V]` (names case-insensitive), `ucinewgame`
//! (clears the table), `position startpos|fen F [moves ...]`, `go` with
//! `depth nodes movetime mate infinite ponder searchmoves wtime btime winc
//! binc movestogo` or `perft N` (divide in Stockfish's format), `stop`,
//! `ponderhit`, `quit`, and `d` (the board, variant, FEN and key).
//!
//! * `go mate N` searches to depth `2N` plies (less if `depth` says so).
//! * `go ponder` searches like `go infinite`; there is no `Ponder` option,
//!   and `ponderhit` ends such a search at once with its best move.
//! * `go infinite` (and `go ponder`) never sends `bestmove` before `stop`
//!   or `quit`, even when the search ends on its own.
//! * A position where the game is over (no legal move, or the Network
//!   shocked) gets `info depth 0 score ...` and `bestmove (none)`.
//!
//! Errors are `info string error: ...` lines naming the problem; nothing
//! else changes, except that a `position` whose move list has a bad move
//! is set up to the last good move before it (the rest is dropped), and a
//! `position` with a bad FEN or keyword leaves the position unchanged.

use super::job::{self, Job};
use super::options::{self, OptType, VariantConfig};
use super::text;
use super::{lock, read_line, Out, ENGINE_NAME};
use crate::board::game::{format_divide, AnyPosition, Board};
use crate::moves::Move;
use crate::piece::Color;
use crate::rules::terms::Weights;
use crate::rules::variant::Variant;
use crate::search::clock::{self, Clock};
use crate::search::eval::evaluate;
use crate::search::{Engine, Info, Limits, Score, SearchResult};
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::thread::{self, Scope, ScopedJoinHandle};
use std::time::Duration;

/// Default `Hash` in MiB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest `Hash` in MiB.
pub const MAX_HASH_MB: usize = 4096;
/// Largest `Threads`.
pub const MAX_THREADS: usize = 128;
/// Largest `MultiPV`.
pub const MAX_MULTIPV: usize = 256;
/// Default `Move Overhead` in milliseconds.
pub const DEFAULT_OVERHEAD_MS: u64 = 30;
/// Largest `Move Overhead` in milliseconds.
pub const MAX_OVERHEAD_MS: u64 = 5000;
/// Deepest `go depth` (and `go mate`) honoured.
const MAX_DEPTH: u32 = 64;
/// Stack of the search thread (the search recurses deeply).
const STACK_BYTES: usize = 64 << 20;

/// Words that start a new part of a `go` command.
const GO_WORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// Run the UCI protocol until `quit` or the end of the input, reading
/// commands from `input` and answering on `output`.
pub fn run_uci(mut input: impl BufRead, output: impl Write + Send) {
    let out = Out::new(output);
    let engine = match Engine::new(DEFAULT_HASH_MB) {
        Ok(e) => Mutex::new(e),
        Err(e) => return out.line(&format!("info string error: {e}")),
    };
    let stop = AtomicBool::new(false);
    thread::scope(|scope| {
        let mut uci = Uci::new(&out, &engine, &stop);
        while let Some(line) = read_line(&mut input) {
            if !uci.command(scope, &line) {
                break;
            }
        }
        uci.halt();
    });
}

/// The state of one UCI session.
struct Uci<'scope, 'env, W: Write + Send> {
    out: &'env Out<W>,
    engine: &'env Mutex<Engine>,
    stop: &'env AtomicBool,
    search: Option<ScopedJoinHandle<'scope, ()>>,
    config: VariantConfig,
    variant: Variant,
    board: Board,
    threads: usize,
    multipv: usize,
    overhead_ms: u64,
    /// `EvalFile`: a weights file for the current variant, if set.
    eval_file: Option<String>,
    /// Its weights, read for the current variant.
    weights: Option<Weights>,
}

/// The numbers a `go` command gave.
#[derive(Default)]
struct Go {
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<u64>,
    mate: Option<u32>,
    time: [Option<u64>; 2],
    inc: [u64; 2],
    movestogo: Option<u32>,
    perft: Option<u32>,
    infinite: bool,
    searchmoves: Vec<Move>,
}

impl<'scope, 'env: 'scope, W: Write + Send> Uci<'scope, 'env, W> {
    fn new(out: &'env Out<W>, engine: &'env Mutex<Engine>, stop: &'env AtomicBool) -> Self {
        let variant = Variant::chess();
        let board = Board::new(variant.clone(), None).expect("the chess start position is valid");
        Uci {
            out,
            engine,
            stop,
            search: None,
            config: VariantConfig::default(),
            variant,
            board,
            threads: 1,
            multipv: 1,
            overhead_ms: DEFAULT_OVERHEAD_MS,
            eval_file: None,
            weights: None,
        }
    }

    fn error(&self, message: &str) {
        self.out.line(&format!("info string error: {message}"));
    }

    /// Handle one input line; false on `quit`.
    fn command(&mut self, scope: &'scope Scope<'scope, 'env>, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else { return true };
        match cmd {
            "uci" => self.identify(),
            "isready" => self.out.line("readyok"),
            "debug" | "register" => {}
            "setoption" => {
                self.halt();
                self.setoption(args);
            }
            "ucinewgame" => {
                self.halt();
                lock(self.engine).new_game();
                self.board = Board { variant: self.variant.clone(), pos: self.start(), history: Vec::new() };
            }
            "position" => {
                self.halt();
                self.position(args);
            }
            "go" => {
                self.halt();
                self.go(scope, args);
            }
            "stop" | "ponderhit" => self.halt(),
            "quit" => return false,
            "d" => self.out.line(&text::diagram(&self.board)),
            "eval" => self.out.line(&self.static_eval()),
            _ => self.error(&format!("unknown command {cmd:?}")),
        }
        true
    }

    /// The `eval` line: the static evaluation of the current position
    /// under the current weights, White's view, as Stockfish prints it.
    fn static_eval(&self) -> String {
        if self.board.pos.is_check() {
            return "Final evaluation: none (in check)".to_string();
        }
        let pos = self.weights.as_ref().map_or(self.board.pos, |w| self.board.pos.with_weights(w));
        let own = evaluate(&pos);
        let white = if self.board.pos.turn() == Color::White { own } else { -own };
        text::final_evaluation(white)
    }

    /// The start position of the current variant.
    fn start(&self) -> AnyPosition {
        AnyPosition::new(&self.variant, None).unwrap_or(self.board.pos)
    }

    /// Stop the running search, if any, and wait until it has answered.
    fn halt(&mut self) {
        if let Some(h) = self.search.take() {
            self.stop.store(true, Ordering::SeqCst);
            h.thread().unpark();
            let _ = h.join();
        }
    }

    fn identify(&self) {
        let mut s = format!("id name {ENGINE_NAME}\nid author the fairyforge authors\n");
        s += &variant_option();
        s += "option name VariantPath type string default <empty>\n";
        s += "option name EvalFile type string default <empty>\n";
        s += &format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}\n");
        s += &format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}\n");
        s += &format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}\n");
        s += "option name Clear Hash type button\n";
        s +=
            &format!("option name Move Overhead type spin default {DEFAULT_OVERHEAD_MS} min 0 max {MAX_OVERHEAD_MS}\n");
        for spec in options::BURDEN {
            let (name, default) = (spec.name, spec.default);
            s += &match spec.kind {
                OptType::Combo(words) => {
                    let vars: String = words.iter().map(|w| format!(" var {w}")).collect();
                    format!("option name {name} type combo default {default}{vars}\n")
                }
                OptType::Spin { min, max } => {
                    format!("option name {name} type spin default {default} min {min} max {max}\n")
                }
                OptType::Check => format!("option name {name} type check default {default}\n"),
            };
        }
        s += "uciok";
        self.out.line(&s);
    }

    fn setoption(&mut self, args: &[&str]) {
        if !args.first().is_some_and(|t| t.eq_ignore_ascii_case("name")) {
            return self.error("setoption: expected \"setoption name <name> [value <value>]\"");
        }
        let vpos = args.iter().position(|t| t.eq_ignore_ascii_case("value")).unwrap_or(args.len());
        let name = args[1..vpos].join(" ");
        let value = args.get(vpos + 1..).unwrap_or(&[]).join(" ");
        let spin = |min: u64, max: u64| -> Result<u64, String> {
            match value.trim().parse::<u64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                _ => Err(format!("setoption {name}: bad value {value:?} (expected an integer in {min}..{max})")),
            }
        };
        let result = match name.to_ascii_lowercase().as_str() {
            "" => Err("setoption: the option name is missing".to_string()),
            "uci_variant" => match self.config.set_name(&value) {
                Ok(()) => {
                    self.rebuild();
                    Ok(())
                }
                Err(e) => Err(format!("setoption UCI_Variant: {e}")),
            },
            "variantpath" => self.load_variants(&value),
            "evalfile" => {
                let path = value.trim();
                self.eval_file = (!path.is_empty() && path != "<empty>").then(|| path.to_string());
                self.read_weights()
            }
            "hash" => spin(1, MAX_HASH_MB as u64)
                .and_then(|n| lock(self.engine).resize(n as usize).map_err(|e| format!("setoption Hash: {e}"))),
            "threads" => spin(1, MAX_THREADS as u64).map(|n| self.threads = n as usize),
            "multipv" => spin(1, MAX_MULTIPV as u64).map(|n| self.multipv = n as usize),
            "move overhead" => spin(0, MAX_OVERHEAD_MS).map(|n| self.overhead_ms = n),
            "clear hash" => {
                lock(self.engine).new_game();
                Ok(())
            }
            lower => match options::find(lower) {
                Some((i, _)) => match self.config.set(i, &value) {
                    Ok(()) => {
                        if self.config.takes_burden_options() {
                            self.rebuild();
                        }
                        Ok(())
                    }
                    Err(e) => Err(format!("setoption {e}")),
                },
                None => Err(format!("setoption: unknown option {name:?}")),
            },
        };
        if let Err(e) = result {
            self.error(&e);
        }
    }

    /// `setoption name VariantPath value a.toml;b.toml`: load the definition
    /// files and announce the grown `UCI_Variant` list, as Fairy-Stockfish
    /// does.
    fn load_variants(&mut self, value: &str) -> Result<(), String> {
        let value = value.trim();
        if value.is_empty() || value == "<empty>" {
            return Ok(());
        }
        for path in value.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            Variant::load_file(path).map_err(|e| format!("setoption VariantPath: {e}"))?;
        }
        self.out.line(variant_option().trim_end());
        Ok(())
    }

    /// Read the `EvalFile` weights for the current variant (none without
    /// the option); a file that does not fit leaves the defaults.
    fn read_weights(&mut self) -> Result<(), String> {
        self.weights = None;
        match &self.eval_file {
            None => Ok(()),
            Some(path) => {
                let w = self.variant.weights_file(path).map_err(|e| format!("setoption EvalFile: {e}"))?;
                self.weights = Some(w);
                Ok(())
            }
        }
    }

    /// Rebuild the variant from the settings; on success the position is
    /// its start, on failure the variant and position stay as they were.
    fn rebuild(&mut self) {
        match self.config.build() {
            Ok(v) => match Board::new(v.clone(), None) {
                Ok(b) => {
                    self.variant = v;
                    self.board = b;
                    if let Err(e) = self.read_weights() {
                        self.error(&format!("{e} (the default weights are used)"));
                    }
                }
                Err(e) => self.error(&format!("setoption: {e}")),
            },
            Err(e) => self.error(&format!("setoption: {e} (the variant stays {})", self.describe())),
        }
    }

    /// The current variant with its options, for messages.
    fn describe(&self) -> String {
        let opts: Vec<String> = self.variant.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        if opts.is_empty() {
            self.variant.name.clone()
        } else {
            format!("{} ({})", self.variant.name, opts.join(", "))
        }
    }

    fn position(&mut self, args: &[&str]) {
        let (fen, rest) = match args.first() {
            Some(&"startpos") => (None, &args[1..]),
            Some(&"fen") => {
                let end = args.iter().position(|&t| t == "moves").unwrap_or(args.len());
                if end == 1 {
                    return self.error("position fen: the FEN is missing (the position is unchanged)");
                }
                (Some(args[1..end].join(" ")), &args[end..])
            }
            Some(other) => {
                return self
                    .error(&format!("position: expected startpos or fen, got {other:?} (the position is unchanged)"))
            }
            None => return self.error("position: expected startpos or fen (the position is unchanged)"),
        };
        let moves = match rest.split_first() {
            None => &[][..],
            Some((&"moves", m)) => m,
            Some((t, _)) => {
                return self.error(&format!("position: expected \"moves\", got {t:?} (the position is unchanged)"))
            }
        };
        let mut board = match Board::new(self.variant.clone(), fen.as_deref()) {
            Ok(b) => b,
            Err(e) => return self.error(&format!("position: {e} (variant {}; unchanged)", self.describe())),
        };
        for (i, text) in moves.iter().enumerate() {
            match board.pos.parse_uci(text) {
                Ok(m) => board.push_unchecked(m),
                Err(e) => {
                    self.error(&format!(
                        "position: move {} of the list: {e}; the position is set up to the move before it",
                        i + 1
                    ));
                    break;
                }
            }
        }
        self.board = board;
    }

    /// Parse a `go` command; bad parts are reported and skipped.
    fn parse_go(&self, args: &[&str]) -> Go {
        let mut go = Go::default();
        let mut i = 0;
        while i < args.len() {
            let word = args[i];
            i += 1;
            match word {
                "infinite" | "ponder" => go.infinite = true,
                "searchmoves" => {
                    while i < args.len() && !GO_WORDS.contains(&args[i]) {
                        match self.board.pos.parse_uci(args[i]) {
                            Ok(m) => go.searchmoves.push(m),
                            Err(e) => self.error(&format!("go searchmoves: {e} (skipped)")),
                        }
                        i += 1;
                    }
                }
                "depth" | "nodes" | "movetime" | "mate" | "wtime" | "btime" | "winc" | "binc" | "movestogo"
                | "perft" => {
                    let Some(n) = args.get(i).and_then(|t| t.parse::<i64>().ok()) else {
                        self.error(&format!("go: {word} needs an integer (ignored)"));
                        if args.get(i).is_some_and(|t| !GO_WORDS.contains(t)) {
                            i += 1;
                        }
                        continue;
                    };
                    i += 1;
                    let n = n.max(0) as u64;
                    let small = n.min(u64::from(u32::MAX)) as u32;
                    match word {
                        "depth" => go.depth = Some(small),
                        "nodes" => go.nodes = Some(n),
                        "movetime" => go.movetime = Some(n),
                        "mate" => go.mate = Some(small),
                        "wtime" => go.time[Color::White.idx()] = Some(n),
                        "btime" => go.time[Color::Black.idx()] = Some(n),
                        "winc" => go.inc[Color::White.idx()] = n,
                        "binc" => go.inc[Color::Black.idx()] = n,
                        "movestogo" => go.movestogo = (small > 0).then_some(small),
                        _ => go.perft = Some(small),
                    }
                }
                _ => self.error(&format!("go: unknown word {word:?} (ignored)")),
            }
        }
        go
    }

    fn go(&mut self, scope: &'scope Scope<'scope, 'env>, args: &[&str]) {
        let go = self.parse_go(args);
        let (out, stop) = (self.out, self.stop);
        let pos = self.board.pos;
        stop.store(false, Ordering::SeqCst);
        if let Some(depth) = go.perft {
            let threads = self.threads;
            return self.spawn(scope, move || {
                let text = match depth {
                    0 => Ok("\nNodes searched: 1\n".to_string()),
                    d => pos.divide(d, Some(threads), stop).map(|rows| format_divide(&rows)),
                };
                out.line(&text.unwrap_or_else(|_| "info string perft stopped".into()));
            });
        }
        let mut limits =
            Limits { multipv: self.multipv, threads: self.threads, weights: self.weights.clone(), ..Limits::default() };
        let mate_depth = go.mate.map(|m| m.saturating_mul(2));
        limits.depth = match (go.depth, mate_depth) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
        .map(|d| d.clamp(1, MAX_DEPTH));
        limits.nodes = go.nodes.map(|n| n.max(1));
        limits.movetime_ms = go.movetime.map(|t| t.max(1));
        let us = pos.turn().idx();
        if let (Some(time), false) = (go.time[us], go.infinite) {
            let b =
                clock::budget(Clock { time_ms: time, inc_ms: go.inc[us], movestogo: go.movestogo }, self.overhead_ms);
            limits.soft_ms = Some(b.soft_ms);
            limits.movetime_ms = Some(limits.movetime_ms.map_or(b.hard_ms, |t| t.min(b.hard_ms)));
        }
        let job = Job {
            pos,
            history: self.board.history.iter().map(|(p, _)| p.key()).collect(),
            limits,
            root: go.searchmoves,
        };
        let (engine, wait) = (self.engine, go.infinite);
        self.spawn(scope, move || {
            let searched = catch_unwind(AssertUnwindSafe(|| {
                let mut engine = lock(engine);
                job::run(&mut engine, &job, stop, &mut |i| out.line(&info_line(&pos, i)))
            }));
            let results = searched.unwrap_or_else(|_| {
                out.line("info string error: the search failed; playing the first legal move");
                Vec::new()
            });
            let best = results.first().map_or_else(|| pos.legal_moves().first().copied(), |r| r.best_move);
            if let Some(r) = results.first().filter(|r| r.best_move.is_none()) {
                out.line(&format!("info depth 0 score {}", score_text(r.score)));
            }
            while wait && !stop.load(Ordering::SeqCst) {
                thread::park_timeout(Duration::from_millis(100));
            }
            out.line(&bestmove_line(&pos, best, results.first()));
        });
    }

    fn spawn(&mut self, scope: &'scope Scope<'scope, 'env>, work: impl FnOnce() + Send + 'scope) {
        match thread::Builder::new().name("fairyforge-uci".into()).stack_size(STACK_BYTES).spawn_scoped(scope, work) {
            Ok(h) => self.search = Some(h),
            Err(e) => self.error(&format!("cannot start the search thread: {e}")),
        }
    }
}

/// `cp X` or `mate N`.
fn score_text(s: Score) -> String {
    match s {
        Score::Cp(x) => format!("cp {x}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// An `info` line in the UCI spec's order.
fn info_line(pos: &AnyPosition, i: &Info) -> String {
    let pv: Vec<String> = i.pv.iter().map(|&m| pos.uci(m)).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv {}",
        i.depth,
        i.seldepth.max(i.depth),
        i.multipv,
        score_text(i.score),
        i.nodes,
        i.nps,
        i.hashfull,
        i.time_ms,
        pv.join(" ")
    )
}

/// `bestmove M [ponder P]`, or `bestmove (none)` without a legal move.
fn bestmove_line(pos: &AnyPosition, best: Option<Move>, result: Option<&SearchResult>) -> String {
    match best {
        None => "bestmove (none)".into(),
        Some(m) => match result.and_then(|r| r.pv.get(1).filter(|_| r.pv[0] == m)) {
            Some(&p) => format!("bestmove {} ponder {}", pos.uci(m), pos.uci(p)),
            None => format!("bestmove {}", pos.uci(m)),
        },
    }
}

/// The `UCI_Variant` option line: every shipped and loaded variant.
fn variant_option() -> String {
    let vars: String = Variant::names().iter().map(|v| format!(" var {v}")).collect();
    format!("option name UCI_Variant type combo default chess{vars}\n")
}

//! The XBoard / CECP v2 loop.
//!
//! After `xboard` and `protover 2` the engine announces its features
//! (`setboard=1 usermove=1 ping=1 sigint=0 san=0 ... done=1`, the variants
//! `normal,shocking,burden,evolution`, and the Burden options as `option`
//! features). Commands: `new`, `variant`, `force`, `go`, `playother`,
//! `usermove`, `time`, `otim`, `level`, `st`, `sd`, `result`, `undo`,
//! `remove`, `ping`, `setboard`, `post`, `nopost`, `?`, `memory`, `cores`,
//! `option`, `analyze`, `exit`, `easy`, `hard`, `quit`, the drag reports
//! `lift`, `put` and `hover`, and the extra commands `perft N` and `d`.
//!
//! For a variant XBoard does not know, the answer to `variant` tells
//! XBoard the board ([`setup`]: piece-to-char table, size, start FEN) and
//! the moves of the pieces in Betza notation where it can express them
//! ([`setup`] documents which). Legality is always the engine's: a move it
//! refuses gets `Illegal move (reason): move`, other bad input
//! `Error (reason): command`. When a move ends the game (checkmate,
//! stalemate, shock, extinction, repetition, the fifty-move rule), the
//! engine sends the result line, e.g. `1-0 {White mates}`.
//!
//! Moves are coordinates as in UCI, except that on a board of exactly ten
//! ranks the ranks are numbered from 0 as XBoard does; in Burden and
//! Evolution Chess a move whose piece evolves carries the letter of what it
//! becomes (`e2e3n`), so that XBoard (without legality testing) shows the
//! evolved piece. Moves from XBoard are accepted with or without it.

use super::job::{self, Job};
use super::options::{self, OptType, VariantConfig};
use super::text;
use super::{lock, read_line, Out, ENGINE_NAME};
use crate::board::game::{format_divide, AnyPosition, Board};
use crate::moves::Move;
use crate::piece::{Color, Kind};
use crate::rules::variant::Variant;
use crate::search::clock::{self, Clock};
use crate::search::{Engine, Info, Limits, Score};
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::thread::{self, Scope, ScopedJoinHandle};
use std::time::Duration;

/// Default table size in MiB (until `memory`).
const DEFAULT_HASH_MB: usize = 16;
/// Largest `memory` honoured, in MiB.
const MAX_HASH_MB: usize = 4096;
/// Largest `cores` honoured.
const MAX_THREADS: usize = 128;
/// Default `Move Overhead` in milliseconds.
const DEFAULT_OVERHEAD_MS: u64 = 30;
/// Largest `Move Overhead` in milliseconds.
const MAX_OVERHEAD_MS: u64 = 5000;
/// Stack of the search thread.
const STACK_BYTES: usize = 64 << 20;
/// The clock assumed when XBoard has sent no time control: `level 0 5 0`.
const DEFAULT_BASE_MS: u64 = 5 * 60 * 1000;

/// Run the XBoard protocol until `quit` or the end of the input, reading
/// commands from `input` and answering on `output`.
pub fn run_xboard(mut input: impl BufRead, output: impl Write + Send) {
    let out = Out::new(output);
    let engine = match Engine::new(DEFAULT_HASH_MB) {
        Ok(e) => Mutex::new(e),
        Err(e) => return out.line(&format!("Error (cannot start): {e}")),
    };
    let shared = Shared {
        out,
        engine,
        game: Mutex::new(Game::new()),
        stop: AtomicBool::new(false),
        abort: AtomicBool::new(false),
        post: AtomicBool::new(false),
    };
    thread::scope(|scope| {
        let mut xb = XBoard::new(&shared);
        while let Some(line) = read_line(&mut input) {
            if !xb.command(scope, &line) {
                break;
            }
        }
        xb.halt(true);
    });
}

/// What the reader and the search thread share.
struct Shared<W: Write + Send> {
    out: Out<W>,
    engine: Mutex<Engine>,
    game: Mutex<Game>,
    /// Ends the running search.
    stop: AtomicBool,
    /// With `stop`: the search must not play its move.
    abort: AtomicBool,
    /// Thinking output on.
    post: AtomicBool,
}

/// The game, as the search thread must see it when it plays its move.
struct Game {
    config: VariantConfig,
    board: Board,
    /// The side the engine plays; `None` in force mode.
    engine_side: Option<Color>,
}

impl Game {
    fn new() -> Game {
        let board = Board::new(Variant::chess(), None).expect("the chess start position is valid");
        Game { config: VariantConfig::default(), board, engine_side: None }
    }
}

/// The time control of `level`.
#[derive(Clone, Copy)]
struct Level {
    moves: u32,
    base_ms: u64,
    inc_ms: u64,
}

/// The reader's side of a session.
struct XBoard<'scope, 'env, W: Write + Send> {
    shared: &'env Shared<W>,
    search: Option<ScopedJoinHandle<'scope, ()>>,
    analyzing: bool,
    level: Option<Level>,
    st_ms: Option<u64>,
    sd: Option<u32>,
    time_ms: Option<u64>,
    threads: usize,
    overhead_ms: u64,
    /// Square of the last `lift`.
    lifted: Option<usize>,
}

/// XBoard's name of a square: as UCI, but ranks from 0 on ten-rank boards.
fn square_text(v: &Variant, sq: usize) -> String {
    let size = v.size;
    let rank = size.rank_of(sq) + u8::from(size.ranks != 10);
    format!("{}{}", (b'a' + size.file_of(sq)) as char, rank)
}

/// Parse XBoard's name of a square.
fn parse_square(v: &Variant, text: &str) -> Option<usize> {
    let size = v.size;
    let b = text.as_bytes();
    let file = b.first()?.checked_sub(b'a')?;
    let rank: u8 = text.get(1..)?.parse().ok()?;
    let rank = if size.ranks == 10 { Some(rank) } else { rank.checked_sub(1) }?;
    (file < size.files && rank < size.ranks && b.get(1).is_some_and(u8::is_ascii_digit))
        .then(|| size.square(file, rank))
}

/// What the piece of a move becomes by evolving, if it changes.
fn evolution(board: &Board, m: Move) -> Option<Kind> {
    let piece = board.pos.piece_at(m.from())?;
    let next = board.variant.evolve[piece.kind.idx()];
    (m.promotion().is_none() && next != piece.kind).then_some(next)
}

/// XBoard's text of a move, with the evolved piece's letter where it changes.
fn move_text(board: &Board, m: Move) -> String {
    let v = &board.variant;
    let mut s = square_text(v, m.from()) + &square_text(v, m.to());
    if let Some(k) = m.promotion().or_else(|| evolution(board, m)) {
        s += &v.spec(k).symbol.to_ascii_lowercase();
    }
    s
}

/// Parse a move from XBoard: coordinates, then a promotion letter or the
/// letter of the evolved piece (optional).
fn parse_move(board: &Board, text: &str) -> Result<Move, &'static str> {
    let b = text.as_bytes();
    let second = (1..b.len()).find(|&i| b[i].is_ascii_lowercase()).ok_or("not a move")?;
    let from = parse_square(&board.variant, &text[..second]).ok_or("bad origin square")?;
    let rest = &text[second..];
    let digits = 1 + rest.bytes().skip(1).take_while(u8::is_ascii_digit).count();
    let to = parse_square(&board.variant, &rest[..digits]).ok_or("bad destination square")?;
    let suffix = &rest[digits..];
    let primed = suffix.len() == 2 && suffix.ends_with('\'');
    let body = if primed { &suffix[..1] } else { suffix };
    if body.len() > 1 || body.bytes().any(|c| !c.is_ascii_alphabetic()) {
        return Err("not a move");
    }
    let letter = (!body.is_empty()).then(|| suffix.to_ascii_lowercase());
    let letter = letter.as_deref();
    let candidates: Vec<Move> =
        board.pos.legal_moves().into_iter().filter(|m| m.from() == from && m.to() == to).collect();
    if candidates.is_empty() {
        return Err("not legal in this position");
    }
    let lower = |k: Kind| board.variant.spec(k).symbol.to_ascii_lowercase();
    let found = candidates.iter().copied().find(|&m| match (m.promotion(), letter) {
        (Some(p), Some(l)) => lower(p) == l,
        (Some(_), None) => false,
        (None, None) => true,
        (None, Some(l)) => evolution(board, m).is_some_and(|k| lower(k) == l),
    });
    found.ok_or(if letter.is_none() { "a promotion piece is required" } else { "that promotion is not allowed" })
}

/// The `variant` name XBoard uses for ours.
fn xboard_name(v: &str) -> &str {
    if v == "chess" {
        "normal"
    } else {
        v
    }
}

/// Thinking-output score: centipawns, mates as 100000 + N (-100000 - N).
fn score_value(s: Score) -> i64 {
    match s {
        Score::Cp(x) => i64::from(x),
        Score::Mate(n) if n > 0 => 100_000 + i64::from(n),
        Score::Mate(n) => -100_000 + i64::from(n),
    }
}

/// One thinking line: `ply score time(centiseconds) nodes pv`.
fn thinking_line(board: &Board, i: &Info) -> String {
    let mut b = board.clone();
    let mut pv = Vec::with_capacity(i.pv.len());
    for &m in &i.pv {
        pv.push(move_text(&b, m));
        b.push_unchecked(m);
    }
    format!("{} {} {} {} {}", i.depth, score_value(i.score), i.time_ms / 10, i.nodes, pv.join(" "))
}

/// The commands to send for `variant`: the board and piece definitions.
///
/// Piece images follow XBoard's table order (P N B R Q ... Lance ... K):
/// White's FIDE pieces are themselves; in Shocking Chess the Network uses
/// the Black images of the pieces it resembles (Core: king, Missile: rook,
/// Drone: bishop, Turret: pawn, Rover: knight, Automaton: the lance, a
/// promoting pawn-like image); in Burden the royal piece (K, H or G) uses
/// the king's image. Betza definitions are sent for the pieces whose moves
/// differ from XBoard's default for their image:
///
/// * Core `KpQ2`, Missile `RgR`, Drone `BgB` (the Robotic hops),
///   Turret `fmWfceFfmpR2fcpB2`, Automaton `fmFfcWfmpB2fcpR2`, Rover `FnN`;
/// * Maharajah `QN`, Gryphon `FyafsF`.
///
/// What XBoard cannot show: the shock rule (the engine ends the game with
/// `1-0 {Black is shocked}`), the Network's two royal Cores (XBoard treats
/// both as kings), evolution (Burden, Evolution Chess: XBoard must run
/// without legality testing; the engine's moves carry the evolved piece,
/// and the drag reports `lift`/`put` are answered so that the user's moves
/// do too), Burden's en passant onto a pawn that has already become a
/// knight, its stalemate and extinction wins, and its royal cycles.
pub fn setup(v: &Variant) -> Vec<String> {
    if v.name == "chess" {
        return Vec::new();
    }
    // The image slot of a kind: the FIDE ones and the pieces the Network's
    // resemble by name, a royal the king's, any other the next free slot.
    let mut table = [['.'; 19]; 2];
    let mut kings = ['.'; 2];
    let mut pieces = Vec::new();
    for color in Color::BOTH {
        for k in v.pieces[color].kinds() {
            let spec = v.spec(k);
            let letter = spec.symbol.chars().next().unwrap_or('X');
            let c = if color == Color::White { letter } else { letter.to_ascii_lowercase() };
            let named = match spec.name.as_str() {
                "pawn" | "turret" => Some(0),
                "knight" | "rover" => Some(1),
                "bishop" | "drone" => Some(2),
                "rook" | "missile" => Some(3),
                "queen" => Some(4),
                "automaton" => Some(18),
                _ => None,
            };
            if v.royal[color].has(k) {
                kings[color.idx()] = c;
            } else if let Some(i) = named.or_else(|| (5..18).find(|&i| table[color.idx()][i] == '.')) {
                table[color.idx()][i] = c;
            }
            let fide = ["king", "queen", "rook", "bishop", "knight", "pawn"];
            let betza = match (spec.name.as_str(), spec.robotic) {
                // XBoard's nearest pictures of the Robotic hops.
                ("core", true) => "KpQ2",
                ("missile", true) => "RgR",
                ("drone", true) => "BgB",
                ("turret", true) => "fmWfceFfmpR2fcpB2",
                ("automaton", true) => "fmFfcWfmpB2fcpR2",
                (name, _) if fide.contains(&name) && !spec.robotic => continue,
                _ => spec.betza.as_str(),
            };
            if betza.is_empty() {
                continue;
            }
            if !pieces.iter().any(|p: &String| p.starts_with(&format!("piece {}&", c.to_ascii_uppercase()))) {
                pieces.push(format!("piece {c}& {betza}"));
            }
        }
    }
    let used = (0..19).rev().find(|&i| table.iter().any(|t| t[i] != '.')).map_or(5, |i| (i + 1).max(5));
    let side = |c: usize| -> String { table[c][..used].iter().chain(&kings[c..=c]).collect() };
    let size = v.size;
    let mut lines =
        vec![format!("setup ({}{}) {}x{}+0_fairy {}", side(0), side(1), size.files, size.ranks, v.start_fen)];
    lines.extend(pieces);
    lines
}

impl<'scope, 'env: 'scope, W: Write + Send> XBoard<'scope, 'env, W> {
    fn new(shared: &'env Shared<W>) -> Self {
        XBoard {
            shared,
            search: None,
            analyzing: false,
            level: None,
            st_ms: None,
            sd: None,
            time_ms: None,
            threads: 1,
            overhead_ms: DEFAULT_OVERHEAD_MS,
            lifted: None,
        }
    }

    fn out(&self, text: &str) {
        self.shared.out.line(text);
    }

    fn error(&self, reason: &str, command: &str) {
        self.out(&format!("Error ({reason}): {command}"));
    }

    /// Stop the running search (`abort`: without playing its move) and
    /// wait for it.
    fn halt(&mut self, abort: bool) {
        if let Some(h) = self.search.take() {
            if abort {
                self.shared.abort.store(true, Ordering::SeqCst);
            }
            self.shared.stop.store(true, Ordering::SeqCst);
            h.thread().unpark();
            let _ = h.join();
        }
    }

    /// Handle one input line; false on `quit`.
    fn command(&mut self, scope: &'scope Scope<'scope, 'env>, line: &str) -> bool {
        let line = line.trim();
        let (cmd, arg) = line.split_once(char::is_whitespace).map_or((line, ""), |(c, a)| (c, a.trim()));
        let number = || arg.parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0);
        match cmd {
            "" => {}
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating" | "ics" | "hint" | "bk"
            | "hover" | "easy" | "hard" | "." | "draw" | "white" | "black" | "pause" | "resume" => {}
            "protover" => self.features(),
            "ping" => self.out(&format!("pong {arg}")),
            "post" | "nopost" => self.shared.post.store(cmd == "post", Ordering::Relaxed),
            "quit" => return false,
            "?" => self.halt(false),
            "new" => {
                self.halt(true);
                self.analyzing = false;
                self.sd = None;
                lock(&self.shared.engine).new_game();
                let mut g = lock(&self.shared.game);
                g.config.name = "chess".into();
                g.board = Board::new(Variant::chess(), None).expect("the chess start position is valid");
                g.engine_side = Some(Color::Black);
            }
            "variant" => {
                self.halt(true);
                self.variant(arg, line);
                self.restart_analysis(scope);
            }
            "force" => {
                self.halt(true);
                lock(&self.shared.game).engine_side = None;
            }
            "result" => {
                self.halt(true);
                self.analyzing = false;
                lock(&self.shared.game).engine_side = None;
            }
            "go" | "playother" => {
                self.halt(true);
                let ended = {
                    let mut g = lock(&self.shared.game);
                    let turn = g.board.pos.turn();
                    g.engine_side = Some(if cmd == "go" { turn } else { turn.flip() });
                    text::game_end(&g.board)
                };
                match ended {
                    // Nothing to play: say why, so the GUI does not wait.
                    Some(o) if cmd == "go" => self.out(&text::result_line(&o)),
                    _ => self.think(scope),
                }
            }
            "usermove" => {
                self.halt(true);
                self.usermove(arg);
                self.think(scope);
                self.restart_analysis(scope);
            }
            "undo" | "remove" => {
                self.halt(true);
                let n = if cmd == "undo" { 1 } else { 2 };
                let all = {
                    let mut g = lock(&self.shared.game);
                    (0..n).all(|_| g.board.pop().is_some())
                };
                if !all {
                    self.error("no move to take back", line);
                }
                self.restart_analysis(scope);
            }
            "setboard" => {
                self.halt(true);
                {
                    let mut g = lock(&self.shared.game);
                    match Board::new(g.board.variant.clone(), Some(arg)) {
                        Ok(b) => g.board = b,
                        Err(e) => self.out(&format!("tellusererror Illegal position: {e}")),
                    }
                }
                self.restart_analysis(scope);
            }
            "time" | "otim" => match number() {
                Some(cs) if cmd == "time" => self.time_ms = Some((cs * 10.0) as u64),
                Some(_) => {}
                None => self.error("bad number", line),
            },
            "level" => self.level(arg, line),
            "st" => match number() {
                Some(s) if s > 0.0 => self.st_ms = Some((s * 1000.0) as u64),
                _ => self.error("bad number", line),
            },
            "sd" => match arg.parse::<u32>() {
                Ok(d) if d > 0 => self.sd = Some(d.min(64)),
                _ => self.error("bad number", line),
            },
            "memory" | "cores" => match arg.parse::<usize>() {
                Ok(n) if n > 0 => {
                    self.halt(true);
                    if cmd == "memory" {
                        if let Err(e) = lock(&self.shared.engine).resize(n.min(MAX_HASH_MB)) {
                            self.error(&e.to_string(), line);
                        }
                    } else {
                        self.threads = n.min(MAX_THREADS);
                    }
                }
                _ => self.error("bad number", line),
            },
            "option" => {
                self.halt(true);
                self.option(arg, line);
            }
            "analyze" => {
                self.halt(true);
                self.analyzing = true;
                lock(&self.shared.game).engine_side = None;
                self.restart_analysis(scope);
            }
            "exit" => {
                self.halt(true);
                self.analyzing = false;
            }
            "lift" => self.lift(arg),
            "put" => self.put(arg),
            "perft" => match arg.parse::<u32>() {
                Ok(d) => {
                    self.halt(true);
                    self.perft(scope, d);
                }
                Err(_) => self.error("bad number", line),
            },
            "d" => self.out(&text::diagram(&lock(&self.shared.game).board)),
            _ => {
                // A bare move (without `usermove`) is accepted too.
                let is_move = parse_move(&lock(&self.shared.game).board, cmd).is_ok();
                if is_move && arg.is_empty() {
                    self.halt(true);
                    self.usermove(cmd);
                    self.think(scope);
                    self.restart_analysis(scope);
                } else {
                    self.error("unknown command", line);
                }
            }
        }
        true
    }

    fn features(&self) {
        let names = Variant::names();
        let variants: Vec<&str> = names.iter().map(|v| xboard_name(v)).collect();
        let mut lines = vec![format!(
            "feature setboard=1 usermove=1 time=1 draw=0 sigint=0 sigterm=0 reuse=1 analyze=1 \
             ping=1 playother=1 san=0 colors=0 name=0 memory=1 smp=1 highlight=1 \
             myname=\"{ENGINE_NAME}\" variants=\"{}\"",
            variants.join(",")
        )];
        lines.push(format!("feature option=\"Move Overhead -spin {DEFAULT_OVERHEAD_MS} 0 {MAX_OVERHEAD_MS}\""));
        for spec in options::BURDEN {
            let feature = match spec.kind {
                OptType::Combo(words) => {
                    let marked: Vec<String> = words
                        .iter()
                        .map(|w| if *w == spec.default { format!("*{w}") } else { w.to_string() })
                        .collect();
                    format!("{} -combo {}", spec.name, marked.join(" /// "))
                }
                OptType::Spin { min, max } => format!("{} -spin {} {min} {max}", spec.name, spec.default),
                OptType::Check => format!("{} -check {}", spec.name, u8::from(spec.default == "true")),
            };
            lines.push(format!("feature option=\"{feature}\""));
        }
        lines.push("feature done=1".into());
        self.out(&lines.join("\n"));
    }

    /// `variant NAME`: set it up at its start position and tell XBoard.
    fn variant(&mut self, arg: &str, line: &str) {
        let name = if arg == "normal" { "chess" } else { arg };
        let mut g = lock(&self.shared.game);
        let mut config = g.config.clone();
        if config.set_name(name).is_err() {
            drop(g);
            return self.error("unknown variant", line);
        }
        match config.build().and_then(|v| Board::new(v, None)) {
            Ok(b) => {
                g.config = config;
                g.board = b;
                let lines = setup(&g.board.variant);
                drop(g);
                if !lines.is_empty() {
                    self.out(&lines.join("\n"));
                }
            }
            Err(e) => {
                drop(g);
                self.out(&format!("tellusererror {e}"));
                self.error("bad variant options", line);
            }
        }
    }

    /// `option NAME=VALUE`.
    fn option(&mut self, arg: &str, line: &str) {
        let Some((name, value)) = arg.split_once('=') else { return self.error("expected NAME=VALUE", line) };
        let (name, value) = (name.trim(), value.trim());
        if name.eq_ignore_ascii_case("Move Overhead") {
            match value.parse::<u64>() {
                Ok(n) if n <= MAX_OVERHEAD_MS => self.overhead_ms = n,
                _ => self.error("bad value", line),
            }
            return;
        }
        let Some((index, _)) = options::find(name) else { return self.error("unknown option", line) };
        let mut g = lock(&self.shared.game);
        if let Err(e) = g.config.set(index, value) {
            drop(g);
            self.out(&format!("tellusererror {e}"));
            return self.error("bad value", line);
        }
        if g.config.name == "burden" {
            match g.config.build().and_then(|v| Board::new(v, None)) {
                Ok(b) => {
                    g.board = b;
                    let lines = setup(&g.board.variant);
                    drop(g);
                    self.out(&lines.join("\n"));
                }
                Err(e) => {
                    drop(g);
                    self.out(&format!("tellusererror {e} (the variant is unchanged)"));
                }
            }
        }
    }

    /// `level MPS BASE INC` with BASE in minutes or `min:sec`.
    fn level(&mut self, arg: &str, line: &str) {
        let parts: Vec<&str> = arg.split_whitespace().collect();
        let parsed = (|| {
            let [mps, base, inc] = parts.as_slice() else { return None };
            let moves: u32 = mps.parse().ok()?;
            let base_s = match base.split_once(':') {
                Some((m, s)) => m.parse::<f64>().ok()? * 60.0 + s.parse::<f64>().ok()?,
                None => base.parse::<f64>().ok()? * 60.0,
            };
            let inc_s: f64 = inc.parse().ok()?;
            (base_s.is_finite() && inc_s.is_finite() && base_s >= 0.0 && inc_s >= 0.0).then_some(Level {
                moves,
                base_ms: (base_s * 1000.0) as u64,
                inc_ms: (inc_s * 1000.0) as u64,
            })
        })();
        match parsed {
            Some(l) => {
                self.level = Some(l);
                self.st_ms = None;
            }
            None => self.error("expected level MPS BASE INC", line),
        }
    }

    /// Apply a move from XBoard; report the result when it ends the game.
    fn usermove(&mut self, text: &str) {
        let mut g = lock(&self.shared.game);
        if let Some(o) = text::game_end(&g.board) {
            drop(g);
            return self.out(&format!("Illegal move (the game is over: {}): {text}", text::result_line(&o)));
        }
        match parse_move(&g.board, text) {
            Ok(m) => {
                g.board.push_unchecked(m);
                if let Some(o) = text::game_end(&g.board) {
                    drop(g);
                    self.out(&text::result_line(&o));
                }
            }
            Err(reason) => {
                drop(g);
                self.out(&format!("Illegal move ({reason}): {text}"));
            }
        }
    }

    /// The limits for the engine's move from the time control.
    fn limits(&self, board: &Board) -> Limits {
        let mut limits = Limits { threads: self.threads, depth: self.sd, ..Limits::default() };
        if let Some(st) = self.st_ms {
            limits.movetime_ms = Some(st.saturating_sub(self.overhead_ms.min(st / 2)).max(1));
            return limits;
        }
        let level = self.level.unwrap_or(Level { moves: 0, base_ms: DEFAULT_BASE_MS, inc_ms: 0 });
        let turn = board.pos.turn();
        let done = board.history.iter().filter(|(p, _)| p.turn() == turn).count() as u32;
        let movestogo = (level.moves > 0).then(|| level.moves - done % level.moves);
        let clock = Clock { time_ms: self.time_ms.unwrap_or(level.base_ms), inc_ms: level.inc_ms, movestogo };
        let b = clock::budget(clock, self.overhead_ms);
        limits.soft_ms = Some(b.soft_ms);
        limits.movetime_ms = Some(b.hard_ms);
        limits
    }

    /// Start the engine's move when it is its turn and the game goes on.
    fn think(&mut self, scope: &'scope Scope<'scope, 'env>) {
        let g = lock(&self.shared.game);
        if self.analyzing || g.engine_side != Some(g.board.pos.turn()) || text::game_end(&g.board).is_some() {
            return;
        }
        let limits = self.limits(&g.board);
        let board = g.board.clone();
        drop(g);
        self.start(scope, board, limits, true);
    }

    /// In analysis mode, analyse the current position (again).
    fn restart_analysis(&mut self, scope: &'scope Scope<'scope, 'env>) {
        if !self.analyzing {
            return;
        }
        let board = lock(&self.shared.game).board.clone();
        if text::game_end(&board).is_none() {
            let limits = Limits { threads: self.threads, ..Limits::default() };
            self.start(scope, board, limits, false);
        }
    }

    /// Search `board` on the search thread; `play`: then make the move.
    fn start(&mut self, scope: &'scope Scope<'scope, 'env>, board: Board, limits: Limits, play: bool) {
        let shared = self.shared;
        shared.stop.store(false, Ordering::SeqCst);
        shared.abort.store(false, Ordering::SeqCst);
        let job = Job {
            pos: board.pos,
            history: board.history.iter().map(|(p, _)| p.key()).collect(),
            limits,
            root: Vec::new(),
        };
        self.spawn(scope, move || {
            let post = |i: &Info| {
                if shared.post.load(Ordering::Relaxed) || !play {
                    shared.out.line(&thinking_line(&board, i));
                }
            };
            let searched = catch_unwind(AssertUnwindSafe(|| {
                let mut engine = lock(&shared.engine);
                job::run(&mut engine, &job, &shared.stop, &mut |i| post(i))
            }));
            let best = match searched {
                Ok(r) => r.first().and_then(|r| r.best_move),
                Err(_) => {
                    shared.out.line("telluser error: the search failed; playing the first legal move");
                    board.pos.legal_moves().first().copied()
                }
            };
            if !play {
                // Analysis: stay until told to stop, as XBoard expects.
                while !shared.stop.load(Ordering::SeqCst) {
                    thread::park_timeout(Duration::from_millis(100));
                }
                return;
            }
            let mut g = lock(&shared.game);
            if shared.abort.load(Ordering::SeqCst) {
                return;
            }
            if let Some(m) = best {
                let text = move_text(&g.board, m);
                g.board.push_unchecked(m);
                shared.out.line(&format!("move {text}"));
            }
            if let Some(o) = text::game_end(&g.board) {
                shared.out.line(&text::result_line(&o));
            }
        });
    }

    fn perft(&mut self, scope: &'scope Scope<'scope, 'env>, depth: u32) {
        let shared = self.shared;
        let pos: AnyPosition = lock(&shared.game).board.pos;
        let threads = self.threads;
        shared.stop.store(false, Ordering::SeqCst);
        self.spawn(scope, move || {
            let text = match depth {
                0 => Ok("\nNodes searched: 1\n".to_string()),
                d => pos.divide(d, Some(threads), &shared.stop).map(|rows| format_divide(&rows)),
            };
            shared.out.line(&text.unwrap_or_else(|_| "telluser perft stopped".into()));
        });
    }

    fn spawn(&mut self, scope: &'scope Scope<'scope, 'env>, work: impl FnOnce() + Send + 'scope) {
        match thread::Builder::new().name("fairyforge-xboard".into()).stack_size(STACK_BYTES).spawn_scoped(scope, work)
        {
            Ok(h) => self.search = Some(h),
            Err(e) => self.out(&format!("tellusererror cannot start the search thread: {e}")),
        }
    }

    /// `lift SQ`: mark the piece's targets (`highlight` colour board):
    /// yellow quiet moves, red captures, blue moves whose piece evolves
    /// (XBoard then waits for `choice` at `put`).
    fn lift(&mut self, arg: &str) {
        let g = lock(&self.shared.game);
        let board = &g.board;
        let Some(from) = parse_square(&board.variant, arg) else {
            drop(g);
            return self.error("bad square", &format!("lift {arg}"));
        };
        self.lifted = Some(from);
        let size = board.variant.size;
        let mut marks = vec![None; size.squares()];
        for m in board.pos.legal_moves().into_iter().filter(|m| m.from() == from) {
            let mark = if evolution(board, m).is_some() {
                'B'
            } else if board.pos.piece_at(m.to()).is_some() {
                'R'
            } else {
                'Y'
            };
            marks[m.to()] = Some(mark);
        }
        let mut rows = Vec::new();
        for r in (0..size.ranks).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for f in 0..size.files {
                match marks[size.square(f, r)] {
                    Some(c) => {
                        if empty > 0 {
                            row += &empty.to_string();
                            empty = 0;
                        }
                        row.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row += &empty.to_string();
            }
            rows.push(row);
        }
        drop(g);
        self.out(&format!("highlight {}", rows.join("/")));
    }

    /// `put SQ`: for a move whose piece evolves, name what it becomes.
    fn put(&mut self, arg: &str) {
        let g = lock(&self.shared.game);
        let (Some(from), Some(to)) = (self.lifted, parse_square(&g.board.variant, arg.trim_end_matches(','))) else {
            return;
        };
        let evolved = g.board.pos.legal_moves().into_iter().find(|m| m.from() == from && m.to() == to);
        if let Some(k) = evolved.and_then(|m| evolution(&g.board, m)) {
            let symbol = g.board.variant.spec(k).symbol.to_ascii_lowercase();
            drop(g);
            self.out(&format!("choice {symbol}"));
        }
    }
}

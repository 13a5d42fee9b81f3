//! An in-process protocol session for the tests: the loop runs on its own
//! thread, reading what the test sends through a channel and writing its
//! lines into another, which the test reads with time limits.
#![allow(dead_code)]

use std::io::{BufReader, Read, Write};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Reads what the test sends; the end of the input when the sender is gone.
struct ChannelReader {
    rx: Receiver<Vec<u8>>,
    buf: Vec<u8>,
    pos: usize,
}

impl Read for ChannelReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.pos == self.buf.len() {
            match self.rx.recv() {
                Ok(b) => (self.buf, self.pos) = (b, 0),
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.buf.len() - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// Collects the loop's output into lines, each with the time it arrived.
struct ChannelWriter {
    tx: Sender<(Instant, String)>,
    partial: Vec<u8>,
}

impl Write for ChannelWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.partial.extend_from_slice(data);
        while let Some(i) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=i).collect();
            let text = String::from_utf8_lossy(&line[..i]).into_owned();
            let _ = self.tx.send((Instant::now(), text));
        }
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The input and output ends a protocol loop runs on.
type Input = BufReader<Box<dyn Read + Send>>;
type Output = Box<dyn Write + Send>;

/// A running protocol loop.
pub struct Session {
    tx: Option<Sender<Vec<u8>>>,
    rx: Receiver<(Instant, String)>,
    handle: Option<JoinHandle<()>>,
    /// Every line received so far, for failure messages.
    pub log: Vec<String>,
}

/// The default wait for an answer.
pub const WAIT: Duration = Duration::from_secs(20);

impl Session {
    /// Start `run` (`run_uci` or `run_xboard`) on its own thread.
    pub fn start(run: fn(Input, Output)) -> Session {
        let (in_tx, in_rx) = channel();
        let (out_tx, out_rx) = channel();
        let reader: Box<dyn Read + Send> = Box::new(ChannelReader { rx: in_rx, buf: Vec::new(), pos: 0 });
        let writer: Box<dyn Write + Send> = Box::new(ChannelWriter { tx: out_tx, partial: Vec::new() });
        let handle = std::thread::spawn(move || run(BufReader::new(reader), writer));
        Session { tx: Some(in_tx), rx: out_rx, handle: Some(handle), log: Vec::new() }
    }

    /// A UCI session.
    pub fn uci() -> Session {
        Session::start(fairyforge::run_uci)
    }

    /// An XBoard session.
    pub fn xboard() -> Session {
        Session::start(fairyforge::run_xboard)
    }

    /// Send raw bytes.
    pub fn send_bytes(&self, bytes: &[u8]) {
        self.tx.as_ref().expect("input open").send(bytes.to_vec()).expect("the loop is running");
    }

    /// Send one line; returns when it was sent.
    pub fn send(&self, line: &str) -> Instant {
        self.send_bytes(format!("{line}\n").as_bytes());
        Instant::now()
    }

    /// Lines up to and including the first for which `done` holds, with the
    /// arrival time of that one; panics after `wait`.
    pub fn until_timed(&mut self, wait: Duration, done: impl Fn(&str) -> bool) -> (Vec<String>, Instant) {
        let deadline = Instant::now() + wait;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok((t, line)) => {
                    self.log.push(line.clone());
                    let stop = done(&line);
                    lines.push(line);
                    if stop {
                        return (lines, t);
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no expected line within {wait:?}; got {lines:#?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("the loop ended; got {lines:#?}"),
            }
        }
    }

    /// Lines up to and including the first for which `done` holds.
    pub fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.until_timed(WAIT, done).0
    }

    /// Lines up to and including the first starting with `prefix`.
    pub fn until_prefix(&mut self, prefix: &str) -> Vec<String> {
        self.until(|l| l.starts_with(prefix))
    }

    /// The last line starting with `prefix`, after waiting for it.
    pub fn line(&mut self, prefix: &str) -> String {
        self.until_prefix(prefix).pop().expect("a line")
    }

    /// Whatever arrives within `wait`.
    pub fn drain(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut lines = Vec::new();
        while let Ok((_, line)) = self.rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            self.log.push(line.clone());
            lines.push(line);
        }
        lines
    }

    /// Close the input and check that the loop ends within `wait`.
    pub fn close(mut self, wait: Duration) {
        self.tx = None;
        let h = self.handle.take().expect("running");
        let start = Instant::now();
        while !h.is_finished() {
            assert!(start.elapsed() < wait, "the loop did not end within {wait:?} of the end of its input");
            std::thread::sleep(Duration::from_millis(2));
        }
        h.join().expect("the loop did not panic");
    }
}

/// A seeded random walk of up to `plies` legal moves from the start of
/// `variant`, as coordinate text; it avoids moves that end the game (no
/// legal reply, or a shock) while it can.
pub fn random_game(variant: &fairyforge::Variant, plies: usize, seed: u64) -> Vec<String> {
    let mut board = fairyforge::Board::new(variant.clone(), None).expect("start position");
    let mut state = seed | 1;
    let mut moves = Vec::new();
    for _ in 0..plies {
        if board.pos.is_shocked() {
            break;
        }
        let legal = board.pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let first = (state % legal.len() as u64) as usize;
        let goes_on = |i: &usize| {
            let after = board.pos.after(legal[*i]);
            !after.is_shocked() && after.has_legal_move()
        };
        let pick = (first..legal.len()).chain(0..first).find(goes_on).unwrap_or(first);
        let m = legal[pick];
        moves.push(board.pos.uci(m));
        board.push_unchecked(m);
    }
    moves
}

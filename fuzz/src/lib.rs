//! What the fuzz targets share: the variants and positions they try, and
//! the shaping of protocol input. Everything goes through the engine's
//! public API, as a user's program would.

use fairyforge::{Board, Variant};
use std::borrow::Cow;
use std::sync::LazyLock;

/// Burden option sets that change what the code paths depend on: board
/// size (down to 4x4; 12x10 runs on 128-bit boards), royal kind, cycle,
/// the cycle's check rule, the army and the preset.
const BURDEN_SETS: [&[(&str, &str)]; 8] = [
    &[],
    &[("royal", "maharajah"), ("cycle", "knight")],
    &[("royal", "gryphon"), ("cycle", "pawn"), ("royal_may_move_into_check", "true")],
    &[("preset", "wittman")],
    &[("files", "12"), ("middle_gap", "2")],
    &[("files", "5"), ("pawn_ranks", "1"), ("middle_gap", "2")],
    &[("files", "4"), ("pawn_ranks", "1"), ("back_gap", "1")],
    &[("army", "knights")],
];

/// Every built-in variant, and Burden with each of [`BURDEN_SETS`].
pub static VARIANTS: LazyLock<Vec<Variant>> = LazyLock::new(|| {
    let mut all: Vec<Variant> = ["chess", "shocking", "evolution"]
        .iter()
        .map(|name| Variant::new(name, &[]).expect("a built-in variant"))
        .collect();
    for set in BURDEN_SETS {
        let pairs: Vec<(String, String)> = set.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        all.push(Variant::new("burden", &pairs).expect("a valid Burden option set"));
    }
    all
});

/// Positions beyond the start positions where move notation has special
/// cases: castling, en passant (Shocking Turrets and Burden's evolved
/// double-stepper too), promotion with a choice, evolution.
const EXTRA_FENS: [(&str, &str); 8] = [
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("chess", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
    ("chess", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
    ("shocking", "4c3/8/8/8/3tP2m/8/8/4K3 b - e3 0 1"),
    ("shocking", "1c1m2c1/8/d7/5a1v/1t6/8/PPPPPPPP/R3K2R w KQ - 0 1"),
    ("shocking", "2cm1acd/1aa3Q1/v7/2tPa3/4P2P/P1N5/5K2/3R4 b - - 0 24"),
    ("evolution", "1rRB2k/3Q1r1/1B5/5nn/NR2q1b/KN2qn1 w - - 4 21"),
    ("burden", "3k4/pp3ppp/8/8/3pNp2/8/PPPP1PPP/3K4 b - e3 0 1"),
];

/// A board at the start of every variant of [`VARIANTS`] and at each of
/// [`EXTRA_FENS`] (in the variant's default options).
pub static BOARDS: LazyLock<Vec<Board>> = LazyLock::new(|| {
    let mut boards: Vec<Board> =
        VARIANTS.iter().map(|v| Board::new(v.clone(), None).expect("a start position")).collect();
    for (name, fen) in EXTRA_FENS {
        let variant = Variant::new(name, &[]).expect("a built-in variant");
        boards.push(Board::new(variant, Some(fen)).expect("a valid FEN"));
    }
    boards
});

/// The board an input picks with its first byte (modulo the number of
/// [`BOARDS`]), and the rest of the input as text (not UTF-8: replaced).
pub fn board_and_text(data: &[u8]) -> Option<(&'static Board, Cow<'_, str>)> {
    let (&pick, rest) = data.split_first()?;
    Some((&BOARDS[usize::from(pick) % BOARDS.len()], String::from_utf8_lossy(rest)))
}

/// Largest protocol input read, so that one input stays quick.
pub const MAX_PROTOCOL_BYTES: usize = 4096;

/// Largest table size a protocol input may ask for, in MiB. The engine
/// honours up to 4 GiB (`Hash`, `memory`); tables that size per input would
/// exhaust the fuzzer's memory limit and measure only the allocator.
const MAX_FUZZ_HASH_MB: u64 = 64;

/// The input for a protocol loop: at most [`MAX_PROTOCOL_BYTES`], without
/// the lines that ask for a table above [`MAX_FUZZ_HASH_MB`] (a UCI line
/// naming `hash` or an XBoard `memory` with a larger number in it). Every
/// other line is kept as it is, malformed ones included.
pub fn protocol_input(data: &[u8]) -> Vec<u8> {
    let data = &data[..data.len().min(MAX_PROTOCOL_BYTES)];
    let mut kept = Vec::with_capacity(data.len());
    for line in data.split_inclusive(|&b| b == b'\n') {
        let text = String::from_utf8_lossy(line).to_ascii_lowercase();
        let sizes_table = text.contains("hash") || text.trim_start().starts_with("memory");
        let large = text
            .split(|c: char| !c.is_ascii_digit())
            .any(|digits| !digits.is_empty() && digits.parse::<u64>().map_or(true, |n| n > MAX_FUZZ_HASH_MB));
        if !(sizes_table && large) {
            kept.extend_from_slice(line);
        }
    }
    kept
}

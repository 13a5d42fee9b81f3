//! Data-driven perft: every vector in `tests/data/perft/*.jsonl` up to a
//! node budget (the deeper ones run with `--ignored`, as the slow suite).

use fairyforge::{Board, Variant};
use serde_json::Value;

/// Largest expected count checked in the default run.
const DEFAULT_BUDGET: u64 = 5_000_000;

fn vectors(file: &str) -> Vec<Value> {
    let path = format!("{}/../../tests/data/perft/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn board(v: &Value) -> Board {
    let options: Vec<(String, String)> = v["options"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, val)| (k.clone(), val.as_str().map_or_else(|| val.to_string(), str::to_string)))
        .collect();
    let variant = Variant::new(v["variant"].as_str().unwrap(), &options).unwrap();
    Board::new(variant, v["fen"].as_str()).unwrap()
}

fn check(file: &str, min: u64, max: u64) -> usize {
    let mut checked = 0;
    for v in vectors(file) {
        let b = board(&v);
        for (d, n) in v["perft"].as_object().unwrap() {
            let n = n.as_u64().unwrap();
            if n < min || n > max {
                continue;
            }
            let got = b.pos.perft(d.parse().unwrap());
            assert_eq!(got, n, "{file} {} {:?} depth {d}", v["fen"], v["options"]);
            checked += 1;
        }
    }
    checked
}

#[test]
fn chess() {
    assert!(check("chess.jsonl", 0, DEFAULT_BUDGET) > 0);
}
#[test]
fn shocking() {
    assert!(check("shocking.jsonl", 0, DEFAULT_BUDGET) > 0);
}
#[test]
fn burden() {
    assert!(check("burden.jsonl", 0, DEFAULT_BUDGET) > 0);
}
#[test]
fn evolution() {
    assert!(check("evolution.jsonl", 0, DEFAULT_BUDGET) > 0);
}
/// The shipped example variants (Capablanca, Gothic, Los Alamos, Almost,
/// Chancellor and Grasshopper Chess), counted by Fairy-Stockfish.
#[test]
fn examples() {
    assert!(check("examples.jsonl", 0, DEFAULT_BUDGET) > 20);
}
#[test]
#[ignore = "slow: the deepest vectors"]
fn deep() {
    let files = ["chess.jsonl", "shocking.jsonl", "burden.jsonl", "evolution.jsonl", "examples.jsonl"];
    let checked: usize = files.iter().map(|f| check(f, DEFAULT_BUDGET + 1, u64::MAX)).sum();
    assert!(checked > 0);
}

#[test]
fn perft_stops_when_cancelled_and_threads_agree() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let b = Board::new(Variant::new("shocking", &[]).unwrap(), None).unwrap();
    let stop = AtomicBool::new(false);
    assert_eq!(b.pos.perft_parallel(4, Some(2), &stop), Ok(170076));
    assert_eq!(b.pos.perft_parallel(4, Some(1), &stop), Ok(170076));
    let rows = b.pos.divide(3, None, &stop).unwrap();
    assert_eq!(rows.len(), 20);
    assert_eq!(rows.iter().map(|r| r.1).sum::<u64>(), 8010);
    stop.store(true, Ordering::Relaxed);
    assert!(b.pos.perft_parallel(6, Some(2), &stop).is_err());
    assert!(b.pos.divide(5, Some(1), &stop).is_err());
}

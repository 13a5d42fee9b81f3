//! Fixed-depth single-threaded searches of `variant|fen` lines read from
//! stdin, printing the total node count: run under callgrind for
//! instructions per node over many positions, e.g. `search_fens 8 chess <
//! benches/search_positions.txt` (160 positions, 40 per variant, from
//! seeded random play).
use fairyforge::search;
use fairyforge::{AnyPosition, Limits, Variant};
use std::io::BufRead;
use std::sync::atomic::AtomicBool;

fn main() {
    let depth: u32 = std::env::args().nth(1).map_or(6, |a| a.parse().unwrap());
    let only = std::env::args().nth(2);
    let stop = AtomicBool::new(false);
    let mut total = 0;
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let (variant, fen) = line.split_once('|').unwrap();
        if only.as_deref().is_some_and(|o| o != variant) {
            continue;
        }
        let v = Variant::new(variant, &[]).unwrap();
        let pos = AnyPosition::new(&v, Some(fen)).unwrap();
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        total += search(&pos, &[], &limits, &stop, &mut |_| {}).expect("16 MiB table")[0].nodes;
    }
    println!("total {total}");
}

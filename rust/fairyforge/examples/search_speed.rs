//! Search speed: fixed-depth single-threaded searches of a few positions per
//! variant, printing nodes, time and nodes per second (quiescence nodes
//! included). Usage: `search_speed [depth-offset] [variant] [case index]`.
//!
//! Besides wall-clock time it prints this thread's CPU time (Linux
//! `/proc/thread-self/stat`), which stays meaningful on a busy machine.

use fairyforge::search;
use fairyforge::{AnyPosition, Limits, Variant};
use std::sync::atomic::AtomicBool;

const CASES: &[(&str, &str, u32)] = &[
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 10),
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 8),
    ("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 14),
    ("shocking", "dca2acd/mva2avm/ttt2ttt/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", 8),
    ("burden", "8/pppppppp/pppppppp/pppppppp/PPPPPPPP/PPPPPPPP/PPPPPPPP/8 w - - 0 1", 7),
    ("evolution", "NNN1nnk/NNN1nnn/NNN1nnn/NNN1nnn/NNN1nnn/KNN1nnn w - - 0 1", 7),
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let offset: i32 = args.get(1).map_or(0, |a| a.parse().unwrap());
    let only = args.get(2);
    let stop = AtomicBool::new(false);
    let (mut total_nodes, mut total_ms, mut total_cpu) = (0u64, 0u64, 0u64);
    let case: Option<usize> = args.get(3).map(|a| a.parse().unwrap());
    for (i, &(variant, fen, depth)) in CASES.iter().enumerate() {
        if only.is_some_and(|o| o != variant) || case.is_some_and(|c| c != i) {
            continue;
        }
        let v = Variant::new(variant, &[]).unwrap();
        let pos = AnyPosition::new(&v, Some(fen)).unwrap();
        let depth = (depth as i32 + offset).max(1) as u32;
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let t = std::time::Instant::now();
        let cpu0 = cpu_ms();
        let r = search(&pos, &[], &limits, &stop, &mut |_| {}).expect("16 MiB table");
        let ms = t.elapsed().as_millis() as u64;
        let cpu = cpu_ms() - cpu0;
        let r = &r[0];
        let best = r.best_move.map_or("-".into(), |m| pos.uci(m));
        println!(
            "{variant:10} depth {depth:2} best {best:6} score {:?} nodes {:10} wall {:6} ms {:5.2} Mnps, cpu {:6} ms {:5.2} Mnps",
            r.score,
            r.nodes,
            ms,
            r.nodes as f64 / ms.max(1) as f64 / 1000.0,
            cpu,
            r.nodes as f64 / cpu.max(1) as f64 / 1000.0
        );
        total_nodes += r.nodes;
        total_ms += ms;
        total_cpu += cpu;
    }
    println!(
        "total {total_nodes} nodes, wall {total_ms} ms {:.2} Mnps, cpu {total_cpu} ms {:.2} Mnps",
        total_nodes as f64 / total_ms.max(1) as f64 / 1000.0,
        total_nodes as f64 / total_cpu.max(1) as f64 / 1000.0
    );
}

/// CPU time of this thread in milliseconds (0 where unavailable).
fn cpu_ms() -> u64 {
    let Ok(stat) = std::fs::read_to_string("/proc/thread-self/stat") else { return 0 };
    // Fields after the parenthesised command name; utime and stime are the
    // 14th and 15th fields, in clock ticks (100 per second on Linux).
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<u64> = rest.split_whitespace().skip(11).take(2).filter_map(|x| x.parse().ok()).collect();
    f.iter().sum::<u64>() * 10
}

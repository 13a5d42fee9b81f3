use fairyforge::{Board, Variant};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let v = Variant::new(&args[1], &[]).unwrap();
    let d: u32 = args[2].parse().unwrap();
    let b = Board::new(v, None).unwrap();
    let t = std::time::Instant::now();
    let n = b.pos.perft(d);
    let s = t.elapsed().as_secs_f64();
    println!("{n} nodes {s:.2}s {:.1} Mnps", n as f64 / s / 1e6);
}

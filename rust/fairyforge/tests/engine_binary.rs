//! The standalone `fairyforge-engine` binary speaks both protocols on its
//! standard streams and refuses an unknown one.

use std::io::Write;
use std::process::{Command, Stdio};

fn session(args: &[&str], input: &str) -> (String, Option<i32>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fairyforge-engine"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the engine");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
    let out = child.wait_with_output().expect("run");
    (String::from_utf8_lossy(&out.stdout).into_owned(), out.status.code())
}

#[test]
fn uci_and_xboard_sessions() {
    let (out, code) = session(&[], "uci\nisready\nposition startpos moves e2e4\ngo depth 3\nisready\n");
    assert_eq!(code, Some(0));
    assert!(out.contains("uciok") && out.contains("readyok"), "{out}");
    let best = out.lines().find_map(|l| l.strip_prefix("bestmove ")).expect("a bestmove");
    let (mv, _) = best.split_once(' ').unwrap_or((best, ""));
    let v = fairyforge::Variant::new("chess", &[]).unwrap();
    let start = fairyforge::AnyPosition::new(&v, None).unwrap();
    let after = start.after(start.parse_uci("e2e4").unwrap());
    assert!(after.parse_uci(mv).is_ok(), "{mv}");
    let (out, code) = session(&["xboard"], "xboard\nprotover 2\nping 7\nquit\n");
    assert_eq!(code, Some(0));
    assert!(out.contains("feature ") && out.contains("pong 7"), "{out}");
    let (_, code) = session(&["gtp"], "");
    assert_eq!(code, Some(2));
}

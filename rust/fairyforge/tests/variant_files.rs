//! Variant definitions from TOML: the shipped files round-trip, derived
//! definitions inherit, bad definitions are refused naming file, line and
//! key, and a variant may have 32 kinds.

use fairyforge::{Board, ErrorKind, Variant};

fn load(text: &str) -> Result<Variant, fairyforge::Error> {
    Variant::from_toml(text, "test.toml", &fairyforge::Registry)
}

fn refused(text: &str, field_part: &str, message_part: &str) {
    let e = load(text).expect_err(text);
    assert_eq!(e.kind, ErrorKind::Definition, "{e}");
    assert!(e.field.contains(field_part), "field {:?} lacks {field_part:?} ({e})", e.field);
    assert!(e.message.contains(message_part), "message {:?} lacks {message_part:?}", e.message);
}

#[test]
fn shipped_definitions_round_trip() {
    for name in Variant::names() {
        let v = Variant::new(&name, &[]).unwrap();
        let text = v.to_toml();
        let back = load(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        assert_eq!(back, v, "{name}");
        assert_eq!(back.to_toml(), text, "{name}");
    }
    let opts =
        [("royal".to_string(), "gryphon".to_string()), ("files".into(), "6".into()), ("pawn_ranks".into(), "2".into())];
    let v = Variant::new("burden", &opts).unwrap();
    let mut back = load(&v.to_toml()).unwrap();
    back.options = v.options.clone();
    assert_eq!(back, v);
}

#[test]
fn a_derived_variant_equals_the_options_it_spells_out() {
    let file = Variant::new("burden-6x6-knights", &[]).unwrap();
    let opts: Vec<(String, String)> = [("files", "6"), ("pawn_ranks", "2"), ("army", "knights")]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let options = Variant::new("burden", &opts).unwrap();
    let (a, b) = (Board::new(file, None).unwrap(), Board::new(options, None).unwrap());
    assert_eq!(a.pos.fen(), b.pos.fen());
    for d in 1..=3 {
        assert_eq!(a.pos.perft(d), b.pos.perft(d), "depth {d}");
    }
    assert_eq!(a.pos.perft(3), 83_636);
}

#[test]
fn inheritance_overrides_pieces_and_rules() {
    let v = load(
        r#"
name = "no-castling-knightriders"
base = "chess"
castling = "none"
start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
[piece.knight]
betza = "NN"
"#,
    )
    .unwrap();
    let b = Board::new(v, None).unwrap();
    // Nightriders: from b1 to a3, c3, d5 and takes on e7; from g1 likewise.
    assert_eq!(b.pos.legal_moves().len(), 24);
    let b = Board::new(b.variant.clone(), Some("4k3/8/8/8/8/8/8/N3K3 w - - 0 1")).unwrap();
    let mut from_a1: Vec<String> =
        b.pos.legal_moves().iter().filter(|m| m.from() == 0).map(|&m| b.pos.uci(m)).collect();
    from_a1.sort();
    assert_eq!(from_a1, ["a1b3", "a1c2", "a1c5", "a1d7", "a1e3", "a1g4"]);
}

#[test]
fn thirty_two_kinds() {
    // A king and 31 leapers, some with primed symbols, on a 12x10 board.
    let letters: Vec<String> = ('A'..='Z')
        .filter(|&c| c != 'K')
        .map(|c| c.to_string())
        .chain(["A'", "B'", "C'", "D'", "E'", "F'"].map(String::from))
        .collect();
    let mut kinds = vec!["\"king\"".to_string()];
    let mut pieces = String::new();
    for (i, sym) in letters.iter().enumerate() {
        kinds.push(format!("\"p{i}\""));
        let betza = ["W", "F", "D", "N", "A", "H", "C", "Z", "G"][i % 9];
        pieces += &format!("[piece.p{i}]\nsymbol = \"{sym}\"\nbetza = \"{betza}\"\nvalue = 300\n");
    }
    assert_eq!(kinds.len(), 32);
    let rank = |chunk: &[String]| -> String {
        let s: String = chunk.concat();
        if chunk.len() < 12 {
            format!("{s}{}", 12 - chunk.len())
        } else {
            s
        }
    };
    let fen = format!(
        "11k/12/12/12/12/12/{}/{}/{}/K11 w - - 0 1",
        rank(&letters[24..]),
        rank(&letters[12..24]),
        rank(&letters[..12])
    );
    let text = format!(
        "name = \"many\"\nfiles = 12\nranks = 10\nstart = \"{fen}\"\nroyal = [\"king\"]\nkinds = [\"king\"]\n[white]\nkinds = [{}]\n{pieces}",
        kinds.join(", ")
    );
    let v = load(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(v.all_kinds().count(), 32);
    let b = Board::new(v, None).unwrap();
    assert_eq!(b.pos.fen(), fen);
    assert!(b.pos.legal_moves().len() > 31);
    let more = text.replace("kinds = [\"king\", \"p0\"", "kinds = [\"king\", \"extra\", \"p0\"");
    refused(&more, "kinds", "at most 32");
}

#[test]
fn an_8x8_variant_with_more_kinds_than_the_fast_path_holds() {
    // Twenty kinds on 8x8: beyond the 16 of the u64 path, so it runs wide.
    let mut kinds = vec!["\"king\"".to_string()];
    let mut pieces = String::new();
    let mut row = String::new();
    for (i, sym) in ('A'..='T').filter(|&c| c != 'K').take(19).enumerate() {
        kinds.push(format!("\"q{i}\""));
        pieces += &format!("[piece.q{i}]\nsymbol = \"{sym}\"\nbetza = \"W\"\n");
        row.push(sym);
    }
    let fen = format!("7k/8/8/8/8/{}/{}/{}4K w - - 0 1", &row[..8], &row[8..16], &row[16..]);
    let text = format!(
        "name = \"wide\"\nfiles = 8\nranks = 8\nstart = \"{fen}\"\nroyal = [\"king\"]\nkinds = [\"king\"]\n[white]\nkinds = [{}]\n{pieces}",
        kinds.join(", ")
    );
    let v = load(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v.all_kinds().count(), 20);
    let b = Board::new(v, None).unwrap();
    assert!(matches!(b.pos, fairyforge::AnyPosition::Large(_)));
    assert_eq!(b.pos.fen(), fen);
    // Wazirs: the third rank's eight step up, the second rank's d..g step
    // down, c1 steps to d1, and the king goes to g1: 8 + 4 + 1 + 1.
    assert_eq!(b.pos.perft(1), 14);
    assert!(b.pos.perft(2) > 0);
}

#[test]
fn bad_definitions_name_file_line_and_key() {
    let base = "name = \"x\"\nfiles = 8\nranks = 8\nstart = \"3qk3/8/8/8/8/8/8/3QK3 w - - 0 1\"\nkinds = [\"king\", \"queen\"]\nroyal = [\"king\"]\n";
    assert!(load(base).is_ok());
    refused("name = \"x\"\nfiles = [", "test.toml:2", "not valid TOML");
    refused(&base.replace("royal = [\"king\"]\n", ""), "royal", "no royal kind");
    refused(&base.replace("\"queen\"]", "\"queen\", \"rook\"]"), "test.toml:5: kinds", "never placed");
    refused(
        &format!("{base}promoters = [\"queen\"]\npromotion = [\"dragon\"]\n"),
        "promotion",
        "not one of the variant's kinds",
    );
    refused(&format!("{base}colour = 1\n"), "colour", "unknown key");
    refused(&format!("{base}[piece.queen]\nbetza = \"pQ\"\n"), "piece.queen.betza", "'p'");
    refused(&format!("{base}[piece.queen]\nbetza = \"gQ\"\nrobotic = true\n"), "piece.queen.robotic", "Robotic");
    refused(&format!("{base}[piece.queen]\nsymbol = \"K\"\n"), "symbol", "also the symbol");
    refused(&base.replace("files = 8", "files = 13"), "test.toml:2: files", "outside 4..12");
    refused(&base.replace("\"queen\"]", "\"dragon\"]"), "piece.dragon", "neither in the catalogue");
    refused(&format!("base = \"nowhere\"\n{base}"), "base", "unknown variant");
    refused(&base.replace("3qk3/8", "3qk3/9"), "start", "invalid FEN");
    refused(&format!("{base}name2 = 1\n"), "name2", "unknown key");
}

#[test]
fn explicit_lines_equal_betza() {
    let betza = load(&format!("{}[piece.queen]\nbetza = \"fmWfcF\"\n", "name = \"a\"\nfiles = 8\nranks = 8\nstart = \"3qk3/8/8/8/8/8/3Q4/4K3 w - - 0 1\"\nkinds = [\"king\", \"queen\"]\nroyal = [\"king\"]\n")).unwrap();
    let lines = load(&format!(
        "{}[piece.queen]\nlines = [{{ step = [0, 1], mode = \"move\", symmetry = \"none\" }}, {{ step = [1, 1], mode = \"capture\", symmetry = \"mirror\" }}]\n",
        "name = \"a\"\nfiles = 8\nranks = 8\nstart = \"3qk3/8/8/8/8/8/3Q4/4K3 w - - 0 1\"\nkinds = [\"king\", \"queen\"]\nroyal = [\"king\"]\n"
    ))
    .unwrap();
    assert_eq!(betza.spec(fairyforge::Kind::Queen).lines, lines.spec(fairyforge::Kind::Queen).lines);
}

#[test]
fn promotion_rank_move_rule_and_repetition_are_data() {
    let text = r#"
name = "short"
base = "losalamos"
promotion_rank = 5
move_rule = 10
repetition = 2
start = "2k3/5p/P5/6/6/2K3 w - - 0 1"
"#;
    let v = load(text).unwrap();
    assert_eq!((v.promotion_rank.0, v.move_rule, v.repetitions), ([4, 1], 20, 2));
    let mut b = Board::new(v.clone(), None).unwrap();
    // The pawn on a4 promotes on the fifth rank: Q, R or N.
    let promos: Vec<String> =
        b.pos.legal_moves().iter().filter(|m| m.promotion().is_some()).map(|&m| b.pos.uci(m)).collect();
    assert_eq!(promos, ["a4a5q", "a4a5r", "a4a5n"]);
    // Kings shuffle: the position repeats after four plies, so a draw can
    // be claimed at the second occurrence, and the game ends at the fourth.
    for m in ["c1d1", "c6d6", "d1c1", "d6c6"] {
        let mv = b.pos.parse_uci(m).unwrap();
        b.push(mv).unwrap();
    }
    assert!(b.can_claim_threefold_repetition());
    assert!(b.outcome(false).is_none());
    // Twenty plies without a capture or pawn move may be claimed.
    let b = Board::new(v, Some("2k3/5p/P5/6/6/2K3 w - - 20 11")).unwrap();
    assert!(b.can_claim_fifty_moves());
    assert_eq!(b.outcome(false).map(|o| o.termination), None);
    let back = load(&b.variant.to_toml()).unwrap();
    assert_eq!(back, b.variant);
}

//! The XBoard loop on arbitrary input (see `protocol_input`): it must
//! answer every line without a panic, in the reader or the search thread,
//! and end at the end of the input, which also stops a search or analysis.
#![no_main]

use fairyforge::run_xboard;
use fairyforge_fuzz::protocol_input;
use libfuzzer_sys::fuzz_target;
use std::io::{sink, Cursor};

fuzz_target!(|data: &[u8]| run_xboard(Cursor::new(protocol_input(data)), sink()));

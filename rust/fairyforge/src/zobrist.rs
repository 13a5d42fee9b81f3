//! Zobrist hashing keys: one per (piece code, square), side to move,
//! castling-rights value and en-passant square. Generated at compile time
//! from a fixed seed, so keys are identical across runs and builds.

use crate::geometry::{MAX_SQUARES, NO_SQ};
use crate::piece::NKINDS;

const PIECE_KEYS: usize = 2 * NKINDS * MAX_SQUARES;
const TOTAL: usize = PIECE_KEYS + 1 + 16 + MAX_SQUARES;

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

static KEYS: [u64; TOTAL] = {
    let mut k = [0u64; TOTAL];
    let mut i = 0;
    while i < TOTAL {
        k[i] = splitmix(0xf00d_cafe_0000_0000 ^ i as u64);
        i += 1;
    }
    k
};

/// Key of a piece code on a square.
#[inline(always)]
pub fn piece(code: u8, sq: usize) -> u64 {
    KEYS[code as usize * MAX_SQUARES + sq]
}

/// Key toggled when the side to move changes.
#[inline(always)]
pub fn side() -> u64 {
    KEYS[PIECE_KEYS]
}

/// Key of a castling-rights value (0 for no rights).
#[inline(always)]
pub fn castling(rights: u8) -> u64 {
    if rights == 0 {
        0
    } else {
        KEYS[PIECE_KEYS + 1 + (rights & 15) as usize]
    }
}

/// Key of an en-passant square (0 for none).
#[inline(always)]
pub fn ep(sq: u8) -> u64 {
    if sq == NO_SQ {
        0
    } else {
        KEYS[PIECE_KEYS + 17 + sq as usize]
    }
}

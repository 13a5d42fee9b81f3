//! Vocabulary shared by every floor: the score scale and the depth bound
//! of the search, so that the table, the evaluation and the search agree
//! without importing each other.

/// Score of a win at the root; a win at ply `p` scores `MATE - p`.
pub const MATE: i32 = 32_000;
/// Deepest ply the search reaches (main search plus quiescence).
pub const MAX_PLY: usize = 128;
/// Scores at least this large (in absolute value) are game ends in the
/// tree, counted in plies from the root.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

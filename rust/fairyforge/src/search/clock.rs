//! Time management for real clocks: how long to think on one move, given
//! the time left, the increment and the moves to the next time control.
//!
//! # The rule
//!
//! With `overhead` the `Move Overhead` option (the time lost per move
//! between the GUI's clock and the engine: process switches, pipes, the
//! last node-count check) and `mtg` the moves to go (`movestogo` clamped
//! to 1..=50, or [`HORIZON`] = 30 in sudden death and increment games):
//!
//! * **reserve**: `overhead * (1 + min(mtg, 10))` stays on the clock for
//!   the overheads of the coming moves; `left = time - reserve` (at least
//!   0) is what may be planned;
//! * **optimum** (soft limit, no new iteration after it):
//!   `left / mtg + 3/4 * increment`;
//! * **maximum** (hard limit, the search stops): `5 * optimum`, but never
//!   more than [`HARD_SHARE`] = 40% of `time - overhead` ([`LAST_MOVE_SHARE`]
//!   = 70% when the time control ends after this move, `movestogo 1`);
//! * the optimum never exceeds the maximum, and both are at least 1 ms.
//!
//! So one move never takes more than 40% of the clock: in the worst case
//! the clock shrinks geometrically, and once it is down to the reserve the
//! engine plays at once, spending only the overheads. An increment keeps a
//! low clock level (at 10+0.1 it settles where a move costs about the
//! 100 ms it earns).

/// Moves assumed left in a game without `movestogo`.
pub const HORIZON: u64 = 30;

/// Largest share of the time left (after the overhead) one move may use,
/// in percent, unless the time control ends after this move.
pub const HARD_SHARE: u64 = 40;

/// Largest share when the time control ends after this move, in percent.
pub const LAST_MOVE_SHARE: u64 = 70;

/// The side to move's clock when its search starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left in milliseconds.
    pub time_ms: u64,
    /// Increment per move in milliseconds.
    pub inc_ms: u64,
    /// Moves until the next time control; `None` in sudden death and
    /// increment games.
    pub movestogo: Option<u32>,
}

/// How long to think on one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Optimum: start no new iteration after this many milliseconds.
    pub soft_ms: u64,
    /// Maximum: stop the search after this many milliseconds.
    pub hard_ms: u64,
}

/// The thinking time for one move (see the module documentation).
pub fn budget(clock: Clock, overhead_ms: u64) -> Budget {
    let mtg = clock.movestogo.map_or(HORIZON, |m| u64::from(m).clamp(1, 50));
    let reserve = overhead_ms.saturating_mul(1 + mtg.min(10));
    let left = clock.time_ms.saturating_sub(reserve);
    let share = if mtg == 1 { LAST_MOVE_SHARE } else { HARD_SHARE };
    let optimum = left / mtg + clock.inc_ms.saturating_mul(3) / 4;
    let cap = clock.time_ms.saturating_sub(overhead_ms).saturating_mul(share) / 100;
    let hard = optimum.saturating_mul(5).min(cap).max(1);
    Budget { soft_ms: optimum.clamp(1, hard), hard_ms: hard }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(time_ms: u64, inc_ms: u64, movestogo: Option<u32>) -> Clock {
        Clock { time_ms, inc_ms, movestogo }
    }

    #[test]
    fn sudden_death_spreads_the_time_over_the_horizon() {
        let b = budget(clock(60_000, 0, None), 30);
        assert_eq!(b.soft_ms, (60_000 - 330) / 30);
        assert_eq!(b.hard_ms, 5 * b.soft_ms);
    }

    #[test]
    fn increment_adds_three_quarters() {
        let b = budget(clock(10_000, 100, None), 30);
        assert_eq!(b.soft_ms, (10_000 - 330) / 30 + 75);
        assert_eq!(b.hard_ms, 5 * b.soft_ms);
        // A low clock: the increment is most of the budget, the cap holds.
        let b = budget(clock(400, 100, None), 30);
        assert_eq!(b.soft_ms, 70 / 30 + 75);
        assert_eq!(b.hard_ms, (400 - 30) * 2 / 5);
    }

    #[test]
    fn moves_to_go_divide_the_time() {
        let b = budget(clock(40_000, 0, Some(10)), 0);
        assert_eq!(b.soft_ms, 4_000);
        assert_eq!(b.hard_ms, 16_000); // 40% of the clock caps 5 x 4000
        let last = budget(clock(10_000, 0, Some(1)), 0);
        assert_eq!(last.hard_ms, 7_000);
        assert_eq!(last.soft_ms, 7_000);
    }

    #[test]
    fn tiny_clocks_still_give_a_positive_budget() {
        for t in [0, 1, 10, 30, 31, 100, 330, 400] {
            let b = budget(clock(t, 0, None), 30);
            assert!(b.soft_ms >= 1 && b.soft_ms <= b.hard_ms, "{t}: {b:?}");
            assert!(b.hard_ms <= t.saturating_sub(30).max(1), "{t}: {b:?}");
        }
    }

    /// Play `moves` moves where every search costs `cost(budget)` plus a
    /// lag of `lag` ms (below the 30 ms overhead); false on a flag.
    fn survives(
        base_ms: u64,
        inc_ms: u64,
        movestogo: Option<u32>,
        moves: u32,
        lag: u64,
        cost: fn(Budget) -> u64,
    ) -> bool {
        let mut time = base_ms as i64;
        for mv in 0..moves {
            let mtg = movestogo.map(|m| m - mv % m);
            let b = budget(clock(time as u64, inc_ms, mtg), 30);
            time -= (cost(b) + lag) as i64;
            if time <= 0 {
                return false;
            }
            time += inc_ms as i64;
            if mtg == Some(1) {
                time += base_ms as i64;
            }
        }
        true
    }

    #[test]
    fn never_loses_on_time_with_an_increment_or_a_control() {
        // Worst case: every search runs to its hard limit.
        let hard = |b: Budget| b.hard_ms;
        assert!(survives(10_000, 100, None, 300, 25, hard));
        assert!(survives(3_000, 50, None, 300, 25, hard));
        assert!(survives(1_000, 100, None, 300, 25, hard));
        assert!(survives(60_000, 0, Some(40), 300, 25, hard));
        assert!(survives(5_000, 0, Some(2), 300, 25, hard));
    }

    #[test]
    fn sudden_death_lasts_a_long_game() {
        // Searches stop between the optimum and twice it (an iteration
        // started before the optimum finishes after it); with a lag of
        // 5 ms a move, one minute lasts 140 moves, ten seconds 110; with
        // 25 ms, 80 and 55.
        let typical = |b: Budget| 2 * b.soft_ms;
        assert!(survives(60_000, 0, None, 140, 5, typical));
        assert!(survives(10_000, 0, None, 110, 5, typical));
        assert!(survives(60_000, 0, None, 80, 25, typical));
        assert!(survives(10_000, 0, None, 55, 25, typical));
        // Even if every search ran to its hard limit.
        assert!(survives(60_000, 0, None, 40, 25, |b| b.hard_ms));
    }
}

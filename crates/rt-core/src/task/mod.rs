//! Tasks: spawning, joining, aborting, and the cooperative budget.

pub mod coop;

//! Where a simulation's seed comes from, and how a failing run tells the
//! reader to replay it.

use crate::sweep::SEED_ENV;
use std::fmt;

/// `RT_SIM_SEED` is set but is not a number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadSeed {
    value: String,
}

impl fmt::Display for BadSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{SEED_ENV}={:?} is not a seed: give a decimal number or one in hex with 0x",
            self.value
        )
    }
}

impl std::error::Error for BadSeed {}

/// The seed to run with: `RT_SIM_SEED` when set, otherwise `configured`.
pub(crate) fn resolve(configured: u64) -> Result<u64, BadSeed> {
    match std::env::var(SEED_ENV) {
        Ok(value) => parse(&value).ok_or(BadSeed { value }),
        Err(_) => Ok(configured),
    }
}

fn parse(value: &str) -> Option<u64> {
    let value = value.trim();
    match value
        .strip_prefix("0x")
        .or_else(|| value.strip_prefix("0X"))
    {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => value.parse().ok(),
    }
}

/// The command that replays this process's run with `seed`: the program
/// and its arguments as they were given, prefixed with `RT_SIM_SEED`.
pub(crate) fn replay_command(seed: u64) -> String {
    let mut command = format!("{SEED_ENV}={seed}");
    for arg in std::env::args() {
        command.push(' ');
        if arg.is_empty() || arg.contains(|c: char| c.is_whitespace() || c == '\'') {
            command.push('\'');
            command.push_str(&arg.replace('\'', r"'\''"));
            command.push('\'');
        } else {
            command.push_str(&arg);
        }
    }
    command
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_parse_in_decimal_and_hex() {
        assert_eq!(parse("42"), Some(42));
        assert_eq!(parse(" 0x2a "), Some(42));
        assert_eq!(parse("0X2A"), Some(42));
        assert_eq!(parse("forty-two"), None);
        assert_eq!(parse(""), None);
    }

    #[test]
    fn the_replay_command_sets_the_seed() {
        assert!(replay_command(7).starts_with("RT_SIM_SEED=7 "));
    }
}

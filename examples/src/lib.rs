//! What rt's example programs share.
//!
//! | module | what |
//! |--------|------|
//! | [`cli`] | the example servers' `--smoke` / `--addr` options, their hang watchdog, and the real clients (`curl`, `wrk`) a smoke run drives |
//! | [`server`] | the servers' accept loop, their graceful shutdown (grace period, then abort) and the real mode that Ctrl-C stops |
//! | [`real_mode`] | the smoke runs' check of that real mode: the example as a child process, stopped with a real `SIGINT` |

pub mod cli;
pub mod real_mode;
pub mod server;

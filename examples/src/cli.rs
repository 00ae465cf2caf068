//! What the example servers share on the command line: `--smoke` and
//! `--addr HOST:PORT`, the usage message, and a watchdog that ends a
//! self-check that hangs instead of letting CI wait for it.

use std::time::Duration;

/// The options of a network example.
#[derive(Debug)]
pub struct ServerArgs {
    /// Run the built-in self-check on a free loopback port, then exit.
    pub smoke: bool,
    /// Where to listen when serving for real.
    pub addr: String,
}

impl ServerArgs {
    /// Parses the process's arguments; anything but `--smoke` and
    /// `--addr HOST:PORT` ends the process with `program`'s usage line.
    pub fn parse(program: &str, default_addr: &str) -> ServerArgs {
        let mut args = ServerArgs {
            smoke: false,
            addr: default_addr.to_owned(),
        };
        let mut argv = std::env::args().skip(1);
        while let Some(arg) = argv.next() {
            match arg.as_str() {
                "--smoke" => args.smoke = true,
                "--addr" => match argv.next() {
                    Some(addr) => args.addr = addr,
                    None => usage(program, "--addr needs HOST:PORT"),
                },
                other => usage(program, &format!("unknown argument {other:?}")),
            }
        }
        args
    }
}

/// Prints `problem` and `program`'s usage line, and exits with status 2.
pub fn usage(program: &str, problem: &str) -> ! {
    eprintln!("{problem}\nusage: {program} [--smoke] [--addr HOST:PORT]");
    std::process::exit(2);
}

/// Ends the process with an error if it is still running after `limit`:
/// a smoke run that hangs fails instead of stalling CI.
pub fn exit_if_stuck(limit: Duration) {
    std::thread::spawn(move || {
        std::thread::sleep(limit);
        eprintln!("smoke: not finished after {limit:?}");
        std::process::exit(1);
    });
}

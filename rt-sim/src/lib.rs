//! `rt-sim`: deterministic simulation of hosts on a network, on one thread,
//! in virtual time.
//!
//! A [`Sim`] is built from a seed. It holds hosts, each with a name, its
//! own address and its own tasks; a host's software is a function that
//! starts it, so the host can crash (its tasks aborted, its sockets reset,
//! its memory gone) and restart. Client hosts run the test's code. The
//! simulated network carries TCP connections (ordered, with backpressure,
//! refusals, resets and half-close) and UDP datagrams (with latency, loss,
//! duplication and reordering) between them, cut by partitions that the
//! test or a seeded [`FaultSchedule`] opens and repairs.
//!
//! The hosts' software is ordinary rt code: inside a simulation,
//! `rt::net`'s `TcpListener`, `TcpStream`, `TcpSocket`, `UdpSocket` and
//! `lookup_host` use the simulated network, and tasks spawned with plain
//! `rt::spawn` belong to the spawning host. [`net`] has the same socket
//! types for code that wants to say it is simulated.
//!
//! Everything runs on rt's current-thread runtime with the paused clock:
//! when no task can run, virtual time jumps to the next event. Every
//! delivery, drop and fault goes in a trace whose hash
//! ([`Report::hash`]) is the same for the same seed in any process.
//!
//! ```
//! use rt_io::io::{AsyncReadExt, AsyncWriteExt};
//! use rt_sim::net::{TcpListener, TcpStream};
//! use rt_sim::Sim;
//!
//! let mut sim = Sim::new(1);
//! sim.host("server", || async {
//!     let listener = TcpListener::bind("0.0.0.0:7").await?;
//!     loop {
//!         let (mut stream, _) = listener.accept().await?;
//!         rt_sim::spawn(async move {
//!             let mut buf = [0; 64];
//!             let n = stream.read(&mut buf).await?;
//!             stream.write_all(&buf[..n]).await?;
//!             std::io::Result::Ok(())
//!         });
//!     }
//! });
//! sim.client("client", async {
//!     let mut stream = TcpStream::connect("server:7").await?;
//!     stream.write_all(b"ping").await?;
//!     let mut buf = [0; 4];
//!     stream.read_exact(&mut buf).await?;
//!     assert_eq!(&buf, b"ping");
//!     Ok(())
//! });
//! let report = sim.run().unwrap();
//! println!("trace hash {:016x}", report.hash);
//! ```

mod faults;
mod host;
mod link;
pub mod net;
mod pump;
mod rng;
mod seed;
mod sim;
mod sweep;
pub mod time;
mod trace;
mod world;

pub use faults::{
    crash, elapsed, partition, partition_oneway, repair, repair_all, restart, set_clock_skew,
    set_link, trace_hash, FaultSchedule,
};
pub use host::{spawn, HostResult};
pub use link::{Latency, LinkConfig};
pub use seed::BadSeed;
pub use sim::{Builder, Report, Sim, SimError};
pub use sweep::{sweep, sweep_binary, SweepReport, SEED_ENV, SWEEP_ENV};
pub use trace::TraceEvent;

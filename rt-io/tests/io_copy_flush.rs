//! A copy whose reader is fed by the writer's own peer: the writer buffers
//! (a `BufWriter` over one end of a duplex), the reader reads the other
//! end. The copy must flush the writer whenever the reader has nothing,
//! or the bytes it wrote sit in the buffer and the reader waits forever.
//! Each copy runs under a timeout of the runtime's timer, so that a
//! regression fails instead of hanging.

use rt_core::runtime::{Builder, Runtime};
use rt_io::io::{
    copy, copy_buf, duplex, AsyncReadExt, AsyncWriteExt, BufReader, BufWriter, DuplexStream,
};
use std::future::Future;
use std::time::Duration;

/// Far more than an in-memory copy of a few bytes takes.
const BOUND: Duration = Duration::from_secs(10);

/// The bytes the copy loops back through the duplex.
const LOOPED: u64 = 1024;

fn runtime() -> Runtime {
    Builder::new_current_thread()
        .driver_layer(rt_time::driver_layer(false))
        .build()
        .expect("a current-thread runtime with time builds")
}

/// Runs `fut` under [`BOUND`], failing the test if it runs out.
async fn bounded<F: Future>(what: &str, fut: F) -> F::Output {
    match rt_time::timeout(BOUND, fut).await {
        Ok(out) => out,
        Err(_) => panic!("{what} did not finish within {BOUND:?}"),
    }
}

/// A duplex whose first end has half of [`LOOPED`] waiting to be read,
/// and a buffering writer over the second end.
async fn looped_pair() -> (DuplexStream, BufWriter<DuplexStream>) {
    let (read_end, write_end) = duplex(LOOPED as usize);
    let mut writer = BufWriter::new(write_end);
    writer.write_all(&[7; LOOPED as usize / 2]).await.unwrap();
    writer.flush().await.unwrap();
    (read_end, writer)
}

#[test]
fn copy_buf_flushes_a_writer_that_feeds_its_reader() {
    runtime().block_on(async {
        let (read_end, mut writer) = looped_pair().await;
        let mut reader = BufReader::new(read_end).take(LOOPED);
        let copied = bounded("copy_buf", copy_buf(&mut reader, &mut writer)).await;
        assert_eq!(copied.unwrap(), LOOPED);
    });
}

#[test]
fn copy_flushes_a_writer_that_feeds_its_reader() {
    runtime().block_on(async {
        let (read_end, mut writer) = looped_pair().await;
        let mut reader = read_end.take(LOOPED);
        let copied = bounded("copy", copy(&mut reader, &mut writer)).await;
        assert_eq!(copied.unwrap(), LOOPED);
    });
}

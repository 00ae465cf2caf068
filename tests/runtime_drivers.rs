//! The facade's runtimes come with their drivers: `Runtime::new()` and
//! `LocalRuntime::new()` enable I/O and time as tokio's do, and the
//! builder's `name`, `max_io_events_per_tick` and `build_local` reach the
//! runtime.

use rt::io::{AsyncReadExt, AsyncWriteExt};
use rt::net::{TcpListener, TcpStream};
use rt::runtime::{is_rt_shutdown_err, Builder, LocalOptions, LocalRuntime, Runtime};
use std::time::Duration;

/// A loopback round trip: the I/O driver is there and works.
async fn echo_once() -> Vec<u8> {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = rt::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut buf = [0u8; 4];
        socket.read_exact(&mut buf).await.unwrap();
        socket.write_all(&buf).await.unwrap();
    });
    let mut client = TcpStream::connect(addr).await.unwrap();
    client.write_all(b"ping").await.unwrap();
    let mut back = vec![0u8; 4];
    client.read_exact(&mut back).await.unwrap();
    server.await.unwrap();
    back
}

#[test]
fn runtime_new_enables_io_and_time() {
    let rt = Runtime::new().unwrap();
    rt.block_on(async { rt::time::sleep(Duration::from_millis(1)).await });
    assert_eq!(rt.block_on(echo_once()), b"ping");
    assert_eq!(rt.metrics().num_workers(), rt.handle().num_workers());
    rt.shutdown_timeout(Duration::from_secs(5));
}

#[test]
fn local_runtime_new_enables_io_and_time() {
    let rt = LocalRuntime::new().unwrap();
    let shared = std::rc::Rc::new(3);
    let task = rt.spawn_local(async move {
        rt::time::sleep(Duration::from_millis(1)).await;
        *shared
    });
    assert_eq!(rt.block_on(task).unwrap(), 3);
    assert_eq!(rt.block_on(echo_once()), b"ping");
}

#[test]
fn build_local_keeps_the_builder_s_options() {
    let rt = Builder::new_current_thread()
        .enable_all()
        .name("local-one")
        .build_local(LocalOptions::default())
        .unwrap();
    assert_eq!(rt.handle().name(), Some("local-one"));
    rt.block_on(async { rt::time::sleep(Duration::from_millis(1)).await });
}

#[test]
fn a_small_event_budget_still_serves_every_socket() {
    let rt = Builder::new_current_thread()
        .enable_all()
        .max_io_events_per_tick(1)
        .build()
        .unwrap();
    let outputs = rt.block_on(async {
        let a = rt::spawn(echo_once());
        let b = rt::spawn(echo_once());
        (a.await.unwrap(), b.await.unwrap())
    });
    assert_eq!(outputs, (b"ping".to_vec(), b"ping".to_vec()));
}

#[test]
#[should_panic(expected = "max_io_events_per_tick must be non-zero")]
fn no_event_budget_is_refused() {
    Builder::new_current_thread().max_io_events_per_tick(0);
}

#[test]
fn io_after_shutdown_fails_with_the_shutdown_error() {
    let first = Builder::new_current_thread().enable_all().build().unwrap();
    let listener = first.block_on(TcpListener::bind("127.0.0.1:0")).unwrap();
    drop(first);
    let second = Builder::new_current_thread().enable_all().build().unwrap();
    let err = second.block_on(listener.accept()).unwrap_err();
    assert!(is_rt_shutdown_err(&err), "{err:?}");
}

#[test]
fn local_set_block_on_takes_the_facade_runtime() {
    let rt = Builder::new_current_thread().enable_all().build().unwrap();
    let local = rt::task::LocalSet::new();
    let shared = std::rc::Rc::new(8);
    let out = local.block_on(&rt, async move {
        rt::task::spawn_local(async move { *shared }).await.unwrap()
    });
    assert_eq!(out, 8);
}

#[test]
fn a_busy_runtime_taking_one_event_per_busy_poll_still_serves_every_socket() {
    let rt = Builder::new_current_thread()
        .enable_all()
        .max_io_events_per_busy_tick(1)
        .build()
        .unwrap();
    let outputs = rt.block_on(async {
        // A task that always yields keeps the runtime busy, so its driver
        // polls do not wait and take one event each.
        let spinner = rt::spawn(async {
            loop {
                rt::task::yield_now().await;
            }
        });
        let echoes: Vec<_> = (0..4).map(|_| rt::spawn(echo_once())).collect();
        let mut outputs = Vec::new();
        for echo in echoes {
            outputs.push(echo.await.unwrap());
        }
        spinner.abort();
        outputs
    });
    assert!(outputs.iter().all(|out| out == b"ping"));
}

#[test]
#[should_panic(expected = "max_io_events_per_busy_tick must be non-zero")]
fn no_busy_event_budget_is_refused() {
    Builder::new_current_thread().max_io_events_per_busy_tick(0);
}

//! Sockets registered, waited on and dropped from other threads while one
//! thread parks on the driver: the situation of a multi-thread runtime.
// Sockets: Miri does not emulate socket system calls.
#![cfg(not(miri))]
#![cfg(feature = "net")]

use rt_core::runtime::Builder;
use rt_io::net::{TcpListener, TcpStream};
use std::sync::Arc;

#[test]
fn clients_on_other_threads_while_one_thread_drives() {
    const THREADS: usize = 3;
    const PER_THREAD: usize = 50;
    let rt = Arc::new(
        Builder::new_current_thread()
            .base_driver(rt_io::reactor::base_driver())
            .build()
            .unwrap(),
    );
    let listener = rt.block_on(TcpListener::bind("127.0.0.1:0")).unwrap();
    let addr = listener.local_addr().unwrap();

    let clients: Vec<_> = (0..THREADS)
        .map(|t| {
            let handle = rt.handle().clone();
            std::thread::spawn(move || {
                handle.block_on(async move {
                    for i in 0..PER_THREAD {
                        let mut stream = TcpStream::connect(addr).await.unwrap();
                        let msg = format!("thread {t} connection {i}").repeat(20);
                        rt_test::assert_echoed(&mut stream, msg.as_bytes()).await;
                    }
                })
            })
        })
        .collect();

    rt.block_on(async move {
        let mut echoes = Vec::new();
        for _ in 0..THREADS * PER_THREAD {
            let (stream, _) = listener.accept().await.unwrap();
            echoes.push(rt_core::spawn(rt_test::echo(stream)));
        }
        for echo in echoes {
            echo.await.unwrap();
        }
    });
    for c in clients {
        c.join().unwrap();
    }
}

//! `rt_io::net::windows::named_pipe`: a server and a client exchanging
//! bytes and messages, `first_pipe_instance`, a client refused by a busy
//! pipe, and a server instance that disconnects its client and connects
//! the next. Each test names its pipe after itself and the process, so
//! that tests running at once never meet.
#![cfg(windows)]
#![cfg(feature = "net")]

use rt_io::io::{AsyncReadExt, AsyncWriteExt};
use rt_io::net::windows::named_pipe::{
    ClientOptions, NamedPipeClient, NamedPipeServer, PipeEnd, PipeMode, ServerOptions,
};
use std::pin::pin;

/// `ERROR_ACCESS_DENIED`: what `CreateNamedPipeW` returns for a second
/// instance when `FILE_FLAG_FIRST_PIPE_INSTANCE` is set.
const ERROR_ACCESS_DENIED: i32 = 5;
/// `ERROR_PIPE_BUSY`: what `CreateFileW` returns when every instance of
/// the pipe has a client.
const ERROR_PIPE_BUSY: i32 = 231;

fn pipe_name(test: &str) -> String {
    format!(r"\\.\pipe\rt-io-{}-{test}", std::process::id())
}

/// Runs `test` on a runtime with I/O, bounded so that a hang fails.
fn run<F: std::future::Future<Output = ()>>(what: &str, test: impl FnOnce() -> F + Send + 'static) {
    rt_test::within(what, move || rt_test::io_runtime().block_on(test()));
}

/// The server's side of one exchange: reads `len` bytes and writes them
/// back.
async fn echo_once(server: &mut NamedPipeServer, len: usize) {
    let mut buf = vec![0; len];
    server.read_exact(&mut buf).await.expect("server reads");
    server.write_all(&buf).await.expect("server writes back");
}

/// The client's side of one exchange: sends `msg` and checks it returns.
async fn assert_echoed(client: &mut NamedPipeClient, msg: &[u8]) {
    client.write_all(msg).await.expect("client writes");
    let mut back = vec![0; msg.len()];
    client.read_exact(&mut back).await.expect("client reads");
    assert_eq!(back, msg, "the echo returns what was sent");
}

#[test]
fn byte_mode_echo() {
    run("byte mode echo", || async {
        let name = pipe_name("byte_mode_echo");
        let mut server = ServerOptions::new().create(&name).expect("create");
        let mut client = ClientOptions::new().open(&name).expect("open");
        // The client opened first: `connect` finds it already there.
        server.connect().await.expect("connect");

        let info = server.info().expect("server info");
        assert_eq!((info.end, info.mode), (PipeEnd::Server, PipeMode::Byte));
        let info = client.info().expect("client info");
        assert_eq!((info.end, info.mode), (PipeEnd::Client, PipeMode::Byte));

        // More than one of mio's transfer buffers, so the bytes cross in
        // several overlapped operations.
        let msg = rt_test::pattern(100_000);
        rt_test::join2(
            echo_once(&mut server, msg.len()),
            assert_echoed(&mut client, &msg),
        )
        .await;

        // Dropping the client ends the server's stream.
        drop(client);
        let mut rest = Vec::new();
        server
            .read_to_end(&mut rest)
            .await
            .expect("read to the end");
        assert!(rest.is_empty());
    });
}

#[test]
fn message_mode_keeps_message_boundaries() {
    run("message mode", || async {
        let name = pipe_name("message_mode");
        let mut server = ServerOptions::new()
            .pipe_mode(PipeMode::Message)
            .create(&name)
            .expect("create");
        let mut client = ClientOptions::new()
            .pipe_mode(PipeMode::Message)
            .open(&name)
            .expect("open");
        server.connect().await.expect("connect");
        assert_eq!(server.info().unwrap().mode, PipeMode::Message);
        assert_eq!(client.info().unwrap().mode, PipeMode::Message);

        let messages: [&[u8]; 3] = [b"one", b"two two", b"three three three"];
        for msg in messages {
            client.write_all(msg).await.expect("client writes");
        }
        // Each read returns one whole message, though the buffer would
        // hold all three.
        for msg in messages {
            let mut buf = [0; 64];
            let n = server.read(&mut buf).await.expect("server reads");
            assert_eq!(&buf[..n], msg);
        }
    });
}

#[test]
fn first_pipe_instance_refuses_a_second_server() {
    run("first pipe instance", || async {
        let name = pipe_name("first_pipe_instance");
        let _first = ServerOptions::new()
            .first_pipe_instance(true)
            .create(&name)
            .expect("the first instance");
        let second = ServerOptions::new().first_pipe_instance(true).create(&name);
        let err = second.expect_err("a second first instance is refused");
        assert_eq!(err.raw_os_error(), Some(ERROR_ACCESS_DENIED), "{err}");
        // Without the flag, a second instance is allowed.
        ServerOptions::new()
            .create(&name)
            .expect("a second instance");
    });
}

#[test]
fn client_open_of_a_busy_pipe_fails() {
    run("busy pipe", || async {
        let name = pipe_name("busy");
        let server = ServerOptions::new()
            .max_instances(1)
            .create(&name)
            .expect("create");
        let _client = ClientOptions::new().open(&name).expect("the first client");
        server.connect().await.expect("connect");
        let err = ClientOptions::new()
            .open(&name)
            .expect_err("a second client finds the only instance busy");
        assert_eq!(err.raw_os_error(), Some(ERROR_PIPE_BUSY), "{err}");
    });
}

#[test]
fn disconnect_then_connect_the_next_client() {
    run("disconnect and reconnect", || async {
        let name = pipe_name("reconnect");
        let mut server = ServerOptions::new().create(&name).expect("create");
        let mut first = ClientOptions::new().open(&name).expect("the first client");
        server.connect().await.expect("connect the first");
        rt_test::join2(
            echo_once(&mut server, 5),
            assert_echoed(&mut first, b"first"),
        )
        .await;

        server.disconnect().expect("disconnect");
        // The first client's pipe is gone: its read ends or fails.
        let mut buf = [0; 8];
        match first.read(&mut buf).await {
            Ok(0) | Err(_) => {}
            Ok(n) => panic!("read {n} bytes after the server disconnected"),
        }

        // The instance takes its next client once the server connects
        // again: start the connect, then open.
        let mut second = {
            let mut connect = pin!(server.connect());
            assert!(rt_test::poll_once(connect.as_mut()).is_pending());
            let second = ClientOptions::new().open(&name).expect("the second client");
            connect.await.expect("connect the second");
            second
        };
        rt_test::join2(
            echo_once(&mut server, 6),
            assert_echoed(&mut second, b"second"),
        )
        .await;
    });
}

#[test]
fn security_options_and_raw_attributes() {
    run("security options", || async {
        let name = pipe_name("security");
        let server = ServerOptions::new()
            .write_dac(true)
            .write_owner(true)
            .create(&name)
            .expect("create with the rights to change the pipe's security");
        // SAFETY: null security attributes are always valid.
        let client = unsafe {
            ClientOptions::new().open_with_security_attributes_raw(&name, std::ptr::null_mut())
        }
        .expect("open with null attributes");
        server.connect().await.expect("connect");
        assert_eq!(client.info().unwrap().end, PipeEnd::Client);
    });
}

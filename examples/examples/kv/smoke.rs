//! `kv --smoke`: starts the server on a free port and checks it with an
//! in-process RESP client, then with `redis-cli` and `redis-benchmark` when
//! they are on PATH; last, the real mode stopped by a real `SIGINT`.

use examples::cli::{exit_if_stuck, on_path};
use examples::real_mode::{self, expect_closed, RealServer};
use rt::io::AsyncReadExt;
use rt::net::{TcpListener, TcpStream};
use rt::sync::watch;
use std::io;
use std::net::SocketAddr;
use std::process::Command;
use std::time::{Duration, Instant};

/// Runs every check; any failure is an error.
pub async fn run() -> io::Result<()> {
    exit_if_stuck(Duration::from_secs(20));
    let started = Instant::now();
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let server = rt::spawn(super::serve(listener, shutdown_rx));

    let mut done = vec![check_commands(addr).await?];
    done.push(check_large_replies(addr).await?);
    done.push(check_malformed(addr).await?);
    done.push(check_pubsub(addr).await?);
    done.push(check_expiry(addr).await?);

    if on_path("redis-cli") {
        done.push(check_redis_cli(addr).await?);
    } else {
        println!("redis-cli not found: install redis-tools (in-process checks still ran)");
    }
    if on_path("redis-benchmark") {
        done.push(run_redis_benchmark(addr).await?);
    } else {
        println!("redis-benchmark not found: install redis-tools (in-process checks still ran)");
    }

    shutdown_tx.send_replace(true);
    let drained = server.await.map_err(io::Error::other)?;
    if drained.aborted != 0 {
        return Err(io::Error::other(format!("in-process shutdown: {drained}")));
    }
    done.push(ctrl_c().await?);
    println!("kv smoke: {} in {:.1?}", done.join(", "), started.elapsed());
    Ok(())
}

/// Encodes one command as a RESP array of bulk strings.
fn resp(words: &[&str]) -> Vec<u8> {
    let mut out = format!("*{}\r\n", words.len()).into_bytes();
    for word in words {
        out.extend_from_slice(format!("${}\r\n{word}\r\n", word.len()).as_bytes());
    }
    out
}

/// Sends `request` in one write and expects exactly `expected` back.
async fn exchange(stream: &mut TcpStream, request: &[u8], expected: &str) -> io::Result<()> {
    real_mode::exchange(stream, request, expected.as_bytes()).await
}

/// The real server: a connection open across Ctrl-C is closed, and the
/// server exits with status 0.
async fn ctrl_c() -> io::Result<String> {
    let mut server = RealServer::start("kv", &[]).await?;
    let mut stream = TcpStream::connect(server.addr()).await?;
    exchange(&mut stream, &resp(&["PING"]), "+PONG\r\n").await?;
    server.interrupt(1).await?;
    expect_closed(&mut stream).await?;
    server.stopped(1).await?;
    Ok("Ctrl-C drained the real server, which exited 0".into())
}

/// Every command and its usual errors, pipelined in a single write.
async fn check_commands(addr: SocketAddr) -> io::Result<String> {
    let script: &[(&[&str], &str)] = &[
        (&["PING"], "+PONG\r\n"),
        (&["SET", "a", "1"], "+OK\r\n"),
        (&["INCR", "a"], ":2\r\n"),
        (&["incr", "a"], ":3\r\n"),
        (&["GET", "a"], "$1\r\n3\r\n"),
        (&["SET", "s", "hello", "EX", "100"], "+OK\r\n"),
        (&["TTL", "s"], ":100\r\n"),
        (&["TTL", "a"], ":-1\r\n"),
        (&["TTL", "missing"], ":-2\r\n"),
        (&["EXPIRE", "a", "50"], ":1\r\n"),
        (&["TTL", "a"], ":50\r\n"),
        (&["EXPIRE", "missing", "50"], ":0\r\n"),
        (&["DEL", "a", "s", "missing"], ":2\r\n"),
        (&["GET", "a"], "$-1\r\n"),
        (&["ECHO", "hi there"], "$8\r\nhi there\r\n"),
        (&["SET", "s", "x", "PX", "100000"], "+OK\r\n"),
        (
            &["INCR", "s"],
            "-ERR value is not an integer or out of range\r\n",
        ),
        (
            &["SET", "k", "v", "EX", "0"],
            "-ERR invalid expire time in 'set' command\r\n",
        ),
        (&["SET", "k", "v", "FOO"], "-ERR syntax error\r\n"),
        (&["NOPE"], "-ERR unknown command 'NOPE'\r\n"),
        (
            &["GET"],
            "-ERR wrong number of arguments for 'get' command\r\n",
        ),
        (&["PUBLISH", "nobody", "hi"], ":0\r\n"),
    ];
    let mut request = Vec::new();
    let mut expected = String::new();
    for (words, reply) in script {
        request.extend_from_slice(&resp(words));
        expected.push_str(reply);
    }
    // Inline commands, as typed into `nc`.
    request.extend_from_slice(b"PING\r\nECHO inline\n");
    expected.push_str("+PONG\r\n$6\r\ninline\r\n");

    let mut stream = TcpStream::connect(addr).await?;
    exchange(&mut stream, &request, &expected).await?;
    Ok(format!("{} pipelined commands", script.len() + 2))
}

/// A pipeline whose replies are far larger than its requests is answered
/// in bounded batches, completely and in order.
async fn check_large_replies(addr: SocketAddr) -> io::Result<String> {
    const GETS: usize = 20;
    let value = "v".repeat(200_000);
    let mut stream = TcpStream::connect(addr).await?;
    exchange(&mut stream, &resp(&["SET", "big", &value]), "+OK\r\n").await?;
    let mut request = Vec::new();
    let mut expected = String::new();
    for _ in 0..GETS {
        request.extend_from_slice(&resp(&["GET", "big"]));
        expected.push_str(&format!("${}\r\n{value}\r\n", value.len()));
    }
    request.extend_from_slice(&resp(&["DEL", "big"]));
    expected.push_str(":1\r\n");
    exchange(&mut stream, &request, &expected).await?;
    Ok(format!("{GETS} pipelined 200 kB GETs"))
}

/// Broken requests get a protocol error and a closed connection.
async fn check_malformed(addr: SocketAddr) -> io::Result<String> {
    let cases: &[(&[u8], &str)] = &[
        (
            b"*1\r\n$x\r\n",
            "-ERR Protocol error: invalid bulk length\r\n",
        ),
        (
            b"*1\r\n+PING\r\n",
            "-ERR Protocol error: expected '$', got '+'\r\n",
        ),
        (
            b"*99999999\r\n",
            "-ERR Protocol error: invalid multibulk length\r\n",
        ),
        (
            b"*1\r\n$999999999\r\n",
            "-ERR Protocol error: invalid bulk length\r\n",
        ),
        (
            b"*1\r\n$4\r\nPINGxx",
            "-ERR Protocol error: bulk string not followed by CRLF\r\n",
        ),
    ];
    for (request, reply) in cases {
        let mut stream = TcpStream::connect(addr).await?;
        exchange(&mut stream, request, reply).await?;
        let mut rest = Vec::new();
        stream.read_to_end(&mut rest).await?;
        if !rest.is_empty() {
            return Err(io::Error::other(
                "connection stayed open after a protocol error",
            ));
        }
    }
    Ok(format!("{} malformed requests rejected", cases.len()))
}

/// A subscriber hears what a publisher sends.
async fn check_pubsub(addr: SocketAddr) -> io::Result<String> {
    let mut subscriber = TcpStream::connect(addr).await?;
    let mut publisher = TcpStream::connect(addr).await?;
    exchange(
        &mut subscriber,
        &resp(&["SUBSCRIBE", "news", "sport"]),
        "*3\r\n$9\r\nsubscribe\r\n$4\r\nnews\r\n:1\r\n*3\r\n$9\r\nsubscribe\r\n$5\r\nsport\r\n:2\r\n",
    )
    .await?;
    exchange(
        &mut publisher,
        &resp(&["PUBLISH", "news", "hello"]),
        ":1\r\n",
    )
    .await?;
    let mut message = vec![0u8; "*3\r\n$7\r\nmessage\r\n$4\r\nnews\r\n$5\r\nhello\r\n".len()];
    subscriber.read_exact(&mut message).await?;
    if message != b"*3\r\n$7\r\nmessage\r\n$4\r\nnews\r\n$5\r\nhello\r\n" {
        return Err(io::Error::other("subscriber got the wrong message"));
    }
    exchange(
        &mut subscriber,
        &resp(&["GET", "a"]),
        "-ERR Can't execute 'get': only SUBSCRIBE / UNSUBSCRIBE / PING / QUIT are allowed in this context\r\n",
    )
    .await?;
    exchange(
        &mut subscriber,
        &resp(&["UNSUBSCRIBE"]),
        "*3\r\n$11\r\nunsubscribe\r\n$4\r\nnews\r\n:1\r\n*3\r\n$11\r\nunsubscribe\r\n$5\r\nsport\r\n:0\r\n",
    )
    .await?;
    exchange(
        &mut publisher,
        &resp(&["PUBLISH", "news", "again"]),
        ":0\r\n",
    )
    .await?;
    exchange(&mut subscriber, &resp(&["PING"]), "+PONG\r\n").await?;
    Ok("pub/sub".into())
}

/// A key set with PX disappears once its time is up.
async fn check_expiry(addr: SocketAddr) -> io::Result<String> {
    let mut stream = TcpStream::connect(addr).await?;
    exchange(
        &mut stream,
        &resp(&["SET", "brief", "v", "PX", "20"]),
        "+OK\r\n",
    )
    .await?;
    exchange(&mut stream, &resp(&["GET", "brief"]), "$1\r\nv\r\n").await?;
    // Waiting is the point of this check; do it off the runtime's threads.
    rt::task::spawn_blocking(|| std::thread::sleep(Duration::from_millis(40)))
        .await
        .map_err(io::Error::other)?;
    exchange(&mut stream, &resp(&["GET", "brief"]), "$-1\r\n").await?;
    exchange(&mut stream, &resp(&["TTL", "brief"]), ":-2\r\n").await?;
    Ok("expiry".into())
}

/// Runs a few commands through `redis-cli`.
async fn check_redis_cli(addr: SocketAddr) -> io::Result<String> {
    let port = addr.port().to_string();
    let script: &[(&[&str], &str)] = &[
        (&["PING"], "PONG"),
        (&["SET", "cli", "41"], "OK"),
        (&["INCR", "cli"], "42"),
        (&["GET", "cli"], "42"),
        (&["DEL", "cli"], "1"),
    ];
    for (words, expected) in script {
        let args: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        let port = port.clone();
        let output = rt::task::spawn_blocking(move || {
            Command::new("redis-cli")
                .args(["-h", "127.0.0.1", "-p", &port])
                .args(&args)
                .output()
        })
        .await
        .map_err(io::Error::other)??;
        let stdout = String::from_utf8_lossy(&output.stdout);
        if !output.status.success() || stdout.trim() != *expected {
            return Err(io::Error::other(format!(
                "redis-cli {words:?}: expected {expected:?}, got {stdout:?} (stderr {:?})",
                String::from_utf8_lossy(&output.stderr)
            )));
        }
    }
    Ok(format!("{} redis-cli commands", script.len()))
}

/// Loads the server with `redis-benchmark`; any error output fails.
async fn run_redis_benchmark(addr: SocketAddr) -> io::Result<String> {
    let port = addr.port().to_string();
    let output = rt::task::spawn_blocking(move || {
        Command::new("redis-benchmark")
            .args(["-h", "127.0.0.1", "-p", &port])
            .args([
                "-q",
                "-n",
                "20000",
                "-c",
                "50",
                "-P",
                "16",
                "-t",
                "set,get,incr",
            ])
            .output()
    })
    .await
    .map_err(io::Error::other)??;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let failed = !output.status.success()
        || !stderr.trim().is_empty()
        || stdout.to_ascii_lowercase().contains("error");
    if failed {
        return Err(io::Error::other(format!(
            "redis-benchmark failed:\n{stdout}\n{stderr}"
        )));
    }
    // `-q` prints progress lines ending in '\r'; keep only the results.
    let results: Vec<&str> = stdout
        .split(['\r', '\n'])
        .filter(|line| line.contains("requests per second"))
        .map(str::trim)
        .collect();
    if results.len() != 3 {
        return Err(io::Error::other(format!(
            "redis-benchmark printed no results:\n{stdout}"
        )));
    }
    Ok(format!("redis-benchmark [{}]", results.join("; ")))
}

//! `http_hyper --smoke`: starts the server on a free port and checks it
//! with hyper's own HTTP/1 client running on rt through the same adapter
//! (both routes, 404/405/400, HEAD, keep-alive, the header read timeout
//! and a graceful shutdown), then with `curl` and `wrk` when they are on
//! PATH; last, the real mode stopped by a real `SIGINT`.

use super::adapter::{RtExecutor, RtIo};
use super::{serve, Config, HELLO, JSON};
use bytes::Bytes;
use examples::cli::{exit_if_stuck, on_path, wrk_requests_per_second};
use examples::real_mode::RealServer;
use examples::server::Drained;
use http_body_util::{BodyExt, Empty};
use hyper::client::conn::http1::{self, SendRequest};
use hyper::header::{CONNECTION, CONTENT_LENGTH, CONTENT_TYPE, HOST};
use hyper::rt::Executor;
use hyper::{Method, Request, StatusCode};
use rt::io::{AsyncReadExt, AsyncWriteExt};
use rt::net::{TcpListener, TcpStream};
use rt::sync::{oneshot, watch};
use rt::task::{JoinHandle, JoinSet};
use std::io;
use std::net::SocketAddr;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Keep-alive connections opened by the in-process load.
const CLIENTS: usize = 8;
/// Requests each of them sends.
const REQUESTS: usize = 50;
/// Short, so that the timeout check finishes quickly.
const HEADER_READ_TIMEOUT: Duration = Duration::from_millis(300);

/// Runs every check; any failure is an error.
pub async fn run() -> io::Result<()> {
    exit_if_stuck(Duration::from_secs(30));
    let started = Instant::now();
    // The main server has a long header read timeout, so that only a
    // working graceful shutdown can close its idle connections in time.
    let server = Server::start(Duration::from_secs(60)).await?;
    let mut done = vec![keep_alive_load(server.addr).await?];
    let connections = server.accepted.load(Ordering::Relaxed);
    if connections != CLIENTS {
        return Err(io::Error::other(format!(
            "{CLIENTS} keep-alive clients made {connections} connections"
        )));
    }
    done.push(bad_request(server.addr).await?);
    if on_path("curl") {
        done.push(curl(server.addr).await?);
    } else {
        println!("curl not found: the curl check did not run (install curl to add it)");
    }
    if on_path("wrk") {
        done.push(wrk(server.addr).await?);
    } else {
        println!("wrk not found: the load test did not run (install wrk to add it)");
    }
    done.push(graceful_shutdown(server).await?);

    let server = Server::start(HEADER_READ_TIMEOUT).await?;
    done.push(header_read_timeout(server.addr).await?);
    server.stop().await?;
    done.push(ctrl_c().await?);

    println!(
        "http_hyper smoke: {} in {:.1?}",
        done.join(", "),
        started.elapsed()
    );
    Ok(())
}

/// The server under test, running as a task.
struct Server {
    addr: SocketAddr,
    accepted: Arc<AtomicUsize>,
    shutdown: watch::Sender<bool>,
    task: JoinHandle<Drained>,
}

impl Server {
    /// Starts `serve` on a free port.
    async fn start(header_read_timeout: Duration) -> io::Result<Server> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let config = Config {
            header_read_timeout,
            accepted: Arc::default(),
        };
        let accepted = config.accepted.clone();
        let (shutdown, shutdown_rx) = watch::channel(false);
        let task = rt::spawn(serve(listener, config, shutdown_rx));
        Ok(Server {
            addr,
            accepted,
            shutdown,
            task,
        })
    }

    /// Asks the server to shut down and waits (a bounded time) until every
    /// connection is closed; none may need aborting.
    async fn stop(self) -> io::Result<()> {
        self.shutdown.send_replace(true);
        let drained = rt::time::timeout(Duration::from_secs(10), self.task)
            .await
            .map_err(|_| io::Error::other("server still running 10s after shutdown"))?
            .map_err(io::Error::other)?;
        if drained.aborted != 0 {
            return Err(io::Error::other(format!("shutdown: {drained}")));
        }
        Ok(())
    }
}

/// The real server: an idle keep-alive connection open across Ctrl-C is
/// closed cleanly, and the server exits with status 0.
async fn ctrl_c() -> io::Result<String> {
    let mut server = RealServer::start("http_hyper", &[]).await?;
    let mut idle = Client::connect(server.addr()).await?;
    idle.expect(Method::GET, "/", false, StatusCode::OK, HELLO)
        .await?;
    server.interrupt(1).await?;
    idle.closed().await?;
    server.stopped(1).await?;
    Ok("Ctrl-C drained the real server, which exited 0".into())
}

/// A keep-alive connection that sits idle is closed cleanly by a graceful
/// shutdown, and the server returns once it is.
async fn graceful_shutdown(server: Server) -> io::Result<String> {
    let mut idle = Client::connect(server.addr).await?;
    idle.expect(Method::GET, "/", false, StatusCode::OK, HELLO)
        .await?;
    server.stop().await?;
    idle.closed().await?;
    Ok("graceful shutdown".into())
}

/// A hyper HTTP/1 client connection over an rt `TcpStream`.
struct Client {
    sender: SendRequest<Empty<Bytes>>,
    /// How the connection's driver task ended.
    driver: oneshot::Receiver<hyper::Result<()>>,
}

impl Client {
    async fn connect(addr: SocketAddr) -> io::Result<Client> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        let (sender, connection) = http1::handshake(RtIo::new(stream))
            .await
            .map_err(io::Error::other)?;
        // The connection future does the reading and writing; it runs as
        // its own task while `sender` queues requests to it.
        let (driver_tx, driver) = oneshot::channel();
        RtExecutor.execute(async move {
            let _ = driver_tx.send(connection.await);
        });
        Ok(Client { sender, driver })
    }

    /// Sends one request and checks the status, the content type and the
    /// body (the `Content-Length` only, for HEAD). With `close`, asks the
    /// server to close the connection after answering.
    async fn expect(
        &mut self,
        method: Method,
        path: &str,
        close: bool,
        status: StatusCode,
        body: &[u8],
    ) -> io::Result<()> {
        let mut request = Request::builder()
            .method(method.clone())
            .uri(path)
            .header(HOST, "smoke");
        if close {
            request = request.header(CONNECTION, "close");
        }
        let request = request.body(Empty::new()).map_err(io::Error::other)?;
        self.sender.ready().await.map_err(io::Error::other)?;
        let response = self
            .sender
            .send_request(request)
            .await
            .map_err(io::Error::other)?;
        let got_status = response.status();
        let content_type = response.headers().get(CONTENT_TYPE).cloned();
        let length = response.headers().get(CONTENT_LENGTH).cloned();
        let got_body = response
            .into_body()
            .collect()
            .await
            .map_err(io::Error::other)?
            .to_bytes();
        let want_type = if path == "/json" && status == StatusCode::OK {
            "application/json"
        } else {
            "text/plain"
        };
        let want_body: &[u8] = if method == Method::HEAD { b"" } else { body };
        let fine = got_status == status
            && content_type.as_ref().is_some_and(|t| t == want_type)
            && length
                .as_ref()
                .is_some_and(|l| l == body.len().to_string().as_str())
            && got_body == want_body;
        if !fine {
            return Err(io::Error::other(format!(
                "{method} {path}: wanted {status} {want_type} {:?}, got {got_status} {content_type:?} {length:?} {got_body:?}",
                Bytes::copy_from_slice(want_body)
            )));
        }
        Ok(())
    }

    /// Waits for the server to close the connection, which must end
    /// without an error.
    async fn closed(self) -> io::Result<()> {
        drop(self.sender);
        self.driver
            .await
            .map_err(|_| io::Error::other("connection task vanished"))?
            .map_err(io::Error::other)
    }
}

/// `CLIENTS` connections each send `REQUESTS` requests to both routes,
/// then a 404, a 405 and a HEAD, the last one closing the connection.
async fn keep_alive_load(addr: SocketAddr) -> io::Result<String> {
    let mut clients = JoinSet::new();
    for _ in 0..CLIENTS {
        clients.spawn(async move {
            let mut client = Client::connect(addr).await?;
            for n in 0..REQUESTS {
                let (path, body) = if n % 2 == 0 {
                    ("/", HELLO)
                } else {
                    ("/json", JSON)
                };
                client
                    .expect(Method::GET, path, false, StatusCode::OK, body)
                    .await?;
            }
            let not_found = b"not found\n";
            client
                .expect(
                    Method::GET,
                    "/missing",
                    false,
                    StatusCode::NOT_FOUND,
                    not_found,
                )
                .await?;
            let not_allowed = b"only GET and HEAD are supported\n";
            client
                .expect(
                    Method::DELETE,
                    "/",
                    false,
                    StatusCode::METHOD_NOT_ALLOWED,
                    not_allowed,
                )
                .await?;
            client
                .expect(Method::HEAD, "/json", true, StatusCode::OK, JSON)
                .await?;
            client.closed().await?;
            io::Result::Ok(REQUESTS + 3)
        });
    }
    let mut answered = 0;
    while let Some(done) = clients.join_next().await {
        answered += done.map_err(io::Error::other)??;
    }
    Ok(format!(
        "{answered} requests on {CLIENTS} keep-alive connections"
    ))
}

/// A client that sends half a request head and goes quiet is disconnected
/// once the header read timeout (run by rt's timer) expires.
async fn header_read_timeout(addr: SocketAddr) -> io::Result<String> {
    let mut stream = TcpStream::connect(addr).await?;
    let started = Instant::now();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: smoke\r\n")
        .await?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await?;
    let waited = started.elapsed();
    let answer = String::from_utf8_lossy(&answer);
    // Hyper closes without an answer: the client never finished asking.
    if waited < HEADER_READ_TIMEOUT || !answer.is_empty() {
        return Err(io::Error::other(format!(
            "a stalled request head was dropped after {waited:?} (timeout {HEADER_READ_TIMEOUT:?}) with {answer:?}"
        )));
    }
    Ok(format!("stalled client dropped after {waited:.1?}"))
}

/// A malformed request head gets hyper's 400 and a closed connection.
async fn bad_request(addr: SocketAddr) -> io::Result<String> {
    let mut stream = TcpStream::connect(addr).await?;
    stream.write_all(b"NONSENSE\r\n\r\n").await?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await?;
    let answer = String::from_utf8_lossy(&answer);
    if !answer.starts_with("HTTP/1.1 400 Bad Request\r\n") {
        return Err(io::Error::other(format!(
            "a malformed request got {answer:?}"
        )));
    }
    Ok("bad request refused".into())
}

/// Fetches both routes with one `curl`, which reuses its connection.
async fn curl(addr: SocketAddr) -> io::Result<String> {
    let urls = [format!("http://{addr}/"), format!("http://{addr}/json")];
    let output = rt::task::spawn_blocking(move || {
        Command::new("curl")
            .args(["-sS", "--fail", "--max-time", "5"])
            .args(urls)
            .output()
    })
    .await
    .map_err(io::Error::other)??;
    let want = [HELLO, JSON].concat();
    if !output.status.success() || output.stdout != want {
        return Err(io::Error::other(format!(
            "curl: {:?} {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )));
    }
    Ok("curl".into())
}

/// Loads `/` with `wrk` for two seconds; non-2xx answers or socket errors
/// fail the check.
async fn wrk(addr: SocketAddr) -> io::Result<String> {
    let rate = wrk_requests_per_second(format!("http://{addr}/"), 20).await?;
    println!("http_hyper: wrk -t2 -c20 -d2s: {rate} requests/s");
    Ok(format!("wrk {rate} requests/s"))
}
